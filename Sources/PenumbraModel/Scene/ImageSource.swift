// ImageSource: where an image's bytes come from. A source is either a
// `data:image/png;base64,...` URI (or image/apng, image/jpeg, image/webp,
// image/gif, or image/svg+xml for a vector image; the media type is not trusted: the bytes are sniffed) (strict base64: standard alphabet, padded,
// no whitespace) or a path relative to the scene's folder that must stay
// inside it: absolute paths are refused, `..` may not climb above the
// folder (checked on the text first, so the answer does not depend on what
// exists outside), and the file's real path (every symbolic link resolved)
// must lie inside the folder's real path, compared byte for byte. Only
// regular files are read (a FIFO or device could block or never end), and
// the file is read through the resolved path, so the checked file is the
// one read.
//
// Choices where the format is silent: `@1x`, `@2x` and `@3x` before the
// extension imply scales 1, 2 and 3 (UIKit's suffixes); other media types in
// data URIs are refused, as are media type parameters; a file larger than
// any image within the pixel limit could sensibly be (8 bytes a pixel plus
// 64 MiB) is refused before reading.
//
// Callers that hold the files in memory (the render server's multipart parts)
// pass them in `ImageSources.parts`, named by `part:NAME` sources; a caller
// with no folder (a server without --assets) sets no base directory, and a
// path is then refused with a message that says so.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a scene's image sources are looked up: a folder for relative paths, and files held
/// in memory for `part:NAME` sources.
package struct ImageSources: Sendable {
    /// The folder relative paths resolve inside; nil refuses every path.
    package var baseDirectory: String?
    /// Files held in memory, by name, for sources written `part:NAME`; nil leaves `part:` an
    /// ordinary relative path.
    package var parts: [String: [UInt8]]?
    /// When set, every folder path resolved (read or probed) is recorded in it with its
    /// fingerprint, for caches that must notice a changed file (AssetAccessLog.swift).
    package var accessLog: AssetAccessLog?

    /// Sources looked up in `baseDirectory` (nil: paths refused) and `parts`.
    package init(baseDirectory: String?, parts: [String: [UInt8]]? = nil) {
        self.baseDirectory = baseDirectory; self.parts = parts
    }
}

/// Reading image sources; every failure is a message for the image's location.
enum ImageSource {
    /// Why a source could not be read.
    struct Failure: Error { var message: String }

    /// The data URI prefixes accepted, lowercase.
    static let dataURIPrefixes = ["png", "apng", "jpeg", "webp", "gif", "svg+xml"].map { "data:image/\($0);base64," }

    /// The length of the accepted prefix `source` starts with (case-insensitively), if any.
    static func dataURIPrefixLength(_ source: String) -> Int? {
        for prefix in dataURIPrefixes where source.utf8.count >= prefix.utf8.count {
            if String(decoding: source.utf8.prefix(prefix.utf8.count), as: UTF8.self).lowercased() == prefix {
                return prefix.utf8.count
            }
        }
        return nil
    }

    /// Problems visible in the source text alone (empty, NUL, absolute, climbing out with `..`).
    static func syntaxProblem(_ source: String) -> String? {
        if source.utf8.count >= 5, source.prefix(5).lowercased() == "data:" {
            guard dataURIPrefixLength(source) != nil else {
                let head = source.split(separator: ",", maxSplits: 1).first.map(String.init) ?? source
                return "unsupported data URI \(SceneText.quote(head)): only \"data:image/png;base64,\", "
                    + "image/apng, image/jpeg, image/webp, image/gif and image/svg+xml are accepted"
            }
            return nil
        }
        if source.isEmpty { return "an image source must not be empty" }
        if source.utf8.contains(0) { return "the path \(SceneText.quote(source)) contains a NUL character" }
        if source.hasPrefix("/") {
            return "absolute path \(SceneText.quote(source)) is not allowed; image paths are relative to the scene's folder"
        }
        var depth = 0
        for component in source.split(separator: "/", omittingEmptySubsequences: true) {
            if component == ".." { depth -= 1 } else if component != "." { depth += 1 }
            if depth < 0 { return "\(SceneText.quote(source)) leads outside the scene's folder" }
        }
        return nil
    }

    /// True for a data URI (anything starting `data:`, case-insensitively).
    static func isDataURI(_ source: String) -> Bool { source.prefix(5).lowercased() == "data:" }

    /// The scale a file name implies: `name@2x.png` is 2; nil when it implies none.
    static func impliedScale(_ source: String) -> Double? {
        guard !isDataURI(source) else { return nil }
        let file = source.split(separator: "/").last.map(String.init) ?? source
        let stem = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        for (suffix, scale) in [("@1x", 1.0), ("@2x", 2.0), ("@3x", 3.0)] where stem.hasSuffix(suffix) { return scale }
        return nil
    }

    /// A source checked and located, not yet read.
    enum Resolved {
        /// A data URI, whole.
        case data(String)
        /// A file inside the scene's folder: its real path, and the source as written (for messages).
        case file(realPath: String, source: String)
        /// A file held in memory, named `part:NAME`.
        case part(name: String, bytes: [UInt8])

        /// What the source names, so that names sharing it share one decoded image.
        var identity: String {
            switch self {
            case .data(let uri): return uri
            case .file(let realPath, _): return "file:" + realPath
            case .part(let name, _): return "part:" + name
            }
        }

