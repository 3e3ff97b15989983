// A vector document as the whole request (`Content-Type: image/svg+xml`): drawn at its own size
// times the query's `scale` on a transparent canvas, by the environment's vector decoder for
// that media type (PenumbraSVG's, in SceneEnvironment.standard). Its references resolve in
// --assets and stay inside it. Its errors are 400 at `body`, naming the element
// (`<use id="u">: ...`); the canvas is held to the pixel limit and its drawing to the geometry
// and render budgets, as a scene's are.
import PenumbraModel
import PenumbraCore

extension RenderRequest {
    /// Records the display list of the document body of media type `mediaType`.
    func documentDisplayList(mediaType: String, environment: SceneEnvironment) throws -> DisplayList {
        guard let decoder = environment.vectorImages.first(where: { $0.mediaTypes.contains(mediaType) }) else {
            throw RequestError(415, "this server does not read \(RequestError.quote(mediaType)) documents", place: "content-type")
        }
        let drawing: any VectorImage
        do {
            drawing = try decoder.decode(VectorImageRequest(bytes: scene, baseDirectory: sources.baseDirectory,
                                                            assetsDirectory: sources.baseDirectory, codecs: environment.codecs))
        } catch let cancelled as RenderCancelled {
            throw cancelled
        } catch {
            throw RequestError(400, "\(error)", place: "body")
        }
        let size = drawing.size, scale = options.scale ?? 1
        let w = roundHalfUp(size.width * scale), h = roundHalfUp(size.height * scale)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w * h <= Double(limits.maxPixels) else {
            throw RequestError(400, "the document is \(size.width) x \(size.height) points; at scale \(scale) that is "
                + "\(w) x \(h) pixels; it must be at least 1 x 1 and at most \(limits.maxPixels) pixels", place: "body")
        }
        let context = GraphicsContext(pixelWidth: Int(w), pixelHeight: Int(h), scale: scale)
        context.geometryBudget = GeometryBudget(limit: limits.maxGeometryPoints)
        drawing.draw(in: context, rect: Rect(x: 0, y: 0, width: w / scale, height: h / scale))
        try RenderCancellation.checkCurrent()
        let list = context.displayList
        if context.geometryOverflow != nil {
            throw RequestError(400, "the document's paths and strokes need more than \(limits.maxGeometryPoints) points in all, "
                + "over the geometry budget", place: "body")
        }
        do {
            try RenderBudget(limits: limits, imageBytes: 0).check(list) { _ in "body" }
        } catch let error as SceneError {
            throw RequestError(error)
        }
        return list
    }
}
