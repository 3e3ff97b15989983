// Stroke runs: the unit the stroker outlines. A run is a solid subpath or one
// dash piece; preparing it drops zero-length segments (they have no direction,
// so they neither join nor cap) and computes each segment's unit direction and
// length once. A run with fewer than two distinct points is a zero-length
// subpath: it becomes a dot, aligned with the direction it carries.
//
// Conventions shared by the stroke files: a segment's direction d is a unit
// vector; its left normal is (d.y, -d.x), screen left with y down. At a vertex
// between segments a and b, cross(d_a, d_b) > 0 turns right on screen, so the
// outer side of the corner is the left one; the outer side is +1 for left,
// -1 for right.

import Foundation

/// One piece of path to outline: a solid subpath or a dash piece.
package struct StrokeRun: Hashable, Sendable {
    /// Vertices in order (user space); consecutive duplicates may occur.
    package var points: [Point]
    /// `smooth[i]`: vertex i lies inside one curve (a round join, not the user's).
    package var smooth: [Bool]
    /// Closed runs have a segment from the last point back to the first and no caps.
    package var isClosed: Bool
    /// The path's direction where the run lies, for a run of zero length (a square dot is
    /// aligned with it); nil when the path has none (the dot is aligned with the x axis).
    package var direction: Point?
    /// The path's own directions at an open run's ends where a curve begins or ends it (see
    /// FlatSubpath); nil where the first or last chord is the path's direction.
    var startTangent: Point?
    var endTangent: Point?

    package init(points: [Point], smooth: [Bool], isClosed: Bool, direction: Point? = nil,
         startTangent: Point? = nil, endTangent: Point? = nil) {
        self.points = points; self.smooth = smooth; self.isClosed = isClosed; self.direction = direction
        self.startTangent = startTangent; self.endTangent = endTangent
    }

    /// A solid subpath as one run.
    package init(_ subpath: FlatSubpath) {
        self.init(points: subpath.points, smooth: subpath.smooth, isClosed: subpath.isClosed,
                  startTangent: subpath.startTangent, endTangent: subpath.endTangent)
    }
}

/// A run without zero-length segments, with its segments' directions and lengths.
///
/// Segment k runs from `points[k]` to `points[k + 1]`, and for a closed run segment
/// `points.count - 1` runs from the last point back to the first.
package struct PreparedRun {
    var points: [Point]
    var smooth: [Bool]
    var isClosed: Bool
    /// Unit direction of each segment.
    var directions: [Point]
    /// Length of each segment (> 0).
    var lengths: [Double]

    /// The prepared run, or nil when it has fewer than two distinct points (a dot).
    package init?(_ run: StrokeRun) {
        var points: [Point] = [], smooth: [Bool] = [], directions: [Point] = [], lengths: [Double] = []
        points.reserveCapacity(run.points.count); smooth.reserveCapacity(run.points.count)
        directions.reserveCapacity(run.points.count); lengths.reserveCapacity(run.points.count)
        for (i, p) in run.points.enumerated() {
            let isSmooth = i < run.smooth.count ? run.smooth[i] : false
            if let last = points.last {
                guard let (d, length) = unitDirection(p - last) else {
                    // A duplicate vertex: it is a corner when either copy is one.
                    smooth[smooth.count - 1] = smooth[smooth.count - 1] && isSmooth
                    continue
                }
                directions.append(d); lengths.append(length)
            }
            points.append(p); smooth.append(isSmooth)
        }
        guard points.count >= 2 else { return nil }
        if run.isClosed {
            if let (d, length) = unitDirection(points[0] - points[points.count - 1]) {
                directions.append(d); lengths.append(length)
            } else {
                // The last point repeats the first: the segment into it is the closing one.
                points.removeLast()
                let lastSmooth = smooth.removeLast()
                smooth[0] = smooth[0] && lastSmooth
            }
            guard points.count >= 2 else { return nil }
        }
        self.points = points; self.smooth = smooth; self.isClosed = run.isClosed
        self.directions = directions; self.lengths = lengths
    }

    /// The number of segments.
    var segmentCount: Int { directions.count }

    /// The vertices where two segments meet: every vertex of a closed run, the interior
    /// ones of an open run. Vertex v's outgoing segment is v, its incoming one
    /// `segment(before: v)`.
    var jointVertices: Range<Int> {
        let n = points.count
        if isClosed { return 0..<n }
        return n > 2 ? 1..<(n - 1) : 0..<0
    }

    /// The segment that ends at vertex `v` (the closing segment for vertex 0 of a closed run).
    @inline(__always)
    func segment(before v: Int) -> Int { v == 0 ? points.count - 1 : v - 1 }

    /// The end point of segment k.
    func end(ofSegment k: Int) -> Point { points[(k + 1) % points.count] }
}

/// The unit vector along `v` and its length, computed without overflow or underflow of the
/// squares; nil when `v` is zero or not finite.
func unitDirection(_ v: Point) -> (Point, Double)? {
    let m = max(abs(v.x), abs(v.y))
    guard m > 0, m.isFinite else { return nil }
    let x = v.x / m, y = v.y / m
    let l = (x * x + y * y).squareRoot()
    return (Point(x / l, y / l), m * l)
}

/// The screen-left normal (y down) of unit direction `d`.
@inline(__always) func leftNormal(_ d: Point) -> Point { Point(d.y, -d.x) }

/// The turn at a vertex from unit direction `a` to unit direction `b`.
struct Turn {
    /// cross(a, b): positive turns right on screen (the outer side is the left).
    let cross: Double
    /// dot(a, b): the cosine of the turning angle.
    let dot: Double

    init(from a: Point, to b: Point) { cross = a.cross(b); dot = a.dot(b) }

    /// No turn at all: the segments continue in the same direction.
    var isStraight: Bool { cross == 0 && dot > 0 }
    /// The side of the corner's outside: +1 left, -1 right (left for an exact reversal).
    var outerSide: Double { cross >= 0 ? 1 : -1 }
    /// The turning angle, in [0, pi].
    var angle: Double { atan2(abs(cross), dot) }
}
