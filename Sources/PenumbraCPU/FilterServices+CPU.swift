// FilterServices+CPU: the CPU reference renderer lending its machinery to
// filter evaluation (FilterEvaluator): display lists drawn by the CPU
// renderer (a stateless value; making one allocates nothing). The blur of
// gaussianBlur, unsharpMask and blurBackdrop is Core's interleaved RGBA blur
// (RGBABlur.swift), shared with `.withoutRenderer`: both give the bytes of the
// shadow's plane blur on each channel.

import PenumbraCore

extension FilterServices {
    /// Display lists drawn by the CPU reference renderer; images blurred by Core's RGBA blur.
    package static let cpu = FilterServices(render: { try CPURenderer().render($0) })
}
