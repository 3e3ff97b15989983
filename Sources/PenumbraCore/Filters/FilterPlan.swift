// FilterPlan: a filter graph lowered, for one requested region, into the
// passes both renderers execute, in order. The region-of-interest walk
// (FilterRegions.swift) runs once, here: each node asked for a region
// becomes a pass over its computed region (the region within its extent;
// transparent outside it), after the passes of the inputs it reads, each
// input asked for exactly what the node reads of it. Every parameter a pass
// needs is resolved here, once: a blur's integer kernel (GaussianKernel), a
// colour filter's fixed-point words (ColorFilterKernel), unsharpMask's Q12
// intensity, a generator's display list, clampToExtent's rectangles. The
// renderers then execute the list without walking the graph: PenumbraCPU's
// FilterEvaluator on bitmaps, PenumbraGPU's GPUFilterEvaluator as passes
// over textures. Both read an input "over" a rectangle the same way (its
// pixels there, transparent outside its own), so the bytes are fixed by the
// passes and the shared integer arithmetic alone.
//
// A pass may stand for pixels the renderer already has (`input`: a shadow's
// caster plane, the target under a backdrop blur): the lowering is given the
// stand-in node (FilterNode.standIn) and emits an `input` pass wherever the
// graph holds it. crop, and clampToExtent of an infinite input, need no pass
// of their own: the input asked for the cropped region is the result.
// Every region asked of any node is checked against the pixel limit while
// lowering, before anything is allocated.

import PenumbraModel

/// A filter graph lowered into passes for one region (FilterPlan.swift).
@usableFromInline package struct FilterPlan: Sendable {
    /// One pass: it computes the pixels of `rect`, and is transparent outside them.
    package struct Pass: Sendable {
        package let operation: Operation
        /// The pixels the pass computes (empty: a transparent pass).
        package let rect: PixelRect
    }

    /// What a pass computes. Inputs are earlier passes, by index; each is read over the
    /// rectangle the operation names (or over this pass's `rect`).
    package enum Operation: Sendable {
        /// Nothing: every pixel transparent.
        case transparent
        /// The pixels the renderer holds for the plan's stand-in node (they may cover more than `rect`).
        case input
        /// The source bitmap's pixels over `rect` (extent [0, 0, width, height]).
        case bitmap(Bitmap)
        /// Every pixel this premultiplied colour.
        case constant(SIMD4<UInt8>)
        /// A gradient generator: the display list drawn over `rect` (its canvas is the pass).
        case draw(DisplayList)
        /// The input read over `read`, blurred by `kernel` (each channel as a plane, zeros
        /// outside `read`), kept over `rect`.
        case blur(Int, kernel: GaussianKernel, read: PixelRect)
        /// `c + roundQ12(intensity (c - blur(c)))` on premultiplied values, colour clamped to
        /// 0...alpha: the input read over `read`, its blur as `blur`'s.
        case unsharp(Int, kernel: GaussianKernel, intensity: Int64, read: PixelRect)
        /// The colour filter's fixed-point formula on each pixel of the input read over `rect`.
        case color(Int, ColorFilterKernel)
        /// mix(background, input, luma of the mask), each read over `rect` (nil: transparent).
        case blendWithMask(Int, mask: Int, background: Int?)
        /// The input blended over the background with `mode`, both read over `rect`.
        case composite(Int, background: Int, mode: BlendMode)
        /// Each pixel the input's pixel at its coordinates clamped into `extent`; the input is
        /// read over `read`.
        case clamp(Int, extent: PixelRect, read: PixelRect)
        /// `source`'s pixels drawn as drawImage draws them under `matrix` (ImageFilter.affineDisplayList).
        case resample(ResampleSource, matrix: AffineTransform, read: PixelRect)
    }

    /// What an affineTransform draws: an earlier pass read over the operation's `read`, or a
    /// source bitmap that is exactly that (drawn without a pass, so no copy is made of it).
    package enum ResampleSource: Sendable {
        case pass(Int)
        case bitmap(Bitmap)
    }

    /// The passes, inputs before the passes that read them; the last is the result.
    package let passes: [Pass]
    /// The region the plan was lowered for: the result is read over it.
    package let region: PixelRect

    /// Lowers `node` for `region`; `input` is the stand-in node whose pixels the renderer
    /// provides. Throws when a region asked of some node is over `maxPixels`.
    package init(_ node: FilterNode, in region: PixelRect, input: FilterNode? = nil, maxPixels: Int) throws(FilterError) {
        var lowering = Lowering(input: input, maxPixels: maxPixels)
        _ = try lowering.lower(node, in: region)
        passes = lowering.passes
        self.region = region
    }

    /// A backdrop's replacement (a backdrop blur's, the filtered backdrop under a layer ended as
    /// a mask): `graph` over a stand-in for the pixels of a target of `frame`, asked for
    /// `bounds` (device grid, inside the frame) in the target's own grid (origin its top-left).
    /// Such a graph reads no more than the target holds; were it refused, the replacement would
    /// be transparent.
    package static func backdrop(_ graph: (FilterNode) -> FilterNode, frame: PixelRect, bounds: PixelRect) -> FilterPlan {
        let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
        let backdrop = FilterNode.standIn(extent: PixelRect(x: 0, y: 0, width: frame.width, height: frame.height))
        return (try? FilterPlan(graph(backdrop), in: local, input: backdrop, maxPixels: Int.max / 4))
            ?? FilterPlan(passes: [Pass(operation: .transparent, rect: PixelRect(x: 0, y: 0, width: 0, height: 0))], region: local)
    }

    private init(passes: [Pass], region: PixelRect) {
        self.passes = passes; self.region = region
    }

    /// The result pass's index.
    package var result: Int { passes.count - 1 }

    /// For each pass, the index of the last pass that reads it (`passes.count` for the result):
    /// after that pass an executor may let its pixels go.
    package var lastReaders: [Int] {
        var last = [Int](repeating: -1, count: passes.count)
        for (index, pass) in passes.enumerated() {
            for input in pass.operation.inputs { last[input] = index }
        }
        last[result] = passes.count
        return last
    }
}

