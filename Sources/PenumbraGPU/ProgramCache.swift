// ProgramCache: the GLSL programs, compiled and linked once per renderer from
// the embedded sources (PenumbraShaders), their samplers pointed at fixed
// texture units once; every other constant reaches them in uniform blocks
// (UniformBlocks.swift). A compile or link failure throws a RenderError carrying the
// driver's log, so a shader bug names its line.
import CEGL
import PenumbraModel
import PenumbraCore
import PenumbraShaders

/// One linked program.
final class GLProgram {
    let name: GLuint
    let label: String

    /// A vertex and fragment program.
    init(label: String, vertex: String, fragment: String) throws {
        self.label = label
        let vs = try GLProgram.compile(vertex, glEnum(GL_VERTEX_SHADER), "\(label) (vertex)")
        defer { glDeleteShader(vs) }
        let fs = try GLProgram.compile(fragment, glEnum(GL_FRAGMENT_SHADER), "\(label) (fragment)")
        defer { glDeleteShader(fs) }
        name = glCreateProgram()
        glAttachShader(name, vs)
        glAttachShader(name, fs)
        try GLProgram.link(name, label)
    }

    /// A compute program.
    init(label: String, compute: String) throws {
        self.label = label
        let cs = try GLProgram.compile(compute, glEnum(GL_COMPUTE_SHADER), "\(label) (compute)")
        defer { glDeleteShader(cs) }
        name = glCreateProgram()
        glAttachShader(name, cs)
        try GLProgram.link(name, label)
    }

    deinit { glDeleteProgram(name) }

    private static func link(_ name: GLuint, _ label: String) throws {
        glLinkProgram(name)
        var ok: GLint = 0
        glGetProgramiv(name, glEnum(GL_LINK_STATUS), &ok)
        guard ok == GL_TRUE else {
            let log = GLProgram.log { glGetProgramInfoLog(name, $0, nil, $1) }
            glDeleteProgram(name)
            throw RenderError("GPU: linking program \(label) failed: \(log)")
        }
    }

    private static func compile(_ source: String, _ kind: GLenum, _ label: String) throws -> GLuint {
        let shader = glCreateShader(kind)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, glEnum(GL_COMPILE_STATUS), &ok)
        guard ok == GL_TRUE else {
            let log = GLProgram.log { glGetShaderInfoLog(shader, $0, nil, $1) }
            glDeleteShader(shader)
            throw RenderError("GPU: compiling \(label) failed: \(log)")
        }
        return shader
    }

    private static func log(_ read: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> String {
        var buffer = [GLchar](repeating: 0, count: 8192)
        buffer.withUnsafeMutableBufferPointer { read(GLsizei($0.count), $0.baseAddress!) }
        return String(cString: buffer)
    }

}

/// The renderer's programs, compiled once per context and kept for its life. The composite
/// and caster programs are specialised: each (paint kind, blend mode) pair gets its own program
/// with both as compile-time constants, compiled the first time it is drawn, so the compiler
/// drops every other paint and mode (a software rasterizer such as llvmpipe executes both
/// sides of a uniform branch, and even a hardware GPU saves the registers). The arithmetic of
/// the kept path is the same source text, so the pixels are the same as the generic
/// program's (GPUProgramSpecialisationTests checks it bit for bit). At most 5 x 28 composite
/// variants (plus 28 for shadows, whose coverage is a packed plane) and 5 caster variants
/// exist, so the cache needs no eviction.
final class ProgramCache {
    /// The generic programs (paint and mode as uniforms), compiled at init.
    let composite: GLProgram
    let caster: GLProgram
    /// The blur's horizontal and vertical passes.
    let blurX: GLProgram, blurY: GLProgram
    /// Whether draws use specialised variants (false: the generic programs, for comparison).
    let specialises: Bool
    private var variants: [String: GLProgram] = [:]

    /// Whether specialised programs read the byte table from a uniform block (software
    /// rasterizers) rather than the texture (the generic programs always use the texture).
    let lookupInUniforms: Bool

    /// `weightVec4s`: the length of blur.frag's weight block (GPUSharedObjects).
    init(specialises: Bool = true, lookupInUniforms: Bool, weightVec4s: Int) throws {
        self.specialises = specialises
        self.lookupInUniforms = lookupInUniforms
        composite = try ProgramCache.make("composite", [])
        caster = try ProgramCache.make("caster", [])
        blurX = try ProgramCache.make("blur", [("WEIGHT_VEC4S", weightVec4s), ("BLUR_AXIS", 0)])
        blurY = try ProgramCache.make("blur", [("WEIGHT_VEC4S", weightVec4s), ("BLUR_AXIS", 1)])
    }

    /// The composite program for a paint kind, a blend mode, and a coverage that is a packed
    /// shadow plane or not.
    func composite(paint: GPUPaint.Kind, mode: BlendMode, coverage: GPUFrame.CoverageKind) throws -> GLProgram {
        guard specialises else { return composite }
        return try variant("composite", [("PAINT_KIND", paint.rawValue), ("BLEND_MODE", mode.shaderValue),
                                         ("COVERAGE_KIND", coverage.rawValue)] + lookupDefines)
    }

    /// The shadow caster program for a paint kind.
    func caster(paint: GPUPaint.Kind) throws -> GLProgram {
        guard specialises else { return caster }
        return try variant("caster", [("PAINT_KIND", paint.rawValue)] + lookupDefines)
    }

    /// The coverage compute programs (accumulate.comp, resolve.comp: GPUCoverage), compiled on
    /// first use.
    func coverage(_ pass: CoveragePass) throws -> GLProgram { try variant(pass.rawValue, []) }

    /// The clip chain product (clipproduct.comp: GPUFrame+Clips.swift), compiled on first use.
    func clipProduct() throws -> GLProgram { try variant("clipproduct", []) }

    /// A filter pass program (filter.frag, filterblur.frag: ShaderSources.filterPrograms) with
    /// its defines, compiled the first time it is asked for.
    func filterPass(_ name: String, _ defines: [(String, Int)]) throws -> GLProgram { try variant(name, defines) }

    private var lookupDefines: [(String, Int)] { lookupInUniforms ? [("LUT_UNIFORM", 1)] : [] }

    /// How many programs exist (generic and specialised).
    var count: Int { 4 + variants.count }

    private func variant(_ name: String, _ defines: [(String, Int)]) throws -> GLProgram {
        let key = name + defines.map { " \($0.0)=\($0.1)" }.joined()
        if let program = variants[key] { return program }
        let program = try ProgramCache.make(name, defines, label: key)
        variants[key] = program
        return program
    }

    /// Compiles and links `name` (a compute shader when `name.comp.glsl` exists, else a fragment
    /// shader drawn with the quad vertex shader) with the defines; `label` names it in errors
    /// (the bare name by default).
    private static func make(_ name: String, _ defines: [(String, Int)], label: String? = nil) throws -> GLProgram {
        let label = label ?? name
        if let source = ShaderSources.compute(name, defines: ShaderConstants.defines + defines) {
            return try GLProgram(label: label, compute: source)
        }
        guard let fragment = ShaderSources.fragment(name, defines: ShaderConstants.defines + defines) else {
            throw RenderError("GPU: no shader named \(name)")
        }
        return try GLProgram(label: label, vertex: ShaderSources.vertex(defines: ShaderConstants.defines), fragment: fragment)
    }
}

