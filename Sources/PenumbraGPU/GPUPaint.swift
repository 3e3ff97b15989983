// GPUPaint: an op's paint as paint.glsl's uniforms. The CPU shaders map each
// pixel centre (minus a shadow offset) back through the inverse transform in
// Double; here that map, affine in the pixel, is evaluated in Double at the
// pixel `origin` and its per-pixel steps are sent along, so the shader only
// adds small multiples of them in float. Nine-slice regions (SliceAxis in
// PenumbraCPU/ImageShader.swift) are resolved here in Double, exactly as the
// CPU does, into per-region constants; gradients' stops go in a texture.
import CEGL
import PenumbraCore

/// The paint of one op on the GPU.
enum GPUPaint {
    /// A premultiplied U8 colour.
    case solid(SIMD4<UInt8>)
    /// An image draw and its RGBA8UI texture.
    case image(ImageDraw, texture: GLuint)
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

    /// The stops as an N x 2 RGBA32F texture: row 0 premultiplied colours, row 1 offsets.
    static func stopTexture(_ g: GradientDraw, _ lease: GLLease) throws -> GLTexture {
        let n = max(1, g.stops.count)
        var values = [SIMD4<Float>](repeating: .zero, count: 2 * n)
        for (i, s) in g.stops.enumerated() {
            values[i] = SIMD4<Float>(s.color.premultiplied)
            values[n + i] = SIMD4<Float>(Float(s.offset), 0, 0, 0)
        }
        return try lease.table(values, width: n, rows: 2)
    }

    /// Sets the paint uniforms and binds its textures; `origin` is the device pixel the affine
    /// maps start from, `offset` the shadow offset the paint is moved by.
    func apply(to program: GLProgram, origin: (Int, Int), offset: Point) {
        program.set("uPaintOrigin", origin.0, origin.1)
        program.set("uPaintKind", kindIndex) // only the generic program has it
        switch self {
        case .solid(let color):
            // The bytes for the composite; their Floats k / 255 (the byte table) for the caster.
            program.set("uSolid8", ints: [SIMD4<Int32>(truncatingIfNeeded: color)])
            program.set("uSolid", SIMD4(Fixed.unitFloats[Int(color.x)], Fixed.unitFloats[Int(color.y)],
                                        Fixed.unitFloats[Int(color.z)], Fixed.unitFloats[Int(color.w)]))
        case .image(let draw, let texture):
            applyImage(draw, program, origin, offset)
            bind(texture, .image)
        case .gradient(let g, let stops):
            applyGradient(g, program, origin, offset)
            bind(stops, .stops)
        case .layer(let layer):
            program.set("uLayerRect", layer.frame)
            let sx = (-offset.x).rounded(.down), sy = (-offset.y).rounded(.down)
            program.set("uLayerShift", Int(sx), Int(sy))
            program.set("uLayerFraction", Float(-offset.x - sx), Float(-offset.y - sy))
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

    // MARK: Images

    private func applyImage(_ draw: ImageDraw, _ program: GLProgram, _ origin: (Int, Int), _ offset: Point) {
        let (user, ux, uy) = GPUPaint.userMap(draw.transform, origin, offset)
        let rect = draw.rect
        // Destination-rectangle distances (lx mirrored when flipped), affine in the pixel.
        var base = Point(x: user.x - rect.minX, y: user.y - rect.minY)
        var stepX = ux, stepY = uy
        if draw.flippedHorizontally { base.x = rect.width - base.x; stepX.x = -stepX.x; stepY.x = -stepY.x }
        let insets = draw.slicing?.capInsets ?? .zero
        let axes = [
            GPUSliceAxis(destination: rect.width, pixels: draw.bitmap.width, scale: draw.scale,
                         leadingCap: insets.left, trailingCap: insets.right, mode: draw.slicing?.mode),
            GPUSliceAxis(destination: rect.height, pixels: draw.bitmap.height, scale: draw.scale,
                         leadingCap: insets.top, trailingCap: insets.bottom, mode: draw.slicing?.mode),
        ]
        // A plain axis maps straight to image pixels: fold `d / destination * pixels` into the map.
        for (axis, a) in axes.enumerated() where !a.sliced {
            let k = a.destination > 0 ? Double(a.pixels) / a.destination : 0
            if axis == 0 { base.x *= k; stepX.x *= k; stepY.x *= k } else { base.y *= k; stepX.y *= k; stepY.y *= k }
        }
        GPUPaint.setMap(program, base, stepX, stepY)
        program.set("uImagePixels", draw.bitmap.width, draw.bitmap.height)
        program.set("uAxisSliced", axes[0].sliced ? 1 : 0, axes[1].sliced ? 1 : 0)
        program.set("uAxisBounds", SIMD4<Float>(Float(axes[0].leadingDest), Float(axes[0].destination - axes[0].trailingDest),
                                                Float(axes[1].leadingDest), Float(axes[1].destination - axes[1].trailingDest)))
        let regions = axes.flatMap { $0.regions }
        program.set("uAxisRegion", floats: regions.map(\.floats))
        program.set("uAxisSpan", ints: regions.map(\.ints))
        program.set("uImageScale", Float(draw.scale))
        program.set("uHasTint", draw.tint != nil)
        program.set("uTint", SIMD4<Float>(draw.tint?.premultiplied ?? .zero))
    }

    // MARK: Gradients

    private func applyGradient(_ g: GradientDraw, _ program: GLProgram, _ origin: (Int, Int), _ offset: Point) {
        let (user, ux, uy) = GPUPaint.userMap(g.transform, origin, offset)
        program.set("uStopCount", g.stops.count)
        var extend = (g.extendStart, g.extendEnd)
        switch g.kind {
        case .linear(let start, let end):
            let d = end - start
            let len2 = d.dot(d)
            if len2 > 0 {
                GPUPaint.setMap(program, Point(x: (user - start).dot(d) / len2, y: 0),
                                Point(x: ux.dot(d) / len2, y: 0), Point(x: uy.dot(d) / len2, y: 0))
            } else {
                // Draws nothing (GradientShader.parameter returns nil): t = -1 before an unextended start.
                GPUPaint.setMap(program, Point(x: -1, y: 0), Point(x: 0, y: 0), Point(x: 0, y: 0))
                extend.0 = false
            }
        case .radial(let c0, let r0, let c1, let r1):
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
