// DocsExamplesTests: every example scene in docs/*.md is real. Each ```json
// block of the user documentation is a whole scene (Tools/schema/validate.py
// checks them against the schema); here each one is decoded with the standard
// environment and rendered on the CPU reference renderer, in a folder holding
// a copy of Examples/images (the images the examples draw) and fonts/ with
// DejaVu Sans Mono (the font file text.md's example names), as a reader who
// saves an example in Examples/ would. A block that is rejected, renders
// nothing but a uniform canvas, or is not a scene fails with its file and
// line. The renders are written to test-output/docs/ for a human to look at.

import Foundation
import XCTest
import Penumbra
import PenumbraCPU

final class DocsExamplesTests: XCTestCase {
    struct Block {
        var place: String
        var text: String
    }

    /// Every ```json block of docs/*.md, with its file and line.
    static func blocks() throws -> [Block] {
        let docs = TestSupport.root.appendingPathComponent("docs")
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        var blocks: [Block] = []
        for file in files {
            let lines = try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            var start: Int?
            var body: [Substring] = []
            for (index, line) in lines.enumerated() {
                if let s = start {
                    if line.trimmingCharacters(in: .whitespaces) == "```" {
                        blocks.append(Block(place: "docs/\(file):\(s + 1)", text: body.joined(separator: "\n")))
                        start = nil
                    } else {
                        body.append(line)
                    }
                } else if line.trimmingCharacters(in: .whitespaces) == "```json" {
                    start = index; body = []
                }
            }
        }
        return blocks
    }

    /// A folder laid out as Examples/ is for the docs' examples: images/ and fonts/.
    private func exampleFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.examples.appendingPathComponent("images"),
                                         to: folder.appendingPathComponent("images"))
        let mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
        if FileManager.default.fileExists(atPath: mono) {
            try FileManager.default.copyItem(atPath: mono, toPath: folder.appendingPathComponent("fonts/DejaVuSansMono.ttf").path)
        }
        return folder
    }

    func testEveryDocumentedSceneRenders() throws {
        let blocks = try Self.blocks()
        XCTAssertGreaterThanOrEqual(blocks.count, 20, "the docs' examples were not found")
        let folder = try exampleFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let renderer = CPURenderer()
        for block in blocks {
            let bytes = Array(block.text.utf8)
            guard case .object(let object)? = try? JSONValue.parse(bytes), object["format"] == .string("penumbra-scene") else {
                XCTFail("\(block.place): a ```json block in docs/ must be a whole scene")
                continue
            }
            do {
                let scene = try Scene.decode(bytes, baseDirectory: folder.path, environment: .standard)
                let bitmap = try renderer.render(scene.displayList())
                XCTAssertEqual(bitmap.width, scene.pixelWidth, block.place)
                let first = bitmap[0, 0]
                var uniform = true
                for y in 0..<bitmap.height where uniform {
                    for x in 0..<bitmap.width where bitmap[x, y] != first { uniform = false; break }
                }
                XCTAssertFalse(uniform, "\(block.place): the example draws nothing visible")
                let name = block.place.replacingOccurrences(of: "docs/", with: "").replacingOccurrences(of: ".md:", with: "-")
                try TestSupport.writePNG(bitmap, to: TestSupport.output.appendingPathComponent("docs/\(name).png"))
            } catch {
                XCTFail("\(block.place): \(error)")
            }
        }
    }
}
