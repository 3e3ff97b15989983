// UniformBlockLayoutTests: each Swift mirror of a std140 uniform block has
// the linked program's layout: the block exists under its name at its
// binding point, is exactly as large as the struct, and every field the
// mirror lists sits at the struct's offset. A field added, removed or
// reordered on one side only fails here rather than drawing wrong bytes.
import XCTest
import CEGL
@testable import PenumbraGPU

final class UniformBlockLayoutTests: XCTestCase {
    /// Every way the mirror differs from the program's block, described.
    private func problems<Mirror: UniformBlockMirror>(_ mirror: Mirror.Type, in program: GLProgram) -> [String] {
        let label = "\(Mirror.blockName) in \(program.label)"
        let index = glGetUniformBlockIndex(program.name, Mirror.blockName)
        guard index != GLuint(GL_INVALID_INDEX) else { return ["\(label): no such block"] }
        var found: [String] = []
        var size: GLint = 0, binding: GLint = -1, members: GLint = 0
        glGetActiveUniformBlockiv(program.name, index, glEnum(GL_UNIFORM_BLOCK_DATA_SIZE), &size)
        glGetActiveUniformBlockiv(program.name, index, glEnum(GL_UNIFORM_BLOCK_BINDING), &binding)
        glGetActiveUniformBlockiv(program.name, index, glEnum(GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS), &members)
        if Int(size) != MemoryLayout<Mirror>.size { found.append("\(label): size \(size), mirror \(MemoryLayout<Mirror>.size)") }
        if Int(binding) != Mirror.block.rawValue { found.append("\(label): binding \(binding), mirror \(Mirror.block.rawValue)") }
        if Int(members) != Mirror.fields.count { found.append("\(label): \(members) members, mirror lists \(Mirror.fields.count)") }
        for field in Mirror.fields {
            var uniform = GLuint(GL_INVALID_INDEX)
            field.name.withCString { name in
                var names: [UnsafePointer<GLchar>?] = [name]
                glGetUniformIndices(program.name, 1, &names, &uniform)
            }
            guard uniform != GLuint(GL_INVALID_INDEX) else { found.append("\(label): no member \(field.name)"); continue }
            var offset: GLint = -1
            glGetActiveUniformsiv(program.name, 1, &uniform, glEnum(GL_UNIFORM_OFFSET), &offset)
            if Int(offset) != field.offset { found.append("\(label): offset of \(field.name) \(offset), mirror \(field.offset)") }
        }
        return found
    }

    func testEveryMirrorMatchesTheLinkedPrograms() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        let programs = gpu.programs
        let found = problems(PaintBlock.self, in: programs.composite) + problems(CompositeBlock.self, in: programs.composite)
            + problems(QuadBlock.self, in: programs.caster) + problems(PaintBlock.self, in: programs.caster)
            + problems(CasterBlock.self, in: programs.caster) + problems(BlurBlock.self, in: programs.blurX)
            + problems(QuadBlock.self, in: programs.blurY)
        let filter = try programs.filterPass("filter", GPUFilterPass.defines + [("FILTER_OP", GPUFilterPass.color.rawValue)])
        let filterBlur = try programs.filterPass("filterblur", [("WEIGHT_VEC4S", gpu.shared.weightVec4s), ("BLUR_AXIS", 0)])
        let filterFound = problems(FilterBlock.self, in: filter) + problems(QuadBlock.self, in: filter)
            + problems(FilterBlock.self, in: filterBlur)
        let coverageFound = try problems(CoverageBlock.self, in: programs.coverage(.accumulate))
            + problems(CoverageBlock.self, in: programs.coverage(.resolve)) + problems(ClipProductBlock.self, in: programs.clipProduct())
        XCTAssertEqual(found + filterFound + coverageFound, [])
    }

    /// The check itself reports a real difference: a mirror that claims another offset fails.
    func testAWrongOffsetIsReported() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        let found = problems(ShiftedCompositeBlock.self, in: gpu.programs.composite)
        XCTAssertEqual(found, ["CompositeBlock in composite: offset of uClipRect 32, mirror 48"])
    }
}

/// CompositeBlock with a wrong offset for one field.
private struct ShiftedCompositeBlock: UniformBlockMirror {
    var bytes = InlineArray<6, SIMD4<Int32>>(repeating: .zero)
    static let block = UniformBlock.composite
    static let blockName = "CompositeBlock"
    static var fields: [(name: String, offset: Int)] {
        CompositeBlock.fields.map { $0.name == "uClipRect" ? ($0.name, $0.offset + 16) : $0 }
    }
}
