// Dashing: splitting a flattened subpath into dash pieces by arc length,
// before outlining (all in user space). The scene format: "A dash pattern
// starts, with the phase, at each subpath's start point; a dash that runs
// through the start of a closed subpath is drawn as two pieces with caps, not
// joined." and "A zero-length dash ... with round or square caps draws a dot
// (a square one is aligned with the path's direction there), also at a path's
// end."
//
// The pattern's entries alternate on and off, starting on; entry k covers the
// pattern interval [s_k, s_k + len_k], repeated with the period. With phase p,
// pattern position u lies at path distance u - p. Over a subpath of length L:
// - an on entry of positive length draws the part of its interval inside
//   [0, L] when that part has positive length (a dash ending exactly at the
//   start draws nothing; one too short to survive rounding is a dot, its caps);
// - an on entry of length 0 draws a zero-length piece (a dot) wherever it
//   falls in [0, L], its ends included, carrying the path's direction there
//   (the segment leaving that point, or arriving at it at the path's end).
// A closed subpath is dashed along its closing segment too, as open pieces;
// there the path's end is its start again, so a dot at the end is left out
// when the pattern already draws something at distance 0 (it would repeat it).
//
// Each entry's position is computed from the cycle number and the pattern's
// cumulative starts, never by accumulating, so long paths do not drift, and
// positions within 1e-10 of the path length of a vertex snap to it, so a dash
// that ends at a corner does not leave a sliver of the next segment (unless
// that would leave nothing of a dash shorter than that). Pieces are handed
// out one at a time (never all held at once) and counted against a budget (Stroker.maximumDashPieces per outline call): past it, dashing stops,
// so no pattern can hang or exhaust memory.

/// A validated dash pattern: alternating on and off lengths and a phase in [0, period).
struct DashPattern: Hashable, Sendable {
    /// On and off lengths, an even count, all finite and >= 0.
    let lengths: [Double]
    /// Pattern position where each entry starts.
    let starts: [Double]
    /// The sum of the lengths (> 0, finite).
    let period: Double
    /// The distance into the pattern at each subpath's start, in [0, period).
    let phase: Double

    /// The pattern, or nil for a solid line: no entries, a negative or non-finite entry, or
    /// entries that sum to 0 (or overflow). An odd count is repeated once; a non-finite phase
    /// is 0; any other phase is taken modulo the period (a negative one counts backwards).
    init?(lengths rawLengths: [Double], phase rawPhase: Double) {
        guard !rawLengths.isEmpty, rawLengths.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let lengths = rawLengths.count % 2 == 0 ? rawLengths : rawLengths + rawLengths
        var starts: [Double] = [], sum = 0.0
        for length in lengths { starts.append(sum); sum += length }
        guard sum > 0, sum.isFinite else { return nil }
        var phase = rawPhase.isFinite ? rawPhase.truncatingRemainder(dividingBy: sum) : 0
        if phase < 0 { phase += sum }
        if !(phase < sum) { phase = 0 }
        self.lengths = lengths; self.starts = starts; self.period = sum; self.phase = phase
    }
}

enum Dasher {
    /// Splits `subpath` into dash pieces (open runs) and hands them to `body` in path order,
    /// until `body` returns false. Every on entry that falls on the path spends one unit of
    /// `budget`, drawn or not (a dot that would repeat a closed subpath's start), and dashing
    /// stops when the budget is spent: the loop runs at most about twice the budget. A subpath
    /// of length 0 is a dot when the pattern is on at the phase, and nothing otherwise.
    static func split(_ subpath: FlatSubpath, pattern: DashPattern, budget: inout Int,
                      _ body: (StrokeRun) -> Bool) {
        guard budget > 0, !subpath.points.isEmpty else { return }
        let polyline = MeasuredPolyline(subpath)
        let total = polyline.length
        guard total.isFinite else { return }
        let m = pattern.lengths.count

        // The first entry that draws anything at or after distance 0.
        var k = 0
        while k < m - 1 {
            let end = pattern.starts[k] + pattern.lengths[k]
            if end > pattern.phase || (pattern.lengths[k] == 0 && pattern.starts[k] >= pattern.phase) { break }
            k += 1
        }
        if total == 0 {
            budget -= 1
            if k % 2 == 0, pattern.starts[k] <= pattern.phase { _ = body(polyline.dot(at: 0)) }
            return
        }
        var cycle = 0.0
        var drawsAtStart = false
        while budget > 0 {
            let a = cycle * pattern.period - pattern.phase + pattern.starts[k]
            if a > total { break }
            if k % 2 == 0 {
                budget -= 1
                var lo = polyline.snapped(max(a, 0))
                var piece: StrokeRun?
                if pattern.lengths[k] == 0 {
                    // At a closed subpath's end the path is back at its start.
                    if !(subpath.isClosed && lo == total && drawsAtStart) { piece = polyline.dot(at: lo) }
                } else {
                    let end = min(a + pattern.lengths[k], total)
                    var hi = polyline.snapped(end)
                    if !(hi > lo) { lo = min(max(a, 0), total); hi = end }   // a dash shorter than the snap
                    if hi > lo {
                        piece = polyline.piece(from: lo, to: hi)
                    } else if a < total, a + pattern.lengths[k] > 0 {
                        piece = polyline.dot(at: lo)   // too short to survive rounding: its caps remain
                    }
                }
                if let piece {
                    if lo == 0 { drawsAtStart = true }
                    guard body(piece) else { return }
                }
            }
            k += 1
            if k == m { k = 0; cycle += 1 }
        }
    }

