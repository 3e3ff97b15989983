// Shapes and circular arcs: CGPathAddRect, CGPathAddEllipseInRect,
// CGPathAddRoundedRect and UIBezierPath's addArcWithCenter:radius:startAngle:
// endAngle:clockwise:, built the way Quartz builds them so that strokes, dashes
// and joins start and run where they do on iOS.
//
// The scene format: "Shapes start and run as Quartz builds them, clockwise on
// screen: a rect at (x, y) towards +x; an ellipse at angle 0 (the point
// (x + w, y + h/2)) with increasing angle; a rounded rect at (x + r, y) towards
// +x." and "Curves are exact: ellipses, arcs and SVG elliptical arcs are true
// conic sections". Every curved piece is therefore a conic of at most 90
// degrees: for a circular arc of angle θ the control point is where the
// tangents at the two ends meet (distance r / cos(θ/2) from the centre, on the
// bisector) and the weight is cos(θ/2); a quarter of an ellipse is the affine
// image of a quarter circle, so its control point is the bounding-box corner
// and its weight sqrt(2)/2. Rectangles are standardised first (negative width
// or height flips the origin), as CGRectStandardize does and as Quartz does
// before adding a rect.

import Foundation

/// The weight of a conic that traces a quarter of a circle or ellipse: cos(45°).
let quarterConicWeight: Double = 0.5.squareRoot()

extension Path {
    // MARK: Rectangles (CGPathAddRect)

    /// Adds a closed rectangle: a move to (minX, minY), lines towards +x, then +y, then back, and a close
    /// (clockwise on screen, with y down).
    ///
    /// A rect with negative width or height is standardised first (CGRectStandardize), so the path
    /// always starts at the top-left corner and runs towards +x. A zero-size rect is valid: its
    /// elements are still added (as Quartz does), they enclose no area and fill nothing.
    public mutating func addRect(_ rect: Rect) {
        let r = rect.standardized
        move(to: Point(r.minX, r.minY))
        addLine(to: Point(r.maxX, r.minY))
        addLine(to: Point(r.maxX, r.maxY))
        addLine(to: Point(r.minX, r.maxY))
        closeSubpath()
    }

    /// A path holding one rectangle (CGPathCreateWithRect, UIBezierPath(rect:)); see `addRect(_:)`.
    public init(rect: Rect) {
        self.init()
        addRect(rect)
    }

    // MARK: Ellipses (CGPathAddEllipseInRect)

    /// Adds the ellipse inscribed in `rect` as a closed subpath of four quarter conics.
    ///
    /// It starts at angle 0, the point (maxX, midY), and runs with increasing angle (towards +y
    /// first, clockwise on screen): through (midX, maxY), (minX, midY), (midX, minY) and back.
    /// Each quarter is a conic with weight sqrt(2)/2 whose control point is the corner of the
    /// standardised bounding box between its two ends, which is exact (not a cubic approximation).
    public mutating func addEllipse(in rect: Rect) {
        let r = rect.standardized
        let x0 = r.minX, y0 = r.minY, x1 = r.maxX, y1 = r.maxY
        let cx = r.midX, cy = r.midY
        let w = quarterConicWeight
        move(to: Point(x1, cy))
        addConic(to: Point(cx, y1), control: Point(x1, y1), weight: w)
        addConic(to: Point(x0, cy), control: Point(x0, y1), weight: w)
        addConic(to: Point(cx, y0), control: Point(x0, y0), weight: w)
        addConic(to: Point(x1, cy), control: Point(x1, y0), weight: w)
        closeSubpath()
    }

    /// A path holding one ellipse (CGPathCreateWithEllipseInRect, UIBezierPath(ovalIn:)); see `addEllipse(in:)`.
    public init(ellipseIn rect: Rect) {
        self.init()
        addEllipse(in: rect)
    }

    // MARK: Rounded rectangles (CGPathAddRoundedRect)

    /// Adds a rectangle with circular corners of radius `cornerRadius` as one closed subpath.
    ///
    /// The radius is clamped to [0, half the shorter side] ("radius clamped to half the shorter
    /// side"; NaN counts as 0); a radius of 0 adds a plain rect (`addRect(_:)`). The subpath starts
    /// at (minX + r, minY) and runs towards +x, clockwise on screen: top edge, top-right corner,
    /// right edge, and so on, ending with the top-left corner at the start point. Each corner is a
    /// quarter-circle conic (weight sqrt(2)/2, control point at the rectangle's corner). A straight
    /// edge of zero length (when the radius is exactly half a side) is left out, so that a
    /// stroke sees no degenerate segment between two tangent corners.
    public mutating func addRoundedRect(in rect: Rect, cornerRadius: Double) {
        let rc = rect.standardized
        let halfShorter = min(rc.width, rc.height) / 2
        let radius = cornerRadius > 0 ? min(cornerRadius, halfShorter) : 0
        guard radius > 0 else { addRect(rc); return }
        let x0 = rc.minX, y0 = rc.minY, x1 = rc.maxX, y1 = rc.maxY
        let w = quarterConicWeight

        move(to: Point(x0 + radius, y0))
        addLineUnlessZeroLength(to: Point(x1 - radius, y0))
        addConic(to: Point(x1, y0 + radius), control: Point(x1, y0), weight: w)
        addLineUnlessZeroLength(to: Point(x1, y1 - radius))
        addConic(to: Point(x1 - radius, y1), control: Point(x1, y1), weight: w)
        addLineUnlessZeroLength(to: Point(x0 + radius, y1))
        addConic(to: Point(x0, y1 - radius), control: Point(x0, y1), weight: w)
        addLineUnlessZeroLength(to: Point(x0, y0 + radius))
        addConic(to: Point(x0 + radius, y0), control: Point(x0, y0), weight: w)
        closeSubpath()
    }

