// RenderBudget's check: a display list walked as both renderers execute it
// (DrawSequence), so the surfaces it counts are theirs (RenderBudget.swift in
// PenumbraModel has the budget and the per-pixel figures): the canvas and the
// scene's decoded images for the whole render, each open layer from its
// beginLayer to its composite, and per draw what that draw allocates and frees
// again. The first step that would not fit is named.
import PenumbraModel

extension RenderBudget {
    /// Walks `list` as the renderers will and throws `SceneError` at the first step whose
    /// surfaces would not fit; `place` names a command by its index (`commands.count`: the end).
    package func check(_ list: DisplayList, place: (Int) -> String) throws {
        let canvas = list.canvasFrame
        let base = RenderBudget.surfaceBytes(pixels: canvas.area) + imageBytes
        try fits(base, needs: "the canvas (\(canvas.width) x \(canvas.height) pixels) and the scene's images", at: "size")
        var layers: [Int] = []
        var live = base
        var sequence = DrawSequence(list)
        while let step = sequence.next() {
            switch step {
            case .beginLayer(let frame):
                guard frame.area <= limits.maxPixels else {
                    throw SceneError(location: place(sequence.lastCommand), message: "the layer needs \(frame.width) x "
                        + "\(frame.height) pixels, over the limit of \(limits.maxPixels) pixels (--max-pixels)")
                }
                let bytes = RenderBudget.surfaceBytes(pixels: frame.area)
                try fits(live + bytes, needs: "the layer needs \(frame.width) x \(frame.height) pixels (\(bytes) bytes)",
                         at: place(sequence.lastCommand))
                live += bytes
                layers.append(bytes)
            case .draw(let input, let source):
                let transient = RenderBudget.transientBytes(of: input, source)
                try fits(live + transient, needs: "the draw needs \(transient) bytes of planes (coverage, shadow, blur)",
                         at: place(sequence.lastCommand))
                switch source {
                case .layer, .backdropMask: if let bytes = layers.popLast() { live -= bytes }
                default: break
                }
            }
        }
    }

    /// Throws when `total` bytes are over the budget, naming what needs them and where.
    private func fits(_ total: Int, needs what: String, at place: String) throws {
        guard total > limits.maxRenderBytes || total < 0 else { return }
        throw SceneError(location: place, message: "\(what); with the surfaces alive then that is \(max(total, 0)) bytes, "
            + "over the render budget of \(limits.maxRenderBytes) bytes (--max-render-bytes)")
    }

    /// What one draw allocates for itself: coverage and clip masks over its region, a shadow's
    /// plane, a backdrop blur's or a backdrop mask's planes (bounds from geometry alone,
    /// rasterizing nothing).
    static func transientBytes(of input: DrawInput, _ source: DrawSource) -> Int {
        let frame = input.frame
        var region = frame
        var bounds: PixelExtent = .unbounded
        if case .shape(let shape) = input.geometry {
            bounds = PixelExtent(shape.bounds)
            guard case .rect(let r) = bounds.intersection(.rect(frame)) else { return 0 }
            region = r
        }
        var bytes = region.area * (input.state.clip == nil ? 1 : 2)
        if let shadow = input.state.shadow {
            let radius = BlurReach.radius(forSigma: shadow.sigma)
            let caster = bounds.offset(by: shadow.offset).intersection(.rect(frame.grown(by: radius)))
            let written = caster.grown(by: radius).intersection(.rect(frame))
            if case .rect(let plane) = written.grown(by: radius).intersection(caster) {
                bytes += plane.area * shadowBytesPerPixel
            }
        }
        if case .backdrop = source { bytes += region.area * backdropBytesPerPixel }
        if case .backdropMask(_, let layer) = source { bytes += layer.intersection(frame).area * backdropMaskBytesPerPixel }
        return bytes
    }
}