extension FilterPlan.Operation {
    /// The passes this operation reads.
    package var inputs: [Int] {
        switch self {
        case .transparent, .input, .bitmap, .constant, .draw: return []
        case .blur(let i, _, _), .unsharp(let i, _, _, _), .color(let i, _), .clamp(let i, _, _): return [i]
        case .blendWithMask(let i, let mask, let background): return [i, mask] + (background.map { [$0] } ?? [])
        case .composite(let i, let background, _): return [i, background]
        case .resample(.pass(let i), _, _): return [i]
        case .resample(.bitmap, _, _): return []
        }
    }
}

/// The walk that emits the passes.
private struct Lowering {
    let input: FilterNode?
    let maxPixels: Int
    var passes: [FilterPlan.Pass] = []

    /// Emits the passes of `node` asked for `region`; returns the index of the one holding its pixels.
    mutating func lower(_ node: FilterNode, in region: PixelRect) throws(FilterError) -> Int {
        try check(region)
        if let input, node == input { return emit(.input, over: region) }
        let inside = node.computedRegion(in: region)
        if inside.isEmpty { return emit(.transparent, over: Self.nothing) }
        switch node {
        case .bitmap(let bitmap):
            return emit(.bitmap(bitmap), over: inside)
        case .generator(.constantColor(let color)):
            return emit(.constant(color.premultiplied8), over: inside)
        case .generator(let generator):
            guard let list = generator.displayList(over: inside) else { throw FilterError("internal: no display list for \(generator)") }
            return emit(.draw(list), over: inside)
        case .filtered(let source, let filter):
            return try lower(filter, of: source, inside)
        }
    }

    private mutating func lower(_ filter: ImageFilter, of source: FilterNode, _ region: PixelRect) throws(FilterError) -> Int {
        switch filter {
        case .gaussianBlur(let sigma):
            let read = ImageFilter.blurInputRegion(region, radius: sigma, inputExtent: source.extent)
            let input = try lower(source, in: read)
            return emit(.blur(input, kernel: GaussianKernel(sigma: sigma), read: read), over: region)
        case .unsharpMask(let sigma, let intensity):
            let read = ImageFilter.blurInputRegion(region, radius: sigma, inputExtent: source.extent)
            let input = try lower(source, in: read)
            let q12 = ColorFilterKernel.q12(max(-1e5, min(1e5, intensity)))
            return emit(.unsharp(input, kernel: GaussianKernel(sigma: sigma), intensity: q12, read: read), over: region)
        case .blendWithMask(let mask, let background):
            let input = try lower(source, in: region), m = try lower(mask, in: region)
            let back: Int?
            if let background { back = try lower(background, in: region) } else { back = nil }
            return emit(.blendWithMask(input, mask: m, background: back), over: region)
        case .composite(let mode, let background):
            let input = try lower(source, in: region), back = try lower(background, in: region)
            return emit(.composite(input, background: back, mode: mode), over: region)
        case .affineTransform(let matrix):
            guard let read = ImageFilter.affineSourceRegion(region, matrix: matrix, inputExtent: source.extent) else {
                return emit(.transparent, over: Self.nothing)
            }
            if case .bitmap(let bitmap) = source, read == PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height) {
                try check(read)
                return emit(.resample(.bitmap(bitmap), matrix: matrix, read: read), over: region)
            }
            let input = try lower(source, in: read)
            return emit(.resample(.pass(input), matrix: matrix, read: read), over: region)
        case .crop:
            return try lower(source, in: region)
        case .clampToExtent:
            switch ImageFilter.clampRegions(region, inputExtent: source.extent) {
            case .unchanged: return try lower(source, in: region)
            case .transparent: return emit(.transparent, over: Self.nothing)
            case .edges(let extent, let read):
                let input = try lower(source, in: read)
                return emit(.clamp(input, extent: extent, read: read), over: region)
            }
        default:
            guard let kernel = ColorFilterKernel(filter, extent: source.extent) else {
                throw FilterError("internal: no kernel for \(filter)")
            }
            let input = try lower(source, in: region)
            return emit(.color(input, kernel), over: region)
        }
    }

    /// Every region asked of a node, before anything is allocated for it.
    private func check(_ region: PixelRect) throws(FilterError) {
        guard region.width <= maxPixels, region.height <= maxPixels, region.area <= maxPixels else {
            throw FilterError("a filter needs a region of \(region.width) x \(region.height) pixels, over the limit of \(maxPixels)")
        }
    }

    private static let nothing = PixelRect(x: 0, y: 0, width: 0, height: 0)

    private mutating func emit(_ operation: FilterPlan.Operation, over rect: PixelRect) -> Int {
        passes.append(FilterPlan.Pass(operation: operation, rect: rect))
        return passes.count - 1
    }
}
