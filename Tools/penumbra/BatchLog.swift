// The batch log, JSON Lines: one object per manifest line this process took,
// written as the line finishes (so not in manifest order):
//
//   {"line": 3, "output": "a.png", "status": "rendered", "ms": 41.2}
//   {"line": 4, "output": "b.png", "status": "skipped"}
//   {"line": 7, "output": "c.png", "status": "failed", "error": "scene.ops[0]: unknown op \"fillRect\" ..."}
//
// `output` is absent when the line has none that could be read; `error`
// names the place in the line (a key, `scene.ops[2]`, a column). Each entry
// is one write(2) under a lock, so the log of a run that is still going, or
// was killed, holds whole lines only. The file is replaced when a run starts.
import Foundation
import Glibc
import Synchronization

final class BatchLog: Sendable {
    enum Status: String, Sendable { case rendered, skipped, failed }

    struct Entry: Sendable {
        var line: Int
        var output: String?
        var status: Status
        var error: String?
        /// How long the line took to render, encode and write.
        var milliseconds: Double?
    }

    let path: String
    private let fd: Int32
    /// Why writing the log failed, the first time it did.
    private let failure = Mutex<String?>(nil)

    /// Creates (or empties) the log at `path`; throws ToolError (exit 4) when it cannot.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ToolError(.failure, "\(path): cannot write the batch log (\(String(cString: strerror(errno))))")
        }
    }

    deinit { close(fd) }

    /// Appends one entry.
    func write(_ entry: Entry) {
        var text = "{\"line\": \(entry.line)"
        if let output = entry.output { text += ", \"output\": \(BatchLog.quoted(output))" }
        text += ", \"status\": \"\(entry.status.rawValue)\""
        if let error = entry.error { text += ", \"error\": \(BatchLog.quoted(error))" }
        if let ms = entry.milliseconds { text += ", \"ms\": " + String(format: "%.1f", ms) }
        text += "}\n"
        let bytes = Array(text.utf8)
        failure.withLock { failure in
            var done = 0
            while done < bytes.count {
                let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    if failure == nil { failure = "\(path): cannot write the batch log (\(String(cString: strerror(errno))))" }
                    return
                }
                done += n
            }
        }
    }

    /// Why some entry could not be written, or nil.
    var writeFailure: String? { failure.withLock { $0 } }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
