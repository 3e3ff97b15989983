// GPUPaint: an op's paint as paint.glsl's uniforms. Images and layers send
// the shared fixed-point ImageSamplingPlan (Core), the very integers the CPU
// samples with; gradients send GradientPlan's and RadialGradientPlan's
// integers, and their ramp goes in a small texture.
import CEGL
import PenumbraCore

/// The paint of one op on the GPU.
enum GPUPaint {
    /// A premultiplied U8 colour.
    case solid(SIMD4<UInt8>)
    /// An image draw, its RGBA8UI texture and its mip atlas's (ImageSamplingPlan.mipmaps; the
    /// image's texture again when the draw samples no level above 0).
    case image(ImageDraw, texture: GLuint, mipmaps: GLuint)
    /// A gradient and its stop texture.
    case gradient(GradientDraw, stops: GLuint)
    /// A finished layer, placed 1:1 on the device grid.
    case layer(GLTarget)

    /// paint.glsl's paint kinds, reaching GLSL as the `PAINT_` defines (ShaderConstants).
    enum Kind: Int, CaseIterable {
        case solid, image, linear, radial, layer
    }

    var kind: Kind {
        switch self {
        case .solid: return .solid
        case .image: return .image
        case .gradient(let g, _): if case .linear = g.kind { return .linear } else { return .radial }
        case .layer: return .layer
        }
    }

    /// The ramp as an N x 2 RGBA32F texture: row 0 its U8 colours, row 1 its Q16 offsets
    /// (GradientRamp; integers, which floats hold exactly).
    static func stopTexture(_ g: GradientDraw, _ lease: GLLease) throws -> GLTexture {
        let n = max(1, g.stops.count)
        let ramp = GradientRamp(g.stops)
        var values = [SIMD4<Float>](repeating: .zero, count: 2 * n)
        for i in g.stops.indices {
            values[i] = SIMD4<Float>(ramp.colors[i])
            values[n + i] = SIMD4<Float>(Float(ramp.offsets[i]), 0, 0, 0)
        }
        return try lease.table(values, width: n, rows: 2)
    }

    /// Sets the paint uniforms and binds its textures; `offset` is the shadow offset the paint is
    /// moved by.
    func apply(to program: GLProgram, offset: Point) {
        program.set("uPaintKind", kind.rawValue) // only the generic program has it
        switch self {
        case .solid(let color):
            program.set("uSolid8", ints: [SIMD4<Int32>(truncatingIfNeeded: color)])
        case .image(let draw, let texture, let mipmaps):
            applyImage(draw, program, offset)
            bind(texture, .image)
            bind(mipmaps, .mipmaps)
        case .gradient(let g, let stops):
            applyGradient(g, program, offset)
            bind(stops, .stops)
        case .layer(let layer):
            program.set("uLayerRect", layer.frame)
            GPUPaint.applyPlan(ImageSamplingPlan(layerFrame: layer.frame, offset: offset), program)
            bind(layer.texture.name, .layer)
        }
    }

    private func bind(_ texture: GLuint, _ unit: GPURenderer.Unit) {
        glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(unit.rawValue))
        glBindTexture(glEnum(GL_TEXTURE_2D), texture)
    }

    // MARK: Images and layers

    /// A 64-bit integer as paint.glsl's uvec2 (low word, high word).
    static func words(_ v: Int64) -> SIMD2<UInt32> {
        let bits = UInt64(bitPattern: v)
        return SIMD2(UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32))
    }

    /// The shared fixed-point plan as paint.glsl's uniforms (see its header for the layout).
    private static func applyPlan(_ plan: ImageSamplingPlan, _ program: GLProgram) {
        func affine(_ a: FixedAffine) -> [SIMD2<UInt32>] { [words(a.base), words(a.stepX), words(a.stepY)] }
        let axes = [plan.horizontal, plan.vertical]
        program.set("uDistance", uints: axes.flatMap { affine($0.distance) })
        program.set("uThreshold", uints: axes.flatMap { [words($0.leadingEnd), words($0.trailingStart)] })
        let regions = axes.flatMap(\.regions)
        program.set("uRegionMap", uints: regions.flatMap { affine($0.map) })
        program.set("uRegionTile", uints: regions.flatMap { [words($0.tile), words($0.tileStart)] })
        program.set("uRegionSpan", ints2: regions.map { SIMD2($0.first, $0.last) })
        program.set("uNearest", plan.nearest)
        program.set("uMipLevel", ints: plan.levels.map { SIMD4($0.level, $0.originX, $0.originY, 0) })
        program.set("uMipLast", ints2: plan.levels.map { SIMD2($0.lastX, $0.lastY) })
    }

    private func applyImage(_ draw: ImageDraw, _ program: GLProgram, _ offset: Point) {
        GPUPaint.applyPlan(ImageSamplingPlan(draw, offset: offset), program)
        program.set("uHasTint", draw.tint != nil)
        program.set("uTint8", ints: [SIMD4<Int32>(truncatingIfNeeded: draw.tint?.premultiplied8 ?? .zero)])
    }

    // MARK: Gradients

    private func applyGradient(_ g: GradientDraw, _ program: GLProgram, _ offset: Point) {
        program.set("uStopCount", g.stops.count)
        var extend = (g.extendStart, g.extendEnd)
        switch g.kind {
        case .linear:
            // The shared fixed-point parameter; none draws nothing: t = -1 before an unextended start.
            let t = LinearGradientPlan(g, offset: offset).parameter
            if t == nil { extend.0 = false }
            let affine = t ?? FixedAffine(base: -(1 << 24), stepX: 0, stepY: 0)
            program.set("uLinear", uints: [affine.base, affine.stepX, affine.stepY].map(GPUPaint.words))
        case .radial:
            // None draws nothing: no root anywhere (A = 0, and b = 0 so that s = 0).
            let plan = RadialGradientPlan(g, offset: offset)
            let q = plan.map { [$0.qx, $0.qy] } ?? [FixedAffine(base: 0, stepX: 0, stepY: 0), FixedAffine(base: 0, stepX: 0, stepY: 0)]
            program.set("uRadialQ", uints: q.flatMap { [$0.base, $0.stepX, $0.stepY] }.map(GPUPaint.words))
            program.set("uRadialGeometry", ints: [SIMD4<Int32>(plan?.cdx ?? 0, plan?.cdy ?? 0, plan?.r0 ?? 0, plan?.dr ?? 0)])
            program.set("uRadialA24", Int(plan?.a24 ?? 0))
        }
        program.set("uExtend", extend.0 ? 1 : 0, extend.1 ? 1 : 0)
    }
}