    /// All the dash pieces of `subpath` (for tests), within `budget`.
    static func pieces(_ subpath: FlatSubpath, pattern: DashPattern, budget: Int = Stroker.maximumDashPieces) -> [StrokeRun] {
        var budget = budget
        var out: [StrokeRun] = []
        split(subpath, pattern: pattern, budget: &budget) { out.append($0); return true }
        return out
    }
}

/// A subpath as an open polyline (a closed one repeats its start at the end) with the
/// path distance of every vertex.
struct MeasuredPolyline {
    let points: [Point]
    let smooth: [Bool]
    /// `distances[i]`: arc length from the start to vertex i (non-decreasing).
    let distances: [Double]

    init(_ subpath: FlatSubpath) {
        var points = subpath.points
        var smooth = (0..<points.count).map { $0 < subpath.smooth.count ? subpath.smooth[$0] : false }
        if subpath.isClosed, let first = points.first {
            points.append(first); smooth.append(smooth[0])
        }
        var distances = [0.0], sum = 0.0
        distances.reserveCapacity(points.count)
        for i in 1..<max(1, points.count) {
            sum += unitDirection(points[i] - points[i - 1])?.1 ?? 0
            distances.append(sum)
        }
        self.points = points; self.smooth = smooth; self.distances = distances
    }

    /// The total arc length.
    var length: Double { distances[distances.count - 1] }

    /// The largest vertex index whose distance is <= s (s in [0, length]).
    private func vertexIndex(atOrBefore s: Double) -> Int {
        var lo = 0, hi = distances.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if distances[mid] <= s { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// `s` clamped to [0, length], and moved onto a vertex's distance within 1e-10 of the length.
    func snapped(_ s: Double) -> Double {
        let s = min(max(s, 0), length)
        let epsilon = 1e-10 * length
        let i = vertexIndex(atOrBefore: s)
        if s - distances[i] <= epsilon { return distances[i] }
        if i + 1 < distances.count, distances[i + 1] - s <= epsilon { return distances[i + 1] }
        return s
    }

    /// The point at distance s: a vertex exactly when s is a vertex's distance.
    private func point(at s: Double, segmentFrom i: Int) -> Point {
        if s == distances[i] || i + 1 >= points.count { return points[i] }
        let t = (s - distances[i]) / (distances[i + 1] - distances[i])
        return points[i].lerp(points[i + 1], t)
    }

    /// The path's direction at distance s: the segment leaving that point, or the last one
    /// arriving at it at the path's end; nil when the path has no direction.
    func direction(at s: Double) -> Point? {
        let i = vertexIndex(atOrBefore: s)
        if i + 1 < points.count, let (d, _) = unitDirection(points[i + 1] - points[i]) { return d }
        var j = min(i, points.count - 1)
        while j > 0 {
            if let (d, _) = unitDirection(points[j] - points[j - 1]) { return d }
            j -= 1
        }
        return nil
    }

    /// A zero-length piece at distance s, carrying the direction there.
    func dot(at s: Double) -> StrokeRun {
        let i = vertexIndex(atOrBefore: s)
        return StrokeRun(points: [point(at: s, segmentFrom: i)], smooth: [false], isClosed: false,
                         direction: direction(at: s))
    }

    /// The open piece from distance lo to hi (0 <= lo < hi <= length).
    func piece(from lo: Double, to hi: Double) -> StrokeRun {
        let i = vertexIndex(atOrBefore: lo)
        var out = [point(at: lo, segmentFrom: i)]
        var flags = [false]
        var u = i + 1
        while u < points.count - 1, distances[u] < hi {
            out.append(points[u]); flags.append(smooth[u]); u += 1
        }
        // u is now the first vertex at or past hi (or the last vertex).
        if distances[u] == hi {
            out.append(points[u])
        } else {
            let t = (hi - distances[u - 1]) / (distances[u] - distances[u - 1])
            out.append(points[u - 1].lerp(points[u], t))
        }
        flags.append(false)
        return StrokeRun(points: out, smooth: flags, isClosed: false, direction: direction(at: lo))
    }
}
