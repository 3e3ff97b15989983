// Path: an ordered list of subpaths made of lines, quadratic and cubic Béziers
// and conics (rational quadratics), as CGPath holds them. Conics carry
// ellipses and arcs exactly: the scene format promises true conic sections,
// so a circle is four quarter-conics with weight sqrt(2)/2, not four cubics.
// An affine transform maps a conic to a conic with the same weight, which
// lets both renderers flatten curves once, in device space, with shared code
// (Path+Flatten.swift).

/// A fill rule: how the winding number of a point decides whether it is inside.
public enum FillRule: String, Sendable, Hashable, CaseIterable {
    /// Inside when the winding number is not zero (CGContextFillPath).
    case nonzero
    /// Inside when the winding number is odd (CGContextEOFillPath).
    case evenOdd = "evenodd"
}

/// A vector path in user space (CGPath / UIBezierPath).
public struct Path: Hashable, Sendable {
    /// One path element; points are end points and control points in user space.
    public enum Element: Hashable, Sendable {
        /// Starts a new subpath at the point (`CGPathElementType.moveToPoint`).
        case move(to: Point)
        /// A straight line from the current point to the point (`CGPathElementType.addLineToPoint`).
        case line(to: Point)
        /// A quadratic Bézier curve from the current point to `to`, with one control point
        /// (`CGPathElementType.addQuadCurveToPoint`).
        case quad(control: Point, to: Point)
        /// A cubic Bézier curve from the current point to `to`, with two control points
        /// (`CGPathElementType.addCurveToPoint`).
        case cubic(control1: Point, control2: Point, to: Point)
        /// A rational quadratic Bézier with end weights 1 and middle weight `weight` (> 0).
        /// Weight cos(θ/2) traces a circular arc of angle θ when the control polygon is isosceles.
        case conic(control: Point, to: Point, weight: Double)
        /// Closes the current subpath with a straight line back to its start
        /// (`CGPathElementType.closeSubpath`).
        case close
    }

    /// The elements in order.
    public private(set) var elements: [Element] = []
    /// The start of the current subpath (where `close` returns to).
    public private(set) var subpathStart: Point?
    /// The current point, or nil for an empty path (CGPathGetCurrentPoint).
    public private(set) var currentPoint: Point?

    /// An empty path.
    public init() {}

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    // MARK: Constructing a path (CGPathMoveToPoint and friends)

    /// Starts a new subpath at `p`.
    public mutating func move(to p: Point) {
        elements.append(.move(to: p)); subpathStart = p; currentPoint = p
    }
    /// Adds a straight line from the current point (a move first, when there is none).
    public mutating func addLine(to p: Point) {
        ensureCurrentPoint(p); elements.append(.line(to: p)); currentPoint = p
    }
    /// Adds a quadratic Bézier curve from the current point to `p` (a move to `control` first,
    /// when there is no current point).
    public mutating func addQuadCurve(to p: Point, control: Point) {
        ensureCurrentPoint(control); elements.append(.quad(control: control, to: p)); currentPoint = p
    }
    /// Adds a cubic Bézier curve from the current point to `p` (a move to `control1` first,
    /// when there is no current point).
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
        ensureCurrentPoint(control1); elements.append(.cubic(control1: control1, control2: control2, to: p)); currentPoint = p
    }
    /// Adds a conic (rational quadratic) from the current point to `p` with middle weight `weight`
    /// (a move to `control` first, when there is no current point).
    public mutating func addConic(to p: Point, control: Point, weight: Double) {
        ensureCurrentPoint(control); elements.append(.conic(control: control, to: p, weight: weight)); currentPoint = p
    }
    /// Closes the current subpath with a straight line to its start.
    public mutating func closeSubpath() {
        guard let start = subpathStart, currentPoint != nil, elements.last != .close else { return }
        elements.append(.close); currentPoint = start
    }
    /// Appends every element of another path.
    public mutating func addPath(_ other: Path) {
        for e in other.elements { append(e) }
    }

    /// Appends one element, keeping the current point and subpath start up to date.
    public mutating func append(_ e: Element) {
        switch e {
        case .move(let p): move(to: p)
        case .line(let p): addLine(to: p)
        case .quad(let c, let p): addQuadCurve(to: p, control: c)
        case .cubic(let c1, let c2, let p): addCurve(to: p, control1: c1, control2: c2)
        case .conic(let c, let p, let w): addConic(to: p, control: c, weight: w)
        case .close: closeSubpath()
        }
    }

    private mutating func ensureCurrentPoint(_ p: Point) {
        if currentPoint == nil { move(to: p) }
    }

    /// The path with every point mapped through `t` (conic weights are affine-invariant).
    public func applying(_ t: AffineTransform) -> Path {
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        for e in elements {
            switch e {
            case .move(let p): out.move(to: t.apply(p))
            case .line(let p): out.addLine(to: t.apply(p))
            case .quad(let c, let p): out.addQuadCurve(to: t.apply(p), control: t.apply(c))
            case .cubic(let c1, let c2, let p): out.addCurve(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
            case .conic(let c, let p, let w): out.addConic(to: t.apply(p), control: t.apply(c), weight: w)
            case .close: out.closeSubpath()
            }
        }
        return out
    }

    /// Every point of every element, control points included.
    public var allPoints: [Point] {
        var pts: [Point] = []
        for e in elements {
            switch e {
            case .move(let p), .line(let p): pts.append(p)
            case .quad(let c, let p), .conic(let c, let p, _): pts.append(c); pts.append(p)
            case .cubic(let c1, let c2, let p): pts.append(c1); pts.append(c2); pts.append(p)
            case .close: break
            }
        }
        return pts
    }

    /// The bounding box of all points, control points included (CGPathGetBoundingBox), or nil when empty.
    public var controlPointBounds: Rect? {
        let pts = allPoints
        guard let first = pts.first else { return nil }
        var x0 = first.x, y0 = first.y, x1 = first.x, y1 = first.y
        for p in pts { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// A flattened subpath: a polyline whose vertices lie on the curve.
///
/// `points` holds the subpath's start point and then the end of every flattened piece in
/// order (consecutive duplicates can occur). For a closed subpath the closing segment runs
/// from the last point back to the first, and a last point equal to the first is dropped.
/// `smooth[i]` is true when vertex i lies inside one curve (a joint between two pieces of the
/// same flattened curve, where a stroke needs no join of the user's style), false at a corner
/// between path elements and at the ends. A subpath that was only a `move` is omitted.
///
/// `startTangent` and `endTangent` are the curve's own directions at the subpath's two ends
/// when a curve begins or ends it (nil for a line, where the first or last chord is exact): a
/// stroke's caps are perpendicular to the path there, not to the flattened chord.
package struct FlatSubpath: Hashable, Sendable {
    package var points: [Point]
    package var smooth: [Bool]
    package var isClosed: Bool
    package var startTangent: Point?
    package var endTangent: Point?
    package init(points: [Point], smooth: [Bool], isClosed: Bool, startTangent: Point? = nil, endTangent: Point? = nil) {
        self.points = points; self.smooth = smooth; self.isClosed = isClosed
        self.startTangent = startTangent; self.endTangent = endTangent
    }
}
