// Glyph outlines and colour glyphs. An outline is loaded unscaled and
// unhinted (FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP), in
// font units with y up, and decomposed (FT_Outline_Decompose) into a Path
// exactly: TrueType quadratics stay quadratics, CFF cubics stay cubics.
// Every outline is turned to the TrueType orientation (its contours reversed
// here, segment by segment, on PostScript-oriented ones), so glyphs of any
// font and the underline rectangles of a run all wind the same way and a
// nonzero fill of the run's path is their union. (FT_Outline_Reverse cannot
// do it for CFF: it makes a contour that ends in a cubic start with a cubic
// control point, an outline FT_Outline_Decompose refuses, and every curved
// CFF glyph came out empty.) A colour glyph of a bitmap font (CBDT, as Noto Color
// Emoji) is FreeType's premultiplied BGRA bitmap at the font's strike, as an
// Image with its bearing.
import CFreeType
import PenumbraModel

/// Accumulates FT_Outline_Decompose's callbacks: contours, each a start and segments (the last
/// one ends at the start: FreeType closes every contour with a segment of its own).
private final class OutlineSink {
    enum Segment {
        case line(Point), quad(Point, Point), cubic(Point, Point, Point)
        var end: Point {
            switch self { case .line(let p), .quad(_, let p), .cubic(_, _, let p): return p }
        }
    }
    var contours: [(start: Point, segments: [Segment])] = []
    func point(_ v: UnsafePointer<FT_Vector>?) -> Point { Point(Double(v!.pointee.x), Double(v!.pointee.y)) }
    func add(_ segment: Segment) { contours[contours.count - 1].segments.append(segment) }

    /// The contours as a path, each closed; `reversed` draws each one the other way round.
    func path(reversed: Bool) -> Path {
        var path = Path()
        for contour in contours {
            path.move(to: contour.start)
            if reversed {
                // Each segment backwards, to where it started, its controls swapped.
                var starts: [Point] = [], from = contour.start
                for segment in contour.segments { starts.append(from); from = segment.end }
                for (segment, to) in zip(contour.segments, starts).reversed() {
                    switch segment {
                    case .line: path.addLine(to: to)
                    case .quad(let c, _): path.addQuadCurve(to: to, control: c)
                    case .cubic(let c1, let c2, _): path.addCurve(to: to, control1: c2, control2: c1)
                    }
                }
            } else {
                for segment in contour.segments {
                    switch segment {
                    case .line(let p): path.addLine(to: p)
                    case .quad(let c, let p): path.addQuadCurve(to: p, control: c)
                    case .cubic(let c1, let c2, let p): path.addCurve(to: p, control1: c1, control2: c2)
                    }
                }
            }
            path.closeSubpath()
        }
        return path
    }
}

private func sink(_ user: UnsafeMutableRawPointer?) -> OutlineSink { Unmanaged<OutlineSink>.fromOpaque(user!).takeUnretainedValue() }

/// A colour glyph: its image (1 pixel per strike pixel) and bearing, in strike pixels.
struct ColorGlyph: Sendable {
    var image: Image
    var left: Double
    var top: Double
}

extension FontFace {
    /// The outline of `glyph` in font units (y up), TrueType orientation; empty for a blank glyph.
    func loadOutline(_ glyph: UInt32) -> Path {
        handles.withLock { h -> Path in
            guard let face = h.ft, FT_Load_Glyph(face, glyph, FontFace.outlineFlags) == 0 else { return Path() }
            let slot = face.pointee.glyph!
            guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return Path() }
            let reversed = FT_Outline_Get_Orientation(&slot.pointee.outline) == FT_ORIENTATION_POSTSCRIPT
            var funcs = FT_Outline_Funcs(
                move_to: { to, user in let s = sink(user); s.contours.append((s.point(to), [])); return 0 },
                line_to: { to, user in let s = sink(user); s.add(.line(s.point(to))); return 0 },
                conic_to: { c, to, user in let s = sink(user); s.add(.quad(s.point(c), s.point(to))); return 0 },
                cubic_to: { c1, c2, to, user in let s = sink(user); s.add(.cubic(s.point(c1), s.point(c2), s.point(to))); return 0 },
                shift: 0, delta: 0)
            let s = OutlineSink()
            let user = Unmanaged.passUnretained(s).toOpaque()
            let error = FT_Outline_Decompose(&slot.pointee.outline, &funcs, user)
            withExtendedLifetime(s) {}
            guard error == 0 else { return Path() }
            return s.path(reversed: reversed)
        }
    }

    /// The colour bitmap of `glyph` at the font's strike, or nil when it has none.
    func loadColorGlyph(_ glyph: UInt32) -> ColorGlyph? {
        handles.withLock { h -> ColorGlyph? in
            guard let face = h.ft, FT_Load_Glyph(face, glyph, Int32(FT_LOAD_COLOR)) == 0 else { return nil }
            let slot = face.pointee.glyph!.pointee
            let bitmap = slot.bitmap
            guard slot.format == FT_GLYPH_FORMAT_BITMAP, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue),
                  bitmap.width > 0, bitmap.rows > 0, let buffer = bitmap.buffer else { return nil }
            let w = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            var pixels = [UInt8](repeating: 0, count: w * rows * 4)
            for y in 0..<rows {
                let row = buffer + (pitch >= 0 ? y * pitch : (rows - 1 - y) * -pitch)
                for x in 0..<w {
                    let o = (y * w + x) * 4
                    pixels[o] = row[x * 4 + 2]; pixels[o + 1] = row[x * 4 + 1]; pixels[o + 2] = row[x * 4]; pixels[o + 3] = row[x * 4 + 3]
                }
            }
            return ColorGlyph(image: Image(bitmap: Bitmap(width: w, height: rows, pixels: pixels)),
                              left: Double(slot.bitmap_left), top: Double(slot.bitmap_top))
        }
    }
}
