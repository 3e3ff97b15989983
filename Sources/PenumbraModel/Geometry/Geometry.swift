// Geometry: the value types of Quartz's coordinate model (CGPoint, CGSize,
// CGRect, UIEdgeInsets), in Double. Origin top-left, y down, units are points
// in user space and pixels in device space.

/// A point in a two-dimensional coordinate system (CGPoint).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate (points in user space, pixels in device space), increasing to the right.
    public var x: Double
    /// The vertical coordinate (points in user space, pixels in device space), increasing downwards.
    public var y: Double
    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// Creates a point from its coordinates, without labels: `Point(10, 20)`.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// The origin, (0, 0) (`CGPoint.zero`).
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }

    /// The component-wise sum, treating the points as vectors.
    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The component-wise difference, treating the points as vectors.
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// The point with both coordinates multiplied by `s`.
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// The point with both coordinates multiplied by `s`.
    @inlinable public static func * (s: Double, a: Point) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// The point with both coordinates negated.
    @inlinable public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }
    /// Dot product, treating the points as vectors.
    @inlinable package func dot(_ o: Point) -> Double { x * o.x + y * o.y }
    /// The z component of the cross product, treating the points as vectors.
    @inlinable package func cross(_ o: Point) -> Double { x * o.y - y * o.x }
    /// Euclidean length, treating the point as a vector.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// The point's coordinates are both finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
    /// Linear interpolation from self (t = 0) to `o` (t = 1).
    @inlinable package func lerp(_ o: Point, _ t: Double) -> Point { Point(x: x + (o.x - x) * t, y: y + (o.y - y) * t) }
}

/// A width and a height (CGSize).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent (points in user space, pixels in device space).
    public var width: Double
    /// The vertical extent (points in user space, pixels in device space).
    public var height: Double
    /// Creates a size from a width and a height.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// A size of zero width and height (`CGSize.zero`).
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle (CGRect). Width and height may be negative, as in Quartz; the
/// min/max accessors standardise.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The corner the size is measured from: the top-left corner when the size is not negative.
    public var origin: Point
    /// The width and height as given, possibly negative (``width`` and ``height`` are their absolute values).
    public var size: Size
    /// Creates a rectangle from an origin and a size.
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// Creates a rectangle from the coordinates of its origin and its size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y); size = Size(width: width, height: height)
    }
    /// The rectangle at (0, 0) with zero size (`CGRect.zero`).
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }

    /// The smallest x coordinate of the rectangle, its left edge (`CGRect.minX`).
    public var minX: Double { min(origin.x, origin.x + size.width) }
    /// The smallest y coordinate of the rectangle, its top edge (`CGRect.minY`).
    public var minY: Double { min(origin.y, origin.y + size.height) }
    /// The largest x coordinate of the rectangle, its right edge (`CGRect.maxX`).
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    /// The largest y coordinate of the rectangle, its bottom edge (`CGRect.maxY`).
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    /// The x coordinate of the rectangle's centre (`CGRect.midX`).
    public var midX: Double { origin.x + size.width / 2 }
    /// The y coordinate of the rectangle's centre (`CGRect.midY`).
    public var midY: Double { origin.y + size.height / 2 }
    /// The width, never negative (`CGRect.width`).
    public var width: Double { abs(size.width) }
    /// The height, never negative (`CGRect.height`).
    public var height: Double { abs(size.height) }
    /// True when the rectangle encloses no area.
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }
    /// The rectangle with non-negative width and height (CGRectStandardize).
    public var standardized: Rect { Rect(x: minX, y: minY, width: width, height: height) }

    /// The smallest rectangle with integral coordinates that contains this one (CGRectIntegral).
    public var integral: Rect {
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    /// The overlap of two rectangles, or nil when they do not overlap in area (CGRectIntersection).
    public func intersection(_ o: Rect) -> Rect? {
        let x0 = max(minX, o.minX), y0 = max(minY, o.minY)
        let x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both (CGRectUnion).
    public func union(_ o: Rect) -> Rect {
        let x0 = min(minX, o.minX), y0 = min(minY, o.minY)
        return Rect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom; negative values grow it (CGRectInset).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
}

/// Insets for each edge of a rectangle (UIEdgeInsets): a nine-slice image's caps.
public struct EdgeInsets: Hashable, Sendable {
    /// The inset from the top edge, in points.
    public var top: Double
    /// The inset from the left edge, in points.
    public var left: Double
    /// The inset from the bottom edge, in points.
    public var bottom: Double
    /// The inset from the right edge, in points.
    public var right: Double
    /// Creates insets, in points, in `UIEdgeInsets`' order: top, left, bottom, right.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// No inset on any edge (`UIEdgeInsets.zero`).
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}
