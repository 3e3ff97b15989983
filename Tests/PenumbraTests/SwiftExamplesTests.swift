import Foundation
import XCTest
import Penumbra
import PenumbraCPU

/// Examples/Swift (the `penumbra-examples` executable) draws the seeds' programs with the public
/// API; each picture must be the bytes of the scene of the same name in Examples/, rendered on the
/// CPU. The executable is compiled without package access, so this also proves a client of the
/// library can write each of them.
final class SwiftExamplesTests: XCTestCase {
    static var executable: URL {
        CommandLineTests.executable.deletingLastPathComponent().appendingPathComponent("penumbra-examples")
    }

    func testEachSwiftExampleDrawsTheBytesOfItsScene() throws {
        let tool = Self.executable
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: tool.path), "\(tool.path) is not built")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = tool
        process.arguments = [out.path]
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let printed = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let written = printed.split(separator: "\n").map { URL(fileURLWithPath: String($0)).deletingPathExtension().lastPathComponent }
        XCTAssertEqual(written, ["hypnosis", "oval", "decorator", "multiply", "template", "hello", "note", "vignette",
                                 "views-hypnosis", "views-note"])

        for name in written {
            let scene = try TestSupport.loadScene(TestSupport.examples.appendingPathComponent("\(name).json"))
            let expected = try CPURenderer().render(scene.displayList())
            let actual = try Image(data: [UInt8](Data(contentsOf: out.appendingPathComponent("\(name).png")))).bitmap
            let difference = try XCTUnwrap(ImageDifference(expected, actual), "\(name): sizes differ")
            XCTAssertTrue(difference.isExact, "\(name): \(difference)")
        }
    }
}
