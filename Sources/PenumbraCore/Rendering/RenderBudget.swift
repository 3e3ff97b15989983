// RenderBudget: the memory a render will need, worked out from sizes before
// anything is allocated, against the budget of ResourceLimits.
//
// The walk is the one both renderers execute (DrawSequence), so the
// surfaces it counts are theirs: the canvas and the scene's decoded images
// for the whole render, each open layer from its beginLayer to its
// composite, and per draw what that draw allocates and frees again: its
// coverage and its clip's over its region (a byte a pixel), a shadow's plane
// (the caster's alpha and the blur's passes), a backdrop blur's planes, a
// backdrop mask's filter planes and coverage (BackdropMask.swift). The peak
// of their sum must fit `maxRenderBytes`; the first step that would
// not is named (`ops[1]: the layer needs 16003 x 16003 pixels ...`). A layer
// is also held to `maxPixels`, as the canvas and images are.
//
// The figures are per pixel and deliberately round (a premultiplied RGBA8
// surface is 4 bytes; a shadow plane 5: its alpha and the blur's 32-bit
// intermediate; a backdrop blur 12: three RGBA planes); they bound what the
// CPU renderer allocates, and the GPU's textures are the same surfaces.

/// The surfaces a display list's render keeps alive at once, checked against a byte budget.
package struct RenderBudget {
    /// Bytes of one pixel of a surface (premultiplied RGBA8).
    package static let bytesPerPixel = 4
    /// Bytes a shadow's plane costs per pixel: its caster's U8 alpha and the blur's UInt32
    /// intermediate (the CPU renderer's ShadowScratch).
    static let shadowBytesPerPixel = 5
    /// Bytes a backdrop blur costs per pixel of its bounds: input, pass and output planes.
    static let backdropBytesPerPixel = 12
    /// Bytes a layer ended as a backdrop mask costs per pixel of its frame: the filter's input
    /// and output planes and the coverage taken from the layer's alpha.
    static let backdropMaskBytesPerPixel = 9

    /// The bytes of a surface of `pixels` pixels.
    package static func surfaceBytes(pixels: Int) -> Int { pixels.multipliedReportingOverflow(by: bytesPerPixel).partialValue }
    /// The bytes decoded images of `pixels` pixels hold while drawn: their pixels and the mip
    /// levels a draw at less than half their size builds (a third more at most).
    package static func imageBytes(pixels: Int) -> Int { surfaceBytes(pixels: pixels) / 3 * 4 }

    let limits: ResourceLimits
    /// What the scene's decoded images hold.
    let imageBytes: Int

    package init(limits: ResourceLimits, imageBytes: Int) { self.limits = limits; self.imageBytes = imageBytes }

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
            let radius = GaussianKernel.radius(forSigma: shadow.sigma)
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
