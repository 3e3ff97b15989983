// Extents of views in device space: where a view's drawing can change pixels
// (its content, its subviews unless it clips them, its border, grown by the
// reach of its shadow). Conservative by construction: a box around the
// transformed content, margins of whole pixels around blurs; used to skip
// views that cannot reach a window (ViewNode+Drawing.swift) and by
// PenumbraUI's damage tracking to find what a change repaints.

extension ViewNode {
    /// True when the view's drawing (shadow included) can touch `visible` (device space), the
    /// view's bounds coordinates mapping to device space by `ctm`.
    package func mayReach(_ visible: Rect, ctm: AffineTransform, scale: Double) -> Bool {
        // Quick acceptance: a view whose own bounds meet the window is drawn (it may draw nothing
        // there, which costs a little time and no byte). Only views outside it need their extent.
        guard !isHidden, alpha > 0 else { return false }
        if ctm.apply(bounds).intersection(visible) != nil { return true }
        guard let extent = deviceExtent(ctm: ctm, scale: scale) else { return false }
        return extent.maxX > visible.minX && extent.minX < visible.maxX && extent.maxY > visible.minY && extent.minY < visible.maxY
    }

    /// The device-space box this view can change, its bounds coordinates mapping to device
    /// space by `ctm` (placement already applied); nil when it draws nothing.
    package func deviceExtent(ctm: AffineTransform, scale: Double) -> Rect? {
        guard !isHidden, alpha > 0, ctm.isInvertible else { return nil }
        var box = DeviceBox()
        if let own = ownExtent { box.add(ctm.apply(own)) }
        if case .vibrancy = content {
            box.add(ctm.apply(bounds))
        } else {
            var children = DeviceBox()
            for subview in subviews {
                if let r = subview.deviceExtent(ctm: subview.transformToSuperview.concatenating(ctm), scale: scale) {
                    children.add(r)
                }
            }
            if var r = children.rect {
                if clipsToBounds { r = r.intersection(ctm.apply(bounds)) ?? .zero }
                if !r.isEmpty { box.add(r) }
            }
        }
        if castsShadow, let drawn = box.rect ?? layer.shadowPath?.controlPointBounds.map({ ctm.apply($0) }) {
            var shadowBox = layer.shadowPath?.controlPointBounds.map { ctm.apply($0) } ?? drawn
            let reach = shadowKernelReach(scale: scale)
            let dx = layer.shadowOffset.width * scale, dy = layer.shadowOffset.height * scale
            guard reach.isFinite, dx.isFinite, dy.isFinite else { return nil }
            shadowBox = Rect(x: shadowBox.minX + dx, y: shadowBox.minY + dy, width: shadowBox.width, height: shadowBox.height)
                .insetBy(dx: -reach, dy: -reach)
            box.add(shadowBox)
        }
        guard let r = box.rect else { return nil }
        // Anti-aliasing and rounding reach a pixel past any edge.
        return r.insetBy(dx: -1, dy: -1)
    }

    /// How far the layer's shadow blurs in device pixels: its kernel's radius, ceil(3 sigma) with
    /// sigma = the shadow radius (the context's blur is twice it) in pixels, and a margin of 2.
    package func shadowKernelReach(scale: Double) -> Double { (3 * layer.shadowRadius * scale).rounded(.up) + 2 }

    /// What the view itself draws (background, content, border) in its bounds coordinates;
    /// nil when nothing.
    private var ownExtent: Rect? {
        var box = DeviceBox()
        if backgroundColor != nil || layer.borderWidth > 0 { box.add(bounds) }
        switch content {
        case .none, .vibrancy: break
        case .ops, .procedure, .recording, .blur: box.add(bounds)
        case .image(let shown):
            let placed = shown.contentMode.placedRect(imageSize: shown.image.size, in: bounds)
            box.add(clipsToBounds ? placed.intersection(bounds) ?? .zero : placed)
        case .label(let text):
            if let ink = text.inkBounds { box.add(ink) }
        }
        return box.rect
    }
}

/// A growing bounding box.
private struct DeviceBox {
    var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
    mutating func add(_ r: Rect) {
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite, !r.isEmpty else { return }
        x0 = min(x0, r.minX); y0 = min(y0, r.minY); x1 = max(x1, r.maxX); y1 = max(y1, r.maxY)
    }
    var rect: Rect? { x0 <= x1 && y0 <= y1 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil }
}
