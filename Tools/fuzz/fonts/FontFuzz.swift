// A libFuzzer target over font loading and shaping (built by Tools/fuzz/fonts/run.sh).
// The first input byte picks what the rest is: a font file (opened and checked
// as a scene's `fonts` entry is, then its glyphs shaped, outlined and laid out),
// or UTF-8 text laid out with DejaVu Sans through every line-break mode (bidi,
// fallback, UAX #14, truncation). A crash, a sanitizer report or a trap fails.
import PenumbraModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] & 1 == 0 {
        fuzzFont(bytes, index: Int(data[0] >> 1) & 3)
    } else {
        fuzzText(String(decoding: bytes, as: UTF8.self), mode: Int(data[0] >> 1))
    }
    return 0
}

func fuzzFont(_ bytes: [UInt8], index: Int) {
    guard let face = try? FontFace(data: bytes, index: index) else { return }
    let text: [Unicode.Scalar] = Array("Hello, AV fi שלום 😀".unicodeScalars)
    for rtl in [false, true] {
        let glyphs = Shaper.shape(face, text, rtl: rtl, features: [FontFeature(tag: "liga", value: 0)])
        for g in glyphs.prefix(32) {
            if face.isColorBitmap { _ = face.loadColorGlyph(g.glyph) } else { _ = face.loadOutline(g.glyph) }
        }
    }
    for gid in 0..<UInt32(min(face.glyphCount, 64)) { _ = face.loadOutline(gid) }
}

let dejaVu: FontSource? = {
    guard let f = fopen("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return FontSource(bytes: out)
}()

func fuzzText(_ text: String, mode: Int) {
    guard let dejaVu else { return }
    let modes = LineBreakMode.allCases
    let style = TextStyle(alignment: TextAlignment.allCases[mode % TextAlignment.allCases.count],
                          lineBreakMode: modes[mode % modes.count], numberOfLines: mode % 3)
    let runs = [TextRun(text: text, font: FontRequest(selector: .source(dejaVu), size: 13), underline: mode & 1 == 1, kerning: 0.5)]
    for placement in [TextPlacement.at(Point(0, 0), maxWidth: 37), .rect(Rect(x: 0, y: 0, width: 60, height: 30))] {
        _ = try? TextLayouter(request: TextLayoutRequest(runs: runs, style: style, placement: placement)).layout()
    }
}

#if canImport(Glibc)
import Glibc
#endif
