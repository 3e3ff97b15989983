// SVGRenderer's gradients: linearGradient and radialGradient with their
// units, transforms, href inheritance and stops, and the linear spread
// methods drawn as repeated stops.

import Foundation
import PenumbraModel

extension SVGRenderer {
    // MARK: Gradients

    /// The attribute along the `href` chain of gradients.
    /// The geometry of one kind (x1, cx, fr...) is inherited from gradients of that kind only;
    /// units, transform and spread from either kind. The chain goes through both kinds.
    func gradientAttribute(_ node: SVGNode, _ name: String) -> String? {
        let common = ["gradientUnits", "gradientTransform", "spreadMethod"].contains(name)
        return inheritedAttribute(node, name, through: { $0.name.hasSuffix("Gradient") }) {
            common || $0.name == node.name
        }
    }

    /// The attribute on `node` or, when it has none, on the next element along the `href` chain
    /// (through elements that `through` accepts, at most 32 links) that `sameKind` accepts.
    func inheritedAttribute(_ node: SVGNode, _ name: String, through: ((SVGNode) -> Bool)? = nil,
                            sameKind: (SVGNode) -> Bool) -> String? {
        var n: SVGNode? = node
        var seen = 0
        while let current = n, seen < 32 {
            if current === node || sameKind(current), let v = current.attributes[name] { return v }
            n = reference(current.href).flatMap { next in (through.map { $0(next) } ?? sameKind(next)) ? next : nil }
            seen += 1
        }
        return nil
    }

    func gradientStops(_ node: SVGNode) -> [GradientStop] {
        var n: SVGNode? = node
        var seen = 0
        while let g = n, seen < 32 {
            let stops = g.children.filter { $0.name == "stop" }
            if !stops.isEmpty {
                var out: [GradientStop] = []
                var last = 0.0
                let parentStyle = inheritedStyle(of: g)
                for s in stops {
                    // A number or a percentage; anything else is invalid and means 0.
                    var offset = 0.0
                    if let l = SVGLength.parse(s.attributes["offset"]), l.unit == "" || l.unit == "%" {
                        offset = l.unit == "%" ? l.value / 100 : l.value
                    }
                    offset = min(1, max(last, min(1, max(0, offset))))
                    last = offset
                    let st = parentStyle.computed(for: s)
                    var color = Color(red: 0, green: 0, blue: 0)
                    // stop-color is not inherited, but `inherit` takes the gradient's.
                    var declared = s.declared["stop-color"]
                    if declared == "inherit" { declared = g.declared["stop-color"] }
                    if let v = declared {
                        if v.lowercased() == "currentcolor" { color = st.color } else if let c = parseColor(v) { color = c }
                    }
                    var opacity = 1.0
                    if let v = s.declared["stop-opacity"], let l = SVGLength.parse(v) {
                        opacity = min(1, max(0, l.unit == "%" ? l.value / 100 : l.value))
                    }
                    color.alpha *= opacity
                    out.append(GradientStop(offset: offset, color: color))
                }
                // Stops sharing the first offset: the pad before it takes the first of them, the
                // gradient after it the last (SVG); the context pads with the colour at the
                // offset, which is the last's, so the later ones move up by one step of the
                // ramp's offsets (Q16, GradientPlan.swift).
                var i = 1
                while i < out.count, out[i].offset == out[0].offset, out[0].offset < 1 {
                    out[i].offset = min(1, out[0].offset + 1.0 / 65536)
                    i += 1
                }
                return out
            }
            n = reference(g.href).flatMap { $0.name.hasSuffix("Gradient") ? $0 : nil }
            seen += 1
        }
        return []
    }

