// APNG: the frames of an animated PNG, decoded through the same libpng shim
// as a still PNG. libpng (without the APNG patch) skips acTL, fcTL and fdAT
// as unknown ancillary chunks, so each frame is handed to it as a PNG of its
// own: the file's signature, its IHDR with the frame's size, the chunks a
// decoder needs from before the image data (PLTE, tRNS), the frame's data
// as IDAT (fdAT minus its sequence number, CRCs recomputed) and IEND. The
// frames are then composited here onto a transparent canvas of the image's
// size, as the APNG specification says: blend `source` replaces the frame's
// region, blend `over` composites straight-alpha source-over; after a frame
// shows, dispose `background` clears its region and `previous` restores the
// canvas from before it. The header's frame count is acTL's, and no more
// frames than it says are decoded, so the budget check from the header
// bounds the work.

enum APNG {
    struct Chunk { var type: String; var data: ArraySlice<UInt8> }

    /// The chunks after the signature (stops at a truncated one; libpng reports that later).
    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var result: [Chunk] = []
        var p = 8
        while p + 12 <= png.count {
            let length = Int(png[p]) << 24 | Int(png[p + 1]) << 16 | Int(png[p + 2]) << 8 | Int(png[p + 3])
            guard length <= png.count - p - 12 else { break }
            result.append(Chunk(type: String(decoding: png[(p + 4)..<(p + 8)], as: UTF8.self), data: png[(p + 8)..<(p + 8 + length)]))
            p += 12 + length
        }
        return result
    }

    static func u32(_ d: ArraySlice<UInt8>, _ offset: Int) -> Int {
        let i = d.startIndex + offset
        return Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3])
    }

    /// acTL's frame count when the file is animated (acTL before the first IDAT), else nil.
    static func frameCount(_ png: [UInt8]) -> Int? {
        for chunk in chunks(png) {
            if chunk.type == "IDAT" { return nil }
            if chunk.type == "acTL", chunk.data.count == 8 { return max(1, u32(chunk.data, 0)) }
        }
        return nil
    }

    /// Every frame composited to full size (straight RGBA), with its duration in seconds.
    static func decodeFrames(_ png: [UInt8], width: Int, height: Int, frameLimit: Int,
                             maxPixels: Int) throws -> (frames: [[UInt8]], durations: [Double]) {
        let all = chunks(png)
        let header = all.filter { ["PLTE", "tRNS"].contains($0.type) }
        guard let ihdr = all.first, ihdr.type == "IHDR", ihdr.data.count == 13 else { throw PNGError("PNG: no IHDR") }
        struct Frame { var control: ArraySlice<UInt8>; var data: [ArraySlice<UInt8>] }
        var frames: [Frame] = []
        walk: for chunk in all {
            switch chunk.type {
            case "fcTL":
                guard chunk.data.count == 26 else { throw PNGError("APNG: fcTL chunk of \(chunk.data.count) bytes") }
                guard frames.count < frameLimit else { break walk }  // acTL's count bounds the work
                frames.append(Frame(control: chunk.data, data: []))
            case "IDAT" where frames.count == 1:  // the default image is frame 0 when an fcTL precedes it
                frames[0].data.append(chunk.data)
            case "fdAT" where !frames.isEmpty && chunk.data.count >= 4:
                frames[frames.count - 1].data.append(chunk.data.dropFirst(4))
            default:
                break
            }
        }
        guard !frames.isEmpty else { throw PNGError("APNG: no frame control chunks") }

        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var out: [[UInt8]] = [], durations: [Double] = []
        for (index, frame) in frames.enumerated() {
            let c = frame.control
            let fw = u32(c, 4), fh = u32(c, 8), fx = u32(c, 12), fy = u32(c, 16)
            guard fw > 0, fh > 0, fx + fw <= width, fy + fh <= height else {
                throw PNGError("APNG: frame \(index + 1) (\(fw) x \(fh) at \(fx), \(fy)) does not fit the \(width) x \(height) image")
            }
            guard !frame.data.isEmpty else { throw PNGError("APNG: frame \(index + 1) has no image data") }
            let num = Int(c[c.startIndex + 20]) << 8 | Int(c[c.startIndex + 21])
            let den = Int(c[c.startIndex + 22]) << 8 | Int(c[c.startIndex + 23])
            var dispose = c[c.startIndex + 24], blend = c[c.startIndex + 25]
            if index == 0 { blend = 0; if dispose == 2 { dispose = 1 } }

            var standalone: [UInt8] = Array(png[0..<8])
            var ihdrData = Array(ihdr.data)
            ihdrData.replaceSubrange(0..<8, with: bigEndian(fw) + bigEndian(fh))
            appendChunk("IHDR", ihdrData, to: &standalone)
            for chunk in header { appendChunk(chunk.type, Array(chunk.data), to: &standalone) }
            for data in frame.data { appendChunk("IDAT", Array(data), to: &standalone) }
            appendChunk("IEND", [], to: &standalone)
            let pixels: [UInt8]
            do { pixels = try PNGCodec.decodeStraight(standalone, maxPixels: maxPixels).pixels } catch let e as PNGError {
                throw PNGError("APNG: frame \(index + 1): " + e.message)
            }

            let before = dispose == 2 ? canvas : nil
            for y in 0..<fh {
                for x in 0..<fw {
                    let s = (y * fw + x) * 4, d = ((fy + y) * width + fx + x) * 4
                    if blend == 0 {
                        for k in 0..<4 { canvas[d + k] = pixels[s + k] }
                    } else {
                        over(pixels, s, &canvas, d)
                    }
                }
            }
            out.append(canvas)
            durations.append(Double(num) / Double(den == 0 ? 100 : den))
            if dispose == 1 {
                for y in fy..<(fy + fh) { for i in ((y * width + fx) * 4)..<((y * width + fx + fw) * 4) { canvas[i] = 0 } }
            } else if let before {
                canvas = before
            }
        }
        return (out, durations)
    }

    /// Straight-alpha source-over of one pixel, rounded half up.
    static func over(_ src: [UInt8], _ s: Int, _ dst: inout [UInt8], _ d: Int) {
        let sa = Int(src[s + 3]), da = Int(dst[d + 3])
        if sa == 255 || da == 0 { for k in 0..<4 { dst[d + k] = src[s + k] }; return }
        if sa == 0 { return }
        let dw = da * (255 - sa)  // destination weight, scaled by 255
        let outA255 = sa * 255 + dw  // alpha scaled by 255
        for k in 0..<3 {
            let num = Int(src[s + k]) * sa * 255 + Int(dst[d + k]) * dw
            dst[d + k] = UInt8((num * 2 + outA255) / (2 * outA255))
        }
        dst[d + 3] = UInt8((outA255 * 2 + 255) / 510)
    }

    static func bigEndian(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let body = Array(type.utf8) + data
        out += bigEndian(data.count) + body + bigEndian(Int(crc32(body)))
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
