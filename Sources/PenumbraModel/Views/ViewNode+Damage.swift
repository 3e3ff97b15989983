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
    /// The device-space box of the pixels that may differ between drawing `old` and `new` in a
    /// superview whose bounds coordinates map to device space by `ctm`; nil when the trees draw
    /// the same.
    package static func damage(from old: ViewNode, to new: ViewNode, ctm: AffineTransform, scale: Double) -> Rect? {
        let oldCTM = old.transformToSuperview.concatenating(ctm), newCTM = new.transformToSuperview.concatenating(ctm)
        guard old.id == new.id, !old.differsShallowly(from: new),
              old.subviews.map(\.id) == new.subviews.map(\.id) else {
            return union(old.deviceExtent(ctm: oldCTM, scale: scale), new.deviceExtent(ctm: newCTM, scale: scale))
        }
        // Equal placements and bounds: one transform for both.
        var box: Rect?
        for (o, n) in zip(old.subviews, new.subviews) {
            box = union(box, damage(from: o, to: n, ctm: newCTM, scale: scale))
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

    /// The shadows and backdrop blurs of the tree, each with the device box it writes and its reach
    /// (kernel radius plus offset), the tree drawn in a superview mapped to device space by `ctm`.
    package func effects(ctm: AffineTransform, scale: Double) -> [ViewEffect] {
        var effects: [ViewEffect] = []
        collectEffects(ctm: transformToSuperview.concatenating(ctm), scale: scale, into: &effects)
        return effects
    }

    /// Every shadow and backdrop blur of the tree with the device box it writes and its reach.
    private func collectEffects(ctm: AffineTransform, scale: Double, into effects: inout [ViewEffect]) {
        guard !isHidden, alpha > 0, ctm.isInvertible else { return }
        if castsShadow, let extent = deviceExtent(ctm: ctm, scale: scale) {
            effects.append(ViewEffect(extent: extent, reach: shadowKernelReach(scale: scale)
                + (abs(layer.shadowOffset.width) + abs(layer.shadowOffset.height)) * scale))
        }
        if case .blur = content {
            effects.append(ViewEffect(extent: ctm.apply(bounds), reach: (3 * VisualEffectStyle.blurRadius * scale).rounded(.up) + 2))
        }
        for subview in subviews {
            subview.collectEffects(ctm: subview.transformToSuperview.concatenating(ctm), scale: scale, into: &effects)
        }
    }
}

/// A shadow or backdrop blur of a view tree: where it writes and how far it reads.
package struct ViewEffect: Sendable {
    package var extent: Rect
    package var reach: Double

    /// How far, in device pixels, the pixels of `region` can depend on pixels around them: the
    /// reach of every effect that comes near enough to take part in a chain of such reads
    /// ending in the region. A pixel is drawn as in a full render when everything within this
    /// distance of it is drawn; and what a change within `region` alters lies within it.
    package static func reach(of effects: [ViewEffect], into region: Rect) -> Double {
        let total = effects.reduce(0) { $0 + $1.reach }
        guard total > 0 else { return 0 }
        let near = region.insetBy(dx: -total, dy: -total)
        return effects.reduce(0) { sum, e in e.extent.intersection(near) == nil ? sum : sum + e.reach }
    }
}
