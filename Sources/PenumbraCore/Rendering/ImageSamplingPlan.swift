// ImageSamplingPlan: where each device pixel samples an image, in fixed point
// (docs/ARITHMETIC.md, "Image sampling"), computed once in Core for both
// renderers.
//
// For one axis, a device pixel (x, y) maps to an image position q (the sample
// point minus 0.5, so that floor(q) is the left texel of the bilinear pair)
// that is affine in (x, y) within each nine-slice region. Core evaluates each
// affine map in Double at the pixel centre of device pixel (0, 0), moved by
// the shadow offset, with its steps per pixel, and rounds the three numbers
// once to Q24 (units of 2^-24 pixel) in 64 bits. A renderer then computes
//     q = base + stepX x + stepY y        (64-bit integers, wrapping)
// per pixel, in any order and on any hardware, exactly. The texel pair is
// floor(q) = q >> 24 (clamped to the region's span of texels) and the
// bilinear weight is the next 8 bits, (q >> 16) & 255.
//
// A nine-slice axis has three regions, chosen by the pixel's distance into
// the destination rectangle (also Q24, affine) against two thresholds; a tiled
// middle region maps to an offset u >= 0 into the tile, and
// q = start + (u mod tile). A plain axis is its middle region alone (the
// thresholds never trigger). The bilinear mix of four U8 texels with weights
// (256 - fx)(256 - fy), fx (256 - fy), ... (summing to 2^16) is rounded once:
// (sum + 2^15) >> 16.
//
// `interpolation`: `none` takes the one texel under the sample point (a pair
// with weight 0); `high` and `default` give each region pair a mip level
// (ImageSamplingPlan+Mipmaps.swift) and sample it from the draw's atlas at
// the level-0 position shifted right by the level (FixedImageAxis.levelPair).

import PenumbraModel

/// A Q24 affine function of the device pixel: `base + stepX x + stepY y`, wrapping in 64 bits.
@usableFromInline package struct FixedAffine: Hashable, Sendable {
    @usableFromInline package var base: Int64, stepX: Int64, stepY: Int64

    /// Rounds a Double affine map (value at device pixel (0, 0), steps per pixel) to Q24.
    @usableFromInline package init(value: Double, stepX: Double, stepY: Double) {
        base = FixedAffine.q24(value); self.stepX = FixedAffine.q24(stepX); self.stepY = FixedAffine.q24(stepY)
    }

    @usableFromInline package init(base: Int64, stepX: Int64, stepY: Int64) { self.base = base; self.stepX = stepX; self.stepY = stepY }

    /// `round(v x 2^24)`, clamped to +-2^62 (0 for NaN): the one conversion of a position to Q24.
    @usableFromInline package static func q24(_ v: Double) -> Int64 {
        let x = (v * 16_777_216).rounded()
        guard x == x else { return 0 }
        return Int64(max(-0x1p62, min(0x1p62, x)))
    }

    /// The value at device pixel (x, y).
    @inlinable @inline(__always)
    @usableFromInline package func at(_ x: Int, _ y: Int) -> Int64 { base &+ stepX &* Int64(x) &+ stepY &* Int64(y) }
}

/// One region of an axis: its map and the span of texels its samples are clamped to.
@usableFromInline package struct FixedSliceRegion: Hashable, Sendable {
    /// q for a stretched (or plain) region; the offset u into the tile for a tiled one.
    @usableFromInline package var map: FixedAffine
    /// The tile's length in Q24 pixels (0: not tiled).
    @usableFromInline package var tile: Int64
    /// For a tiled region, q at the tile's start (pixel start - 0.5, Q24).
    @usableFromInline package var tileStart: Int64
    /// The first and last texel samples are clamped to.
    @usableFromInline package var first: Int32, last: Int32
}

