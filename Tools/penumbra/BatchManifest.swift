// A batch manifest is JSON Lines: one render per line, an object
//
//   {"scene": "cards/a.json", "output": "cards/a.png"}
//   {"scene": {"format": "penumbra-scene", ...}, "output": "b.webp", "quality": 80}
//
// `scene` is a scene file (a relative path resolves against the manifest's
// folder, and so do that scene's own images, against its folder, as for
// `render`) or a scene inline, whose images resolve against the manifest's
// folder. `output` is a relative path under --out: no absolute path, no `..`,
// no empty or `.` component, and no two lines with the same output (the
// first keeps it). The optional keys are `format` (png, jpeg, webp; default
// from output's extension), `quality` (1...100, default 90), `lossless`
// (WebP), `scale` (> 0) and `time` (seconds), as `render`'s flags. Unknown
// keys are errors, as in scenes. Lines are numbered from 1; a blank line or a
// line that breaks a rule fails on its own (BatchLineError names the line
// and the key), never the whole run.
import Foundation
import Penumbra

/// One line's render, checked.
struct BatchItem: Sendable {
    enum Source: Sendable {
        /// A scene file, as the line gives it.
        case file(String)
        /// A scene inline.
        case inline(JSONValue)
    }
    /// The line's number, from 1.
    var line: Int
    var scene: Source
    /// The output's path relative to --out, in canonical form.
    var output: String
    var format: OutputFormat
    var quality = 90
    var lossless = false
    var scale: Double?
    var time: Double?
}

/// Why one line cannot be rendered: its number, the place in it (`output`, `scene.ops[2]`,
/// `column 7`; empty for the line as a whole) and what is wrong.
struct BatchLineError: Error, Sendable, CustomStringConvertible {
    var line: Int
    var place: String
    var message: String
    /// `place: message`, or the message alone.
    var description: String { place.isEmpty ? message : "\(place): \(message)" }
}

enum BatchManifest {
    static let keys = ["scene", "output", "format", "quality", "lossless", "scale", "time"]

    /// The lines of a manifest, without their terminators (LF or CRLF); a final terminator
    /// does not start another line.
    static func lines(of data: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if data.last == UInt8(ascii: "\n") { lines.removeLast() }
        return lines.map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    }

    /// Checks one line (`number` from 1).
    static func parse(_ bytes: ArraySlice<UInt8>, number: Int) -> Result<BatchItem, BatchLineError> {
        Result { try item(bytes, number: number) }.mapError { error in
            error as? BatchLineError ?? BatchLineError(line: number, place: "", message: "\(error)")
        }
    }

    private static func item(_ bytes: ArraySlice<UInt8>, number: Int) throws -> BatchItem {
        func fail(_ place: String, _ message: String) -> BatchLineError { BatchLineError(line: number, place: place, message: message) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { throw fail("", "blank line; expected a JSON object such as {\"scene\": \"a.json\", \"output\": \"a.png\"}") }
        let value: JSONValue
        do { value = try JSONValue.parse(Array(bytes)) } catch let error as SceneError {
            // The parser counts lines and columns in what it was given: one line, so the column says it.
            let place = error.location.hasPrefix("line 1, ") ? String(error.location.dropFirst("line 1, ".count)) : error.location
            throw fail(place, "malformed JSON: \(error.message)")
        }
        guard case .object(let object) = value else { throw fail("", "expected a JSON object, got \(value.kindDescription)") }
        for key in object.keys where !keys.contains(key) {
            throw fail(key, "unknown key; known keys: \(keys.joined(separator: ", "))")
        }
        let scene: BatchItem.Source
        switch object["scene"] {
        case nil: throw fail("scene", "missing: a scene file's path or a scene object")
        case .string(let path)?:
            guard !path.isEmpty else { throw fail("scene", "empty path") }
            scene = .file(path)
        case .object?: scene = .inline(object["scene"]!)
        case let other?: throw fail("scene", "expected a path (a string) or a scene (an object), got \(other.kindDescription)")
        }
        guard case .string(let written)? = object["output"] else {
            throw fail("output", object["output"].map { "expected a string, got \($0.kindDescription)" } ?? "missing: the image to write, relative to --out")
        }
        if let problem = outputProblem(written) { throw fail("output", problem) }
        let output = written
        var item = BatchItem(line: number, scene: scene, output: output, format: .png)
        switch object["format"] {
        case nil:
            guard let format = OutputFormat.forPath(output) else {
                throw fail("output", "no format for \"\(written)\": end it in .png, .jpg, .jpeg or .webp, or give \"format\"")
            }
            item.format = format
        case .string(let name)?:
            guard let format = OutputFormat(rawValue: name) else { throw fail("format", "\"\(name)\" is not png, jpeg or webp") }
            item.format = format
        case let other?: throw fail("format", "expected png, jpeg or webp, got \(other.kindDescription)")
        }
        if let q = object["quality"] {
            guard case .number(let n) = q, n == n.rounded(), (1...100).contains(n) else {
                throw fail("quality", "expected a whole number in 1...100")
            }
            item.quality = Int(n)
        }
        if let l = object["lossless"] {
            guard case .bool(let b) = l else { throw fail("lossless", "expected true or false, got \(l.kindDescription)") }
            item.lossless = b
        }
        if let s = object["scale"] {
            guard case .number(let n) = s, n > 0, n.isFinite else { throw fail("scale", "expected a positive number") }
            item.scale = n
        }
        if let t = object["time"] {
            guard case .number(let n) = t, n.isFinite else { throw fail("time", "expected a finite number of seconds") }
            item.time = n
        }
        return item
    }

    /// Why `output` may not be written (nil when it may): it must be a plain relative path that
    /// stays under --out, one spelling per file, so that duplicates are found by comparing names.
    static func outputProblem(_ output: String) -> String? {
        if output.isEmpty { return "empty" }
        if output.hasPrefix("/") { return "\"\(output)\" is absolute; give a path relative to --out" }
        if output.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(output.debugDescription) contains a control character"
        }
        let parts = output.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains("..") { return "\"\(output)\" leads out of --out (..)" }
        if parts.contains(where: { $0.isEmpty || $0 == "." }) {
            return "\"\(output)\" has an empty or . component; write it as a plain relative path such as a/b.png"
        }
        return nil
    }
}
