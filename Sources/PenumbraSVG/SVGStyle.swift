// SVGStyle: the inherited properties of an element, computed from its parent's
// and its own declarations (presentation attributes, `style` and `<style>`,
// already merged by SVGCascade). Context paint (`context-fill`,
// `context-stroke`) is resolved here, against the paints of the context
// element that a marker or a `use` hands down in `context`.
import Foundation
import PenumbraModel

/// The user space and bounding box a paint server is drawn in. The box is found only when a
/// paint server asks for it (a `use`'s box walks its whole instance).
struct SVGPaintSpace {
    var ctm: AffineTransform
    var bbox: () throws -> Rect?
}

/// The fill and stroke of a context element, each with the space it is painted in.
struct SVGPaintContext {
    var fill: SVGPaint
    var fillSpace: SVGPaintSpace
    var stroke: SVGPaint
    var strokeSpace: SVGPaintSpace
}

/// What a shape paints, in the order `paint-order` gives.
enum SVGPaintLayer: String { case fill, stroke, markers }

/// The inherited properties, computed per element.
struct SVGStyle {
    var fill: SVGPaint = .color(Color(red: 0, green: 0, blue: 0))
    var fillOpacity = 1.0
    var fillRule = FillRule.nonzero
    var stroke: SVGPaint = .none
    var strokeWidth = SVGLength(value: 1, unit: "")
    var strokeOpacity = 1.0
    var cap = LineCap.butt
    var join = LineJoin.miter
    var miterLimit = 4.0
    var dashArray: [SVGLength] = []
    var dashOffset = SVGLength.zero
    var color = Color(red: 0, green: 0, blue: 0)
    var visible = true
    var clipRule = FillRule.nonzero
    var fontSize = 16.0
    /// `paint-order`: fill, stroke and markers in the order they are painted.
    var paintOrder: [SVGPaintLayer] = [.fill, .stroke, .markers]
    /// `marker-start`, `marker-mid` and `marker-end`: the ids of the markers.
    var markerStart: String?
    var markerMid: String?
    var markerEnd: String?
    /// The fill and stroke of the context element (the shape a marker is drawn on, the `use`
    /// being instantiated) that `context-fill` and `context-stroke` refer to; nil outside one.
    var context: SVGPaintContext?
    /// Where the fill and the stroke are painted when they came from a context element; nil: in
    /// the element's own user space and bounding box.
    var fillSpace: SVGPaintSpace?
    var strokeSpace: SVGPaintSpace?

    func computed(for node: SVGNode) -> SVGStyle {
        var s = self
        let d = node.declared
        func value(_ name: String) -> String? {
            guard let v = d[name], v != "inherit" else { return nil }
            return v
        }
        func opacity(_ v: String?) -> Double? {
            guard let v else { return nil }
            if let l = SVGLength.parse(v) {
                if l.unit == "%" { return min(1, max(0, l.value / 100)) }
                if l.unit == "" { return min(1, max(0, l.value)) }
            }
            return nil
        }
        if let v = value("color"), let c = parseColor(v) { s.color = c }
        if let v = value("font-size"), let l = SVGLength.parse(v), l.value >= 0 {
            s.fontSize = l.resolve(percentOf: fontSize, fontSize: fontSize)
        }
        if let v = value("fill"), let p = SVGPaint.parse(v) { (s.fill, s.fillSpace) = resolvingContext(p) }
        if let o = opacity(value("fill-opacity")) { s.fillOpacity = o }
        if let v = value("fill-rule") { s.fillRule = v == "evenodd" ? .evenOdd : v == "nonzero" ? .nonzero : s.fillRule }
        if let v = value("clip-rule") { s.clipRule = v == "evenodd" ? .evenOdd : v == "nonzero" ? .nonzero : s.clipRule }
        if let v = value("stroke"), let p = SVGPaint.parse(v) { (s.stroke, s.strokeSpace) = resolvingContext(p) }
        if let o = opacity(value("stroke-opacity")) { s.strokeOpacity = o }
        if let v = value("stroke-width"), let l = SVGLength.parse(v), l.value >= 0 { s.strokeWidth = l }
        if let v = value("stroke-linecap"), let c = LineCap(rawValue: v) { s.cap = c }
        if let v = value("stroke-linejoin") {
            switch v {
            case "miter", "miter-clip", "arcs": s.join = .miter
            case "round": s.join = .round
            case "bevel": s.join = .bevel
            default: break
            }
        }
        if let v = value("stroke-miterlimit"), let n = Double(v.trimmingCharacters()), n >= 1 { s.miterLimit = n }
        if let v = value("stroke-dasharray") {
            if v == "none" { s.dashArray = [] } else {
                var out: [SVGLength] = []
                var ok = true
                for part in v.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" }) {
                    guard let l = SVGLength.parse(String(part)), l.value >= 0 else { ok = false; break }
                    out.append(l)
                }
                if ok { s.dashArray = out } else { s.dashArray = [] }
            }
        }
        if let v = value("stroke-dashoffset"), let l = SVGLength.parse(v) { s.dashOffset = l }
        if let v = value("visibility") { s.visible = v == "visible" ? true : (v == "hidden" || v == "collapse") ? false : s.visible }
        if let v = value("paint-order") { s.paintOrder = Self.paintOrder(v) ?? s.paintOrder }
        func marker(_ v: String) -> String?? {
            if v == "none" { return .some(nil) }
            guard case .server(let id, _)? = SVGPaint.parse(v) else { return nil }
            return .some(id)
        }
        if let v = value("marker"), let m = marker(v) { s.markerStart = m; s.markerMid = m; s.markerEnd = m }
        if let v = value("marker-start"), let m = marker(v) { s.markerStart = m }
        if let v = value("marker-mid"), let m = marker(v) { s.markerMid = m }
        if let v = value("marker-end"), let m = marker(v) { s.markerEnd = m }
        return s
    }

    /// `context-fill` and `context-stroke` replaced by the context element's paint (none
    /// outside a marker or a `use`).
    private func resolvingContext(_ paint: SVGPaint) -> (SVGPaint, SVGPaintSpace?) {
        switch paint {
        case .contextFill: return context.map { ($0.fill, $0.fillSpace) } ?? (.none, nil)
        case .contextStroke: return context.map { ($0.stroke, $0.strokeSpace) } ?? (.none, nil)
        default: return (paint, nil)
        }
    }

    /// `normal`, or the layers named first in the order named, then the others in the default
    /// order; nil for an invalid value.
    static func paintOrder(_ value: String) -> [SVGPaintLayer]? {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        if words == ["normal"] { return [.fill, .stroke, .markers] }
        var order: [SVGPaintLayer] = []
        for w in words {
            guard let layer = SVGPaintLayer(rawValue: w), !order.contains(layer) else { return nil }
            order.append(layer)
        }
        guard !order.isEmpty else { return nil }
        for layer in [SVGPaintLayer.fill, .stroke, .markers] where !order.contains(layer) { order.append(layer) }
        return order
    }
}
