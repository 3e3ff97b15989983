// SVG elliptical arcs as exact conics.
//
// An SVG `A` segment is given by its end points, radii, x-axis rotation and two
// flags. SVG 1.1 appendix F.6.5 converts that to a centre and an angle range;
// F.6.6 corrects radii that are too small and says that zero radii make a
// straight line and identical end points omit the segment. Here the conversion
// is done in the ellipse's own unit-circle frame: scaling x by 1/rx and y by
// 1/ry (after undoing the rotation) turns the ellipse into a unit circle, the
// half chord into a vector p with |p| <= 1 (after the radius correction), and
// the centre into the point at distance sqrt(1 - |p|^2) from the chord's
// midpoint on the side the flags choose. That avoids the overflow of the
// spec's squared products for extreme radii.
//
// The sweep is cut into equal pieces of at most 90 degrees; each is a circular
// conic on the unit circle (weight cos(θ/2), control point where the end
// tangents meet), mapped to the ellipse by the affine transform
// rotate(φ) · scale(rx, ry) plus the centre. Conics are affine-invariant (same
// weight), so every piece is an exact piece of the ellipse.

import Foundation

extension Path {
    /// Adds an SVG 1.1 elliptical arc from the current point to `end` (the `A` command after its
    /// numbers are read), as exact conics of at most 90 degrees each.
    ///
    /// Follows SVG 1.1 F.6.2 and F.6.5: identical end points omit the segment; a zero `rx` or `ry`
    /// makes it a straight line; negative radii count as their absolute values; radii too small
    /// to reach `end` are scaled up uniformly until the ellipse just does (the arc is then half of
    /// it). `xAxisRotation` is in degrees. `sweep: true` runs in the direction of increasing angle
    /// (clockwise on screen with y down); `largeArc` picks the arc of more than 180 degrees.
    /// The last conic ends exactly at `end`. Without a current point this starts a subpath at `end`.
    public mutating func addEllipticalArc(to end: Point, radiusX: Double, radiusY: Double,
                                          xAxisRotation: Double, largeArc: Bool, sweep: Bool) {
        guard let start = currentPoint else { move(to: end); return }
        if start == end { return }
        var rx = abs(radiusX), ry = abs(radiusY)
        guard rx > 0, ry > 0, rx.isFinite, ry.isFinite, xAxisRotation.isFinite else { addLine(to: end); return }

        let phi = (xAxisRotation.truncatingRemainder(dividingBy: 360)) * Double.pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        // F.6.5.1: the half chord (start - end) / 2 in the ellipse's unrotated frame.
        let hx = (start.x - end.x) / 2, hy = (start.y - end.y) / 2
        let x1 = cosPhi * hx + sinPhi * hy
        let y1 = -sinPhi * hx + cosPhi * hy
        // F.6.6: scale the radii up when the ellipse cannot reach; sqrt(Λ) = |p|.
        var p = Point(x1 / rx, y1 / ry)
        let reach = hypot(p.x, p.y)
        let isCorrected = reach > 1
        if isCorrected {
            rx *= reach; ry *= reach
            p = Point(x1 / rx, y1 / ry)
        }
        let pLength = hypot(p.x, p.y)
        guard pLength > 0, rx.isFinite, ry.isFinite else { addLine(to: end); return }

        // F.6.5.2 in unit-circle coordinates: the centre, relative to the chord's midpoint. After
        // the correction it is the midpoint itself (|p| = 1 exactly, up to a rounding that the
        // square root would blow up to a relative 1e-8).
        let centreDistance = isCorrected ? 0 : max(0, 1 - pLength * pLength).squareRoot()
        let side: Double = largeArc != sweep ? 1 : -1
        let centre = Point(p.y, -p.x) * (side * centreDistance / pLength)
        // F.6.5.4 (angles measured on the unit circle round the centre).
        let u1 = p - centre
        let u2 = -p - centre
        let theta1 = atan2(u1.y, u1.x)
        var delta = atan2(u1.cross(u2), u1.dot(u2))
        if sweep, delta < 0 { delta += 2 * Double.pi }
        if !sweep, delta > 0 { delta -= 2 * Double.pi }
        guard delta != 0, delta.isFinite else { addLine(to: end); return }

        // Unit-circle frame (origin at the ellipse's centre) -> user space.
        let midpoint = Point((start.x + end.x) / 2, (start.y + end.y) / 2)
        let ellipse = AffineTransform(a: cosPhi * rx, b: sinPhi * rx, c: -sinPhi * ry, d: cosPhi * ry, tx: 0, ty: 0)
        let origin = midpoint + ellipse.applyToVector(centre)
        let toUser = AffineTransform(a: ellipse.a, b: ellipse.b, c: ellipse.c, d: ellipse.d, tx: origin.x, ty: origin.y)

        let pieceCount = Self.quarterPieceCount(abs(delta))
        let pieceAngle = delta / Double(pieceCount)
        let weight = cos(abs(pieceAngle) / 2)
        for i in 0..<pieceCount {
            let a0 = theta1 + pieceAngle * Double(i)
            let bisector = a0 + pieceAngle / 2
            let control = toUser.apply(Point(cos(bisector), sin(bisector)) * (1 / weight))
            let to: Point
            if i == pieceCount - 1 {
                to = end
            } else {
                let a1 = theta1 + pieceAngle * Double(i + 1)
                to = toUser.apply(Point(cos(a1), sin(a1)))
            }
            addConic(to: to, control: control, weight: weight)
        }
    }
}
