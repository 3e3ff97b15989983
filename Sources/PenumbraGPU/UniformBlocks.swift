// UniformBlocks: every constant a pass needs reaches GLSL in a std140
// uniform block, written from a Swift struct that mirrors it field for field
// (each struct names its block and lists its fields with their GLSL names).
// std140 puts every vec4/ivec4/uvec4 and every array element on a 16-byte
// boundary, which is what a Swift struct of SIMD4 fields and InlineArrays of
// SIMD4 is too, so the struct's bytes are the block's: one buffer write per
// pass, no uniform looked up by name, nothing that can miss silently. A write
// sends only the prefix its value's programs read (a solid paint: 32 of the
// paint block's 1,264 bytes) and nothing when the buffer holds it already.
// UniformBlockLayoutTests checks each struct's offsets and size against the
// linked programs' own (glGetActiveUniformsiv), so a field added on one side
// only fails a test. Binding points come from `UniformBlock` and reach GLSL as
// `BLOCK_*` defines (ShaderConstants). 64-bit integers travel as (low, high)
// in the first two lanes of a uvec4.
import CEGL
import PenumbraModel
import PenumbraCore

/// The uniform block binding points, one per block (`BLOCK_<NAME>` in GLSL).
enum UniformBlock: Int, CaseIterable {
    /// blur.frag's kernel weights (GPUSharedObjects).
    case weights = 0
    /// mask.glsl's byte-to-float table (GPUSharedObjects).
    case lookup
    /// paint.glsl: PaintBlock.
    case paint
    /// composite.comp: CompositeBlock.
    case composite
    /// caster.frag: CasterBlock.
    case caster
    /// quad.vert: QuadBlock.
    case quad
    /// blur.frag: BlurBlock.
    case blur
    /// filter.frag and filterblur.frag: FilterBlock.
    case filter
    /// accumulate.comp and resolve.comp: CoverageBlock.
    case coverage
    /// clipproduct.comp: ClipProductBlock.
    case clipProduct
}

/// A Swift mirror of a std140 block: its binding point and its fields' GLSL names and offsets.
protocol UniformBlockMirror {
    static var block: UniformBlock { get }
    /// The block's name in GLSL.
    static var blockName: String { get }
    /// Each field's GLSL name (arrays: the name of element 0) and byte offset in the struct.
    static var fields: [(name: String, offset: Int)] { get }
    /// The leading bytes the programs read for this value (the rest is never read for it).
    var usedBytes: Int { get }
}

extension UniformBlockMirror {
    var usedBytes: Int { MemoryLayout<Self>.size }
}

/// Mirrors paint.glsl's `PaintBlock`: a PaintPlan's integers, in the order of what the paint
/// kinds read: a solid paint reads the first two fields, a gradient the fields up to the image's,
/// an image or placed pixels all of them. So a draw uploads only the prefix its kind reads
/// (`usedBytes`); paint.glsl never reads past it for that kind.
struct PaintBlock: UniformBlockMirror {
    /// A solid paint, premultiplied U8.
    var solid8 = SIMD4<Int32>.zero
    /// x: paint kind (generic program), y: has tint, z: nearest, w: gradient stop count.
    var info = SIMD4<Int32>.zero
    /// x: extend start, y: extend end, z: radial A24.
    var gradient = SIMD4<Int32>.zero
    /// RadialGradientPlan's cd.x, cd.y, r0, dr (Q16).
    var radialGeometry = SIMD4<Int32>.zero
    /// A linear gradient's t24: base, stepX, stepY.
    var linear = InlineArray<3, SIMD4<UInt32>>(repeating: .zero)
    /// A radial gradient's qx and qy: base, stepX, stepY each.
    var radialQ = InlineArray<6, SIMD4<UInt32>>(repeating: .zero)
    /// A template image's tint, premultiplied U8.
    var tint8 = SIMD4<Int32>.zero
    /// Placed pixels: their size in .zw.
    var placedRect = SIMD4<Int32>.zero
    /// ImageSamplingPlan per axis a: distance[3a + k] (base, stepX, stepY).
    var distance = InlineArray<6, SIMD4<UInt32>>(repeating: .zero)
    /// Per axis a: threshold[2a + k] (leading end, trailing start).
    var threshold = InlineArray<4, SIMD4<UInt32>>(repeating: .zero)
    /// Per region i = 3a + r: regionMap[3i + k].
    var regionMap = InlineArray<18, SIMD4<UInt32>>(repeating: .zero)
    /// Per region i: regionTile[2i + k] (tile length, tile start).
    var regionTile = InlineArray<12, SIMD4<UInt32>>(repeating: .zero)
    /// Per region i: (first, last) in .xy.
    var regionSpan = InlineArray<6, SIMD4<Int32>>(repeating: .zero)
    /// Per region pair: (level, atlas origin x, y, 0).
    var mipLevel = InlineArray<9, SIMD4<Int32>>(repeating: .zero)
    /// Per region pair: the level's last texel in .xy.
    var mipLast = InlineArray<9, SIMD4<Int32>>(repeating: .zero)