/// One axis of an image draw in fixed point.
@usableFromInline package struct FixedImageAxis: Hashable, Sendable {
    /// The distance into the destination rectangle (Q24 points); chooses the region.
    @usableFromInline package var distance: FixedAffine
    /// Region 0 where distance < leadingEnd; region 2 where distance >= trailingStart; else 1.
    @usableFromInline package var leadingEnd: Int64, trailingStart: Int64
    /// Leading cap, middle (or the whole plain axis), trailing cap.
    @usableFromInline package var regions: [FixedSliceRegion]

    /// The texel pair's first texel and the bilinear weight (0...255) at device pixel (x, y).
    @inlinable @inline(__always)
    @usableFromInline package func sample(_ x: Int, _ y: Int) -> (x0: Int32, x1: Int32, weight: Int32) {
        let index = regionIndex(x, y)
        let region = regions[index]
        return FixedImageAxis.pair(position(index, x, y), region.first, region.last)
    }

    /// The region of device pixel (x, y): 0, 1 or 2.
    @inlinable @inline(__always)
    @usableFromInline package func regionIndex(_ x: Int, _ y: Int) -> Int {
        guard leadingEnd > Int64.min || trailingStart < Int64.max else { return 1 }
        let d = distance.at(x, y)
        return d < leadingEnd ? 0 : (d >= trailingStart ? 2 : 1)
    }

    /// q (the sample position - 0.5, Q24, level 0) of device pixel (x, y) in region `index`.
    @inlinable @inline(__always)
    @usableFromInline package func position(_ index: Int, _ x: Int, _ y: Int) -> Int64 {
        let region = regions[index]
        var q = region.map.at(x, y)
        if region.tile > 0 { q = region.tileStart &+ FixedImageAxis.modulo(q, region.tile) }
        return q
    }

    /// `u mod m` for m > 0, in 0..<m (floor semantics).
    @inlinable @inline(__always)
    @usableFromInline package static func modulo(_ u: Int64, _ m: Int64) -> Int64 {
        let r = u % m
        return r < 0 ? r + m : r
    }

    /// The texels floor(q) and floor(q) + 1 clamped to first...last, and the 8-bit weight.
    @inlinable @inline(__always)
    @usableFromInline package static func pair(_ q: Int64, _ first: Int32, _ last: Int32) -> (x0: Int32, x1: Int32, weight: Int32) {
        let i = Int32(truncatingIfNeeded: max(-(1 << 30), min(1 << 30, q >> 24)))
        let weight = Int32(truncatingIfNeeded: (q >> 16) & 255)
        return (min(last, max(first, i)), min(last, max(first, i &+ 1)), weight)
    }

    /// `none`: the texel under the sample point q + 0.5, the lower one on an exact boundary
    /// (ceil(q + 0.5) - 1 = (q + 2^23 - 1) >> 24), clamped, as a pair of one texel with weight 0.
    @inlinable @inline(__always)
    @usableFromInline package static func nearest(_ q: Int64, _ first: Int32, _ last: Int32) -> (x0: Int32, x1: Int32, weight: Int32) {
        let i = Int32(truncatingIfNeeded: max(-(1 << 30), min(1 << 30, (q &+ (1 << 23) &- 1) >> 24)))
        let t = min(last, max(first, i))
        return (t, t, 0)
    }

    /// The bilinear pair in mip level `level` >= 1 of a region whose texels start at `first`:
    /// qL = ((q - first 2^24 + 2^23) >> level) - 2^23 (the position relative to the region,
    /// divided by 2^level, floor), its pair clamped to 0...last and moved by `origin` (the
    /// level's place in the atlas).
    @inlinable @inline(__always)
    @usableFromInline package static func levelPair(_ q: Int64, first: Int32, level: Int32, last: Int32, origin: Int32)
        -> (x0: Int32, x1: Int32, weight: Int32) {
        let qL = ((q &- (Int64(first) << 24) &+ (1 << 23)) >> Int64(level)) &- (1 << 23)
        let p = pair(qL, 0, last)
        return (p.x0 &+ origin, p.x1 &+ origin, p.weight)
    }
}

