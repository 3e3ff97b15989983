// Drawing a document with the GraphicsContext's own calls: the transform stack, clips, fills
// and strokes with their style, gradients under a clip, transparency layers for group opacity,
// images. Both renderers execute these calls, so an SVG draws byte-identically on CPU and GPU.
import Foundation
import PenumbraModel

final class SVGRenderer {
    let doc: SVGDocument
    let ctx: GraphicsContext
    var useCount = 0
    var activeUses: Set<ObjectIdentifier> = []
    var activePatterns: Set<ObjectIdentifier> = []
    var activeClips: Set<ObjectIdentifier> = []
    var activeMarkers: Set<ObjectIdentifier> = []
    var activeMasks: Set<ObjectIdentifier> = []
    var pathElements = 0
    /// The viewport (width, height) percentages resolve against.
    var viewport = Size(width: 100, height: 100)
    /// The size the whole document is drawn at (what `vw`, `vh`, `vmin` and `vmax` refer to).
    var canvas = Size(width: 100, height: 100)

    init(document: SVGDocument, context: GraphicsContext) { doc = document; ctx = context }

    // MARK: Sizes and viewports

    static func viewBox(_ node: SVGNode) -> Rect? {
        guard let s = node.attributes["viewBox"] else { return nil }
        let n = parseNumberList(s)
        guard n.count == 4, n[2] > 0, n[3] > 0 else { return nil }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    static func documentSize(_ root: SVGNode) -> Size {
        let vb = viewBox(root)
        func dim(_ name: String, _ fromBox: Double?) -> Double {
            if let l = SVGLength.parse(root.attributes[name]), l.value > 0 {
                if l.unit == "%" { return (fromBox ?? 100) * l.value / 100 }
                return l.resolve(percentOf: 100)
            }
            return fromBox ?? 100
        }
        var w = dim("width", vb?.width), h = dim("height", vb?.height)
        if let vb, root.attributes["width"] == nil, root.attributes["height"] != nil { w = h * vb.width / vb.height }
        if let vb, root.attributes["height"] == nil, root.attributes["width"] != nil { h = w * vb.height / vb.width }
        return Size(width: w, height: h)
    }

    /// The transform that maps `box` into a viewport of `size` under `preserveAspectRatio`.
    static func viewBoxTransform(_ box: Rect, _ size: Size, _ par: String?) -> AffineTransform {
        let words = (par ?? "xMidYMid meet").split(separator: " ").filter { $0 != "defer" }
        let align = words.first.map(String.init) ?? "xMidYMid"
        let slice = words.count > 1 && words[1] == "slice"
        var sx = size.width / box.width, sy = size.height / box.height
        if align == "none" {
            return AffineTransform(translationX: -box.minX, y: -box.minY).concatenating(AffineTransform(scaleX: sx, y: sy))
        }
        let s = slice ? max(sx, sy) : min(sx, sy)
        sx = s; sy = s
        var tx = -box.minX * s, ty = -box.minY * s
        let extraX = size.width - box.width * s, extraY = size.height - box.height * s
        if align.contains("xMid") { tx += extraX / 2 } else if align.contains("xMax") { tx += extraX }
        if align.contains("YMid") { ty += extraY / 2 } else if align.contains("YMax") { ty += extraY }
        return AffineTransform(a: s, b: 0, c: 0, d: s, tx: tx, ty: ty)
    }

    func length(_ node: SVGNode, _ name: String, axis: Character, _ fallback: Double = 0, style: SVGStyle? = nil) -> Double {
        guard let l = SVGLength.parse(node.attributes[name]) else { return fallback }
        return resolve(l, axis: axis, fontSize: style?.fontSize ?? 16)
    }

    func resolve(_ l: SVGLength, axis: Character, fontSize: Double = 16) -> Double {
        switch l.unit {
        case "vw": return l.value * canvas.width / 100
        case "vh": return l.value * canvas.height / 100
        case "vmin": return l.value * min(canvas.width, canvas.height) / 100
        case "vmax": return l.value * max(canvas.width, canvas.height) / 100
        default: break
        }
        let ref: Double
        switch axis {
        case "x": ref = viewport.width
        case "y": ref = viewport.height
        default: ref = ((viewport.width * viewport.width + viewport.height * viewport.height) / 2).squareRoot()
        }
        return l.resolve(percentOf: ref, fontSize: fontSize)
    }

    // MARK: Walking the tree

    func renderRoot() throws {
        let root = doc.root
        if root.declared["display"] == "none" { return }
        // A width or height of zero (or less) disables rendering, as do failing conditions.
        for name in ["width", "height"] {
            if let l = SVGLength.parse(root.attributes[name]), l.value <= 0 { return }
        }
        guard passesConditions(root) else { return }
        let size = Self.documentSize(root)
        let style = SVGStyle().computed(for: root)
        viewport = size
        ctx.saveGState()
        defer { ctx.restoreGState() }
        if let vb = Self.viewBox(root) {
            ctx.concatenate(Self.viewBoxTransform(vb, size, root.attributes["preserveAspectRatio"]))
            viewport = vb.size
        }
        try renderGroup(root, style: style, children: root.children)
    }

    func render(_ node: SVGNode, parentStyle: SVGStyle, depth: Int = 0) throws {
        let style = parentStyle.computed(for: node)
        if node.declared["display"] == "none" { return }
        if node.attributes["systemLanguage"] != nil, !passesConditions(node) { return }
        switch node.name {
        case "g", "a":
            try renderGroup(node, style: style, children: node.children)
        case "switch":
            guard let chosen = node.children.first(where: passesConditions) else { return }
            try renderGroup(node, style: style, children: [chosen])
        case "svg":
            try renderGroup(node, style: style) { try self.renderViewport(node, style: style, content: node, useSize: nil) }
        case "use":
            try renderUse(node, style: style)
        case "rect", "circle", "ellipse", "line", "polyline", "polygon", "path":
            guard let path = try shapePath(node, style: style), !path.isEmpty else { return }
            try renderGroup(node, style: style) { try self.drawShape(node, path: path, style: style) }
        case "image":
            try renderGroup(node, style: style) { try self.drawImage(node, style: style) }
        default:
            return // defs, symbol, clipPath, gradients, style, title, desc, unknown elements
        }
    }

    func passesConditions(_ node: SVGNode) -> Bool {
        if node.attributes["requiredExtensions"] != nil { return false }
        if let lang = node.attributes["systemLanguage"] {
            let langs = lang.split(separator: ",").map { $0.trimmingCharacters(in: " \t\n").lowercased() }
            return langs.contains { $0 == "en" || $0.hasPrefix("en-") }
        }
        return true
    }

    func renderGroup(_ node: SVGNode, style: SVGStyle, children: [SVGNode]) throws {
        try renderGroup(node, style: style) {
            for c in children { try self.render(c, parentStyle: style) }
        }
    }

    /// The element's transform, clip, opacity and blend mode around `content`.
    func renderGroup(_ node: SVGNode, style: SVGStyle, content: () throws -> Void) throws {
        guard let transform = elementTransform(node) else { return }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        if node !== doc.root { ctx.concatenate(transform) }
        guard ctx.ctm.isInvertible else { return }
        guard let masks = try masks(for: node, style: style), try masksApply(masks, to: node, style: style) else { return }
        var multiClip: [(Path, FillRule)]?
        if let clip = node.declared["clip-path"], clip != "none" {
            switch try clipOutcome(clip, for: node, style: style) {
            case .invalid: return
            case .none: break
            case .shapes(let shapes):
                if shapes.isEmpty { return }
                if shapes.count == 1 { ctx.clip(to: shapes[0].0, using: shapes[0].1) } else { multiClip = shapes }
            }
        }
        var opacity = 1.0
        if let o = node.declared["opacity"], let l = SVGLength.parse(o), l.unit == "" || l.unit == "%" {
            opacity = min(1, max(0, l.unit == "%" ? l.value / 100 : l.value))
        }
        if opacity == 0 { return }
        let blend = node.declared["mix-blend-mode"].flatMap(blendMode)
        let needsLayer = opacity < 1 || (blend != nil && blend != .normal) || node.declared["isolation"] == "isolate" || !masks.isEmpty
        if multiClip != nil {
            ctx.beginTransparencyLayer()
        }
        if needsLayer {
            ctx.setAlpha(opacity)
            if let blend { ctx.setBlendMode(blend) }
            ctx.beginTransparencyLayer()
        }
        try content()
        if !masks.isEmpty { try apply(masks, to: node, style: style) }
        if needsLayer { ctx.endTransparencyLayer() }
        if let multiClip {
            // Keep the content only inside the union of the clip shapes: a layer that is opaque
            // everywhere except the union cuts the content away with destination-out.
            ctx.setBlendMode(.destinationOut)
            ctx.beginTransparencyLayer()
            let black = Color(red: 0, green: 0, blue: 0)
            ctx.drawLinearGradient(stops: [GradientStop(offset: 0, color: black), GradientStop(offset: 1, color: black)],
                                   start: .zero, end: Point(1, 0))
            ctx.setBlendMode(.destinationOut)
            ctx.setFillColor(black)
            for (p, r) in multiClip { ctx.fill(p, using: r) }
            ctx.endTransparencyLayer()
            ctx.endTransparencyLayer()
        }
    }

    /// `transform-origin`: one or two keywords, lengths or percentages (of the viewport).
    func transformOrigin(_ node: SVGNode) -> Point? {
        guard let v = node.declared["transform-origin"] else { return nil }
        let words = v.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard !words.isEmpty else { return nil }
        var x = SVGLength(value: 50, unit: "%"), y = SVGLength(value: 50, unit: "%")
        var xSet = false
        for (i, w) in words.prefix(2).enumerated() {
            switch w {
            case "left": x = SVGLength(value: 0, unit: "%"); xSet = true
            case "right": x = SVGLength(value: 100, unit: "%"); xSet = true
            case "top": y = SVGLength(value: 0, unit: "%")
            case "bottom": y = SVGLength(value: 100, unit: "%")
            case "center": if i == 0 { xSet = true }
            default:
                guard let l = SVGLength.parse(w) else { return nil }
                if i == 0 && !xSet { x = l; xSet = true } else { y = l }
            }
        }
        return Point(resolve(x, axis: "x"), resolve(y, axis: "y"))
    }

    func blendMode(_ s: String) -> BlendMode? {
        switch s {
        case "normal": return .normal
        case "multiply": return .multiply
        case "screen": return .screen
        case "overlay": return .overlay
        case "darken": return .darken
        case "lighten": return .lighten
        case "color-dodge": return .colorDodge
        case "color-burn": return .colorBurn
        case "hard-light": return .hardLight
        case "soft-light": return .softLight
        case "difference": return .difference
        case "exclusion": return .exclusion
        case "hue": return .hue
        case "saturation": return .saturation
        case "color": return .color
        case "luminosity": return .luminosity
        default: return nil
        }
    }

    /// A nested `svg` or a `symbol`: a new viewport at x, y with width and height (the `use`'s
    /// when given), clipped unless `overflow` is visible, the viewBox mapped into it.
    func renderViewport(_ node: SVGNode, style: SVGStyle, content: SVGNode, useSize: (Double?, Double?)?) throws {
        let x = length(node, "x", axis: "x"), y = length(node, "y", axis: "y")
        var w = length(node, "width", axis: "x", viewport.width)
        var h = length(node, "height", axis: "y", viewport.height)
        if let uw = useSize?.0 { w = uw }
        if let uh = useSize?.1 { h = uh }
        guard w > 0, h > 0 else { return }
        let saved = viewport
        defer { viewport = saved }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        let overflow = node.declared["overflow"] ?? "hidden"
        if overflow == "hidden" || overflow == "scroll" {
            ctx.clip(to: Path(rect: Rect(x: x, y: y, width: w, height: h)))
        }
        ctx.translateBy(x: x, y: y)
        if let vb = Self.viewBox(content) {
            ctx.concatenate(Self.viewBoxTransform(vb, Size(width: w, height: h), content.attributes["preserveAspectRatio"]))
            viewport = vb.size
        } else {
            viewport = Size(width: w, height: h)
        }
        for c in content.children { try render(c, parentStyle: style) }
    }

    func reference(_ href: String?) -> SVGNode? {
        guard let href, href.hasPrefix("#") else { return nil }
        return doc.ids[String(href.dropFirst())]
    }

    func renderUse(_ node: SVGNode, style: SVGStyle) throws {
        guard let target = reference(node.href) else { return }
        let key = ObjectIdentifier(node)
        guard !activeUses.contains(key) else {
            throw SVGError(element: node.label, message: "refers to itself through \(target.label) (a use cycle)")
        }
        // A use that contains (or is) its target is a cycle too.
        var p: SVGNode? = node
        while let q = p { if q === target { throw SVGError(element: node.label, message: "refers to its own ancestor \(target.label) (a use cycle)") }; p = q.parent }
        useCount += 1
        guard useCount <= doc.limits.maxUseInstances else {
            throw SVGError(element: node.label, message: "more than \(doc.limits.maxUseInstances) use instantiations (use fan-out)")
        }
        activeUses.insert(key)
        defer { activeUses.remove(key) }
        // The use is the context element of the paint its instance refers to as context-fill
        // and context-stroke.
        try renderGroup(node, style: style) {
            let x = self.length(node, "x", axis: "x"), y = self.length(node, "y", axis: "y")
            self.ctx.translateBy(x: x, y: y)
            var style = style
            style.context = self.paintContext(style) {
                try self.elementBounds(target, style: style.computed(for: target), transform: self.elementTransform(target) ?? .identity)
            }
            let uw = SVGLength.parse(node.attributes["width"]).map { self.resolve($0, axis: "x") }
            let uh = SVGLength.parse(node.attributes["height"]).map { self.resolve($0, axis: "y") }
            if target.name == "symbol" || target.name == "svg" {
                let tstyle = style.computed(for: target)
                if target.declared["display"] == "none" { return }
                try self.renderGroup(target, style: tstyle) {
                    try self.renderViewport(target, style: tstyle, content: target, useSize: (uw, uh))
                }
            } else {
                try self.render(target, parentStyle: style)
            }
        }
    }

    // MARK: Shapes

    func shapePath(_ node: SVGNode, style: SVGStyle) throws -> Path? {
        var path = Path()
        let a = node.attributes
        switch node.name {
        case "rect":
            let x = length(node, "x", axis: "x", style: style), y = length(node, "y", axis: "y", style: style)
            let w = length(node, "width", axis: "x", style: style), h = length(node, "height", axis: "y", style: style)
            guard w > 0, h > 0 else { return nil }
            var rx = SVGLength.parse(a["rx"]).map { resolve($0, axis: "x", fontSize: style.fontSize) }
            var ry = SVGLength.parse(a["ry"]).map { resolve($0, axis: "y", fontSize: style.fontSize) }
            if let v = rx, v < 0 { rx = nil }
            if let v = ry, v < 0 { ry = nil }
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            let rxv = min(rx ?? 0, w / 2), ryv = min(ry ?? 0, h / 2)
            if rxv > 0, ryv > 0 {
                // Four elliptical corners as arcs.
                path.move(to: Point(x + rxv, y))
                path.addLine(to: Point(x + w - rxv, y))
                path.addEllipticalArc(to: Point(x + w, y + ryv), radiusX: rxv, radiusY: ryv, xAxisRotation: 0, largeArc: false, sweep: true)
                path.addLine(to: Point(x + w, y + h - ryv))
                path.addEllipticalArc(to: Point(x + w - rxv, y + h), radiusX: rxv, radiusY: ryv, xAxisRotation: 0, largeArc: false, sweep: true)
                path.addLine(to: Point(x + rxv, y + h))
                path.addEllipticalArc(to: Point(x, y + h - ryv), radiusX: rxv, radiusY: ryv, xAxisRotation: 0, largeArc: false, sweep: true)
                path.addLine(to: Point(x, y + ryv))
                path.addEllipticalArc(to: Point(x + rxv, y), radiusX: rxv, radiusY: ryv, xAxisRotation: 0, largeArc: false, sweep: true)
                path.closeSubpath()
            } else {
                path.addRect(Rect(x: x, y: y, width: w, height: h))
            }
        case "circle", "ellipse":
            let cx = length(node, "cx", axis: "x", style: style), cy = length(node, "cy", axis: "y", style: style)
            var rx: Double, ry: Double
            if node.name == "circle" {
                rx = length(node, "r", axis: "d", style: style); ry = rx
            } else {
                let lx = SVGLength.parse(a["rx"]).map { resolve($0, axis: "x", fontSize: style.fontSize) }.flatMap { $0 >= 0 ? $0 : nil }
                let ly = SVGLength.parse(a["ry"]).map { resolve($0, axis: "y", fontSize: style.fontSize) }.flatMap { $0 >= 0 ? $0 : nil }
                rx = lx ?? ly ?? 0; ry = ly ?? lx ?? 0
                if a["rx"] == "auto" { rx = ry }
                if a["ry"] == "auto" { ry = rx }
            }
            guard rx > 0, ry > 0 else { return nil }
            path.move(to: Point(cx + rx, cy))
            path.addEllipticalArc(to: Point(cx, cy + ry), radiusX: rx, radiusY: ry, xAxisRotation: 0, largeArc: false, sweep: true)
            path.addEllipticalArc(to: Point(cx - rx, cy), radiusX: rx, radiusY: ry, xAxisRotation: 0, largeArc: false, sweep: true)
            path.addEllipticalArc(to: Point(cx, cy - ry), radiusX: rx, radiusY: ry, xAxisRotation: 0, largeArc: false, sweep: true)
            path.addEllipticalArc(to: Point(cx + rx, cy), radiusX: rx, radiusY: ry, xAxisRotation: 0, largeArc: false, sweep: true)
            path.closeSubpath()
        case "line":
            path.move(to: Point(length(node, "x1", axis: "x", style: style), length(node, "y1", axis: "y", style: style)))
            path.addLine(to: Point(length(node, "x2", axis: "x", style: style), length(node, "y2", axis: "y", style: style)))
        case "polyline", "polygon":
            var n = parseNumberList(a["points"] ?? "")
            if n.count % 2 == 1 { n.removeLast() }
            guard n.count >= 4 else { return nil }
            try count(n.count / 2, node)
            path.move(to: Point(n[0], n[1]))
            for i in stride(from: 2, to: n.count, by: 2) { path.addLine(to: Point(n[i], n[i + 1])) }
            if node.name == "polygon" { path.closeSubpath() }
        default: // path
            guard let d = a["d"] else { return nil }
            guard d.utf8.count <= doc.limits.maxPathElements * 2 else {
                throw SVGError(element: node.label, message: "path data of \(d.utf8.count) bytes is over the limit of \(doc.limits.maxPathElements) commands")
            }
            path = Path.parsingSVGPathDataPrefix(d).path
            try count(path.elements.count, node)
        }
        return path
    }

    func count(_ n: Int, _ node: SVGNode) throws {
        guard n <= doc.limits.maxPathElements else {
            throw SVGError(element: node.label, message: "\(n) path commands, over the limit of \(doc.limits.maxPathElements)")
        }
        pathElements += n
        guard pathElements <= doc.limits.maxTotalPathElements else {
            throw SVGError(element: node.label, message: "the document's paths exceed \(doc.limits.maxTotalPathElements) commands in all")
        }
    }

    static func bounds(_ path: Path) -> Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for sub in path.flattened(transform: .identity, tolerance: 0.01) {
            for p in sub.points {
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    func drawShape(_ node: SVGNode, path: Path, style: SVGStyle) throws {
        let bbox = Self.bounds(path)
        for layer in style.paintOrder {
            switch layer {
            case .fill: if style.visible { try fill(node, path, style, bbox) }
            case .stroke: if style.visible { try stroke(node, path, style, bbox) }
            case .markers: try drawMarkers(on: path, style: style)
            }
        }
    }

    func resolvedColor(_ c: Color, _ opacity: Double) -> Color {
        var c = c; c.alpha *= opacity; return c
    }

    func fill(_ node: SVGNode, _ path: Path, _ style: SVGStyle, _ bbox: Rect?) throws {
        let isLine = node.name == "line"
        if isLine { return }
        switch style.fill {
        case .none, .contextFill, .contextStroke: return
        case .color(let c):
            ctx.setFillColor(resolvedColor(c, style.fillOpacity)); ctx.fill(path, using: style.fillRule)
        case .currentColor:
            ctx.setFillColor(resolvedColor(style.color, style.fillOpacity)); ctx.fill(path, using: style.fillRule)
        case .server(let id, let fallback):
            let server = try paintServer(id, bbox: style.fillSpace?.bbox() ?? bbox)
            if let server, server.name == "linearGradient" || server.name == "radialGradient" {
                ctx.saveGState()
                defer { ctx.restoreGState() }
                ctx.clip(to: path, using: style.fillRule)
                try inPaintSpace(style.fillSpace, bbox: bbox) { drawGradient(server, bbox: $0, opacity: style.fillOpacity, style: style) }
            } else if let server, server.name == "pattern" {
                ctx.saveGState()
                defer { ctx.restoreGState() }
                ctx.clip(to: path, using: style.fillRule)
                try inPaintSpace(style.fillSpace, bbox: bbox) { try drawPattern(server, bbox: $0, reach: 0, opacity: style.fillOpacity) }
            } else if let fallback {
                switch fallback {
                case .none: return
                case .color(let c): ctx.setFillColor(resolvedColor(c, style.fillOpacity)); ctx.fill(path, using: style.fillRule)
                case .currentColor: ctx.setFillColor(resolvedColor(style.color, style.fillOpacity)); ctx.fill(path, using: style.fillRule)
                }
            }
        }
    }

    /// The paint server `id` names when it can paint: nil for a missing element or one that is
    /// no paint server, a gradient without stops, or bounding-box units on a box without width
    /// or height (the paint's fallback paints then, or nothing).
    func paintServer(_ id: String, bbox: Rect?) throws -> SVGNode? {
        guard let s = doc.ids[id], ["linearGradient", "radialGradient", "pattern"].contains(s.name) else { return nil }
        let boxUnits: Bool
        if s.name == "pattern" {
            boxUnits = patternAttribute(s, "patternUnits") != "userSpaceOnUse" || patternAttribute(s, "patternContentUnits") == "objectBoundingBox"
        } else {
            guard !gradientStops(s).isEmpty else { return nil }
            boxUnits = gradientAttribute(s, "gradientUnits") != "userSpaceOnUse"
        }
        if boxUnits { guard let b = bbox, b.width > 0, b.height > 0 else { return nil } }
        return s
    }

    /// A paint server drawn in `space` (the user space and bounding box of a context element,
    /// for context-fill and context-stroke) or else in the current one with `bbox`.
    func inPaintSpace(_ space: SVGPaintSpace?, bbox: Rect?, _ draw: (Rect?) throws -> Void) throws {
        guard let space, let inverse = ctx.ctm.inverted() else { return try draw(bbox) }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        ctx.concatenate(space.ctm.concatenating(inverse))
        try draw(space.bbox())
    }

    /// The paints an element hands to context-fill and context-stroke: its fill and stroke in the
    /// current user space with the box `bbox` gives.
    func paintContext(_ style: SVGStyle, bbox: @escaping () throws -> Rect?) -> SVGPaintContext {
        let here = SVGPaintSpace(ctm: ctx.ctm, bbox: bbox)
        return SVGPaintContext(fill: style.fill, fillSpace: style.fillSpace ?? here,
                               stroke: style.stroke, strokeSpace: style.strokeSpace ?? here)
    }

    func applyStrokeStyle(_ style: SVGStyle) -> Bool {
        let w = resolve(style.strokeWidth, axis: "d", fontSize: style.fontSize)
        guard w > 0 else { return false }
        ctx.setLineWidth(w)
        ctx.setLineCap(style.cap)
        ctx.setLineJoin(style.join)
        ctx.setMiterLimit(style.miterLimit)
        var dashes = style.dashArray.map { resolve($0, axis: "d", fontSize: style.fontSize) }
        if dashes.count % 2 == 1 { dashes += dashes }
        if dashes.isEmpty || dashes.reduce(0, +) <= 0 {
            ctx.setLineDash(phase: 0, lengths: [])
        } else {
            ctx.setLineDash(phase: resolve(style.dashOffset, axis: "d", fontSize: style.fontSize), lengths: dashes)
        }
        return true
    }

    func stroke(_ node: SVGNode, _ path: Path, _ style: SVGStyle, _ bbox: Rect?) throws {
        var color: Color?
        var server: SVGNode?
        switch style.stroke {
        case .none, .contextFill, .contextStroke: return
        case .color(let c): color = c
        case .currentColor: color = style.color
        case .server(let id, let fallback):
            if let s = try paintServer(id, bbox: style.strokeSpace?.bbox() ?? bbox) { server = s } else if let fallback {
                switch fallback {
                case .none: return
                case .color(let c): color = c
                case .currentColor: color = style.color
                }
            } else { return }
        }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        guard applyStrokeStyle(style) else { return }
        if let color {
            ctx.setStrokeColor(resolvedColor(color, style.strokeOpacity))
            ctx.stroke(path)
        } else if let server, server.name == "pattern" {
            // The pattern in a layer, cut to the stroke's coverage with destination-out of a
            // layer that is opaque everywhere but the stroke.
            let black = Color(red: 0, green: 0, blue: 0)
            ctx.setAlpha(style.strokeOpacity)
            ctx.beginTransparencyLayer()
            let reach = ctx.state.strokeStyle.width * max(1, style.miterLimit)
            try inPaintSpace(style.strokeSpace, bbox: bbox) { try drawPattern(server, bbox: $0, reach: reach, opacity: 1) }
            ctx.setBlendMode(.destinationOut)
            ctx.beginTransparencyLayer()
            ctx.drawLinearGradient(stops: [GradientStop(offset: 0, color: black), GradientStop(offset: 1, color: black)],
                                   start: .zero, end: Point(1, 0))
            ctx.setBlendMode(.destinationOut)
            ctx.setStrokeColor(black)
            ctx.stroke(path)
            ctx.endTransparencyLayer()
            ctx.endTransparencyLayer()
        } else if let server {
            // The stroke's coverage in a layer, painted with the gradient through source-in.
            ctx.setAlpha(style.strokeOpacity)
            ctx.beginTransparencyLayer()
            ctx.setStrokeColor(Color(red: 0, green: 0, blue: 0))
            ctx.stroke(path)
            ctx.setBlendMode(.sourceIn)
            try inPaintSpace(style.strokeSpace, bbox: bbox) { drawGradient(server, bbox: $0, opacity: 1, style: style) }
            ctx.endTransparencyLayer()
        }
    }

}
