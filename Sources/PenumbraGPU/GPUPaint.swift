// GPUPaint: a draw's PaintPlan (Core) on the GPU: its textures (an image and
// its mip atlas from the content-keyed cache, a gradient's ramp, a finished
// layer or a backdrop's pixels) and its integers as paint.glsl's PaintBlock.
// The plan's constants are copied, never derived: images and placed pixels
// send the shared fixed-point ImageSamplingPlan, the very integers the CPU
// samples with; gradients send GradientPlan's and RadialGradientPlan's
// integers, and their ramp goes in a small texture. A shadow's caster uses
// the same textures with the plan resolved at the shadow's offset.
import CEGL
import PenumbraModel
import PenumbraCore

/// The textures of one draw's paint, bound to their units.
struct GPUPaint {
    /// paint.glsl's paint kinds, reaching GLSL as the `PAINT_` defines (ShaderConstants).
    enum Kind: Int, CaseIterable {
        case solid, image, linear, radial, placed
    }

    let kind: Kind
    /// The textures to bind, by unit.
    private let textures: [(GLuint, GPURenderer.Unit)]

    init(kind: Kind, textures: [(GLuint, GPURenderer.Unit)] = []) { self.kind = kind; self.textures = textures }

    /// The kind of paint a plan is.
    static func kind(of plan: PaintPlan) -> Kind {
        switch plan {
        case .solid: return .solid
        case .image: return .image
        case .placed: return .placed
        case .linearGradient: return .linear
        case .radialGradient: return .radial
        }
    }

    /// The ramp as an N x 2 RGBA32F texture: row 0 its U8 colours, row 1 its Q16 offsets
    /// (integers, which floats hold exactly).
    static func stopTexture(_ ramp: GradientRamp, _ lease: GLLease) throws -> GLTexture {
        let n = max(1, ramp.offsets.count)
        var values = [SIMD4<Float>](repeating: .zero, count: 2 * n)
        for i in ramp.offsets.indices {
            values[i] = SIMD4<Float>(ramp.colors[i])
            values[n + i] = SIMD4<Float>(Float(ramp.offsets[i]), 0, 0, 0)
        }
        return try lease.table(values, width: n, rows: 2)
    }

    /// Binds the textures and writes `plan` (this paint's, or its shadow's) into the paint block.
    func apply(_ plan: PaintPlan, _ uniforms: UniformBuffers) {
        for (texture, unit) in textures {
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(unit.rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), texture)
        }
        uniforms.write(GPUPaint.block(plan))
    }

    /// The plan's integers as paint.glsl's block.
    static func block(_ plan: PaintPlan) -> PaintBlock {
        var block = PaintBlock()
        block.info.x = Int32(kind(of: plan).rawValue)
        switch plan {
        case .solid(let color):
            block.solid8 = SIMD4<Int32>(truncatingIfNeeded: color)
        case .image(let image):
            block.set(image.sampling)
            block.info.y = image.tint8 == nil ? 0 : 1
            block.tint8 = SIMD4<Int32>(truncatingIfNeeded: image.tint8 ?? .zero)
        case .placed(let placed):
            block.set(placed.sampling)
            block.placedRect = SIMD4<Int32>(Int32(placed.frame.x), Int32(placed.frame.y),
                                            Int32(placed.frame.width), Int32(placed.frame.height))
            block.info.y = placed.luminanceToAlpha ? 1 : 0
        case .linearGradient(let g):
            block.info.w = Int32(g.ramp.offsets.count)
            // None draws nothing: t = -1 before an unextended start.
            let t = g.parameter ?? FixedAffine(base: -(1 << 24), stepX: 0, stepY: 0)
            block.gradient = SIMD4(g.parameter == nil || !g.extendStart ? 0 : 1, g.extendEnd ? 1 : 0, 0, 0)
            for (k, v) in [t.base, t.stepX, t.stepY].enumerated() { block.linear[k] = words(v) }
        case .radialGradient(let g):
            block.info.w = Int32(g.ramp.offsets.count)
            block.gradient = SIMD4(g.solve?.extendStart == true ? 1 : 0, g.solve?.extendEnd == true ? 1 : 0, g.solve?.a24 ?? 0, 0)
            // None draws nothing: no root anywhere (A = 0, and b = 0 so that s = 0).
            if let solve = g.solve {
                block.radialGeometry = SIMD4(solve.cdx, solve.cdy, solve.r0, solve.dr)
                for (k, v) in [solve.qx.base, solve.qx.stepX, solve.qx.stepY, solve.qy.base, solve.qy.stepX, solve.qy.stepY].enumerated() {
                    block.radialQ[k] = words(v)
                }
            }
        }
        return block
    }

    /// A 64-bit integer as (low word, high word) in the first two lanes.
    static func words(_ v: Int64) -> SIMD4<UInt32> {
        let bits = UInt64(bitPattern: v)
        return SIMD4(UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32), 0, 0)
    }
}

extension PaintBlock {
    /// The shared fixed-point sampling plan (see paint.glsl's block for the layout).
    mutating func set(_ plan: ImageSamplingPlan) {
        for (a, axis) in [plan.horizontal, plan.vertical].enumerated() {
            for (k, v) in [axis.distance.base, axis.distance.stepX, axis.distance.stepY].enumerated() {
                distance[3 * a + k] = GPUPaint.words(v)
            }
            threshold[2 * a] = GPUPaint.words(axis.leadingEnd)
            threshold[2 * a + 1] = GPUPaint.words(axis.trailingStart)
            for (r, region) in axis.regions.enumerated() {
                let i = 3 * a + r
                for (k, v) in [region.map.base, region.map.stepX, region.map.stepY].enumerated() {
                    regionMap[3 * i + k] = GPUPaint.words(v)
                }
                regionTile[2 * i] = GPUPaint.words(region.tile)
                regionTile[2 * i + 1] = GPUPaint.words(region.tileStart)
                regionSpan[i] = SIMD4(region.first, region.last, 0, 0)
            }
        }
        info.z = plan.nearest ? 1 : 0
        for (i, level) in plan.levels.enumerated() {
            mipLevel[i] = SIMD4(level.level, level.originX, level.originY, 0)
            mipLast[i] = SIMD4(level.lastX, level.lastY, 0, 0)
        }
    }
}
