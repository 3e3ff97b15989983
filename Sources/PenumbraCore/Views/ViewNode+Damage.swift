// Damage: what changed between two snapshots of a view tree, as a device
// rectangle, and how far drawing reaches across pixels (shadows, backdrop
// blurs), which a partial re-render must add on both sides of the damage.
//
// Views are paired by id. A view whose own properties or content changed, or
// whose subviews were added, removed or reordered, damages its whole old
// and new extent (its subtree and shadow included, through its transforms);
// otherwise the comparison goes down into its subviews. Changes whose effect
// spreads beyond their own extent are covered by the reach: an ancestor's
// shadow cast by the changed pixels, a backdrop blur reading them.

extension ViewNode {
    /// The device-space box of the pixels that may differ between drawing `old` and `new`
    /// (each under `ctm`, its placement already applied); nil when the trees draw the same.
    package static func damage(from old: ViewNode, to new: ViewNode, ctm: AffineTransform, scale: Double) -> Rect? {
        guard old.id == new.id, !old.differsShallowly(from: new),
              old.subviews.map(\.id) == new.subviews.map(\.id) else {
            return union(old.deviceExtent(ctm: ctm, scale: scale), new.deviceExtent(ctm: ctm, scale: scale))
        }
        var box: Rect?
        for (o, n) in zip(old.subviews, new.subviews) {
            let changed = damage(from: o, to: n, ctm: o.transformToSuperview.concatenating(ctm), scale: scale)
            // A subview's transform is part of its shallow properties: equal here.
            box = union(box, changed)
        }
        return box
    }

    /// True when anything but the subviews differs.
    private func differsShallowly(from o: ViewNode) -> Bool {
        placement != o.placement || bounds != o.bounds || alpha != o.alpha || isHidden != o.isHidden
            || backgroundColor != o.backgroundColor || clipsToBounds != o.clipsToBounds || tintColor != o.tintColor
            || semanticContentAttribute != o.semanticContentAttribute || layer != o.layer || content != o.content
            || contentVersion != o.contentVersion
    }

    private static func union(_ a: Rect?, _ b: Rect?) -> Rect? {
        switch (a, b) {
        case (let a?, let b?): return a.union(b)
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }

    /// How far, in device pixels, a pixel's value can depend on pixels around it: the longest
    /// chain of nested shadows (each its blur's kernel radius plus its offset) plus every
    /// backdrop blur's kernel radius. A pixel is drawn exactly when everything within this
    /// distance of it is drawn.
    package func reach(scale: Double) -> Double {
        shadowChainReach(scale: scale) + blurReach(scale: scale)
    }

    private func shadowChainReach(scale: Double) -> Double {
        guard !isHidden else { return 0 }
        var own = 0.0
        if castsShadow {
            own = (3 * layer.shadowRadius * scale).rounded(.up)
                + (abs(layer.shadowOffset.width) + abs(layer.shadowOffset.height)) * scale + 2
        }
        return own + (subviews.map { $0.shadowChainReach(scale: scale) }.max() ?? 0)
    }

    private func blurReach(scale: Double) -> Double {
        guard !isHidden else { return 0 }
        var own = 0.0
        if case .blur = content { own = (3 * VisualEffectStyle.blurRadius * scale).rounded(.up) + 2 }
        return subviews.reduce(own) { $0 + $1.blurReach(scale: scale) }
    }
}
