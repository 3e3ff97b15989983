// A swift-log handler that keeps every line in memory, for tests that check what the server logs.
import Logging
import Synchronization

/// The lines logged through `logger`, each as its message and metadata as strings.
final class LogCapture: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])

    /// A logger whose lines land here.
    var logger: Logger {
        Logger(label: "penumbra.test") { _ in Handler(capture: self) }
    }

    /// Every line so far.
    var all: [Line] { lines.withLock { $0 } }

    /// The lines whose message is `message`.
    func lines(_ message: String) -> [Line] { all.filter { $0.message == message } }

    fileprivate func append(_ line: Line) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append(Line(level: event.level, message: event.message.description,
                                metadata: merged.mapValues { "\($0)" }))
        }
    }
}
