// The GPU's `blurBackdrop` (BackdropBlur.swift): the replacement over the
// bounds the draw stream gives is Core's filter graph
// (`blur.replacement(over:)`) evaluated as GPU passes (GPUFilterEvaluator)
// whose one source is the current target's texture itself, so nothing is
// read back: the blur's two passes read the target, the saturation and tint
// passes follow, and the stream's draw then writes the result 1:1 with `copy`
// under the shape's coverage times the clip, as on the CPU, as placed pixels
// (a 1:1 placement samples exactly its texels, as the CPU's does). The
// graph's source is a node of the target's extent without pixels
// (`FilterNode.standIn`), for which the evaluator substitutes the target's texture.
//
// A layer ended as a backdrop mask (BackdropMask.swift) goes the same way:
// its filter's pass reads the target over the draw's region (the layer's
// frame within the target and the clip), and the draw writes the result 1:1
// with `copy` through the composite's coverage x clip, its coverage the
// layer texture's alpha read by composite.comp itself
// (GPUFrame.CoverageKind.layerAlpha): nothing is copied or read back.

import PenumbraCore

extension GPUFrame {
    /// The replacement of the target's pixels within `bounds` (device grid, inside the target),
    /// as a target placed at `bounds`; the caller gives it back.
    func backdropReplacement(_ blur: BackdropBlur, _ bounds: PixelRect) throws -> GLTarget {
        try backdropReplacement(blur.replacement(over:), bounds)
    }

    /// Writes the target's pixels through `filter` with the alpha of `layer` (just popped; the
    /// caller gives it back) as the coverage, times the draw's clip, over the draw's region.
    func maskBackdrop(_ filter: BackdropMaskFilter, layer: GLTarget, _ draw: LoweredDraw) throws {
        guard let plan = draw.op else { return }
        let replacement = try backdropReplacement(filter.replacement(over:), plan.region)
        defer { lease.giveBack(replacement) }
        try self.draw(draw, placed: replacement.texture.name, alphaCoverage: layer.texture)
    }

    /// The pixels of `graph` (over a node standing for the target) within `bounds`.
    private func backdropReplacement(_ graph: (FilterNode) -> FilterNode, _ bounds: PixelRect) throws -> GLTarget {
        let frame = target.frame
        let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
        let evaluator = GPUFilterEvaluator(programs: programs, shared: shared, lease: lease, images: images,
                                           sparseLimit: sparseLimit, maxPixels: Int.max / 4)
        // The backdrop: a pixel-less node of the target's extent, standing for the target's texture.
        let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let backdrop = FilterNode.standIn(extent: whole)
        evaluator.substitute = (backdrop, GPUFilterImage(surface: target.surface, rect: whole, owned: false))
        let replacement = try evaluator.render(graph(backdrop), in: local)
        // The replacement covers the whole request (the blur of the target's extent reaches past it).
        guard let surface = replacement.surface, replacement.rect == local, replacement.owned else {
            evaluator.release(replacement)
            throw RenderError("GPU: a backdrop's replacement covers \(replacement.rect), not the requested \(local)")
        }
        return GLTarget(surface: surface, texture: GLTexture(name: surface.name, rect: bounds))
    }
}