    /// The bytes the paint kind in `info.x` reads: the block up to the first field it does not.
    var usedBytes: Int {
        switch GPUPaint.Kind(rawValue: Int(info.x)) {
        case .solid: MemoryLayout<Self>.offset(of: \.gradient)!
        case .linear, .radial: MemoryLayout<Self>.offset(of: \.tint8)!
        case .image, .placed, nil: MemoryLayout<Self>.size
        }
    }

    static let block = UniformBlock.paint
    static let blockName = "PaintBlock"
    static var fields: [(name: String, offset: Int)] {
        [("uSolid8", MemoryLayout<Self>.offset(of: \.solid8)!), ("uPaintInfo", MemoryLayout<Self>.offset(of: \.info)!),
         ("uGradientInfo", MemoryLayout<Self>.offset(of: \.gradient)!),
         ("uRadialGeometry", MemoryLayout<Self>.offset(of: \.radialGeometry)!),
         ("uLinear[0]", MemoryLayout<Self>.offset(of: \.linear)!), ("uRadialQ[0]", MemoryLayout<Self>.offset(of: \.radialQ)!),
         ("uTint8", MemoryLayout<Self>.offset(of: \.tint8)!), ("uPlacedRect", MemoryLayout<Self>.offset(of: \.placedRect)!),
         ("uDistance[0]", MemoryLayout<Self>.offset(of: \.distance)!), ("uThreshold[0]", MemoryLayout<Self>.offset(of: \.threshold)!),
         ("uRegionMap[0]", MemoryLayout<Self>.offset(of: \.regionMap)!), ("uRegionTile[0]", MemoryLayout<Self>.offset(of: \.regionTile)!),
         ("uRegionSpan[0]", MemoryLayout<Self>.offset(of: \.regionSpan)!), ("uMipLevel[0]", MemoryLayout<Self>.offset(of: \.mipLevel)!),
         ("uMipLast[0]", MemoryLayout<Self>.offset(of: \.mipLast)!)]
    }
}

/// Mirrors compositepixel.glsl's `CompositeBlock`.
struct CompositeBlock: UniformBlockMirror {
    /// The target's frame origin on the device grid (xy) and the dispatch's first pixel in target pixels (zw).
    var origins = SIMD4<Int32>.zero
    var coverageRect = SIMD4<Int32>.zero
    var clipRect = SIMD4<Int32>.zero
    /// x: has coverage, y: has clip, z: context alpha (U8), w: blend mode (generic program).
    var info = SIMD4<Int32>.zero
    /// x: the coverage is a packed shadow plane (generic program); zw: the dispatch's width and height.
    var packing = SIMD4<Int32>.zero
    /// x: tiles per row of GPU coverage's tile list (0: a dense dispatch), y: the list's first
    /// tile word; z: the coverage's first row in its texture (a batch's atlas).
    var tiles = SIMD4<Int32>.zero

