// `pattern`: the tile's content drawn once per tile over the area the shape can reach, each
// copy clipped to its tile, under the clip of the shape (fills) or cut to the stroke's coverage
// (strokes). Units, content units, viewBox, patternTransform and href inheritance are followed;
// the number of tiles is bounded by the document's use budget.
import PenumbraModel

extension SVGRenderer {
    /// The attribute along the `href` chain of patterns.
    func patternAttribute(_ node: SVGNode, _ name: String) -> String? {
        inheritedAttribute(node, name) { $0.name == "pattern" }
    }

    func patternContent(_ node: SVGNode) -> SVGNode? {
        var n: SVGNode? = node
        var seen = 0
        while let p = n, seen < 32 {
            if !p.children.isEmpty { return p }
            n = reference(p.href).flatMap { $0.name == "pattern" ? $0 : nil }
            seen += 1
        }
        return nil
    }

    /// Draws the pattern over the clip in force; `bbox` is the shape's bounding box, `reach` how
    /// far beyond it the drawing may go (half a stroke's width).
    func drawPattern(_ node: SVGNode, bbox: Rect?, reach: Double, opacity: Double) throws {
        let key = ObjectIdentifier(node)
        guard !activePatterns.contains(key), let content = patternContent(node) else { return }
        let objectBox = patternAttribute(node, "patternUnits") != "userSpaceOnUse"
        let contentBox = patternAttribute(node, "patternContentUnits") == "objectBoundingBox"
        func value(_ name: String, _ axis: Character) -> Double {
            guard let l = SVGLength.parse(patternAttribute(node, name)) else { return 0 }
            if objectBox { return l.unit == "%" ? l.value / 100 : l.value }
            return resolve(l, axis: axis)
        }
        var x = value("x", "x"), y = value("y", "y"), w = value("width", "x"), h = value("height", "y")
        if objectBox || contentBox {
            guard let b = bbox, b.width > 0, b.height > 0 else { return }
            if objectBox { x = b.minX + x * b.width; y = b.minY + y * b.height; w *= b.width; h *= b.height }
        }
        guard w > 0, h > 0, let shape = bbox else { return }
        guard let transform = parseTransform(patternAttribute(node, "patternTransform")).map({ about(node, $0) }), let inverse = transform.inverted() else { return }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        ctx.concatenate(transform)
        // The shape's box (grown by the reach) in pattern space: the tiles that can be seen.
        let grown = Rect(x: shape.minX - reach, y: shape.minY - reach, width: shape.width + 2 * reach, height: shape.height + 2 * reach)
        let area = inverse.apply(grown)
        let i0 = Int(((area.minX - x) / w).rounded(.down)), i1 = Int(((area.maxX - x) / w).rounded(.up))
        let j0 = Int(((area.minY - y) / h).rounded(.down)), j1 = Int(((area.maxY - y) / h).rounded(.up))
        let tiles = max(0, i1 - i0) * max(0, j1 - j0)
        useCount += tiles
        guard useCount <= doc.limits.maxUseInstances else {
            throw SVGError(element: node.label, message: "more than \(doc.limits.maxUseInstances) pattern tiles and use instantiations")
        }
        activePatterns.insert(key)
        defer { activePatterns.remove(key) }
        let viewBox = Self.viewBox(node) ?? patternAttribute(node, "viewBox").flatMap { _ in
            var n: SVGNode? = node
            while let p = n { if let vb = Self.viewBox(p) { return vb }; n = reference(p.href) }
            return nil
        }
        let style = inheritedStyle(of: node)
        if opacity < 1 { ctx.setAlpha(opacity); ctx.beginTransparencyLayer() }
        let saved = viewport
        for j in j0..<max(j0, j1) {
            for i in i0..<max(i0, i1) {
                ctx.saveGState()
                ctx.translateBy(x: x + Double(i) * w, y: y + Double(j) * h)
                ctx.clip(to: Path(rect: Rect(x: 0, y: 0, width: w, height: h)))
                if let vb = viewBox {
                    ctx.concatenate(Self.viewBoxTransform(vb, Size(width: w, height: h), patternAttribute(node, "preserveAspectRatio")))
                    viewport = vb.size
                } else if contentBox, let b = bbox {
                    ctx.scaleBy(x: b.width, y: b.height)
                }
                for c in content.children { try render(c, parentStyle: style) }
                viewport = saved
                ctx.restoreGState()
            }
        }
        if opacity < 1 { ctx.endTransparencyLayer() }
    }
}
