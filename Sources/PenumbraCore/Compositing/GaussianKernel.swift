// GaussianKernel: the one definition of the shadow blur's weights, shared by
// both renderers (DESIGN.md: "blur kernel weights ... written once in the
// core"). SCENE_FORMAT.md, Shadows: "a horizontal then a vertical pass of a
// kernel with radius `ceil(3 * sigma)` pixels, weights `exp(-x^2 / (2
// sigma^2))` for integer x, normalised to sum 1, computed in floating point.
// `blur` 0 means a hard shadow."
//
// Approach (docs/ARITHMETIC.md, "Gaussian blur"): the radius is
// `ceil(3 * sigma)` evaluated in Double; the weights and their sum are
// computed in Double, and each normalised weight off the centre becomes an
// integer `round(w * 65536)`; the centre takes what is left, so the integer
// weights sum to exactly 2^16. Both renderers blur with these integers, and
// integer sums do not depend on their order.

import PenumbraModel
import Foundation

/// A normalised, symmetric 1D Gaussian kernel for the separable shadow blur.
///
/// `weights[i]` is the weight of the sample at offset `i - radius` pixels from
/// the output pixel, for `i` in `0...2*radius`, in units of 2^-16: integers that
/// sum to exactly 65536. Both renderers multiply by these integers.
package struct GaussianKernel: Hashable, Sendable {
    /// The standard deviation in pixels, as given (`blur * scale / 2` for a shadow).
    package let sigma: Double
    /// The number of taps on each side of the centre: `ceil(3 * sigma)`, or 0 for an
    /// identity kernel (`BlurReach.radius(forSigma:)`, PenumbraModel).
    package let radius: Int
    /// The `2 * radius + 1` weights, offsets `-radius...radius` in increasing order, in
    /// units of 2^-16: symmetric, each `round(w * 65536)` of the Double-normalised Gaussian
    /// except the centre, which makes the sum exactly 65536.
    package let weights: [UInt32]

    /// The sum of the weights: 2^16.
    package static let weightSum: UInt32 = 1 << 16

    /// The identity kernel: radius 0, weights `[65536]` (a hard shadow, `blur` 0).
    package static let identity = GaussianKernel(sigma: 0)

    /// Builds the kernel for a standard deviation of `sigma` pixels.
    ///
    /// `sigma <= 0`, a non-finite sigma, or a sigma so small that the off-centre weights
    /// would not be normal `Float`s gives the identity kernel (radius 0, weights `[65536]`);
    /// otherwise the radius is `ceil(3 * sigma)` and the weight at offset `x` is
    /// `exp(-x^2 / (2 sigma^2)) / sum`, evaluated in `Double`.
    package init(sigma: Double) {
        self.sigma = sigma
        let radius = BlurReach.radius(forSigma: sigma)
        self.radius = radius
        guard radius > 0 else { weights = [GaussianKernel.weightSum]; return }

        // Unnormalised half kernel, offsets 0...radius, in Double.
        let twoSigmaSquared = 2 * sigma * sigma
        var half = [Double](repeating: 0, count: radius + 1)
        for x in 0...radius {
            half[x] = exp(-Double(x * x) / twoSigmaSquared)
        }
        // Sum from the smallest terms up (outermost first) for accuracy; the centre counts once.
        var sideSum = 0.0
        for x in stride(from: radius, through: 1, by: -1) { sideSum += half[x] }
        let sum = half[0] + 2 * sideSum

        var weights = [UInt32](repeating: 0, count: 2 * radius + 1)
        var offCentre: UInt32 = 0
        for x in 1...radius {
            let w = UInt32((half[x] / sum * 65536 + 0.5).rounded(.down))
            weights[radius + x] = w
            weights[radius - x] = w
            offCentre += 2 * w
        }
        weights[radius] = GaussianKernel.weightSum - offCentre
        self.weights = weights
    }

    /// The kernel of a shadow: `sigma = blur * scale / 2` pixels (SCENE_FORMAT.md, the HTML
    /// canvas convention for `shadowBlur`), `blur` in base-space points. Both renderers build
    /// their kernel here so that sigma is rounded the same way.
    package init(shadowBlur blur: Double, scale: Double) {
        self.init(sigma: GaussianKernel.sigma(shadowBlur: blur, scale: scale))
    }

    /// The standard deviation in pixels of a shadow's blur: `blur * scale / 2`, in that order.
    package static func sigma(shadowBlur blur: Double, scale: Double) -> Double {
        blur * scale / 2
    }
}
