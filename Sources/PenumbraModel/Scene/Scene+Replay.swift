// Replay: each scene op is exactly one GraphicsContext call ("Every op below is
// exactly one call on the Swift API's context", SCENE_FORMAT.md). The only
// work done here beyond the call is building drawImage's image from its
// attributes (crop, slice, template, flip), as a UIKit program would before
// calling drawInRect:, and placing it: a content mode becomes the placed
// rectangle, clipsToBounds a save / clip / restore around the draw. A view
// tree is the one op that is many calls: drawHierarchy(in:) lowered as
// ViewNode+Drawing.swift says.

extension SceneOp {
    /// Performs this op as its one GraphicsContext call.
    package func replay(into context: GraphicsContext) {
        switch self {
        case .save: context.saveGState()
        case .restore: context.restoreGState()
        case .concat(let m): context.concatenate(m)
        case .translate(let x, let y): context.translateBy(x: x, y: y)
        case .scale(let x, let y): context.scaleBy(x: x, y: y)
        case .rotate(let angle): context.rotate(by: angle)
        case .setAlpha(let alpha): context.setAlpha(alpha)
        case .setBlendMode(let mode): context.setBlendMode(mode)
        case .setShadow(let offset, let blur, let color): context.setShadow(offset: offset, blur: blur, color: color)
        case .clearShadow: context.clearShadow()
        case .setFillColor(let color): context.setFillColor(color)
        case .setStrokeColor(let color): context.setStrokeColor(color)
        case .setLineWidth(let width): context.setLineWidth(width)
        case .setLineCap(let cap): context.setLineCap(cap)
        case .setLineJoin(let join): context.setLineJoin(join)
        case .setMiterLimit(let limit): context.setMiterLimit(limit)
        case .setLineDash(let phase, let lengths): context.setLineDash(phase: phase, lengths: lengths)
        case .clip(let path, let rule): context.clip(to: path, using: rule)
        case .fill(let path, let rule): context.fill(path, using: rule)
        case .blurBackdrop(let path, let radius, let saturation, let tint):
            context.blurBackdrop(path, radius: radius, saturation: saturation, tint: tint)
        case .stroke(let path): context.stroke(path)
        case .drawImage(let draw):
            guard let image = draw.finishedImage() else { return }
            if draw.clipsToBounds {
                context.saveGState()
                context.clip(to: Path(rect: draw.bounds(of: image)))
            }
            switch draw.placement {
            case .rect where draw.contentMode != .scaleToFill:
                context.draw(image, in: draw.placedRect(of: image), blendMode: draw.blendMode, alpha: draw.alpha,
                             interpolation: draw.interpolation)
            case .rect(let rect):
                context.draw(image, in: rect, blendMode: draw.blendMode, alpha: draw.alpha, interpolation: draw.interpolation)
            case .at(let point):
                context.draw(image, at: point, blendMode: draw.blendMode, alpha: draw.alpha, interpolation: draw.interpolation)
            }
            if draw.clipsToBounds { context.restoreGState() }
        case .linearGradient(let start, let end, let stops, let extendStart, let extendEnd):
            context.drawLinearGradient(stops: stops, start: start, end: end, extendStart: extendStart, extendEnd: extendEnd)
        case .radialGradient(let c0, let r0, let c1, let r1, let stops, let extendStart, let extendEnd):
            context.drawRadialGradient(stops: stops, startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1,
                                       extendStart: extendStart, extendEnd: extendEnd)
        case .beginLayer: context.beginTransparencyLayer()
        case .endLayer: context.endTransparencyLayer()
        case .drawText(let text):
            if let frame = text.frame { context.draw(frame.image, in: frame.rect) }
            context.draw(text.drawing)
        case .drawView(let view):
            view.draw(into: context)
        }
    }
}
