// Markers (SVG 2 "Markers"): a marker's content drawn at the vertices of a
// shape's path, `marker-start` at the first, `marker-end` at the last and
// `marker-mid` at every other, after (or before, by `paint-order`) its fill
// and stroke. A vertex is the end of each path element (a close ends at its
// subpath's start); its direction is the bisector of the incoming and the
// outgoing tangent, or the one that exists, as `orient="auto"` asks.
//
// Each marker is placed by one transform: to the vertex, rotated by its
// `orient`, scaled by the stroke width (markerUnits="strokeWidth"), then the
// viewport (markerWidth x markerHeight, clipped unless overflow is visible)
// with its viewBox, moved so that (refX, refY) lands on the vertex. Its
// content inherits from the marker's own ancestors, not from the shape, and
// `context-fill` / `context-stroke` in it are the shape's fill and stroke. A
// marker reached again while it is being drawn (a marker in its own content)
// is skipped. Arcs are conics in Path; a vertex falls at each conic's end.

import Foundation
import PenumbraModel

/// A vertex of a path where a marker can stand: its position and the angle (radians) that
/// `orient="auto"` turns the marker to.
struct SVGMarkerVertex {
    var point: Point
    var angle: Double
}

extension SVGMarkerVertex {
    /// The vertices of `path`, one per element, in order.
    static func vertices(of path: Path) -> [SVGMarkerVertex] {
        var points: [Point] = []
        var incoming: [Point?] = []
        var outgoing: [Point?] = []
        var current = Point.zero, start = Point.zero
        var subpathFirst = 0
        /// The direction `a` to `b`, or the first of the fallbacks that is not zero.
        func direction(_ candidates: [(Point, Point)]) -> Point? {
            for (a, b) in candidates where a != b { return Point(b.x - a.x, b.y - a.y) }
            return nil
        }
        func add(_ p: Point, in dirIn: Point?, startDirection: Point?) {
            if let startDirection, let last = outgoing.indices.last, outgoing[last] == nil { outgoing[last] = startDirection }
            points.append(p); incoming.append(dirIn); outgoing.append(nil)
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                points.append(p); incoming.append(nil); outgoing.append(nil)
                subpathFirst = points.count - 1
                current = p; start = p
            case .line(let p):
                let d = direction([(current, p)])
                add(p, in: d, startDirection: d)
                current = p
            case .quad(let c, let p), .conic(let c, let p, _):
                add(p, in: direction([(c, p), (current, p)]), startDirection: direction([(current, c), (current, p)]))
                current = p
            case .cubic(let c1, let c2, let p):
                add(p, in: direction([(c2, p), (c1, p), (current, p)]),
                    startDirection: direction([(current, c1), (current, c2), (current, p)]))
                current = p
            case .close:
                let closing = direction([(current, start)])
                let last = incoming.last ?? nil
                add(start, in: closing ?? last, startDirection: closing)
                // The closed subpath goes on through its first segment.
                if subpathFirst < outgoing.count - 1 {
                    outgoing[outgoing.count - 1] = outgoing[subpathFirst]
                    if incoming[subpathFirst] == nil { incoming[subpathFirst] = closing ?? last }
                }
                current = start
            }
        }
        return points.indices.map { i in
            SVGMarkerVertex(point: points[i], angle: bisector(incoming[i], outgoing[i]))
        }
    }

    /// The direction halfway between `a` (in) and `b` (out), the one that exists, or 0.
    static func bisector(_ a: Point?, _ b: Point?) -> Double {
        func angle(_ p: Point) -> Double {
            let r = atan2(p.y, p.x)
            return r < 0 ? r + 2 * .pi : r
        }
        switch (a, b) {
        case (let a?, let b?):
            let inAngle = angle(a), outAngle = angle(b)
            let half = (outAngle - inAngle) / 2
            var result = inAngle + half
            if abs(half) > .pi / 2 { result -= .pi }
            return result
        case (let a?, nil): return angle(a)
        case (nil, let b?): return angle(b)
        case (nil, nil): return 0
        }
    }
}

