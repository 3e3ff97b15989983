// `mask`: the masked element is drawn into a transparency layer (renderGroup), and each mask
// of its chain is then drawn over it in a layer of its own composited with `destinationIn`,
// so that the element's pixels are multiplied by the mask's value: its luminance times its
// alpha (`mask-type: luminance`, the default: the layer ends converting luminance to alpha,
// GraphicsContext.endTransparencyLayerConvertingLuminanceToAlpha) or its alpha alone
// (`mask-type: alpha`). The mask's content is clipped to the mask region inside its own layer
// (so that outside the region the mask is 0 and the element is cut away).
//
// As resvg renders them: `maskUnits` (objectBoundingBox by default; x, y, width, height default
// to -10%, -10%, 120%, 120%) give the region, `maskContentUnits` (userSpaceOnUse by default)
// the content's space; a `mask` on the `<mask>` itself multiplies the element by that mask
// too. A reference to nothing is ignored; one to an element that is not a mask, a region of no
// area or objectBoundingBox units on an element with an empty bounding box hide the element.
// A mask whose `mask` links lead back to itself ignores its link, and an element inside a mask
// that refers to that mask is drawn unmasked. Each mask drawn counts against the use budget.
import PenumbraModel

extension SVGRenderer {
    /// The masks to apply to `node` (its own and the chain of `mask` links on them), [] for none,
    /// nil when the element is not rendered at all.
    func masks(for node: SVGNode, style: SVGStyle) throws -> [SVGNode]? {
        guard let value = node.declared["mask"], value != "none" else { return [] }
        guard let id = Self.funcIRI(value) else { return nil }
        guard let mask = doc.ids[id] else { return [] }
        guard mask.name == "mask" else { return nil }
        if activeMasks.contains(ObjectIdentifier(mask)) { return [] }
        var chain = [mask]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(mask)]
        while let next = linkedMask(chain[chain.count - 1]), seen.insert(ObjectIdentifier(next)).inserted,
              !activeMasks.contains(ObjectIdentifier(next)) {
            chain.append(next)
        }
        return chain
    }

    /// The mask a `<mask>`'s own `mask` attribute links to, nil when none or when the links from
    /// there lead back to `mask` (a cycle: the link is ignored).
    func linkedMask(_ mask: SVGNode) -> SVGNode? {
        func target(_ m: SVGNode) -> SVGNode? {
            guard let v = m.declared["mask"], let id = Self.funcIRI(v), let t = doc.ids[id], t.name == "mask" else { return nil }
            return t
        }
        guard let first = target(mask) else { return nil }
        var seen: Set<ObjectIdentifier> = []
        var current: SVGNode? = first
        while let m = current, seen.insert(ObjectIdentifier(m)).inserted {
            if m === mask { return nil }
            current = target(m)
        }
        return first
    }

    /// `url(#id)` (quoted or not): the id.
    static func funcIRI(_ value: String) -> String? {
        guard value.hasPrefix("url("), let close = value.firstIndex(of: ")") else { return nil }
        var ref = String(value[value.index(value.startIndex, offsetBy: 4)..<close]).trimmingCharacters()
        if ref.count >= 2, ref.first == "'" || ref.first == "\"" { ref = String(ref.dropFirst().dropLast()) }
        guard ref.hasPrefix("#") else { return nil }
        return String(ref.dropFirst())
    }

    /// Whether every mask of the chain can apply to `node`: the bounding box its units need is
    /// not empty and its region has an area. False: the element is not rendered.
    func masksApply(_ masks: [SVGNode], to node: SVGNode, style: SVGStyle) throws -> Bool {
        var bbox: Rect??
        for mask in masks {
            let objectBox = mask.attributes["maskUnits"] != "userSpaceOnUse"
            let contentBox = mask.attributes["maskContentUnits"] == "objectBoundingBox"
            if objectBox || contentBox {
                if bbox == nil { bbox = .some(try elementBounds(node, style: style)) }
                guard let b = bbox ?? nil, b.width > 0, b.height > 0 else { return false }
            }
            guard let r = maskRegion(mask, bbox: bbox ?? nil), r.width > 0, r.height > 0 else { return false }
        }
        return true
    }

    /// The mask's region in the masked element's user space.
    func maskRegion(_ mask: SVGNode, bbox: Rect?) -> Rect? {
        let objectBox = mask.attributes["maskUnits"] != "userSpaceOnUse"
        func value(_ name: String, _ axis: Character, _ fallback: Double) -> Double {
            guard let l = SVGLength.parse(mask.attributes[name]) else {
                return objectBox ? fallback : resolve(SVGLength(value: fallback * 100, unit: "%"), axis: axis)
            }
            if objectBox { return l.unit == "%" ? l.value / 100 : l.value }
            return resolve(l, axis: axis)
        }
        var x = value("x", "x", -0.1), y = value("y", "y", -0.1)
        var w = value("width", "x", 1.2), h = value("height", "y", 1.2)
        if objectBox {
            guard let b = bbox else { return nil }
            x = b.minX + x * b.width; y = b.minY + y * b.height; w *= b.width; h *= b.height
        }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// Multiplies what the current layer holds by each mask of the chain.
    func apply(_ masks: [SVGNode], to node: SVGNode, style: SVGStyle) throws {
        let bbox = masks.contains(where: {
            $0.attributes["maskUnits"] != "userSpaceOnUse" || $0.attributes["maskContentUnits"] == "objectBoundingBox"
        }) ? try elementBounds(node, style: style) : nil
        for mask in masks {
            useCount += 1
            guard useCount <= doc.limits.maxUseInstances else {
                throw SVGError(element: mask.label, message: "more than \(doc.limits.maxUseInstances) masks, pattern tiles and use instantiations")
            }
            try draw(mask, bbox: bbox)
        }
    }

    /// One mask over the current layer: its content, clipped to its region, in a layer
    /// composited with `destinationIn` (its luminance or its alpha as the layer's alpha).
    private func draw(_ mask: SVGNode, bbox: Rect?) throws {
        guard let region = maskRegion(mask, bbox: bbox) else { return }
        let key = ObjectIdentifier(mask)
        activeMasks.insert(key)
        defer { activeMasks.remove(key) }
        let type = mask.declared["mask-type"] ?? mask.attributes["mask-type"]
        ctx.saveGState()
        defer { ctx.restoreGState() }
        ctx.setAlpha(1)
        ctx.setBlendMode(.destinationIn)
        ctx.beginTransparencyLayer()
        ctx.clip(to: Path(rect: region))
        if mask.attributes["maskContentUnits"] == "objectBoundingBox", let b = bbox {
            ctx.concatenate(AffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY))
        }
        let style = inheritedStyle(of: mask)
        for c in mask.children { try render(c, parentStyle: style) }
        if type == "alpha" {
            ctx.endTransparencyLayer()
        } else {
            ctx.endTransparencyLayerConvertingLuminanceToAlpha()
        }
    }
}
