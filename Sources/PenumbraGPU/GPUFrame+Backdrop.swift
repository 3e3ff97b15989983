// The GPU's `blurBackdrop` (BackdropBlur.swift): the replacement over the
// shape's bounds is Core's filter graph (`blur.replacement(of:)`) evaluated
// as GPU passes (GPUFilterEvaluator) whose one source is the current target's
// texture itself, so nothing is read back: the blur's two passes read the
// target, the saturation and tint passes follow, and the result is drawn 1:1
// with `copy` under the shape's coverage times the clip, as on the CPU, as a
// layer paint placed on the device grid (a 1:1 layer samples exactly its
// texels, as the CPU's 1:1 image draw does). The graph's source is a node of
// the target's extent without pixels (a cropped generator), for which the
// evaluator substitutes the target's texture.

import PenumbraCore

extension GPUFrame {
    func drawBackdrop(_ blur: BackdropBlur, _ state: CompositeState) throws {
        let frame = target.frame
        let bounds = blur.shape.bounds.map { PixelRect(enclosing: $0).intersection(frame) } ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        guard !bounds.isEmpty else { return try draw(.solid(SIMD4(0, 0, 0, 0)), state) }
        let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
        let evaluator = GPUFilterEvaluator(programs: programs, shared: shared, lease: lease, images: images,
                                           sparseLimit: sparseLimit, maxPixels: Int.max / 4)
        // The backdrop: a pixel-less node of the target's extent, standing for the target's texture.
        let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let backdrop = FilterNode.generator(.constantColor(.clear))
            .cropped(to: Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)))
        evaluator.substitute = (backdrop, GPUFilterImage(surface: target.surface, rect: whole, owned: false))
        let replacement = try evaluator.render(blur.replacement(over: backdrop), in: local)
        defer { evaluator.release(replacement) }
        guard let surface = replacement.surface else { return try draw(.solid(SIMD4(0, 0, 0, 0)), state) }
        let placed = PixelRect(x: replacement.rect.x + frame.x, y: replacement.rect.y + frame.y,
                               width: replacement.rect.width, height: replacement.rect.height)
        try draw(.layer(GLTarget(surface: surface, texture: GLTexture(name: surface.name, rect: placed))), state)
    }
}
