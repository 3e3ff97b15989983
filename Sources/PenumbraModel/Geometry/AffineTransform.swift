// AffineTransform: CGAffineTransform's fields and semantics exactly.
//
//     x' = a x + c y + tx
//     y' = b x + d y + ty
//
// `t1.concatenating(t2)` applies t1 first, then t2 (CGAffineTransformConcat).
// The context's CTM operations prepend: translating the CTM by (x, y) makes the
// new CTM `translation.concatenating(ctm)`, so the translation acts in user space.
// A singular matrix is representable; drawing under it draws nothing.

import Foundation

/// A 2D affine transform with CGAffineTransform's fields and composition rules.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    /// The coefficient of x in `x' = a x + c y + tx` (the horizontal scale when there is no rotation or shear).
    public var a: Double
    /// The coefficient of x in `y' = b x + d y + ty`.
    public var b: Double
    /// The coefficient of y in `x' = a x + c y + tx`.
    public var c: Double
    /// The coefficient of y in `y' = b x + d y + ty` (the vertical scale when there is no rotation or shear).
    public var d: Double
    /// The horizontal translation, the constant term of `x' = a x + c y + tx`.
    public var tx: Double
    /// The vertical translation, the constant term of `y' = b x + d y + ty`.
    public var ty: Double

    /// Creates the transform `x' = a x + c y + tx`, `y' = b x + d y + ty`, as
    /// `CGAffineTransform(a:b:c:d:tx:ty:)`.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The identity transform.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// A translation (CGAffineTransformMakeTranslation).
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// A scale (CGAffineTransformMakeScale).
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation by `angle` radians: [cos, sin, -sin, cos, 0, 0] (CGAffineTransformMakeRotation).
    /// With y pointing down, positive angles turn clockwise on screen.
    public init(rotationAngle angle: Double) {
        let cs = cos(angle), sn = sin(angle)
        self.init(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
    /// True when the transform is exactly the identity (`CGAffineTransform.isIdentity`).
    public var isIdentity: Bool { self == .identity }
    /// The determinant `a d - b c`.
    public var determinant: Double { a * d - b * c }
    /// False when the matrix is singular (or not finite): drawing under it draws nothing.
    public var isInvertible: Bool {
        let det = determinant
        return det != 0 && det.isFinite && a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// `self` followed by `t` (CGAffineTransformConcat(self, t)).
    public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * t.a + b * t.c, b: a * t.b + b * t.d,
            c: c * t.a + d * t.c, d: c * t.b + d * t.d,
            tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// The inverse transform, or nil when the matrix is singular (CGAffineTransformInvert returns
    /// the matrix unchanged in that case; here the caller must decide).
    public func inverted() -> AffineTransform? {
        guard isInvertible else { return nil }
        let det = determinant
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id,
                               tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// A translation applied before self (CGAffineTransformTranslate).
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }
    /// A scale applied before self (CGAffineTransformScale).
    public func scaledBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(scaleX: x, y: y).concatenating(self)
    }
    /// A rotation applied before self (CGAffineTransformRotate).
    public func rotated(by angle: Double) -> AffineTransform {
        AffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// Maps a point (CGPointApplyAffineTransform).
    @inlinable public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }
    /// Maps a vector: the linear part only (CGSizeApplyAffineTransform).
    @inlinable public func applyToVector(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y, y: b * p.x + d * p.y)
    }
    /// The bounding box of a rectangle's four transformed corners (CGRectApplyAffineTransform).
    public func apply(_ r: Rect) -> Rect {
        let pts = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map(apply)
        let xs = pts.map(\.x), ys = pts.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }

    /// The largest factor by which the transform stretches any vector (the larger singular
    /// value). Flattening in user space divides the device tolerance by it.
    package var maximumStretch: Double {
        // Singular values of [[a c] [b d]]: sqrt of the eigenvalues of M^T M.
        let p = a * a + b * b, q = a * c + b * d, r = c * c + d * d
        let mean = (p + r) / 2, diff = (p - r) / 2
        return (mean + (diff * diff + q * q).squareRoot()).squareRoot()
    }
}
