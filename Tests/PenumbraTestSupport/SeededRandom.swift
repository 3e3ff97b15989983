import PenumbraModel
import PenumbraCore

// Test support shared by every test target (a plain target, so tests can depend on it).

/// SplitMix64: a small seeded generator shared by the randomised tests, so every run and every
/// machine sees the same numbers.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A uniform double in `range`.
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) / Double(1 << 53)
    }
    /// A point with both coordinates uniform in `range`.
    public mutating func point(in range: ClosedRange<Double>) -> Point { Point(double(in: range), double(in: range)) }
    /// A random invertible transform with stretches between about 1/5 and 5, shears and rotations.
    public mutating func transform() -> PenumbraModel.AffineTransform {
        while true {
            let t = PenumbraModel.AffineTransform(a: double(in: -3...3), b: double(in: -3...3), c: double(in: -3...3),
                                                 d: double(in: -3...3), tx: double(in: -50...50), ty: double(in: -50...50))
            if abs(t.determinant) > 0.2 { return t }
        }
    }
}
