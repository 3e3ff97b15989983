// GPUPaint: an op's paint as paint.glsl's uniforms. Images and layers send
// the shared fixed-point ImageSamplingPlan (Core), the very integers the CPU
// samples with. Gradients map each pixel centre (minus a shadow offset) back
// through the inverse transform: that map, affine in the pixel, is evaluated
// in Double at the pixel `origin` and its per-pixel steps are sent along, so
// the shader only adds small multiples of them in float; their stops go in a
// texture.
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

    /// paint.glsl's paint kind: 0 solid, 1 image, 2 linear, 3 radial, 4 layer.
    var kindIndex: Int {
        switch self {
        case .solid: return 0
        case .image: return 1
        case .gradient(let g, _): return g.kindIndex
        case .layer: return 4
        }
    }

    /// The stops as an N x 4 RGBA32F texture: row 0 premultiplied colours and row 1 offsets
    /// (radial gradients, Float); row 2 the ramp's U8 colours and row 3 its Q16 offsets
    /// (GradientRamp; integers, which floats hold exactly).
    static func stopTexture(_ g: GradientDraw, _ lease: GLLease) throws -> GLTexture {
        let n = max(1, g.stops.count)
        let ramp = GradientRamp(g.stops)
        var values = [SIMD4<Float>](repeating: .zero, count: 4 * n)
        for (i, s) in g.stops.enumerated() {
            values[i] = SIMD4<Float>(s.color.premultiplied)
            values[n + i] = SIMD4<Float>(Float(s.offset), 0, 0, 0)
            values[2 * n + i] = SIMD4<Float>(ramp.colors[i])
            values[3 * n + i] = SIMD4<Float>(Float(ramp.offsets[i]), 0, 0, 0)
        }
        return try lease.table(values, width: n, rows: 4)
    }

    /// Sets the paint uniforms and binds its textures; `origin` is the device pixel the affine
    /// maps start from, `offset` the shadow offset the paint is moved by.
    func apply(to program: GLProgram, origin: (Int, Int), offset: Point) {
        program.set("uPaintOrigin", origin.0, origin.1)
        program.set("uPaintKind", kindIndex) // only the generic program has it
        switch self {
        case .solid(let color):
            program.set("uSolid8", ints: [SIMD4<Int32>(truncatingIfNeeded: color)])
        case .image(let draw, let texture, let mipmaps):
            applyImage(draw, program, origin, offset)
            bind(texture, .image)
            bind(mipmaps, .mipmaps)
        case .gradient(let g, let stops):
            applyGradient(g, program, origin, offset)
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

    /// The user-space point of the pixel centre at `origin` (minus the offset) and the steps of
    /// one pixel in x and y, through the inverse of `transform`.
    private static func userMap(_ transform: AffineTransform, _ origin: (Int, Int), _ offset: Point)
        -> (base: Point, stepX: Point, stepY: Point) {
        let inverse = transform.inverted() ?? .identity
        let base = inverse.apply(Point(x: Double(origin.0) + 0.5 - offset.x, y: Double(origin.1) + 0.5 - offset.y))
        return (base, Point(x: inverse.a, y: inverse.b), Point(x: inverse.c, y: inverse.d))
    }

    private static func setMap(_ program: GLProgram, _ base: Point, _ stepX: Point, _ stepY: Point) {
        program.set("uMap0", Float(base.x), Float(base.y))
        program.set("uMapX", Float(stepX.x), Float(stepX.y))
        program.set("uMapY", Float(stepY.x), Float(stepY.y))
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

    private func applyImage(_ draw: ImageDraw, _ program: GLProgram, _ origin: (Int, Int), _ offset: Point) {
        GPUPaint.applyPlan(ImageSamplingPlan(draw, offset: offset), program)
        program.set("uHasTint", draw.tint != nil)
        program.set("uTint8", ints: [SIMD4<Int32>(truncatingIfNeeded: draw.tint?.premultiplied8 ?? .zero)])
    }

    // MARK: Gradients

    private func applyGradient(_ g: GradientDraw, _ program: GLProgram, _ origin: (Int, Int), _ offset: Point) {
        program.set("uStopCount", g.stops.count)
        var extend = (g.extendStart, g.extendEnd)
        switch g.kind {
        case .linear:
            // The shared fixed-point parameter; none draws nothing: t = -1 before an unextended start.
            let t = LinearGradientPlan(g, offset: offset).parameter
            if t == nil { extend.0 = false }
            let affine = t ?? FixedAffine(base: -(1 << 24), stepX: 0, stepY: 0)
            program.set("uLinear", uints: [affine.base, affine.stepX, affine.stepY].map(GPUPaint.words))
        case .radial(let c0, let r0, let c1, let r1):
            let (user, ux, uy) = GPUPaint.userMap(g.transform, origin, offset)
            let cd = c1 - c0, dr = r1 - r0
            let a = cd.dot(cd) - dr * dr
            GPUPaint.setMap(program, user - c0, ux, uy)
            program.set("uRadial", SIMD4<Float>(Float(cd.x), Float(cd.y), Float(r0), Float(dr)))
            program.set("uRadialA", Float(a))
            program.set("uRadialDegenerate", abs(a) < 1e-12 * max(1, cd.dot(cd) + dr * dr))
        }
        program.set("uExtend", extend.0 ? 1 : 0, extend.1 ? 1 : 0)
    }
}

extension GradientDraw {
    /// paint.glsl's kind: 2 linear, 3 radial.
    var kindIndex: Int { if case .linear = kind { return 2 } else { return 3 } }
}
