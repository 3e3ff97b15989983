// FilterServices+CPU: the CPU reference renderer lending its machinery to
// filter evaluation (FilterEvaluator): display lists drawn by the CPU
// renderer (a stateless value; making one allocates nothing). The blur of
// gaussianBlur, unsharpMask and blurBackdrop is the interleaved RGBA blur
// (RGBABlur.swift): the bytes of the shadow's plane blur on each channel.

import PenumbraModel
import PenumbraCore

extension FilterServices {
    /// Display lists drawn by the CPU reference renderer; images blurred by the interleaved RGBA blur.
    package static let cpu = FilterServices(render: { try CPURenderer().render($0) })
}

extension FilterEvaluator {
    /// Filter graphs evaluated on the CPU, in the form scene decoding takes an evaluator
    /// (`SceneEnvironment.filterRenderer`: the node, the region, the pixel limit).
    package static let cpu: @Sendable (FilterNode, PixelRect, Int) throws -> Bitmap = {
        try FilterEvaluator(services: .cpu, maxPixels: $2).render($0, in: $1)
    }
}
