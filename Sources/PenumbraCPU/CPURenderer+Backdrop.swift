// The CPU's `blurBackdrop` (BackdropBlur.swift): the replacement is computed
// by Core's filter graph from the current target over the shape's bounds
// (each output pixel reads only its kernel's reach, so a small glass panel
// blurs only its own neighbourhood), then drawn as a 1:1 image with `copy`
// under the shape's coverage times the clip, the planned draw of the command.

import PenumbraCore

extension CPUFrame {
    mutating func drawBackdrop(_ blur: BackdropBlur, _ state: CompositeState) {
        let frame = target.frame
        let bounds = blur.shape.bounds.map { PixelRect(enclosing: $0).intersection(frame) } ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        var pixels = Bitmap(width: bounds.width, height: bounds.height)
        if !bounds.isEmpty {
            let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
            let evaluator = FilterEvaluator(services: .cpu, maxPixels: Int.max / 4)
            // Cannot fail: no display list is drawn for these filters and the region is within the target.
            pixels = (try? evaluator.render(blur.replacement(of: target.bitmap), in: local)) ?? pixels
        }
        guard !bounds.isEmpty else { return draw(SolidShader(.clear), state) }
        let image = ImageDraw(bitmap: pixels, scale: 1, transform: .identity,
                              rect: Rect(x: Double(bounds.x), y: Double(bounds.y), width: Double(bounds.width), height: Double(bounds.height)))
        draw(ImageShader(image), state)
    }
}
