// GPUTestSupport: one GPU renderer shared by the GPU tests (a context per
// test would be slow on llvmpipe), the CI rule (no EGL context: FAIL when
// CI=true, skip with the reason otherwise), scene loading as in
// PenumbraTests/TestSupport.swift, and the parity assertion that prints the
// figures of every comparison.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU
import PenumbraGPU

enum GPUTestSupport {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let examples = root.appendingPathComponent("Examples")
    /// The Examples that draw offscreen images or filter chains (images the scene draws itself).
    static let examplesDrawingImages = ["filters.json", "blur-crop.json", "vignette.json", "frosted.json", "content-modes.json",
                                        "views-note.json", "views-rtl.json"]

    /// The Example `name` decoded twice: with its images drawn by the CPU, and by `gpu`.
    static func exampleDecodedForBoth(_ name: String, gpu: GPURenderer) throws -> (onCPU: Scene, onGPU: Scene) {
        let url = examples.appendingPathComponent(name)
        let bytes = [UInt8](try Data(contentsOf: url))
        let base = url.deletingLastPathComponent().path
        return (try Scene.decode(bytes, baseDirectory: base, environment: .standard),
                try Scene.decode(bytes, baseDirectory: base, environment: .standard(renderingWith: gpu)))
    }
    static let output = root.appendingPathComponent("test-output/gpu")

    /// The shared renderer, or the reason there is none. Tests run on one thread (XCTest's main).
    nonisolated(unsafe) private static var cached: Result<GPURenderer, Error>?

    /// The GPU renderer; fails the test under CI=true when there is none, skips it otherwise.
    static func renderer() throws -> GPURenderer {
        if cached == nil { cached = Result { try GPURenderer() } }
        switch cached! {
        case .success(let r): return r
        case .failure(let error):
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("CI=true and no GPU context: \(error)")
                throw error
            }
            throw XCTSkip("no headless EGL/GLES 3 context: \(error)")
        }
    }

    static func loadScene(_ url: URL) throws -> Scene {
        let bytes = [UInt8](try Data(contentsOf: url))
        return try Scene.decode(bytes, baseDirectory: url.deletingLastPathComponent().path, environment: .standard)
    }

    static func exampleScenes() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Renders on both backends, prints the figures and returns the difference.
    @discardableResult
    static func compare(_ list: DisplayList, name: String, gpu: GPURenderer) throws -> ImageDifference {
        let cpu = try CPURenderer().render(list)
        let out = try gpu.render(list)
        guard let diff = ImageDifference(cpu, out) else { throw RenderError("size mismatch") }
        print("parity \(name): \(diff)")
        if !diff.isExact {
            try? FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            try? Data(PNGCodec.encode(cpu)).write(to: output.appendingPathComponent("\(name)-cpu.png"))
            try? Data(PNGCodec.encode(out)).write(to: output.appendingPathComponent("\(name)-gpu.png"))
            try? Data(PNGCodec.encode(ImageDifference.amplifiedDifference(cpu, out)))
                .write(to: output.appendingPathComponent("\(name)-diff.png"))
        }
        return diff
    }

    /// Byte identity (the parity contract).
    static func assertParity(_ list: DisplayList, name: String, gpu: GPURenderer,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let diff = try compare(list, name: name, gpu: gpu)
        XCTAssertTrue(diff.isExact,
                      "\(name) is not byte-identical: \(diff); images in \(output.path)", file: file, line: line)
    }
}
