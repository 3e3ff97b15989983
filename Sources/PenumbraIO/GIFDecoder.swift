// GIFDecoder: GIF through giflib, still or animated. The header (screen
// size and frame count) comes from a walk over the block structure here, so
// a file claiming thousands of frames or huge frames is measured before
// giflib allocates anything; each frame must fit inside the screen. giflib
// (which never longjmps) then reads every frame, and frames are composited
// here onto a transparent canvas of the screen's size with their disposal
// (keep, clear to transparent, restore the previous canvas) and
// transparency. Delays are the graphic control extension's, where a delay
// under 11 ms counts as 100 ms, as browsers do.
import CGIF
import PenumbraModel

/// GIF through giflib.
public struct GIFDecoder: ImageDecoder {
    /// Creates the decoder; it has no options. It reads still and animated GIFs: frames are
    /// composited onto a transparent canvas of the screen's size with their disposal, and a
    /// delay under 11 ms counts as 100 ms, as browsers do.
    public init() {}
    public var formatName: String { "GIF" }

    public func matches(_ data: [UInt8]) -> Bool {
        data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8))
    }

    public func readHeader(_ data: [UInt8]) throws -> ImageHeader {
        let walk = try Self.walk(data)
        return ImageHeader(width: walk.width, height: walk.height, frameCount: max(1, walk.frames))
    }

    /// The screen size and the number of image descriptors, checking each fits the screen.
    static func walk(_ d: [UInt8]) throws -> (width: Int, height: Int, frames: Int) {
        func fail(_ why: String) -> ImageCodecError { ImageCodecError("GIF: " + why) }
        guard d.count >= 13 else { throw fail("the file is truncated (no logical screen descriptor)") }
        let w = Int(d[6]) | Int(d[7]) << 8, h = Int(d[8]) | Int(d[9]) << 8
        var p = 13
        if d[10] & 0x80 != 0 { p += 3 << (Int(d[10] & 7) + 1) }
        var frames = 0
        func skipSubBlocks() throws {
            while true {
                guard p < d.count else { throw fail("the file is truncated") }
                let n = Int(d[p]); p += 1 + n
                if n == 0 { return }
            }
        }
        while true {
            guard p < d.count else { throw fail("the file is truncated (no trailer)") }
            switch d[p] {
            case 0x3B: return (w, h, frames)
            case 0x21:
                p += 2
                try skipSubBlocks()
            case 0x2C:
                guard p + 10 <= d.count else { throw fail("the file is truncated") }
                let x = Int(d[p + 1]) | Int(d[p + 2]) << 8, y = Int(d[p + 3]) | Int(d[p + 4]) << 8
                let fw = Int(d[p + 5]) | Int(d[p + 6]) << 8, fh = Int(d[p + 7]) | Int(d[p + 8]) << 8
                guard x + fw <= w, y + fh <= h else {
                    throw fail("frame \(frames + 1) (\(fw) x \(fh) at \(x), \(y)) does not fit the \(w) x \(h) screen")
                }
                let flags = d[p + 9]
                p += 10
                if flags & 0x80 != 0 { p += 3 << (Int(flags & 7) + 1) }
                p += 1  // LZW minimum code size
                try skipSubBlocks()
                frames += 1
            default:
                throw fail("unexpected block 0x\(String(d[p], radix: 16)) at byte \(p)")
            }
        }
    }

    public func decode(_ data: [UInt8], maxPixels: Int, firstFrameOnly: Bool,
                       colorManager: (any ColorManaging)?) throws -> DecodedFrames {
        let header = try readHeader(data)
        let w = header.width, h = header.height
        guard (firstFrameOnly ? w * h : header.totalPixels) <= maxPixels else {
            throw ImageCodecError("GIF: the image is \(w) x \(h) pixels in \(header.frameCount) frames, over the limit of \(maxPixels) pixels")
        }
        let reader = MemoryReader(data)
        var error: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), gifRead, &error) else {
            throw ImageCodecError("GIF: " + Self.message(error))
        }
        defer { var e: Int32 = 0; DGifCloseFile(gif, &e) }
        guard DGifSlurp(gif) == GIF_OK else { throw ImageCodecError("GIF: " + Self.message(gif.pointee.Error)) }
        let count = Int(gif.pointee.ImageCount)
        guard count >= 1 else { throw ImageCodecError("GIF: the file has no image") }

        var canvas = [UInt8](repeating: 0, count: w * h * 4)
        var frames: [[UInt8]] = [], durations: [Double] = []
        for i in 0..<(firstFrameOnly ? 1 : count) {
            try RenderCancellation.checkCurrent()
            let saved = gif.pointee.SavedImages[i]
            let desc = saved.ImageDesc
            var gcb = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
            _ = DGifSavedExtensionToGCB(gif, Int32(i), &gcb)
            guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let raster = saved.RasterBits else {
                throw ImageCodecError("GIF: frame \(i + 1) has no colour table")
            }
            let before = gcb.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            let colors = Int(map.pointee.ColorCount)
            let fx = Int(desc.Left), fy = Int(desc.Top), fw = Int(desc.Width), fh = Int(desc.Height)
            for y in 0..<fh {
                for x in 0..<fw {
                    let index = Int(raster[y * fw + x])
                    guard index != Int(gcb.TransparentColor), index < colors else { continue }
                    let c = map.pointee.Colors[index]
                    let o = ((fy + y) * w + fx + x) * 4
                    canvas[o] = c.Red; canvas[o + 1] = c.Green; canvas[o + 2] = c.Blue; canvas[o + 3] = 255
                }
            }
            frames.append(canvas)
            let delay = Double(gcb.DelayTime) / 100
            durations.append(delay < 0.011 ? 0.1 : delay)
            if gcb.DisposalMode == DISPOSE_BACKGROUND {
                for y in fy..<(fy + fh) { for x in fx..<(fx + fw) { for k in 0..<4 { canvas[(y * w + x) * 4 + k] = 0 } } }
            } else if let before {
                canvas = before
            }
        }
        return DecodedFrames(width: w, height: h, frames: frames, durations: frames.count > 1 ? durations : [])
    }

    static func message(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// The bytes giflib reads through its input callback.
final class MemoryReader {
    let data: [UInt8]
    var position = 0
    init(_ data: [UInt8]) { self.data = data }
}

private func gifRead(_ gif: UnsafeMutablePointer<GifFileType>?, _ out: UnsafeMutablePointer<GifByteType>?, _ length: Int32) -> Int32 {
    guard let gif, let out, let user = gif.pointee.UserData else { return 0 }
    let reader = Unmanaged<MemoryReader>.fromOpaque(user).takeUnretainedValue()
    let n = min(Int(length), reader.data.count - reader.position)
    guard n > 0 else { return 0 }
    reader.data.withUnsafeBufferPointer { src in out.update(from: src.baseAddress! + reader.position, count: n) }
    reader.position += n
    return Int32(n)
}
