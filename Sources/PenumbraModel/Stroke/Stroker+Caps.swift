// Caps and dots: the ends of open runs, and runs of zero length.
//
// A butt cap ends the band flat at the end point; a square cap extends it by
// half the width; a round cap is the half disc of radius half the width,
// flattened within the tolerance. The scene format: "A zero-length dash or
// subpath with round or square caps draws a dot (a square one is aligned with
// the path's direction there), also at a path's end." So a zero-length run is a
// disc of diameter w for round caps, a w x w square aligned with the run's
// direction (the x axis when it has none) for square caps, nothing for butt.

extension Stroker {
    /// Appends the points of the cap at the end `p` of a run arriving in unit direction `d`,
    /// strictly between the left offset point p + h n and the right one p - h n.
    static func appendEndCap(at p: Point, direction d: Point, _ parameters: StrokeParameters, into out: inout [Point]) {
        let h = parameters.halfWidth, n = leftNormal(d)
        switch parameters.cap {
        case .butt: break
        case .square:
            out.append(p + n * h + d * h); out.append(p - n * h + d * h)
        case .round:
            StrokeArc.append(center: p, radius: h, from: n, to: -n, sweep: Double.pi, tolerance: parameters.tolerance,
                             includeStart: false, includeEnd: false, into: &out)
        }
    }

    /// Appends the points of the cap at the start `p` of a run leaving in unit direction `d`,
    /// strictly between the right offset point p - h n and the left one p + h n.
    static func appendStartCap(at p: Point, direction d: Point, _ parameters: StrokeParameters, into out: inout [Point]) {
        let h = parameters.halfWidth, n = leftNormal(d)
        switch parameters.cap {
        case .butt: break
        case .square:
            out.append(p - n * h - d * h); out.append(p + n * h - d * h)
        case .round:
            StrokeArc.append(center: p, radius: h, from: -n, to: n, sweep: Double.pi, tolerance: parameters.tolerance,
                             includeStart: false, includeEnd: false, into: &out)
        }
    }

    /// The cap at the end `p` of a run arriving in direction `d` as its own polygon (pieces
    /// mode), or fewer than three points for a butt cap.
    static func endCapPolygon(at p: Point, direction d: Point, _ parameters: StrokeParameters) -> [Point] {
        let h = parameters.halfWidth, n = leftNormal(d)
        var polygon = [p + n * h]
        appendEndCap(at: p, direction: d, parameters, into: &polygon)
        polygon.append(p - n * h)
        return polygon
    }

    /// The cap at the start `p` of a run leaving in direction `d` as its own polygon.
    static func startCapPolygon(at p: Point, direction d: Point, _ parameters: StrokeParameters) -> [Point] {
        let h = parameters.halfWidth, n = leftNormal(d)
        var polygon = [p - n * h]
        appendStartCap(at: p, direction: d, parameters, into: &polygon)
        polygon.append(p + n * h)
        return polygon
    }

    /// Emits the dot of a zero-length run at `p`: a disc for round caps, a square aligned with
    /// `direction` (the x axis when nil or degenerate) for square caps, nothing for butt.
    static func emitDot(at p: Point, direction: Point?, _ parameters: StrokeParameters, into sink: inout OutlineSink) {
        let h = parameters.halfWidth
        switch parameters.cap {
        case .butt: return
        case .round:
            sink.appendPositive(StrokeArc.circle(center: p, radius: h, tolerance: parameters.tolerance))
        case .square:
            let d = direction.flatMap { unitDirection($0)?.0 } ?? Point(1, 0)
            let n = leftNormal(d)
            sink.appendPositive([p - d * h + n * h, p + d * h + n * h, p + d * h - n * h, p - d * h - n * h])
        }
    }
}