        /// The PNG bytes; `maxBytes` bounds a file's size.
        func bytes(maxBytes: Int) throws -> [UInt8] {
            switch self {
            case .data(let uri): return try ImageSource.decodeBase64(uri.utf8.dropFirst(ImageSource.dataURIPrefixLength(uri) ?? 0))
            case .file(let realPath, let source): return try ImageSource.readFile(realPath, source: source, maxBytes: maxBytes)
            case .part(let name, let bytes):
                guard bytes.count <= maxBytes else {
                    throw Failure(message: "part \(SceneText.quote(name)) is \(bytes.count) bytes, larger than any PNG within the pixel limit")
                }
                return bytes
            }
        }
    }

    /// Checks `source` and finds what it names: a data URI, or a file that must exist inside the folder.
    static func resolve(_ source: String, in sources: ImageSources) throws -> Resolved {
        if let problem = syntaxProblem(source) { throw Failure(message: problem) }
        if isDataURI(source) { return .data(source) }
        if let parts = sources.parts, source.hasPrefix("part:") {
            let name = String(source.dropFirst(5))
            guard let bytes = parts[name] else { throw Failure(message: "no part named \(SceneText.quote(name)) in the request") }
            return .part(name: name, bytes: bytes)
        }
        guard let baseDirectory = sources.baseDirectory else {
            throw Failure(message: "the path \(SceneText.quote(source)) cannot be read: no folder is set for image paths "
                + "(use a data URI\(sources.parts == nil ? "" : " or a \"part:NAME\""))")
        }
        let realPath: String
        do { realPath = try resolveFile(source, baseDirectory: baseDirectory) } catch {
            sources.accessLog?.record(source, .absent)
            throw error
        }
        sources.accessLog?.record(source, .of(realPath: realPath))
        return .file(realPath: realPath, source: source)
    }

    // MARK: Files

    /// The real path of `source` under `baseDirectory`, which it must not leave.
    static func resolveFile(_ source: String, baseDirectory: String) throws -> String {
        let base = baseDirectory.isEmpty ? "." : baseDirectory
        guard let baseReal = realPath(base) else {
            throw Failure(message: "the scene's folder \(SceneText.quote(base)) cannot be opened (\(errnoText()))")
        }
        let joined = base.hasSuffix("/") ? base + source : base + "/" + source
        guard let fileReal = realPath(joined) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw Failure(message: "file \(SceneText.quote(source)) not found") }
            throw Failure(message: "file \(SceneText.quote(source)) cannot be opened (\(errnoText(code)))")
        }
        let inside = baseReal == "/" ? "/" : baseReal + "/"
        guard fileReal.utf8.starts(with: inside.utf8) else {
            throw Failure(message: "\(SceneText.quote(source)) leads outside the scene's folder through a symbolic link")
        }
        return fileReal
    }

    /// Reads a regular file (no FIFOs or devices) of at most `maxBytes`.
    private static func readFile(_ fileReal: String, source: String, maxBytes: Int) throws -> [UInt8] {
        var info = stat()
        guard stat(fileReal, &info) == 0 else {
            throw Failure(message: "file \(SceneText.quote(source)) cannot be opened (\(errnoText()))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(message: "\(SceneText.quote(source)) is not a regular file")
        }
        guard Int(info.st_size) <= maxBytes else {
            throw Failure(message: "file \(SceneText.quote(source)) is \(info.st_size) bytes, larger than any image within the pixel limit")
        }

        let fd = open(fileReal, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == EACCES { throw Failure(message: "file \(SceneText.quote(source)) cannot be read (permission denied)") }
            throw Failure(message: "file \(SceneText.quote(source)) cannot be opened (\(errnoText(code)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "file \(SceneText.quote(source)) cannot be read (\(errnoText()))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= maxBytes else {
                throw Failure(message: "file \(SceneText.quote(source)) is larger than any image within the pixel limit")
            }
        }
        return bytes
    }

    /// realpath(3): the absolute path with every symbolic link, `.` and `..` resolved; nil on failure (errno set).
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    // MARK: Base64

    /// Strict base64 (RFC 4648 section 4): the standard alphabet, length a multiple of 4,
    /// `=` padding only at the end.
    static func decodeBase64<C: Collection>(_ text: C) throws -> [UInt8] where C.Element == UInt8 {
        let chars = Array(text)
        guard chars.count % 4 == 0 else {
            throw Failure(message: "invalid base64 in the data URI: the length \(chars.count) is not a multiple of 4")
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var i = 0
        while i < chars.count {
            var quad: [UInt32] = [0, 0, 0, 0]
            var padding = 0
            for k in 0..<4 {
                let c = chars[i + k]
                if c == UInt8(ascii: "="), i + 4 == chars.count, k >= 2, k == 3 || chars[i + 3] == UInt8(ascii: "=") {
                    padding += 1
                    continue
                }
                guard padding == 0, let v = base64Value(c) else {
                    throw Failure(message: "invalid base64 in the data URI at character \(i + k + 1)")
                }
                quad[k] = v
            }
            let n = quad[0] << 18 | quad[1] << 12 | quad[2] << 6 | quad[3]
            out.append(UInt8(n >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(n >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(n & 0xFF)) }
            i += 4
        }
        return out
    }

    private static func base64Value(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(c - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
