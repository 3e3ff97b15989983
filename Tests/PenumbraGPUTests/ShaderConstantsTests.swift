// ShaderConstantsTests: the enums reach GLSL as generated defines, and the
// shaders name every case instead of a number.
import Foundation
import XCTest
import PenumbraModel
import PenumbraCore
import PenumbraShaders
@testable import PenumbraGPU

final class ShaderConstantsTests: XCTestCase {
    func testMacroNamesAreTheCaseNamesInUpperSnakeCase() {
        XCTAssertEqual(ShaderConstants.macroName("colorDodge"), "COLOR_DODGE")
        XCTAssertEqual(ShaderConstants.macroName("normal"), "NORMAL")
        XCTAssertEqual(ShaderConstants.macroName("plusLighter"), "PLUS_LIGHTER")
    }

    func testEveryCaseHasOneDefineAndDistinctValues() {
        let names = ShaderConstants.defines.map(\.0)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(names.filter { $0.hasPrefix("BLEND_") }.count, BlendMode.allCases.count)
        XCTAssertEqual(names.filter { $0.hasPrefix("PAINT_") }.count, GPUPaint.Kind.allCases.count)
        XCTAssertEqual(names.filter { $0.hasPrefix("BLOCK_") }.count, UniformBlock.allCases.count)
        let blendValues = ShaderConstants.defines.filter { $0.0.hasPrefix("BLEND_") }.map(\.1)
        XCTAssertEqual(blendValues, Array(0..<BlendMode.allCases.count))
    }

    /// Every blend mode and paint kind is handled by name in the composite program, every uniform
    /// block's, storage buffer's, image unit's and texture unit's binding point is named by some
    /// program, work groups are sized by the generated defines, and no case, binding or size is
    /// written as a number.
    func testShadersNameEveryCaseAndNoNumber() throws {
        let source = try XCTUnwrap(ShaderSources.compute("composite"))
        let everyProgram = try (ShaderSources.fragmentPrograms + ShaderSources.filterPrograms)
            .map { try XCTUnwrap(ShaderSources.fragment($0)) }.joined()
            + ShaderSources.vertex()
            + ShaderSources.computePrograms.map { try XCTUnwrap(ShaderSources.compute($0)) }.joined()
        let bindings = ["BLOCK_", "STORAGE_", "IMAGE_", "UNIT_"]
        for (name, _) in ShaderConstants.defines where bindings.contains(where: name.hasPrefix) {
            XCTAssertTrue(everyProgram.contains("binding = \(name))"), "a program declares binding \(name)")
        }
        let numberedBinding = try NSRegularExpression(pattern: "binding = [0-9]")
        XCTAssertNil(numberedBinding.firstMatch(in: everyProgram, range: NSRange(everyProgram.startIndex..., in: everyProgram)),
                     "a binding point written as a number")
        // Every sampler is bound to its texture unit in the source, never looked up by name.
        let unboundSampler = try NSRegularExpression(pattern: "^uniform u?sampler2D", options: .anchorsMatchLines)
        XCTAssertNil(unboundSampler.firstMatch(in: everyProgram, range: NSRange(everyProgram.startIndex..., in: everyProgram)),
                     "a sampler without layout(binding = UNIT_...)")
        // Tile and work-group sizes come from Swift's defines, not literals.
        for size in ["TILE_SIZE", "ACCUMULATE_GROUP", "RESOLVE_GROUP"] {
            XCTAssertTrue(everyProgram.contains("local_size_x = \(size)"), "a work group sized by \(size)")
        }
        let literalGroup = try NSRegularExpression(pattern: "local_size_[xyz] = [0-9]")
        XCTAssertNil(literalGroup.firstMatch(in: everyProgram, range: NSRange(everyProgram.startIndex..., in: everyProgram)),
                     "a work-group size written as a number")
        for (name, _) in ShaderConstants.defines where name.hasPrefix("BLEND_") || name.hasPrefix("PAINT_") {
            let pattern = try NSRegularExpression(pattern: "\\b\(name)\\b")
            XCTAssertNotNil(pattern.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)),
                            "composite.comp names \(name)")
        }
        let numbered = try NSRegularExpression(pattern: "(mode|PAINT_KIND) [=!<>]=? [0-9]")
        XCTAssertNil(numbered.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)),
                     "a blend mode or paint kind compared with a number")
    }
}
