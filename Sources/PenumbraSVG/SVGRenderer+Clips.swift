// SVGRenderer's clip paths: the shapes of a clipPath (with its units,
// transforms and clip-rule) and the element bounds objectBoundingBox needs.

import Foundation
import PenumbraModel

extension SVGRenderer {
    // MARK: Clip paths

    /// What a `clip-path` value does to an element.
    enum ClipOutcome {
        /// No clip: the value names no clipPath, or one that reaches itself through clip-path
        /// references (the reference is dropped, as resvg and browsers do).
        case none
        /// Keep the element inside the union of these shapes (none: nothing is drawn).
        case shapes([(Path, FillRule)])
        /// The clip is malformed: the element is not rendered.
        case invalid
    }

    /// The clip's shapes in the current user space (see ClipOutcome).
    func clipOutcome(_ value: String, for node: SVGNode, style: SVGStyle) throws -> ClipOutcome {
        guard value.hasPrefix("url("), let close = value.firstIndex(of: ")") else { return .invalid }
        var ref = String(value[value.index(value.startIndex, offsetBy: 4)..<close]).trimmingCharacters()
        if ref.count >= 2, ref.first == "'" || ref.first == "\"" { ref = String(ref.dropFirst().dropLast()) }
        guard ref.hasPrefix("#"), let clip = doc.ids[String(ref.dropFirst())], clip.name == "clipPath" else { return .none }
        let key = ObjectIdentifier(clip)
        guard !activeClips.contains(key) else { return .none }
        return try clipShapes(clip, key: key, for: node, style: style).map { .shapes($0) } ?? .invalid
    }

    private func clipShapes(_ clip: SVGNode, key: ObjectIdentifier, for node: SVGNode, style: SVGStyle) throws -> [(Path, FillRule)]? {
        activeClips.insert(key)
        defer { activeClips.remove(key) }
        guard var base = parseTransform(clip.attributes["transform"]).map({ about(clip, $0) }) else { return nil }
        if clip.attributes["clipPathUnits"] == "objectBoundingBox" {
            guard let b = try elementBounds(node, style: style), b.width > 0, b.height > 0 else { return [] }
            base = AffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY).concatenating(base)
        }
        // A clip-path on the clipPath itself: intersected as a context clip.
        if let inner = clip.declared["clip-path"], inner != "none" {
            switch try clipOutcome(inner, for: node, style: style) {
            case .none: break
            case .invalid: return nil
            case .shapes(let shapes):
                if shapes.isEmpty { return [] }
                if shapes.count == 1 { ctx.clip(to: shapes[0].0, using: shapes[0].1) }
            }
        }
        let clipStyle = inheritedStyle(of: clip)
        var out: [(Path, FillRule)] = []
        for child in clip.children {
            var element = child
            var t = parseTransform(child.attributes["transform"]) ?? .identity
            var st = clipStyle.computed(for: child)
            if child.declared["display"] == "none" { continue }
            if child.name == "use", let target = reference(child.href), target.name != "use" {
                t = AffineTransform(translationX: length(child, "x", axis: "x"), y: length(child, "y", axis: "y")).concatenating(t)
                t = (parseTransform(target.attributes["transform"]) ?? .identity).concatenating(t)
                st = st.computed(for: target)
                if target.declared["display"] == "none" { continue }
                element = target
            }
            guard st.visible, let p = try shapePath(element, style: st), !p.isEmpty else { continue }
            out.append((p.applying(t.concatenating(base)), st.clipRule))
        }
        return out
    }

    /// The object bounding box of an element (shapes, groups, use), in its user space: the
    /// bounds of its shapes' paths under their transforms (`transform-origin` included), mapped
    /// by `transform`. A `use` cycle (which rendering reports) has no bounds: the walk stops
    /// after as many levels as the document may nest.
    func elementBounds(_ node: SVGNode, style: SVGStyle, transform: AffineTransform = .identity, depth: Int = 0) throws -> Rect? {
        guard depth <= doc.limits.maxDepth else { return nil }
        switch node.name {
        case "rect", "circle", "ellipse", "line", "polyline", "polygon", "path":
            return try shapePath(node, style: style).flatMap { Self.bounds($0.applying(transform)) }
        case "g", "svg", "a", "switch":
            var r: Rect?
            for c in node.children where c.declared["display"] != "none" {
                guard let local = elementTransform(c),
                      let b = try elementBounds(c, style: style.computed(for: c), transform: local.concatenating(transform),
                                                depth: depth + 1)
                else { continue }
                r = r.map { union($0, b) } ?? b
            }
            return r
        case "use":
            guard let target = reference(node.href), target.name != "use", let local = elementTransform(target) else { return nil }
            useCount += 1
            guard useCount <= doc.limits.maxUseInstances else {
                throw SVGError(element: node.label, message: "more than \(doc.limits.maxUseInstances) use instantiations (use fan-out)")
            }
            let t = local.concatenating(AffineTransform(translationX: length(node, "x", axis: "x"), y: length(node, "y", axis: "y")))
            return try elementBounds(target, style: style.computed(for: target), transform: t.concatenating(transform), depth: depth + 1)
        case "image":
            return transform.apply(Rect(x: length(node, "x", axis: "x"), y: length(node, "y", axis: "y"),
                                        width: length(node, "width", axis: "x"), height: length(node, "height", axis: "y")))
        default: return nil
        }
    }

    /// An element's `transform` (attribute or property) about its `transform-origin`, as a map
    /// from its user space to its parent's; nil when the transform is invalid.
    func elementTransform(_ node: SVGNode) -> AffineTransform? {
        parseTransform(node.declared["transform"] ?? node.attributes["transform"]).map { about(node, $0) }
    }

    /// `t` about the element's `transform-origin` (on rendered elements, clip paths, gradients'
    /// gradientTransform and patterns' patternTransform).
    func about(_ node: SVGNode, _ t: AffineTransform) -> AffineTransform {
        guard t != .identity, let o = transformOrigin(node) else { return t }
        return AffineTransform(translationX: -o.x, y: -o.y).concatenating(t).concatenating(AffineTransform(translationX: o.x, y: o.y))
    }

    func union(_ a: Rect, _ b: Rect) -> Rect {
        let x0 = min(a.minX, b.minX), y0 = min(a.minY, b.minY)
        return Rect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0)
    }
}
