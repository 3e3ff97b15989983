// A scene's recording: its ops made on a recording context (Recording.swift),
// each call keeping the index of the op it came from. This is what a decoded
// scene draws; its display list (PenumbraCore's Scene.displayList()) is the
// recording lowered at the scene's size and scale within its budget, so a
// scene and its recording drawn at the scene's scale are the same bytes.
// The recording holds the images as the scene decoded them (pixels at the
// scene's scale), so lowering it at another scale resamples them; the images
// the scene draws itself (offscreen images, filter chains) are held as
// deferred pixels (DeferredPixels.swift), drawn when the recording is
// lowered if `displayList()` has not drawn them yet.

extension Scene {
    /// The scene's ops as a resolution-independent recording of ``size`` points (ids are call
    /// indices; ``Recording/displayList(scale:background:)`` lowers it at any scale). The
    /// offscreen images and filter chains it draws are drawn when it is first lowered; call
    /// `displayList()` (PenumbraCore) once first to have their failures thrown rather than
    /// drawn as clear pixels.
    public var recording: Recording {
        let context = GraphicsContext(recordingSize: size)
        for (index, op) in ops.enumerated() {
            context.origin = index
            op.replay(into: context)
        }
        return context.recording ?? Recording(size: size, entries: [])
    }
}
