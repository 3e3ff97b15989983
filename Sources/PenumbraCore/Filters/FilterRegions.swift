// FilterRegions: the region-of-interest walk's decisions, taken once when a
// graph is lowered (FilterPlan.swift) for both renderers: they execute the
// same passes over the same rectangles, and the only difference left between
// them is where the integer arithmetic runs.
//
// - A request for `region` of a node computes `region ∩ extent` (its
//   "computed region"); outside it the result is transparent.
// - gaussianBlur and unsharpMask read their computed region and the part of
//   it grown by the kernel's radius that lies in the input's extent (the
//   bounding box of both); the edges of what is read are the blur's zero
//   edge (the input is transparent outside its extent anyway).
// - clampToExtent reads the part of its input's extent under the region's
//   rows and columns (ClampRegions), or the region itself when the input is
//   infinite, or nothing when the input is empty.
// - affineTransform reads its whole finite input (so mipmap levels and edges
//   are the same for every region), or for an infinite input a margin-grown
//   part aligned to 64 pixels whose edges fall outside the region.
// Colour filters, blendWithMask, composite and crop read the same pixels.

import PenumbraModel

/// What clampToExtent reads for one region.
package enum ClampRegions: Equatable {
    /// The input is infinite: clamping changes nothing, the region itself is read.
    case unchanged
    /// The input's extent is empty: the result is transparent.
    case transparent
    /// Each output pixel reads the input's pixel at its coordinates clamped into `extent`; the
    /// pixels read are `needed` (within the extent).
    case edges(extent: PixelRect, needed: PixelRect)
}

extension FilterNode {
    /// The pixels a request for `region` computes: the region within the node's extent.
    package func computedRegion(in region: PixelRect) -> PixelRect {
        extent.rect.map { region.intersection($0) } ?? region
    }
}

extension ImageFilter {
    /// The input region a gaussianBlur or unsharpMask of sigma `radius` reads for `region`: the
    /// smallest rectangle holding `region` and the part of the region grown by the kernel's
    /// radius that lies within the input's extent. Outside the extent the input is transparent
    /// and the blur reads values outside its source as 0, so the region's pixels are those of
    /// the whole grown region; the region itself is kept so that the blur's output covers it (a
    /// region inside the extent then costs no margin, a shadow's plane no more than its reach).
    package static func blurInputRegion(_ region: PixelRect, radius: Double, inputExtent: FilterExtent) -> PixelRect {
        let grown = region.grown(by: BlurReach.radius(forSigma: radius))
        guard let extent = inputExtent.rect else { return grown }
        let window = grown.intersection(extent)
        if window.isEmpty { return region }
        let x0 = min(region.x, window.x), y0 = min(region.y, window.y)
        return PixelRect(x: x0, y: y0, width: max(region.maxX, window.maxX) - x0, height: max(region.maxY, window.maxY) - y0)
    }

    /// What clampToExtent reads for `region` of an input of extent `inputExtent`.
    package static func clampRegions(_ region: PixelRect, inputExtent: FilterExtent) -> ClampRegions {
        guard let e = inputExtent.rect else { return .unchanged }
        guard !e.isEmpty else { return .transparent }
        let x0 = max(e.x, min(e.maxX - 1, region.x)), x1 = max(e.x, min(e.maxX - 1, region.maxX - 1))
        let y0 = max(e.y, min(e.maxY - 1, region.y)), y1 = max(e.y, min(e.maxY - 1, region.maxY - 1))
        return .edges(extent: e, needed: PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1))
    }

    /// The part of the input an affineTransform by `matrix` draws for `region`, or nil when it
    /// draws nothing (a singular matrix, an empty input).
    package static func affineSourceRegion(_ region: PixelRect, matrix: AffineTransform,
                                           inputExtent: FilterExtent) -> PixelRect? {
        guard let inverse = matrix.inverted() else { return nil }
        let source: PixelRect
        if let e = inputExtent.rect {
            source = e
        } else {
            let back = PixelRect(enclosing: inverse.apply(Rect(x: Double(region.x), y: Double(region.y),
                                                               width: Double(region.width), height: Double(region.height))))
            let shrink = 1 / max(1e-9, abs(matrix.determinant).squareRoot())
            let margin = 4 + Int(min(1e6, (2 * shrink).rounded(.up)))
            let g = back.grown(by: margin), align = 64
            let x0 = Int((Double(g.x) / Double(align)).rounded(.down)) * align
            let y0 = Int((Double(g.y) / Double(align)).rounded(.down)) * align
            source = PixelRect(x: x0, y: y0, width: g.maxX - x0, height: g.maxY - y0)
        }
        return source.isEmpty ? nil : source
    }

    /// The display list an affineTransform draws for `region`: `pixels` (the input over
    /// `source`) drawn as drawImage draws it under `matrix`, user space the input's pixel grid.
    package static func affineDisplayList(_ region: PixelRect, matrix: AffineTransform, source: PixelRect,
                                          pixels: Bitmap) -> DisplayList {
        var list = DisplayList(width: region.width, height: region.height, scale: 1, background: nil)
        let transform = matrix.concatenating(AffineTransform(translationX: -Double(region.x), y: -Double(region.y)))
        let rect = Rect(x: Double(source.x), y: Double(source.y), width: Double(source.width), height: Double(source.height))
        list.commands = [.image(ImageDraw(bitmap: pixels, scale: 1, transform: transform, rect: rect), CompositeState())]
        return list
    }
}

extension FilterGenerator {
    /// The display list that draws a gradient generator over `region` (nil for a constant colour,
    /// which is filled directly).
    package func displayList(over region: PixelRect) -> DisplayList? {
        let shift = AffineTransform(translationX: -Double(region.x), y: -Double(region.y))
        var list = DisplayList(width: region.width, height: region.height, scale: 1, background: nil)
        switch self {
        case .constantColor: return nil
        case .linearGradient(let start, let end, let stops, let extendStart, let extendEnd):
            list.commands = [.gradient(GradientDraw(kind: .linear(start: start, end: end), stops: stops,
                                                    extendStart: extendStart, extendEnd: extendEnd, transform: shift),
                                       CompositeState())]
        case .radialGradient(let c0, let r0, let c1, let r1, let stops, let extendStart, let extendEnd):
            list.commands = [.gradient(GradientDraw(kind: .radial(startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1),
                                                    stops: stops, extendStart: extendStart, extendEnd: extendEnd, transform: shift),
                                       CompositeState())]
        }
        return list
    }
}
