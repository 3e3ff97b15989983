import Foundation
import XCTest

/// The progress line appears on a terminal, and only there: `penumbra batch` is run under a
/// pseudo-terminal (Python's pty module, which CI has: it runs the schema check) long enough to
/// pass the one-second delay, and its terminal output holds the rewritten line; the same run with
/// standard error on a pipe holds none of it.
extension CommandLineTests {
    /// Runs the tool with `arguments` on a pseudo-terminal; everything it wrote there, and its status.
    func runOnTerminal(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let script = """
        import os, pty, sys
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        out = b""
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        _, status = os.waitpid(pid, 0)
        sys.stdout.buffer.write(out)
        sys.exit(os.waitstatus_to_exitcode(status))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, Self.executable.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testBatchShowsProgressOnATerminalOnly() throws {
        // Enough hypnosis renders, one at a time, for well over a second in the debug build tests
        // run in (each takes about 0.7 s there).
        let scene = TestSupport.examples.appendingPathComponent("hypnosis.json").path
        let lines = (0..<8).map { #"{"scene": "\#(scene)", "output": "\#($0).png"}"# }
        let manifest = try write(lines.joined(separator: "\n") + "\n", "manifest.jsonl")
        let terminal = try runOnTerminal(["batch", manifest, "--out", temp.appendingPathComponent("tty").path,
                                          "--backend", "cpu", "--jobs", "1"])
        XCTAssertEqual(terminal.status, 0, terminal.output)
        // The line is rewritten in place: carriage return, erase to the end of the line, the count.
        XCTAssertTrue(terminal.output.contains("\r\u{1B}[K["), String(terminal.output.suffix(400)))
        XCTAssertTrue(terminal.output.contains("/8] "), String(terminal.output.suffix(400)))

        let piped = try run(["batch", manifest, "--out", temp.appendingPathComponent("pipe").path, "--backend", "cpu", "--jobs", "1"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stderr.contains("\r"), piped.stderr)
        XCTAssertFalse(piped.stderr.contains("/8] "), piped.stderr)
    }
}