    /// Draws the gradient over the clip in force (the shape's), with `opacity`.
    func drawGradient(_ node: SVGNode, bbox: Rect?, opacity: Double, style: SVGStyle) {
        let stops = gradientStops(node)
        guard !stops.isEmpty else { return }
        if stops.count == 1 {
            let c = resolvedColor(stops[0].color, opacity)
            ctx.drawLinearGradient(stops: [GradientStop(offset: 0, color: c), GradientStop(offset: 1, color: c)], start: .zero, end: Point(1, 0))
            return
        }
        let objectBox = gradientAttribute(node, "gradientUnits") != "userSpaceOnUse"
        if objectBox {
            guard let b = bbox, b.width > 0, b.height > 0 else { return }
            ctx.concatenate(AffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY))
        }
        if let t = parseTransform(gradientAttribute(node, "gradientTransform")) { ctx.concatenate(about(node, t)) }
        guard ctx.ctm.isInvertible else { return }
        func coord(_ name: String, _ def: String, _ axis: Character) -> Double {
            let l = SVGLength.parse(gradientAttribute(node, name)) ?? SVGLength.parse(def)!
            if objectBox { return l.unit == "%" ? l.value / 100 : l.resolve(percentOf: 1) }
            return resolve(l, axis: axis, fontSize: style.fontSize)
        }
        let colored = Self.unpremultipliedInterpolation(stops.map { GradientStop(offset: $0.offset, color: resolvedColor($0.color, opacity)) })
        let spread = gradientAttribute(node, "spreadMethod") ?? "pad"
        if node.name == "linearGradient" {
            let p1 = Point(coord("x1", "0%", "x"), coord("y1", "0%", "y"))
            let p2 = Point(coord("x2", "100%", "x"), coord("y2", "0%", "y"))
            if p1 == p2 {
                let c = colored.last!.color
                ctx.drawLinearGradient(stops: [GradientStop(offset: 0, color: c), GradientStop(offset: 1, color: c)], start: .zero, end: Point(1, 0))
                return
            }
            if spread == "reflect" || spread == "repeat", let (stops2, a, b) = repeatedLinear(colored, p1, p2, reflect: spread == "reflect") {
                ctx.drawLinearGradient(stops: stops2, start: a, end: b)
            } else {
                ctx.drawLinearGradient(stops: colored, start: p1, end: p2)
            }
        } else {
            let cx = coord("cx", "50%", "x"), cy = coord("cy", "50%", "y"), r = coord("r", "50%", "d")
            let fx = gradientAttribute(node, "fx") != nil ? coord("fx", "50%", "x") : cx
            let fy = gradientAttribute(node, "fy") != nil ? coord("fy", "50%", "y") : cy
            let fr = coord("fr", "0%", "d")
            guard r > 0 else {
                let c = colored.last!.color
                ctx.drawLinearGradient(stops: [GradientStop(offset: 0, color: c), GradientStop(offset: 1, color: c)], start: .zero, end: Point(1, 0))
                return
            }
            let focal = Point(fx, fy), centre = Point(cx, cy), fr0 = max(0, fr)
            if spread == "reflect" || spread == "repeat",
               let (stops2, k) = repeatedRadial(colored, focal: focal, fr: fr0, centre: centre, r: r, reflect: spread == "reflect") {
                let d = centre - focal
                ctx.drawRadialGradient(stops: stops2, startCenter: focal, startRadius: fr0,
                                       endCenter: focal + d * k, endRadius: fr0 + (r - fr0) * k)
            } else {
                ctx.drawRadialGradient(stops: colored, startCenter: focal, startRadius: fr0, endCenter: centre, endRadius: r)
            }
        }
    }

    /// SVG interpolates gradient colours unpremultiplied; the context interpolates premultiplied.
    /// Between two stops whose alphas differ, intermediate stops (16 a segment) computed
    /// unpremultiplied make the context's interpolation follow SVG's within a level or two.
    static func unpremultipliedInterpolation(_ stops: [GradientStop]) -> [GradientStop] {
        guard stops.count > 1 else { return stops }
        var out: [GradientStop] = [stops[0]]
        for k in 1..<stops.count {
            let a = stops[k - 1], b = stops[k]
            if a.color.alpha != b.color.alpha, b.offset > a.offset {
                for i in 1..<16 {
                    let t = Double(i) / 16
                    let c = Color(red: a.color.red + (b.color.red - a.color.red) * t,
                                  green: a.color.green + (b.color.green - a.color.green) * t,
                                  blue: a.color.blue + (b.color.blue - a.color.blue) * t,
                                  alpha: a.color.alpha + (b.color.alpha - a.color.alpha) * t)
                    out.append(GradientStop(offset: a.offset + (b.offset - a.offset) * t, color: c))
                }
            }
            out.append(b)
        }
        return out
    }

    /// reflect and repeat for linear gradients: the stops repeated over the span of t that the
    /// clip's device bounds can reach, drawn as one padded gradient.
    func repeatedLinear(_ stops: [GradientStop], _ p1: Point, _ p2: Point, reflect: Bool) -> ([GradientStop], Point, Point)? {
        guard let inv = ctx.ctm.inverted() else { return nil }
        // Device corners of the canvas, in gradient space.
        let w = Double(ctx.pixelWidth), h = Double(ctx.pixelHeight)
        let d = p2 - p1
        let len2 = d.x * d.x + d.y * d.y
        guard len2 > 0 else { return nil }
        var tMin = Double.infinity, tMax = -Double.infinity
        for c in [Point(0, 0), Point(w, 0), Point(0, h), Point(w, h)] {
            let p = inv.apply(c)
            let t = ((p.x - p1.x) * d.x + (p.y - p1.y) * d.y) / len2
            tMin = min(tMin, t); tMax = max(tMax, t)
        }
        guard tMin.isFinite, tMax.isFinite else { return nil }
        let k0 = Int(floor(max(-500, tMin))), k1 = Int(ceil(min(500, tMax)))
        guard k1 > k0 else { return nil }
        let span = Double(k1 - k0)
        var out: [GradientStop] = []
        for k in k0..<k1 {
            let flipped = reflect && (k % 2 != 0)
            let seq = flipped ? stops.reversed().map { GradientStop(offset: 1 - $0.offset, color: $0.color) } : stops
            for s in seq { out.append(GradientStop(offset: (Double(k - k0) + s.offset) / span, color: s.color)) }
        }
        let a = p1 + d * Double(k0), b = p1 + d * Double(k1)
        return (out, a, b)
    }

    /// reflect and repeat for radial gradients: the circles of a two-circle gradient go on past
    /// t = 1 (centre and radius both linear in t), so the stops repeated k times over t in 0...k
    /// draw the same gradient as far as circle k, chosen to enclose the canvas. Inside the focal
    /// circle (t < 0) the first stop pads.
    func repeatedRadial(_ stops: [GradientStop], focal: Point, fr: Double, centre: Point, r: Double,
                        reflect: Bool) -> ([GradientStop], Double)? {
        guard let inv = ctx.ctm.inverted(), r > fr else { return nil }
        let w = Double(ctx.pixelWidth), h = Double(ctx.pixelHeight)
        let d = centre - focal
        let growth = (r - fr) - (d.x * d.x + d.y * d.y).squareRoot()
        guard growth > 1e-9 else { return nil }
        var reach = 0.0
        for c in [Point(0, 0), Point(w, 0), Point(0, h), Point(w, h)] {
            let p = inv.apply(c) - focal
            reach = max(reach, (p.x * p.x + p.y * p.y).squareRoot())
        }
        // Circle k holds every point within `reach` of the focal point once fr + k growth >= reach.
        let k = min(500, max(1, Int(ceil((reach - fr) / growth))))
        var out: [GradientStop] = []
        for i in 0..<k {
            let flipped = reflect && (i % 2 != 0)
            let seq = flipped ? stops.reversed().map { GradientStop(offset: 1 - $0.offset, color: $0.color) } : stops
            for s in seq { out.append(GradientStop(offset: (Double(i) + s.offset) / Double(k), color: s.color)) }
        }
        return (out, Double(k))
    }

}
