// LuminanceMask: a transparency layer composited as a luminance mask (what
// SVG's and CSS's `mask-type: luminance` need). The layer is composited as
// `endLayer` composites it, but each of its premultiplied U8 pixels
// (r, g, b, a) is read as (0, 0, 0, m) with
//     m = div255(54 r + 183 g + 18 b)
// the Rec. 709 / sRGB luminance (0.2126, 0.7152, 0.0722, scaled to integers
// summing to 255, so white 255 stays 255) of the premultiplied colour: the
// luminance of the un-premultiplied colour times its alpha, in one integer
// step. Composited with `destinationIn` it multiplies the pixels below by m.
// The conversion is a flag on the layer's placed paint (PlacedPaint), applied
// where the paint is read: PenumbraCPU's LuminanceShader and paint.glsl's
// paint8 (its twin luminanceAlpha is in fixed.glsl), after the (1:1) sample,
// the same integers on both sides
// (docs/ARITHMETIC.md, "Luminance to alpha").

extension Fixed {
    /// A premultiplied U8 pixel's luminance as an alpha: `div255(54 r + 183 g + 18 b)`.
    @inlinable @inline(__always)
    @usableFromInline package static func luminanceAlpha(_ c: SIMD4<UInt8>) -> UInt8 {
        let r = Int32(c.x), g = Int32(c.y), b = Int32(c.z)
        return UInt8(truncatingIfNeeded: div255(54 &* r &+ 183 &* g &+ 18 &* b))
    }
}