    static let block = UniformBlock.composite
    static let blockName = "CompositeBlock"
    static var fields: [(name: String, offset: Int)] {
        [("uOrigins", MemoryLayout<Self>.offset(of: \.origins)!), ("uCoverageRect", MemoryLayout<Self>.offset(of: \.coverageRect)!),
         ("uClipRect", MemoryLayout<Self>.offset(of: \.clipRect)!), ("uCompositeInfo", MemoryLayout<Self>.offset(of: \.info)!),
         ("uCompositePacking", MemoryLayout<Self>.offset(of: \.packing)!), ("uCompositeTiles", MemoryLayout<Self>.offset(of: \.tiles)!)]
    }
}

/// Mirrors caster.frag's `CasterBlock`.
struct CasterBlock: UniformBlockMirror {
    /// The device pixel of texel (0, 0), component 0, in .xy; has coverage (GPU coverage, four
    /// pixels a texel) in .z.
    var origin = SIMD4<Int32>.zero
    var planeRect = SIMD4<Int32>.zero
    var coverageRect = SIMD4<Int32>.zero

    static let block = UniformBlock.caster
    static let blockName = "CasterBlock"
    static var fields: [(name: String, offset: Int)] {
        [("uCasterOrigin", MemoryLayout<Self>.offset(of: \.origin)!), ("uPlaneRect", MemoryLayout<Self>.offset(of: \.planeRect)!),
         ("uCasterCoverageRect", MemoryLayout<Self>.offset(of: \.coverageRect)!)]
    }
}

/// Mirrors quad.vert's `QuadBlock`.
struct QuadBlock: UniformBlockMirror {
    /// The quad's corners in target pixels: x0, y0, x1, y1.
    var quad = SIMD4<Float>.zero
    /// The target's size in .xy.
    var target = SIMD4<Float>.zero

    static let block = UniformBlock.quad
    static let blockName = "QuadBlock"
    static var fields: [(name: String, offset: Int)] {
        [("uQuad", MemoryLayout<Self>.offset(of: \.quad)!), ("uTarget", MemoryLayout<Self>.offset(of: \.target)!)]
    }
}

/// Mirrors blur.frag's `BlurBlock`.
struct BlurBlock: UniformBlockMirror {
    /// x: the kernel radius.
    var info = SIMD4<Int32>.zero

    static let block = UniformBlock.blur
    static let blockName = "BlurBlock"
    static var fields: [(name: String, offset: Int)] { [("uBlurInfo", MemoryLayout<Self>.offset(of: \.info)!)] }
}

/// Mirrors filterblock.glsl's `FilterBlock` (GPUFilterEvaluator's passes).
struct FilterBlock: UniformBlockMirror {
    /// The output's graph pixel at texel (0, 0) in .xy; the blur radius in .z.
    var origin = SIMD4<Int32>.zero
    /// Each input's rect (x, y, width, height) in graph pixels.
    var inputRects = InlineArray<3, SIMD4<Int32>>(repeating: .zero)
    /// constantColor, U8 premultiplied.
    var constant = SIMD4<Int32>.zero
    /// clampToExtent's input extent.
    var clampExtent = SIMD4<Int32>.zero
    /// unsharpMask's Q12 intensity as (low, high).
    var intensity = SIMD4<UInt32>.zero
    /// A colour filter's Q12 parameters as (low, high).
    var colorParams = InlineArray<20, SIMD4<UInt32>>(repeating: .zero)

