// BlurReach: how far a Gaussian blur reaches, in pixels, for a standard
// deviation. The filter graph's extents (a blurred image is its input grown
// by this), the planner's shadow planes and the kernel's own radius
// (GaussianKernel in PenumbraCore, which builds the weights) all take it from
// here, so an extent and the kernel that fills it can never disagree.
import Foundation

/// The reach of a Gaussian blur: `ceil(3 * sigma)` pixels on each side.
package enum BlurReach {
    /// The radius of the Gaussian kernel for `sigma` (GaussianKernel, PenumbraCore), without building it: `ceil(3 * sigma)` in
    /// `Double`, as SCENE_FORMAT.md says, with one exception.
    ///
    /// The exception is a "tiny" sigma: when the first off-centre weight
    /// `exp(-1 / (2 sigma^2))` (which bounds every normalised off-centre weight from above)
    /// is below `Float.leastNormalMagnitude` (about sigma < 0.0757), the radius is 0. Such
    /// a kernel changes no value by more than 1e-38, far below what 8 bits can show, and
    /// its subnormal weights would be flushed to zero by many GPUs; making it exactly the
    /// identity keeps both renderers identical. Also 0 for `sigma <= 0` and non-finite
    /// sigmas. Traps for a sigma whose radius exceeds `Int32.max` (the scene decoder bounds
    /// `blur` to 0...256). Callers size the blur's plane with this margin on every side.
    package static func radius(forSigma sigma: Double) -> Int {
        guard sigma.isFinite, sigma > 0 else { return 0 }
        let firstOffCentre = exp(-1 / (2 * sigma * sigma))
        guard firstOffCentre >= Double(Float.leastNormalMagnitude) else { return 0 }
        let radius = (3 * sigma).rounded(.up)
        precondition(radius <= Double(Int32.max), "blur sigma \(sigma) is too large")
        return Int(radius)
    }
}
