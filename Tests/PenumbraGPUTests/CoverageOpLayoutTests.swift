// CoverageOpLayoutTests: the Swift CoverageOp and coveragecells.glsl's struct CoverageOp have one
// layout: each member the Swift struct lists sits at its MemoryLayout offset in both coverage
// programs, and the array's stride is the struct's. A field added, removed or reordered on one
// side only fails here rather than reading the wrong words.
import XCTest
import CEGL
@testable import PenumbraGPU

final class CoverageOpLayoutTests: XCTestCase {
    /// Every way the linked program's `ops[]` differs from `fields` and `stride`, described.
    private func problems(_ fields: [(name: String, offset: Int)], stride: Int, in program: GLProgram) -> [String] {
        var found: [String] = []
        for field in fields {
            let name = "ops[0].\(field.name)"
            let index = glGetProgramResourceIndex(program.name, glEnum(GL_BUFFER_VARIABLE), name)
            guard index != GLuint(GL_INVALID_INDEX) else { found.append("\(program.label): no member \(name)"); continue }
            var properties: [GLenum] = [glEnum(GL_OFFSET), glEnum(GL_TOP_LEVEL_ARRAY_STRIDE)]
            var values: [GLint] = [-1, -1]
            glGetProgramResourceiv(program.name, glEnum(GL_BUFFER_VARIABLE), index, 2, &properties, 2, nil, &values)
            if Int(values[0]) != field.offset { found.append("\(program.label): offset of \(field.name) \(values[0]), Swift \(field.offset)") }
            if Int(values[1]) != stride { found.append("\(program.label): stride of ops[] \(values[1]), Swift \(stride)") }
        }
        return found
    }

    func testTheSwiftDescriptorIsTheShaders() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        XCTAssertEqual(MemoryLayout<CoverageOp>.stride, 48)
        let stride = MemoryLayout<CoverageOp>.stride
        // accumulate reads only some members; the ones it reads must be where Swift writes them.
        let resolve = try gpu.programs.coverage(.resolve), accumulate = try gpu.programs.coverage(.accumulate)
        let read = ["firstPoint", "firstCell", "rowStride", "width", "firstRow", "evenOdd", "tilesPerRow",
                    "firstTileFlag", "listHeader", "firstTileWord"]
        let fields = CoverageOp.fields.filter { read.contains($0.name) }
        XCTAssertEqual(fields.count, read.count)
        XCTAssertEqual(problems(fields, stride: stride, in: resolve)
                       + problems(fields.filter { ["firstPoint", "firstCell", "rowStride", "firstRow"].contains($0.name) },
                                  stride: stride, in: accumulate), [])
    }

    /// The check itself reports a real difference: a member claimed at another offset fails.
    func testAWrongOffsetIsReported() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        let found = problems([("width", 16)], stride: 48, in: try gpu.programs.coverage(.resolve))
        XCTAssertEqual(found, ["resolve: offset of width 12, Swift 16"])
    }
}
