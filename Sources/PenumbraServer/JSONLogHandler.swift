// JSONLogHandler: swift-log output as one JSON object per line on standard
// error (time, level, label, message, and the metadata as string fields),
// the form log collectors parse without configuration. A line is written
// with one write(2), so lines from different threads never interleave.
import Foundation
import Glibc
import Logging
import PenumbraRequests

/// A LogHandler writing JSON lines to standard error.
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    let label: String

    /// A handler for `label` (pass to LoggingSystem.bootstrap).
    package init(label: String) { self.label = label }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        write(level: event.level, message: event.message, metadata: event.metadata)
    }

    package func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?, source: String,
                    file: String, function: String, line: UInt) {
        write(level: level, message: message, metadata: extra)
    }

    private func write(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?) {
        var fields = [("time", ISO8601DateFormatter().string(from: Date())), ("level", level.rawValue), ("label", label),
                      ("message", message.description)]
        let merged = self.metadata.merging(extra ?? [:]) { $1 }
        for key in merged.keys.sorted() { fields.append((key, "\(merged[key]!)")) }
        let text = "{" + fields.map { "\(JSONLogHandler.quote($0.0)):\(JSONLogHandler.quote($0.1))" }.joined(separator: ",") + "}\n"
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(2, $0.baseAddress, $0.count - 1) }
    }

    static func quote(_ text: String) -> String { RequestError.quote(text) }
}
