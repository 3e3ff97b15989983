// The GPU's `blurBackdrop` (BackdropBlur.swift): the current target is read
// back, the replacement is computed over the shape's bounds by Core's filter
// graph with the integer reference blur (the same sums as the CPU's blur, so
// the same bytes), uploaded, and drawn 1:1 with `copy` under the shape's
// coverage times the clip, as on the CPU. A GPU pass for the blur is a later
// step; this keeps both renderers identical by construction meanwhile.

import PenumbraCore

extension GPUFrame {
    func drawBackdrop(_ blur: BackdropBlur, _ state: CompositeState) throws {
        let frame = target.frame
        let bounds = blur.shape.bounds.map { PixelRect(enclosing: $0).intersection(frame) } ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        guard !bounds.isEmpty else { return try draw(.solid(SIMD4(0, 0, 0, 0)), state) }
        let backdrop = try GLReadbackBuffers.read(target, width: frame.width, height: frame.height)
        let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
        let pixels = try FilterEvaluator(services: .withoutRenderer, maxPixels: Int.max / 4)
            .render(blur.replacement(of: backdrop), in: local)
        let image = ImageDraw(bitmap: pixels, scale: 1, transform: .identity,
                              rect: Rect(x: Double(bounds.x), y: Double(bounds.y), width: Double(bounds.width), height: Double(bounds.height)))
        // Drawn 1:1: level 0, no mip atlas.
        let (texture, mipmaps) = try images.textures(for: image.bitmap, atlas: nil, pool: lease.pool)
        try draw(.image(image, texture: texture, mipmaps: mipmaps), state)
    }
}
