// WebPDecoder: WebP through libwebp (lossy, lossless, alpha) and libwebp's
// demuxer (animation, the ICCP and EXIF chunks). The header is the
// demuxer's canvas size and frame count, read without decoding; an
// animation is decoded frame by frame by WebPAnimDecoder, which composites
// each frame onto the canvas (blending and disposal) as browsers do, with
// its own durations. libwebp never longjmps, so it is called directly.
import CWebP
import PenumbraModel

/// WebP through libwebp.
public struct WebPDecoder: ImageDecoder {
    /// Creates the decoder; it has no options. It reads lossy, lossless and animated WebP, with
    /// or without alpha.
    public init() {}
    public var formatName: String { "WebP" }

    public func matches(_ data: [UInt8]) -> Bool {
        data.count >= 12 && data.starts(with: Array("RIFF".utf8)) && Array(data[8..<12]) == Array("WEBP".utf8)
    }

    public func readHeader(_ data: [UInt8]) throws -> ImageHeader {
        try withDemux(data) { demux in
            ImageHeader(width: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)),
                        height: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)),
                        frameCount: max(1, Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))))
        }
    }

    public func decode(_ data: [UInt8], maxPixels: Int, firstFrameOnly: Bool,
                       colorManager: (any ColorManaging)?) throws -> DecodedFrames {
        let header = try readHeader(data)
        let (icc, exif) = try withDemux(data) { demux in (Self.chunk(demux, "ICCP"), Self.chunk(demux, "EXIF")) }
        let orientation = exif.flatMap(EXIF.orientation(tiff:)) ?? .up
        let w = header.width, h = header.height
        let counted = firstFrameOnly ? w * h : header.totalPixels
        guard counted <= maxPixels else {
            throw ImageCodecError("WebP: the image is \(w) x \(h) pixels in \(header.frameCount) frames, over the limit of \(maxPixels) pixels")
        }
        let flags = try withDemux(data) { WebPDemuxGetI($0, WEBP_FF_FORMAT_FLAGS) }
        if flags & UInt32(ANIMATION_FLAG.rawValue) == 0 {
            var pixels = [UInt8](repeating: 0, count: w * h * 4)
            let ok = data.withUnsafeBufferPointer { src in
                pixels.withUnsafeMutableBufferPointer { dst in
                    WebPDecodeRGBAInto(src.baseAddress, src.count, dst.baseAddress, dst.count, Int32(w * 4)) != nil
                }
            }
            guard ok else { throw ImageCodecError("WebP: the image data is corrupt or truncated") }
            return DecodedFrames(width: w, height: h, frames: [pixels], iccProfile: icc, orientation: orientation)
        }
        return try data.withUnsafeBufferPointer { src in
            var webp = WebPData(bytes: src.baseAddress, size: src.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw ImageCodecError("WebP: libwebp version mismatch") }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
                throw ImageCodecError("WebP: the animation is corrupt")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var frames: [[UInt8]] = [], durations: [Double] = []
            var previous: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                try RenderCancellation.checkCurrent()
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                    throw ImageCodecError("WebP: frame \(frames.count + 1) is corrupt or truncated")
                }
                frames.append(Array(UnsafeBufferPointer(start: buffer, count: w * h * 4)))
                durations.append(Double(timestamp - previous) / 1000)
                previous = timestamp
                if firstFrameOnly { break }
            }
            guard !frames.isEmpty else { throw ImageCodecError("WebP: the animation has no frames") }
            return DecodedFrames(width: w, height: h, frames: frames, durations: firstFrameOnly ? [] : durations,
                                 iccProfile: icc, orientation: orientation)
        }
    }

    private func withDemux<T>(_ data: [UInt8], _ body: (OpaquePointer) throws -> T) throws -> T {
        try data.withUnsafeBufferPointer { src in
            var webp = WebPData(bytes: src.baseAddress, size: src.count)
            guard let demux = WebPDemux(&webp) else { throw ImageCodecError("WebP: the file is corrupt or truncated") }
            defer { WebPDemuxDelete(demux) }
            return try body(demux)
        }
    }

    private static func chunk(_ demux: OpaquePointer, _ fourCC: String) -> [UInt8]? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demux, fourCC, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        return Array(UnsafeBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
    }
}
