// Scene's display list: the images decoding deferred drawn first (in their
// order, DeferredPixels.swift), then the scene's recording (its ops made on
// a recording context, Scene+Recording.swift) lowered onto a fresh context
// within the scene's budget. It lives with the planner (not with Scene, in
// PenumbraModel) because the budget is checked by walking the list as the
// renderers execute it (RenderBudget+Check.swift).
import PenumbraModel

extension Scene {
    /// The display list of the scene: a fresh context, the ops replayed onto it, open layers
    /// ended, within the scene's budget (`limits`): its paths and strokes take their points from
    /// one geometry budget, and the surfaces rendering it keeps alive at once (canvas, layers,
    /// shadow planes, decoded images) must fit `maxRenderBytes` (RenderBudget.swift).
    /// The scene's offscreen images, view snapshots, filter chains and vector images' pixels,
    /// which decoding declares without drawing, are drawn here first, by the renderer the
    /// scene was decoded with.
    /// Stops with `RenderCancelled` once the current cancellation token is set.
    /// - Throws: `SceneError` naming the op that does not fit, or the image that cannot be drawn.
    public func displayList() throws -> DisplayList {
        try RenderCancellation.checkCurrent()
        try deferredImages.prepareAll()
        let context = makeContext()
        context.geometryBudget = GeometryBudget(limit: limits.maxGeometryPoints)
        try RenderCancellation.checkCurrent()
        recording.replay(into: context, keepingOrigins: true)
        var list = context.displayList
        list.warnings = warnings
        try RenderCancellation.checkCurrent()
        if let index = context.geometryOverflow {
            throw SceneError(location: "ops[\(index)]", message: "the scene's paths and strokes need more than "
                + "\(limits.maxGeometryPoints) points in all, over the geometry budget (--max-geometry-points)")
        }
        let origins = context.commandOrigins
        try RenderBudget(limits: limits, imageBytes: RenderBudget.imageBytes(pixels: decodedImagePixels))
            .check(list) { origins.indices.contains($0) ? "ops[\(origins[$0])]" : "ops" }
        return list
    }
}

extension OffscreenContent {
    /// The display list to render: the scene's within its budget, or the drawing's.
    package func displayList() throws -> DisplayList {
        switch self {
        case .scene(let scene): try scene.displayList()
        case .drawing(let list): list
        }
    }
}
