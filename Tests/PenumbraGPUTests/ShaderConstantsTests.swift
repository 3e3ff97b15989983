// ShaderConstantsTests: the enums reach GLSL as generated defines, and the
// shaders name every case instead of a number.
import Foundation
import XCTest
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
        let blendValues = ShaderConstants.defines.filter { $0.0.hasPrefix("BLEND_") }.map(\.1)
        XCTAssertEqual(blendValues, Array(0..<BlendMode.allCases.count))
    }

    /// Every case is handled by name in the composite program, and no case is written as a number.
    func testShadersNameEveryCaseAndNoNumber() throws {
        let source = try XCTUnwrap(ShaderSources.fragment("composite"))
        for (name, _) in ShaderConstants.defines {
            let pattern = try NSRegularExpression(pattern: "\\b\(name)\\b")
            XCTAssertNotNil(pattern.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)),
                            "composite.frag names \(name)")
        }
        let numbered = try NSRegularExpression(pattern: "(mode|PAINT_KIND) [=!<>]=? [0-9]")
        XCTAssertNil(numbered.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)),
                     "a blend mode or paint kind compared with a number")
    }
}
