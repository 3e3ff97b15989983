// Drawing a vector image (VectorImage.swift): instead of recording the bitmap, the image's
// drawing is replayed with the context's own calls, so it is as sharp as the transform makes
// it. The replay keeps what an image draw means:
//
//   save; clip(the destination rect)
//   one transparency layer when the call's or context's alpha, blend mode or shadow is not
//     the plain one, or the image is a template: the drawing composites as one unit, as the
//     bitmap would (alpha and blend mode are the layer's, the shadow is cast by the layer)
//   flip: mirror within the rect
//   the drawing mapped so that its shown part (a crop, else all of it) fills the rect
//   template: sourceIn fill of the rect with the tint (the tint with the drawing's alpha)
//   end the layer; restore
//
// Once the context's geometry budget has run out or the render is cancelled, a vector image
// draws nothing (the recording is refused or abandoned anyway), so a scene that draws a heavy
// document many times costs at most what fits the budget.
//
// Nine-slice images draw their bitmap: their caps are pixels of the drawing at its natural
// size at the image's scale (docs/svg.md, "SVG images in scenes").

extension GraphicsContext {
    /// Replays `vector` (the drawing of `image`) into `rect`, for `draw(_:in:...)`.
    func drawVector(_ vector: VectorContent, of image: Image, in rect: Rect, blendMode: BlendMode?, alpha: Double) {
        // Past the geometry budget everything more is dropped and the recording refused, and a
        // cancelled render is abandoned: a heavy drawing is not replayed again for nothing.
        guard geometryOverflow == nil, !RenderCancellation.currentIsCancelled else { return }
        let full = vector.fullSize
        let shown = vector.crop ?? Rect(x: 0, y: 0, width: full.width, height: full.height)
        guard full.width > 0, full.height > 0, shown.width > 0, shown.height > 0 else { return }
        let template = image.renderingMode == .template
        let a = min(1, max(0, alpha))
        let plain = a == 1 && (blendMode ?? state.blendMode) == .normal && state.blendMode == .normal
            && state.alpha == 1 && state.shadow == nil && !template
        saveGState()
        defer { restoreGState() }
        clip(to: Path(rect: rect))
        if !plain {
            setAlpha(state.alpha * a)
            if let blendMode { setBlendMode(blendMode) }
            beginTransparencyLayer()
        }
        saveGState()
        if image.isFlippedHorizontally {
            translateBy(x: 2 * rect.minX + rect.width, y: 0)
            scaleBy(x: -1, y: 1)
        }
        let sx = rect.width / shown.width, sy = rect.height / shown.height
        vector.drawing.draw(in: self, rect: Rect(x: rect.minX - shown.minX * sx, y: rect.minY - shown.minY * sy,
                                                 width: full.width * sx, height: full.height * sy))
        restoreGState()
        if template {
            setBlendMode(.sourceIn)
            setFillColor(image.tint ?? .black)
            fill(Path(rect: rect))
        }
        if !plain { endTransparencyLayer() }
    }
}
