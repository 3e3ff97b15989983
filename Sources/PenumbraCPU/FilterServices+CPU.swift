// FilterServices+CPU: the CPU reference renderer lending its machinery to
// filter evaluation (FilterEvaluator): display lists drawn by the CPU
// renderer (a stateless value; making one allocates nothing), and the
// shadow's integer plane blur (Blur.swift) for gaussianBlur and unsharpMask.

import PenumbraCore

extension FilterServices {
    /// Display lists drawn by the CPU reference renderer, planes blurred by the CPU's shadow blur.
    public static let cpu = FilterServices(render: { try CPURenderer().render($0) }, blurPlane: { plane, width, height, kernel in
        var alpha = AlphaPlane(width: 0, height: 0)
        alpha.width = width; alpha.height = height
        swap(&alpha.values, &plane)
        alpha.blur(with: kernel)
        swap(&alpha.values, &plane)
    })
}
