import Foundation
import XCTest
import Penumbra

/// Paths and helpers shared by the package-level tests.
enum TestSupport {
    /// The repository root (three levels above this file).
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = root.appendingPathComponent("Examples")
    static let references = root.appendingPathComponent("Tests/References")
    /// Git-ignored folder where failing comparisons leave expected, actual and difference images.
    static let output = root.appendingPathComponent("test-output")

    /// Examples without a reference image, and why: they depend on what is not built yet.
    static let unreferencedExamples: Set<String> = []

    /// Every example scene with a reference, sorted by name.
    static func exampleScenes() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" && !unreferencedExamples.contains($0.deletingPathExtension().lastPathComponent) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A finished run of the built `penumbra` tool: its exit status and what it wrote to stderr.
    struct ToolRun { var status: Int32; var stderr: String }

    /// Runs the built `penumbra` tool with `arguments` (stdout discarded) and waits for it.
    static func runTool(_ arguments: [String]) throws -> ToolRun {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(status: process.terminationStatus, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Decodes a scene file.
    static func loadScene(_ url: URL, scale: Double? = nil) throws -> Scene {
        let bytes = [UInt8](try Data(contentsOf: url))
        return try Scene.decode(bytes, baseDirectory: url.deletingLastPathComponent().path, scale: scale, environment: .standard)
    }

    /// Writes a bitmap as PNG (creating folders).
    static func writePNG(_ bitmap: Bitmap, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(PNGCodec.encode(bitmap)).write(to: url)
    }

    /// Compares `actual` with the reference image `name`.png. With PENUMBRA_BLESS=1 the reference
    /// is (re)written instead. On a mismatch, expected, actual and an amplified difference image
    /// are written under test-output/ and the failure names them.
    static func assertMatchesReference(_ actual: Bitmap, name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = references.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["PENUMBRA_BLESS"] == "1" {
            try writePNG(actual, to: url)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            XCTFail("no reference image \(url.path); run the tests with PENUMBRA_BLESS=1 to create it", file: file, line: line)
            return
        }
        let expected = try PNGCodec.decode([UInt8](data))
        let diff = ImageDifference(expected, actual)
        // References are the CPU renderer's own output, computed in exact integer arithmetic
        // (docs/ARITHMETIC.md): they must match byte for byte.
        let ok = diff?.isExact ?? false
        if !ok {
            let dir = output.appendingPathComponent("references")
            try writePNG(expected, to: dir.appendingPathComponent("\(name)-expected.png"))
            try writePNG(actual, to: dir.appendingPathComponent("\(name)-actual.png"))
            try writePNG(ImageDifference.amplifiedDifference(expected, actual), to: dir.appendingPathComponent("\(name)-diff.png"))
            XCTFail("\(name) differs from its reference (\(diff.map(\.description) ?? "size \(expected.width)x\(expected.height) vs \(actual.width)x\(actual.height)")); see \(dir.path)",
                    file: file, line: line)
        }
    }
}
