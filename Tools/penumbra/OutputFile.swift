// Writing output atomically: into a temporary file beside the destination,
// then rename(2), so a failed or interrupted run never leaves a partial file.
import Foundation

enum OutputFile {
    /// Writes `bytes` to `path` atomically, or to standard output when `path` is `-`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let temp = (dir as NSString).appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temp))
        } catch {
            unlink(temp)
            throw ToolError(.failure, "\(path): cannot write the output (\(error.localizedDescription))")
        }
        if rename(temp, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw ToolError(.failure, "\(path): cannot write the output (\(reason))")
        }
    }
}
