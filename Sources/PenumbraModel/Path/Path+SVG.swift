// SVG 1.1 path data ("M 10 10 L 90 10 Q 50 80 10 10 Z") to a Path.
//
// One pass over the UTF-8 bytes, following the grammar of SVG 1.1 section 8.3.9:
// a command letter, optional whitespace (no comma), then argument groups
// separated by optional comma-whitespace; after the first group, more groups
// repeat the command (an extra pair after M / m is an L / l). Numbers follow
// the SVG syntax: optional sign, digits with an optional fraction or a bare
// fraction (".5"), optional exponent, and they end where the next one cannot
// continue them, so "0.5.5" is two numbers and "10-5" is 10 and -5. Arc flags
// are the single characters '0' and '1' and need no separator ("a25 25 0 1050 50").
//
// Curves are built with the Path API as they are read: S and T reflect the
// previous control point only when the previous command was C/S resp. Q/T,
// else they use the current point (SVG 1.1 8.3.6 and 8.3.7); A goes through
// `addEllipticalArc` (exact conics). After Z the current point is the subpath's
// start, and a drawing command that follows starts a new subpath there (an
// explicit move is emitted). A Z straight after a Z closes nothing and is
// ignored. Empty (or blank) data is an empty path. The data is parsed strictly:
// the first error (with its character offset) rejects the whole string, as the
// scene format rejects a whole scene, instead of SVG's "render up to the error".

extension Path {
    /// Parses SVG 1.1 path data: every command (M L H V C S Q T A Z) in absolute and relative
    /// form, implicit repeated commands, SVG number syntax and packed arc flags. Elliptical
    /// arcs become exact conics (`addEllipticalArc(to:radiusX:radiusY:xAxisRotation:largeArc:sweep:)`).
    ///
    /// Throws `PathDataError` with the character offset of the first problem: "expected a number",
    /// "unknown command 'X'", "path data must start with a move", and others. Empty or blank data
    /// gives an empty path.
    public init(svgPathData: String) throws {
        var parser = SVGPathParser(Array(svgPathData.utf8))
        do {
            self = try parser.parse()
        } catch let error as SVGPathParser.Failure {
            throw PathDataError(offset: error.characterOffset(in: svgPathData), message: error.message)
        }
    }
}

extension Path {
    /// SVG's error handling for path data (SVG 1.1 F.2, SVG 2 9.5.4): the path up to the last
    /// complete segment before the first error, and that error (nil when the data is valid).
    package static func parsingSVGPathDataPrefix(_ data: String) -> (path: Path, error: PathDataError?) {
        var parser = SVGPathParser(Array(data.utf8))
        do {
            return (try parser.parse(), nil)
        } catch let error as SVGPathParser.Failure {
            return (parser.partialPath, PathDataError(offset: error.characterOffset(in: data), message: error.message))
        } catch {
            return (parser.partialPath, PathDataError(offset: 0, message: "\(error)"))
        }
    }
}

/// A malformed SVG path-data string; `offset` is the character offset (0-based) of the problem.
public struct PathDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 0-based offset, in characters, where parsing stopped.
    public var offset: Int
    /// What was wrong there ("expected a number", "unknown command 'X'", ...).
    public var message: String
    /// An error at `offset` with `message`.
    public init(offset: Int, message: String) { self.offset = offset; self.message = message }
    /// "at character N: message".
    public var description: String { "at character \(offset): \(message)" }
}

/// The parser's state: the bytes, the read position, and the pen (current point, subpath
/// start, last control point for S/T reflection).
struct SVGPathParser {
    /// An error at a byte offset; converted to a character offset for `PathDataError`.
    struct Failure: Error {
        var byteOffset: Int
        var message: String
        func characterOffset(in text: String) -> Int {
            let utf8 = Array(text.utf8)
            return String(decoding: utf8[0..<min(byteOffset, utf8.count)], as: UTF8.self).count
        }
    }

    /// What the previous segment was, for S and T reflection.
    private enum Previous { case cubic(control2: Point), quad(control: Point), other }

    private let bytes: [UInt8]
    private var index = 0
    private var path = Path()
    private var current = Point.zero
    private var subpathStart = Point.zero
    private var previous = Previous.other
    private var needsMoveBeforeNextSegment = false
    private var lastCommandWasClose = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The segments read so far (what is kept when the data has an error).
    var partialPath: Path { path }

    mutating func parse() throws -> Path {
        skipWhitespace()
        guard index < bytes.count else { return path }
        let first = bytes[index]
        if isLetter(first), !Self.commands.contains(first) {
            throw Failure(byteOffset: index, message: "unknown command '\(Character(Unicode.Scalar(first)))'")
        }
        guard first == UInt8(ascii: "M") || first == UInt8(ascii: "m") else {
            throw Failure(byteOffset: index, message: "path data must start with a move")
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            let c = bytes[index]
            guard Self.commands.contains(c) else {
                if isLetter(c) { throw Failure(byteOffset: index, message: "unknown command '\(Character(Unicode.Scalar(c)))'") }
                if startsNumber(c) || c == UInt8(ascii: ",") {
                    throw Failure(byteOffset: index, message: "expected a command, found '\(Character(Unicode.Scalar(c)))'")
                }
                throw Failure(byteOffset: index, message: "unexpected character \(describe(index))")
            }
            index += 1
            try command(c)
        }
        return path
    }

    private static let commands: Set<UInt8> = Set("MmLlHhVvCcSsQqTtAaZz".utf8)

    // MARK: Commands

