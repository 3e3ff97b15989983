// The CPU's `blurBackdrop` (BackdropBlur.swift): the replacement is computed
// by Core's filter graph from the current target over the bounds the draw
// stream gives (the shape's pixels within the target; each output pixel
// reads only its kernel's reach, so a small glass panel blurs only its own
// neighbourhood). The stream's draw then places it 1:1 at those bounds and
// writes it with `copy` under the shape's coverage times the clip.

import PenumbraCore

extension CPUFrame {
    /// The replacement of the target's pixels within `bounds` (device grid, inside the target).
    func backdropReplacement(_ blur: BackdropBlur, _ bounds: PixelRect) -> Bitmap {
        let frame = target.frame
        let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
        let evaluator = FilterEvaluator(services: .cpu, maxPixels: Int.max / 4)
        // Cannot fail: no display list is drawn for these filters and the region is within the target.
        return (try? evaluator.render(blur.replacement(of: target.bitmap), in: local))
            ?? Bitmap(width: bounds.width, height: bounds.height)
    }
}