/// Both axes of an image draw, and what a renderer needs beside them.
@usableFromInline package struct ImageSamplingPlan: Hashable, Sendable {
    @usableFromInline package var horizontal: FixedImageAxis
    @usableFromInline package var vertical: FixedImageAxis
    /// `interpolation: none`: the texel under the sample point instead of the bilinear mix.
    @usableFromInline package var nearest = false
    /// Per region pair (index 3 x vertical region + horizontal region): its mip level and where
    /// that level lies in the atlas (ImageSamplingPlan+Mipmaps.swift); level 0 samples the image.
    @usableFromInline package var levels: [MipRegionLevel] = Array(repeating: .image, count: 9)
    /// The atlas of the levels above 0 that this draw samples; nil when it samples none.
    @usableFromInline package var mipmaps: MipAtlasLayout?

    /// The plan of `draw` with the paint moved by `offset` (a shadow's), device pixels.
    @usableFromInline package init(_ draw: ImageDraw, offset: Point = .zero) {
        let inverse = draw.transform.inverted() ?? .identity
        // The pixel centre of device pixel (0, 0), moved, in user space, and the steps per pixel.
        let origin = inverse.apply(Point(x: 0.5 - offset.x, y: 0.5 - offset.y))
        let rect = draw.rect
        var localX = (value: origin.x - rect.minX, stepX: inverse.a, stepY: inverse.c)
        let localY = (value: origin.y - rect.minY, stepX: inverse.b, stepY: inverse.d)
        if draw.flippedHorizontally {
            localX = (rect.width - localX.value, -localX.stepX, -localX.stepY)
        }
        let insets = draw.slicing?.capInsets ?? .zero
        let mode = draw.slicing?.mode
        let h = ImageSamplingPlan.axisAndSteps(localX, destination: rect.width, pixels: draw.pixels.width, scale: draw.scale,
                                               leadingCap: insets.left, trailingCap: insets.right, mode: mode)
        let v = ImageSamplingPlan.axisAndSteps(localY, destination: rect.height, pixels: draw.pixels.height, scale: draw.scale,
                                               leadingCap: insets.top, trailingCap: insets.bottom, mode: mode)
        horizontal = h.axis; vertical = v.axis
        switch draw.interpolation {
        case .none: nearest = true
        case .low: break
        case .high, .default: chooseLevels(horizontalSteps: h.steps, verticalSteps: v.steps)
        }
    }

    /// Where device pixel (x, y) samples: the horizontal and vertical texel pairs, in the image
    /// (`inAtlas` false) or in the mip atlas.
    @inlinable @inline(__always)
    @usableFromInline package func sample(_ x: Int, _ y: Int)
        -> (h: (x0: Int32, x1: Int32, weight: Int32), v: (x0: Int32, x1: Int32, weight: Int32), inAtlas: Bool) {
        let rx = horizontal.regionIndex(x, y), ry = vertical.regionIndex(x, y)
        let qx = horizontal.position(rx, x, y), qy = vertical.position(ry, x, y)
        let hr = horizontal.regions[rx], vr = vertical.regions[ry]
        if nearest {
            return (FixedImageAxis.nearest(qx, hr.first, hr.last), FixedImageAxis.nearest(qy, vr.first, vr.last), false)
        }
        let l = levels[3 &* ry &+ rx]
        if l.level == 0 {
            return (FixedImageAxis.pair(qx, hr.first, hr.last), FixedImageAxis.pair(qy, vr.first, vr.last), false)
        }
        return (FixedImageAxis.levelPair(qx, first: hr.first, level: l.level, last: l.lastX, origin: l.originX),
                FixedImageAxis.levelPair(qy, first: vr.first, level: l.level, last: l.lastY, origin: l.originY), true)
    }

    /// A layer's plan: texel (i, j) of a bitmap placed 1:1 with its top-left at `frame`'s corner,
    /// moved by `offset`; samples outside it are clamped to one transparent texel border (the
    /// renderer reads outside texels as 0).
    @usableFromInline package init(layerFrame frame: PixelRect, offset: Point) {
        func axis(_ corner: Int, _ move: Double, _ pixels: Int, horizontal: Bool) -> FixedImageAxis {
            // q = x + 0.5 - move - corner - 0.5
            let map = FixedAffine(value: -move - Double(corner), stepX: horizontal ? 1 : 0, stepY: horizontal ? 0 : 1)
            let region = FixedSliceRegion(map: map, tile: 0, tileStart: 0, first: -1, last: Int32(pixels))
            return FixedImageAxis(distance: map, leadingEnd: .min, trailingStart: .max, regions: [region, region, region])
        }
        horizontal = axis(frame.x, offset.x, frame.width, horizontal: true)
        vertical = axis(frame.y, offset.y, frame.height, horizontal: false)
    }

    /// One axis: a plain map `local / destination x pixels`, or the nine-slice regions of
    /// UIKit (caps at natural size, shrunk proportionally when they do not fit, a stretched or
    /// tiled middle), each region sampled as an image of its own.
    @usableFromInline package static func axis(_ local: (value: Double, stepX: Double, stepY: Double), destination: Double, pixels: Int,
                     scale: Double, leadingCap: Double, trailingCap: Double, mode: ResizingMode?) -> FixedImageAxis {
        axisAndSteps(local, destination: destination, pixels: pixels, scale: scale, leadingCap: leadingCap,
                     trailingCap: trailingCap, mode: mode).axis
    }

    /// ``axis(_:destination:pixels:scale:leadingCap:trailingCap:mode:)`` and, per region, the
    /// Double steps of its image position per device pixel in x and y (for the mip level).
    static func axisAndSteps(_ local: (value: Double, stepX: Double, stepY: Double), destination: Double, pixels: Int,
                             scale: Double, leadingCap: Double, trailingCap: Double, mode: ResizingMode?)
        -> (axis: FixedImageAxis, steps: [SIMD2<Double>]) {
        let distance = FixedAffine(value: local.value, stepX: local.stepX, stepY: local.stepY)
        let p = Double(pixels)
        /// q = pixelStart - 0.5 + (local - destStart) k.
        func mapped(_ destStart: Double, _ k: Double, _ pixelStart: Double) -> FixedAffine {
            FixedAffine(value: pixelStart - 0.5 + (local.value - destStart) * k, stepX: local.stepX * k, stepY: local.stepY * k)
        }
        guard let mode else {
            let k = destination > 0 ? p / destination : 0
            let region = FixedSliceRegion(map: mapped(0, k, 0), tile: 0, tileStart: 0, first: 0, last: Int32(pixels - 1))
            let step = SIMD2(local.stepX * k, local.stepY * k)
            return (FixedImageAxis(distance: distance, leadingEnd: .min, trailingStart: .max, regions: [region, region, region]),
                    [step, step, step])
        }
        let lp = min(p, max(0, leadingCap * scale)), tp = min(p - lp, max(0, trailingCap * scale))
        var ld = lp / scale, td = tp / scale
        if ld + td > destination, ld + td > 0 { let k = destination / (ld + td); ld *= k; td *= k }
        func region(destStart: Double, destLength: Double, pixelStart: Double, pixelLength: Double, tile: Bool) -> FixedSliceRegion {
            let first = Int(pixelStart.rounded(.down))
            let count = max(1, Int((pixelStart + pixelLength).rounded(.up)) - first)
            let last = min(pixels - 1, first + count - 1)
            guard pixelLength > 0, destLength > 0 else {
                let constant = FixedAffine(value: pixelStart - 0.5, stepX: 0, stepY: 0)
                return FixedSliceRegion(map: constant, tile: 0, tileStart: 0, first: Int32(min(first, pixels - 1)),
                                        last: Int32(max(0, last)))
            }
            if tile {
                // u = (local - destStart) x scale pixels into the tile; q = pixelStart - 0.5 + u mod length.
                return FixedSliceRegion(map: mapped(destStart, scale, 0.5), tile: FixedAffine.q24(pixelLength),
                                        tileStart: FixedAffine.q24(pixelStart - 0.5), first: Int32(first), last: Int32(last))
            }
            return FixedSliceRegion(map: mapped(destStart, pixelLength / destLength, pixelStart), tile: 0, tileStart: 0,
                                    first: Int32(first), last: Int32(last))
        }
        /// The region's image pixels per device pixel in x and y (0 for a constant region).
        func steps(destLength: Double, pixelLength: Double, tile: Bool) -> SIMD2<Double> {
            guard pixelLength > 0, destLength > 0 else { return .zero }
            let k = tile ? scale : pixelLength / destLength
            return SIMD2(local.stepX * k, local.stepY * k)
        }
        let middle = (dest: destination - ld - td, pixels: p - lp - tp)
        let regions = [
            region(destStart: 0, destLength: ld, pixelStart: 0, pixelLength: lp, tile: false),
            region(destStart: ld, destLength: middle.dest, pixelStart: lp, pixelLength: middle.pixels, tile: mode == .tile),
            region(destStart: destination - td, destLength: td, pixelStart: p - tp, pixelLength: tp, tile: false),
        ]
        let regionSteps = [steps(destLength: ld, pixelLength: lp, tile: false),
                           steps(destLength: middle.dest, pixelLength: middle.pixels, tile: mode == .tile),
                           steps(destLength: td, pixelLength: tp, tile: false)]
        return (FixedImageAxis(distance: distance, leadingEnd: FixedAffine.q24(ld),
                               trailingStart: FixedAffine.q24(destination - td), regions: regions), regionSteps)
    }
}

/// The bilinear mix of four U8 texels with 8-bit weights wx, wy:
/// `((256 - wx)(256 - wy) t00 + wx (256 - wy) t10 + (256 - wx) wy t01 + wx wy t11 + 2^15) >> 16`.
@inlinable @inline(__always)
@usableFromInline package func bilinearMix(_ t00: SIMD4<Int32>, _ t10: SIMD4<Int32>, _ t01: SIMD4<Int32>, _ t11: SIMD4<Int32>,
                        _ wx: Int32, _ wy: Int32) -> SIMD4<Int32> {
    let top = t00 &* (256 &- wx) &+ t10 &* wx
    let bottom = t01 &* (256 &- wx) &+ t11 &* wx
    return (top &* (256 &- wy) &+ bottom &* wy &+ 32768) &>> 16
}