    /// Reads the argument groups of one command (the letter is consumed) and applies them.
    private mutating func command(_ letter: UInt8) throws {
        let isRelative = letter >= UInt8(ascii: "a")
        let upper = isRelative ? letter - 32 : letter
        if upper == UInt8(ascii: "Z") {
            if !lastCommandWasClose { path.closeSubpath() }
            current = subpathStart
            needsMoveBeforeNextSegment = true
            lastCommandWasClose = true
            previous = .other
            return
        }
        lastCommandWasClose = false
        skipWhitespace()
        var group = 0
        repeat {
            let base = isRelative ? current : Point.zero
            switch upper {
            case UInt8(ascii: "M"):
                let p = try pair() + base
                if group == 0 {
                    path.move(to: p); subpathStart = p; needsMoveBeforeNextSegment = false
                    previous = .other
                } else {
                    beginSegment(); path.addLine(to: p); previous = .other
                }
                current = p
            case UInt8(ascii: "L"):
                let p = try pair() + base
                beginSegment(); path.addLine(to: p); current = p; previous = .other
            case UInt8(ascii: "H"):
                let p = Point(try number() + base.x, current.y)
                beginSegment(); path.addLine(to: p); current = p; previous = .other
            case UInt8(ascii: "V"):
                let p = Point(current.x, try number() + base.y)
                beginSegment(); path.addLine(to: p); current = p; previous = .other
            case UInt8(ascii: "C"):
                let c1 = try pair() + base
                try separator()
                let c2 = try pair() + base
                try separator()
                let p = try pair() + base
                cubic(c1, c2, p)
            case UInt8(ascii: "S"):
                let c2 = try pair() + base
                try separator()
                let p = try pair() + base
                var c1 = current
                if case .cubic(let previousControl) = previous { c1 = 2 * current - previousControl }
                cubic(c1, c2, p)
            case UInt8(ascii: "Q"):
                let c = try pair() + base
                try separator()
                let p = try pair() + base
                quad(c, p)
            case UInt8(ascii: "T"):
                let p = try pair() + base
                var c = current
                if case .quad(let previousControl) = previous { c = 2 * current - previousControl }
                quad(c, p)
            default: // "A"
                let rx = try number()
                try separator()
                let ry = try number()
                try separator()
                let rotation = try number()
                try separator()
                let largeArc = try flag()
                try separator()
                let sweep = try flag()
                try separator()
                let p = try pair() + base
                if p != current { beginSegment() }
                path.addEllipticalArc(to: p, radiusX: rx, radiusY: ry, xAxisRotation: rotation,
                                      largeArc: largeArc, sweep: sweep)
                current = p; previous = .other
            }
            group += 1
        } while try anotherGroupFollows()
    }

    private mutating func cubic(_ c1: Point, _ c2: Point, _ p: Point) {
        beginSegment(); path.addCurve(to: p, control1: c1, control2: c2)
        current = p; previous = .cubic(control2: c2)
    }

    private mutating func quad(_ c: Point, _ p: Point) {
        beginSegment(); path.addQuadCurve(to: p, control: c)
        current = p; previous = .quad(control: c)
    }

    /// After a Z, a drawing command starts a new subpath at the closed one's start.
    private mutating func beginSegment() {
        if needsMoveBeforeNextSegment {
            path.move(to: subpathStart)
            needsMoveBeforeNextSegment = false
        }
    }

    /// After an argument group: true when another group of the same command follows
    /// (optional comma-whitespace, then the start of a number). A comma must be followed by one.
    private mutating func anotherGroupFollows() throws -> Bool {
        let hadComma = skipCommaWhitespace()
        if index < bytes.count, startsNumber(bytes[index]) { return true }
        if hadComma { throw Failure(byteOffset: index, message: "expected a number after ','") }
        return false
    }

    // MARK: Lexical level

    private mutating func pair() throws -> Point {
        let x = try number()
        try separator()
        let y = try number()
        return Point(x, y)
    }

    /// Optional comma-whitespace between two arguments.
    private mutating func separator() throws { _ = skipCommaWhitespace() }

    /// Reads an SVG number (sign, digits, fraction, exponent); it must be finite.
    private mutating func number() throws -> Double {
        let start = index
        var i = index
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        var digitCount = i - integerStart
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            let fractionStart = i + 1
            var j = fractionStart
            while j < bytes.count, isDigit(bytes[j]) { j += 1 }
            if digitCount > 0 || j > fractionStart {
                digitCount += j - fractionStart
                i = j
            }
        }
        guard digitCount > 0 else {
            throw Failure(byteOffset: start, message: "expected a number, found \(describe(start))")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            let exponentStart = j
            while j < bytes.count, isDigit(bytes[j]) { j += 1 }
            guard j > exponentStart else {
                throw Failure(byteOffset: j, message: "expected the digits of an exponent, found \(describe(j))")
            }
            i = j
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Failure(byteOffset: start, message: "number out of range: \(text)")
        }
        index = i
        return value
    }

    /// Reads an arc flag: the single character '0' or '1'.
    private mutating func flag() throws -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            throw Failure(byteOffset: index, message: "expected an arc flag '0' or '1', found \(describe(index))")
        }
        index += 1
        return bytes[index - 1] == UInt8(ascii: "1")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
    }

    /// Skips `wsp* ,? wsp*`; returns whether there was a comma.
    private mutating func skipCommaWhitespace() -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
        index += 1
        skipWhitespace()
        return true
    }

    /// The character at byte `i` for an error message, or "the end of the data".
    private func describe(_ i: Int) -> String {
        guard i < bytes.count else { return "the end of the data" }
        var end = i + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(String(decoding: bytes[i..<end], as: UTF8.self))'"
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    private func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    private func startsNumber(_ c: UInt8) -> Bool {
        isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
    }
    /// SVG whitespace: space, tab, line feed, carriage return (and form feed, as SVG 2 allows).
    private func isWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
}
