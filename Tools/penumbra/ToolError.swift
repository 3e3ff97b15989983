// Errors of the command-line tool, each with the exit status it ends in.
import Foundation

/// The exit statuses of SCENE_FORMAT.md.
enum ToolExit: Int32 {
    case success = 0
    /// The input was rejected (the message names the file and place).
    case rejected = 1
    case usage = 2
    /// The requested backend is unavailable, or cannot render this size.
    case backendUnavailable = 3
    /// The output could not be written, or rendering failed at run time.
    case failure = 4
}

/// A failure that ends the tool with a specific exit status.
struct ToolError: Error {
    var exit: ToolExit
    var message: String
    init(_ exit: ToolExit, _ message: String) { self.exit = exit; self.message = message }
}

/// Messages for the person at the terminal, on standard error.
enum Diagnostics {
    static func print(_ message: String) {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }
}