    /// A path holding one rounded rectangle (UIBezierPath(roundedRect:cornerRadius:)); see
    /// `addRoundedRect(in:cornerRadius:)`.
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        self.init()
        addRoundedRect(in: rect, cornerRadius: cornerRadius)
    }

    private mutating func addLineUnlessZeroLength(to p: Point) {
        if currentPoint != p { addLine(to: p) }
    }

    // MARK: Circular arcs (UIBezierPath addArcWithCenter:radius:startAngle:endAngle:clockwise:)

    /// Adds a circular arc, as UIBezierPath's `addArcWithCenter:radius:startAngle:endAngle:clockwise:`
    /// and the scene format's `arc` shape do.
    ///
    /// Angles are in radians, measured from +x towards +y (down on screen). The arc starts at
    /// `center + radius (cos startAngle, sin startAngle)`: when the path has a current point a
    /// line is added from it to that start (left out when the current point is already exactly
    /// there), otherwise a new subpath starts there. "`clockwise: true` runs with increasing angle,
    /// clockwise on screen, from `start` until it reaches `end` (wrapping past 2 pi if needed); a
    /// sweep of 2 pi or more is a full circle." `clockwise: false` runs with decreasing angle in
    /// the same way. Precisely, with `d = endAngle - startAngle` for clockwise and
    /// `startAngle - endAngle` otherwise, the sweep is 2 pi when `d >= 2 pi` and `d` reduced into
    /// [0, 2 pi) otherwise (so equal angles give no arc, only the start point). A full circle ends
    /// at its start point; any other arc ends exactly at `center + radius (cos endAngle, sin endAngle)`.
    ///
    /// The arc is emitted as `ceil(sweep / 90°)` conics of equal angle θ, each with weight
    /// cos(θ/2) and its control point where the end tangents meet.
    ///
    /// Degenerate input: a radius of 0 adds only the start point (the centre). A negative or
    /// non-finite radius, or a non-finite centre or angle, adds nothing at all: Quartz's
    /// CGPathAddArc rejects a negative radius rather than taking its absolute value.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        guard radius >= 0, radius.isFinite, center.isFinite, startAngle.isFinite, endAngle.isFinite else { return }
        let start = Self.pointOnCircle(center, radius, startAngle)
        if currentPoint == nil {
            move(to: start)
        } else if currentPoint != start {
            addLine(to: start)
        }
        guard radius > 0 else { return }

        let sweep = Self.arcSweep(startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        guard sweep > 0 else { return }
        let isFullCircle = sweep >= 2 * Double.pi
        let direction: Double = clockwise ? 1 : -1
        let pieceCount = Self.quarterPieceCount(sweep)
        let pieceSweep = sweep / Double(pieceCount)
        let weight = cos(pieceSweep / 2)
        let controlDistance = radius / weight

        for i in 0..<pieceCount {
            let a0 = startAngle + direction * pieceSweep * Double(i)
            let isLast = i == pieceCount - 1
            let a1 = isLast ? (isFullCircle ? startAngle : endAngle) : startAngle + direction * pieceSweep * Double(i + 1)
            let bisector = a0 + direction * pieceSweep / 2
            let control = Self.pointOnCircle(center, controlDistance, bisector)
            addConic(to: Self.pointOnCircle(center, radius, a1), control: control, weight: weight)
        }
    }

    /// A path holding one arc (UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:)); see
    /// `addArc(center:radius:startAngle:endAngle:clockwise:)`.
    public init(arcCenter center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        self.init()
        addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// The angle an arc covers, in [0, 2 pi]: 2 pi when the travel in the arc's direction is
    /// 2 pi or more, else that travel reduced into [0, 2 pi).
    package static func arcSweep(startAngle: Double, endAngle: Double, clockwise: Bool) -> Double {
        let twoPi = 2 * Double.pi
        let travel = clockwise ? endAngle - startAngle : startAngle - endAngle
        if travel >= twoPi { return twoPi }
        var sweep = travel.truncatingRemainder(dividingBy: twoPi)
        if sweep < 0 { sweep += twoPi }
        // A tiny negative travel rounds up to 2 pi here: an arc that goes (almost) all the way round.
        return min(sweep, twoPi)
    }

    /// The number of equal pieces of at most 90 degrees that cover `sweep` (a sweep that
    /// exceeds a multiple of 90 degrees by rounding error only does not get an extra piece).
    static func quarterPieceCount(_ sweep: Double) -> Int {
        let quarters = sweep / (Double.pi / 2)
        return max(1, Int((quarters - 1e-9).rounded(.up)))
    }

    static func pointOnCircle(_ center: Point, _ radius: Double, _ angle: Double) -> Point {
        Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
    }
}
