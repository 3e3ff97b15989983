// Offscreen images: `{ "size", "ops", "scale", "opaque", "background" }` is
// UIGraphicsBeginImageContextWithOptions ... GetImageFromCurrentImageContext.
// Its ops are decoded like the scene's own (same checks, same limits: they
// count towards the scene's op and path-segment totals, and its pixels
// towards the decoded-pixel budget, and what drawing it needs beyond its
// own pixels to what the render budget has left). Decoding draws nothing:
// the image's pixels are deferred (DeferredPixels.swift) and drawn when the
// scene is rendered, by the renderer the environment supplies (the CPU
// reference renderer in `SceneEnvironment.standard`, the renderer that
// draws the scene in `standard(renderingWith:)`), exactly as a scene of
// that size, scale, background and ops. `opaque: true` without a background
// starts black, as an opaque bitmap context does. A chain of offscreen
// images drawing one another holds at most 16.

extension SceneDecoder {
    static let maxOffscreenChain = 16

    mutating func renderOffscreen(_ offscreen: OffscreenDeclaration, name: String, location: String) throws -> Image {
        let fail = { (message: String) in SceneError(location: location, message: message) }
        let chain = loading.filter { n in
            if case .offscreen = imageDeclarations[n]?.form { return true }
            return false
        }
        guard chain.count <= Self.maxOffscreenChain else {
            throw fail("a chain of more than \(Self.maxOffscreenChain) offscreen images drawing one another: "
                + chain.map(SceneText.quote).joined(separator: " -> "))
        }
        let s = offscreen.scale ?? scale
        let background = offscreen.background ?? (offscreen.opaque ? Color(red: 0, green: 0, blue: 0, alpha: 1) : nil)
        return try renderOffscreenScene(size: offscreen.size, scale: s, background: background, location: location) { decoder in
            try decoder.decodeOpList(offscreen.ops)
        }
    }

    /// An offscreen scene of `size` at `scale` drawn with `ops`: its pixels checked against the
    /// limits and spent from the decoded-pixel budget before its ops are decoded.
    mutating func renderOffscreenScene(size: Size, scale s: Double, background: Color?, ops: [SceneOp],
                                       location: String) throws -> Image {
        try renderOffscreenScene(size: size, scale: s, background: background, location: location) { _ in ops }
    }

    private mutating func renderOffscreenScene(size: Size, scale s: Double, background: Color?, location: String,
                                               ops makeOps: (inout SceneDecoder) throws -> [SceneOp]) throws -> Image {
        let fail = { (message: String) in SceneError(location: location, message: message) }
        let w = roundHalfUp(size.width * s), h = roundHalfUp(size.height * s)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w * h <= Double(limits.maxPixels) else {
            throw fail("the offscreen image is \(SceneText.number(w)) x \(SceneText.number(h)) pixels; it must be at least "
                + "1 x 1 and at most \(limits.maxPixels) pixels")
        }
        try spendImagePixels(Int(w * h), what: "its \(Int(w)) x \(Int(h)) pixels", fail: fail)
        let ops = try makeOps(&self)
        guard let render = environment.renderOffscreen else {
            throw fail("offscreen images need a renderer; decode with SceneEnvironment.standard (the Penumbra module)")
        }
        var scene = Scene(size: size, scale: s, background: background, ops: ops)
        // Its own canvas is already counted among the images; what it draws gets what is left.
        scene.limits = limits
        scene.limits.maxRenderBytes = renderBytesLeft + RenderBudget.surfaceBytes(pixels: Int(w * h))
        // The images its ops draw are made before it (they are already in the order).
        scene.deferredImages = deferredImages
        return deferImage(width: Int(w), height: Int(h), scale: s, place: location) { [scene] in
            try ProducedPixels.producing({ try render(.scene(scene)) }) { error in
                if let error = error as? SceneError {
                    return SceneError(location: location, message: "the offscreen image does not fit: \(error)")
                }
                return SceneError(location: location, message: "the offscreen image could not be rendered: \(error)")
            }
        }
    }

    /// An image of `width` x `height` pixels at `scale` that `produce` draws when the scene is
    /// rendered, after every deferred image declared before it.
    mutating func deferImage(width: Int, height: Int, scale: Double, place: String,
                             produce: @escaping @Sendable () throws -> ProducedPixels) -> Image {
        let pixels = DeferredPixels(width: width, height: height, place: place, producing: produce)
        deferredImages.pending.append(pixels)
        return Image(pixels: .deferred(pixels), scale: scale)
    }
}
