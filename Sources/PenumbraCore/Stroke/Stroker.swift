// INTERIM: replaced by the real stroker (outlines with caps, joins and dashes).
public enum Stroker {
    /// Outlines flattened subpaths (user space) into contours to fill with the nonzero rule.
    public static func outline(_ subpaths: [FlatSubpath], style: StrokeStyle, tolerance: Double) -> [[Point]] {
        var out: [[Point]] = []
        let hw = style.width / 2
        for s in subpaths {
            var pts = s.points
            if s.isClosed, let f = pts.first { pts.append(f) }
            for i in 1..<max(1, pts.count) {
                let a = pts[i - 1], b = pts[i], d = b - a
                let l = d.length
                guard l > 0 else { continue }
                let n = Point(-d.y / l * hw, d.x / l * hw)
                out.append([a + n, b + n, b - n, a - n])
            }
        }
        return out
    }
}