extension SVGRenderer {
    /// The markers of a shape's path, start, mid and end, each at its vertices.
    func drawMarkers(on path: Path, style: SVGStyle) throws {
        guard style.markerStart != nil || style.markerMid != nil || style.markerEnd != nil else { return }
        let vertices = SVGMarkerVertex.vertices(of: path)
        guard let first = vertices.first, let last = vertices.last else { return }
        let bbox = Self.bounds(path)
        let context = paintContext(style) { bbox }
        if let id = style.markerStart { try drawMarker(id, at: first, isStart: true, shapeStyle: style, context: context) }
        if let id = style.markerMid, vertices.count > 2 {
            for v in vertices[1..<(vertices.count - 1)] { try drawMarker(id, at: v, isStart: false, shapeStyle: style, context: context) }
        }
        if let id = style.markerEnd { try drawMarker(id, at: last, isStart: false, shapeStyle: style, context: context) }
    }

    private func drawMarker(_ id: String, at vertex: SVGMarkerVertex, isStart: Bool, shapeStyle: SVGStyle,
                            context: SVGPaintContext) throws {
        guard let marker = doc.ids[id], marker.name == "marker" else { return }
        let key = ObjectIdentifier(marker)
        guard !activeMarkers.contains(key) else { return }
        let width = length(marker, "markerWidth", axis: "x", 3), height = length(marker, "markerHeight", axis: "y", 3)
        let refX = length(marker, "refX", axis: "x"), refY = length(marker, "refY", axis: "y")
        guard width > 0, height > 0 else { return }
        useCount += 1
        guard useCount <= doc.limits.maxUseInstances else {
            throw SVGError(element: marker.label, message: "more than \(doc.limits.maxUseInstances) use and marker instantiations (fan-out)")
        }
        activeMarkers.insert(key)
        defer { activeMarkers.remove(key) }

        ctx.saveGState()
        defer { ctx.restoreGState() }
        let savedViewport = viewport
        defer { viewport = savedViewport }
        ctx.translateBy(x: vertex.point.x, y: vertex.point.y)
        let orient = marker.attributes["orient"]?.trimmingCharacters() ?? "0"
        if orient == "auto" {
            ctx.concatenate(AffineTransform(rotationAngle: vertex.angle))
        } else if orient == "auto-start-reverse" {
            ctx.concatenate(AffineTransform(rotationAngle: vertex.angle + (isStart ? .pi : 0)))
        } else if let degrees = Self.angleInDegrees(orient), degrees != 0 {
            ctx.concatenate(AffineTransform(rotationAngle: degrees * .pi / 180))
        }
        if marker.attributes["markerUnits"] != "userSpaceOnUse" {
            let strokeWidth = resolve(shapeStyle.strokeWidth, axis: "d", fontSize: shapeStyle.fontSize)
            guard strokeWidth > 0 else { return }
            ctx.scaleBy(x: strokeWidth, y: strokeWidth)
        }
        var contentTransform = AffineTransform.identity
        if let box = Self.viewBox(marker) {
            contentTransform = Self.viewBoxTransform(box, Size(width: width, height: height), marker.attributes["preserveAspectRatio"])
            viewport = box.size
        } else {
            viewport = Size(width: width, height: height)
        }
        let ref = contentTransform.apply(Point(refX, refY))
        ctx.translateBy(x: -ref.x, y: -ref.y)
        let overflow = marker.declared["overflow"] ?? "hidden"
        if overflow == "hidden" || overflow == "scroll" {
            ctx.clip(to: Path(rect: Rect(x: 0, y: 0, width: width, height: height)))
        }
        ctx.concatenate(contentTransform)
        guard ctx.ctm.isInvertible else { return }
        var style = inheritedStyle(of: marker)
        style.context = context
        for child in marker.children { try render(child, parentStyle: style) }
    }

    /// An `orient` angle: a number in degrees, or with deg, grad, rad or turn.
    static func angleInDegrees(_ text: String) -> Double? {
        for (unit, factor) in [("deg", 1.0), ("grad", 0.9), ("rad", 180 / Double.pi), ("turn", 360.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * factor }
        }
        return Double(text)
    }

    /// The style an element inherits from its ancestors and its own declarations (what a
    /// marker's or a paint server's content starts from, wherever it is referenced).
    func inheritedStyle(of node: SVGNode) -> SVGStyle {
        var chain: [SVGNode] = []
        var n: SVGNode? = node
        while let m = n { chain.append(m); n = m.parent }
        return chain.reversed().reduce(SVGStyle()) { $0.computed(for: $1) }
    }
}
