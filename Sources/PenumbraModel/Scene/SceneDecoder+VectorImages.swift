// Vector images in `images` (VectorImage.swift): a source that a vector decoder of the
// environment claims (by extension, `logo.svg`, or data URI type, `data:image/svg+xml;base64,`)
// is read as a drawing instead of a bitmap, and so is a request part (`part:NAME`) whose bytes
// look like the format's. Its own references resolve in its file's folder
// (the scene's folder for data URIs and parts) and must stay inside the scene's folder; its
// errors are the image's (`images.logo: <use id="u">: ...`). The image also carries the
// drawing rasterized at its natural size at the image's scale (the declared one, else the
// canvas's), spent from the decoded-pixel budget like any image, for the draws that need
// pixels, and drawn when the scene is rendered (DeferredPixels.swift); names with one source
// share one drawing.

extension SceneDecoder {
    /// The environment's vector decoder that claims `source`, if any; a `part:NAME` source is the decoder's when its bytes look like the format's.
    func vectorDecoder(for source: String) -> VectorImageDecoder? {
        if let claimed = environment.vectorImages.first(where: { $0.claims(source) }) { return claimed }
        guard source.hasPrefix("part:"), let bytes = sources.parts?[String(source.dropFirst(5))] else { return nil }
        return environment.vectorImages.first { $0.recognizes(bytes) }
    }

    /// `source` read as a vector image with its rasterization at `scale`.
    mutating func loadVector(_ source: String, decoder: VectorImageDecoder, scale s: Double,
                             fail: (String) -> SceneError) throws -> Image {
        let resolved: ImageSource.Resolved
        let bytes: [UInt8]
        do {
            resolved = try ImageSource.resolve(source, in: sources)
            bytes = try resolved.bytes(maxBytes: maxImageFileBytes)
        } catch let f as ImageSource.Failure {
            throw fail(f.message)
        }
        let key = "vector|" + resolved.identity + "|\(s)"
        if let shared = vectorsBySource[key] { return shared }
        var folder = sources.baseDirectory
        if case .file = resolved, let base = folder, let slash = source.lastIndex(of: "/") {
            folder = (base.hasSuffix("/") ? base : base + "/") + source[..<slash]
        }
        let drawing: any VectorImage
        do {
            drawing = try decoder.decode(VectorImageRequest(bytes: bytes, baseDirectory: folder, assetsDirectory: sources.baseDirectory,
                                                            codecs: environment.codecs))
        } catch let cancelled as RenderCancelled {
            throw cancelled
        } catch {
            throw fail("\(error)")
        }
        let size = drawing.size
        let w = max(1, roundHalfUp(size.width * s)), h = max(1, roundHalfUp(size.height * s))
        guard size.width > 0, size.height > 0, w.isFinite, h.isFinite, w * h <= Double(limits.maxPixels) else {
            throw fail("the drawing is \(SceneText.number(size.width)) x \(SceneText.number(size.height)) points; at scale "
                + "\(SceneText.number(s)) it must be at least 1 x 1 and at most \(limits.maxPixels) pixels")
        }
        try spendImagePixels(Int(w * h), what: "its \(Int(w)) x \(Int(h)) pixels", fail: fail)
        guard let render = environment.renderOffscreen else {
            throw fail("vector images need a renderer; decode with SceneEnvironment.standard (the Penumbra module)")
        }
        let place = fail("").location // the image's place, which the drawing's errors name
        var image = deferImage(width: Int(w), height: Int(h), scale: s, place: place) {
            let context = GraphicsContext(pixelWidth: Int(w), pixelHeight: Int(h), scale: s)
            drawing.draw(in: context, rect: Rect(x: 0, y: 0, width: w / s, height: h / s))
            return try ProducedPixels.producing({ try render(.drawing(context.displayList)) }) { error in
                SceneError(location: place, message: "the drawing could not be rendered: \(error)")
            }
        }
        image.vector = VectorContent(drawing, fullSize: image.size)
        vectorsBySource[key] = image
        return image
    }
}
