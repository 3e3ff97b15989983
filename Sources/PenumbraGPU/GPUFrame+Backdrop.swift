// The GPU's `blurBackdrop` (BackdropBlur.swift): the current target is read
// back, the replacement is computed over the bounds the draw stream gives by
// Core's filter graph with the integer reference blur (the same sums as the
// CPU's blur, so the same bytes) and uploaded as an RGBA8 target placed at
// those bounds; the stream's draw then writes it with `copy` under the
// shape's coverage times the clip, as on the CPU.

import PenumbraCore

extension GPUFrame {
    /// The replacement of the target's pixels within `bounds` (device grid, inside the target),
    /// as a target placed at `bounds`; the caller gives it back.
    func backdropReplacement(_ blur: BackdropBlur, _ bounds: PixelRect) throws -> GLTarget {
        let frame = target.frame
        let backdrop = try GLReadbackBuffers.read(target, width: frame.width, height: frame.height)
        let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
        let pixels = try FilterEvaluator(services: .withoutRenderer, maxPixels: Int.max / 4)
            .render(blur.replacement(of: backdrop), in: local)
        return try lease.colorTarget(frame: bounds, holding: pixels, "a backdrop's replacement")
    }
}
