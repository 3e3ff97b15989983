// A one-line progress report for work that takes more than a second
// (animate, bench, parity, batch): written to standard error and rewritten
// in place (carriage return, erase line), only when standard error is a
// terminal, so that logs and pipes never see it. Nothing appears during the
// first second: a report said before then is shown when the second has
// passed, unless it was cleared by then, so quick runs stay silent. It is
// thread-safe; the text shown is always the latest said.
import Dispatch
import Foundation
import Synchronization

final class Progress: Sendable {
    private struct State {
        /// The latest report not cleared, nil after `done()`.
        var text: String?
        /// True once the delay has passed: reports are then written as they come.
        var live = false
        /// True while a line is on the terminal.
        var shown = false
    }

    /// False: every call does nothing (standard error is not a terminal, or the command's output
    /// goes there).
    let enabled: Bool
    private let state = Mutex(State())

    /// A reporter, shown after `delay` when `enabled` (by default: standard error is a terminal).
    init(enabled: Bool = isatty(STDERR_FILENO) == 1, after delay: Duration = .seconds(1)) {
        self.enabled = enabled
        guard enabled else { return }
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in self?.goLive() }
    }

    /// Replaces the line with `text` (after the first second).
    func say(_ text: String) {
        guard enabled else { return }
        state.withLock { state in
            state.text = text
            if state.live { Progress.write("\r\u{1B}[K\(text)"); state.shown = true }
        }
    }

    /// Clears the line (before printing something else, or at the end).
    func done() {
        guard enabled else { return }
        state.withLock { state in
            state.text = nil
            if state.shown { Progress.write("\r\u{1B}[K"); state.shown = false }
        }
    }

    private func goLive() {
        state.withLock { state in
            state.live = true
            if let text = state.text { Progress.write("\r\u{1B}[K\(text)"); state.shown = true }
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