    static let block = UniformBlock.filter
    static let blockName = "FilterBlock"
    static var fields: [(name: String, offset: Int)] {
        [("uFilterOrigin", MemoryLayout<Self>.offset(of: \.origin)!), ("uInputRect[0]", MemoryLayout<Self>.offset(of: \.inputRects)!),
         ("uConstant", MemoryLayout<Self>.offset(of: \.constant)!), ("uClampExtent", MemoryLayout<Self>.offset(of: \.clampExtent)!),
         ("uIntensity", MemoryLayout<Self>.offset(of: \.intensity)!), ("uColorParams[0]", MemoryLayout<Self>.offset(of: \.colorParams)!)]
    }
}

/// Mirrors coveragecells.glsl's `CoverageBlock` (GPUCoverage's passes).
struct CoverageBlock: UniformBlockMirror {
    /// x: ops in the batch, y: their points, z: the batch's tile stamp.
    var info = SIMD4<Int32>.zero
    /// The rows of each op this pass covers: first and count.
    var band = SIMD4<Int32>.zero

    static let block = UniformBlock.coverage
    static let blockName = "CoverageBlock"
    static var fields: [(name: String, offset: Int)] {
        [("uCoverageInfo", MemoryLayout<Self>.offset(of: \.info)!), ("uCoverageBand", MemoryLayout<Self>.offset(of: \.band)!)]
    }
}

/// Mirrors clipproduct.comp's `ClipProductBlock` (a clip chain's product: GPUFrame+Clips.swift).
struct ClipProductBlock: UniformBlockMirror {
    /// The node's coverage rectangle on the device grid, which the product covers too.
    var ownRect = SIMD4<Int32>.zero
    /// Its ancestors' coverage rectangle.
    var outerRect = SIMD4<Int32>.zero

    static let block = UniformBlock.clipProduct
    static let blockName = "ClipProductBlock"
    static var fields: [(name: String, offset: Int)] {
        [("uOwnRect", MemoryLayout<Self>.offset(of: \.ownRect)!), ("uOuterRect", MemoryLayout<Self>.offset(of: \.outerRect)!)]
    }
}

/// One uniform buffer per block a pass writes, each rewritten before the draw that reads it
/// unless it holds that value already.
final class UniformBuffers {
    private var buffers: [UniformBlock: GLuint] = [:]
    /// The bytes each buffer holds (its value's used prefix), for skipping a rewrite of the same.
    private var written: [UniformBlock: [UInt8]] = [:]
    private let counters: GPUCounters

    init(counters: GPUCounters) { self.counters = counters }

    /// Puts `value`'s used bytes (`usedBytes`) at the start of its block's buffer, in a fresh
    /// store of the block's whole size so the driver need not wait for earlier draws (the
    /// programs read nothing past the used bytes for this value), and binds it to the block's
    /// binding point. A value equal to the one the buffer holds is only bound.
    func write<Mirror: UniformBlockMirror>(_ value: Mirror) {
        let block = Mirror.block
        var name = buffers[block] ?? 0
        if name == 0 {
            glGenBuffers(1, &name)
            buffers[block] = name
        }
        glBindBuffer(glEnum(GL_UNIFORM_BUFFER), name)
        withUnsafeBytes(of: value) { all in
            let used = UnsafeRawBufferPointer(rebasing: all.prefix(value.usedBytes))
            if let held = written[block], held.elementsEqual(used) { return }
            counters.upload(used.count) {
                glBufferData(glEnum(GL_UNIFORM_BUFFER), all.count, nil, glEnum(GL_STREAM_DRAW))
                glBufferSubData(glEnum(GL_UNIFORM_BUFFER), 0, used.count, used.baseAddress)
            }
            written[block] = Array(used)
        }
        glBindBufferBase(glEnum(GL_UNIFORM_BUFFER), GLuint(block.rawValue), name)
    }

    /// A rectangle as a block's ivec4 (x, y, width, height).
    static func rect(_ r: PixelRect) -> SIMD4<Int32> { SIMD4(Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height)) }

    /// Deletes the buffers (the context must be current).
    func delete() {
        var names = Array(buffers.values)
        glDeleteBuffers(GLsizei(names.count), &names)
        buffers = [:]
        written = [:]
    }
}
