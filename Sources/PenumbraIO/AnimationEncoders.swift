// Animation encoders: an APNG built from the core's PNG encoder and an
// animated WebP through libwebp's WebPAnimEncoder. The APNG is the first
// frame's PNG (so viewers without APNG show frame 0) with an acTL chunk
// before the image data, an fcTL before each frame, and the later frames'
// IDAT data moved into fdAT chunks with sequence numbers; every frame is
// RGBA so that all share the first frame's header, replaces the canvas
// (blend source, dispose none) and shows for 1/fps seconds. Loops forever.
import CWebP
import PenumbraModel

/// Writes frames shown for `1 / fps` seconds each as one animated file.
public protocol AnimationEncoder: Sendable {
    /// The format's name in messages ("APNG", "WebP").
    var formatName: String { get }
    /// Encodes premultiplied frames, all of one size, each shown for `1 / fps` seconds, as one
    /// animated file that loops forever; throws when there are no frames, their sizes differ or
    /// `fps` is out of the format's range.
    func encode(_ frames: [Bitmap], fps: Int) throws -> [UInt8]
}

/// Animated PNG (APNG): the first frame is also the file's default image, so viewers without
/// APNG support show it; every frame replaces the whole canvas. Loops forever.
public struct APNGEncoder: AnimationEncoder {
    /// zlib's compression level for every frame: 0 (none, fastest) ... 9 (smallest); 6 by default.
    public var compressionLevel: Int
    /// Creates an encoder with a zlib compression level 0...9 (6 by default).
    public init(compressionLevel: Int = 6) { self.compressionLevel = compressionLevel }
    /// "APNG".
    public var formatName: String { "APNG" }

    /// Encodes the frames as an APNG, each shown for `1 / fps` seconds. Throws `ImageCodecError`
    /// when `frames` is empty, `fps` is outside 1...65535 or the frames differ in size, and
    /// `PNGError` when the compression level is outside 0...9.
    public func encode(_ frames: [Bitmap], fps: Int) throws -> [UInt8] {
        guard let first = frames.first else { throw ImageCodecError("APNG: no frames") }
        guard (1...65535).contains(fps) else { throw ImageCodecError("APNG: fps \(fps) is outside 1...65535") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw ImageCodecError("APNG: the frames differ in size")
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let chunks = try Self.chunks(PNGCodec.encodeRGBA(frame, compressionLevel: compressionLevel))
            if index == 0 {
                for chunk in chunks where chunk.type != "IDAT" && chunk.type != "IEND" {
                    Self.append(chunk.type, chunk.data, to: &out)
                }
                Self.append("acTL", Self.u32(UInt32(frames.count)) + Self.u32(0), to: &out)
            }
            let fcTL = Self.u32(sequence) + Self.u32(UInt32(frame.width)) + Self.u32(UInt32(frame.height))
                + Self.u32(0) + Self.u32(0) + [0, 1, UInt8(fps >> 8), UInt8(fps & 0xFF), 0, 0]
            Self.append("fcTL", fcTL, to: &out)
            sequence += 1
            for chunk in chunks where chunk.type == "IDAT" {
                if index == 0 {
                    Self.append("IDAT", chunk.data, to: &out)
                } else {
                    Self.append("fdAT", Self.u32(sequence) + chunk.data, to: &out)
                    sequence += 1
                }
            }
        }
        Self.append("IEND", [], to: &out)
        return out
    }

    /// The chunks of a PNG the core wrote (well formed by construction).
    static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
        var result: [(String, [UInt8])] = []
        var p = 8
        while p + 12 <= png.count {
            let length = Int(png[p]) << 24 | Int(png[p + 1]) << 16 | Int(png[p + 2]) << 8 | Int(png[p + 3])
            let type = String(decoding: png[(p + 4)..<(p + 8)], as: UTF8.self)
            result.append((type, Array(png[(p + 8)..<(p + 8 + length)])))
            p += 12 + length
        }
        return result
    }

    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let body = Array(type.utf8) + data
        out += u32(UInt32(data.count)) + body + u32(crc32(body))
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

/// Animated WebP, lossy at `quality` or lossless.
public struct AnimatedWebPEncoder: AnimationEncoder {
    /// 1...100 (90 by default): the lossy quality, or, when ``lossless``, libwebp's compression
    /// effort (higher is smaller and slower).
    public var quality: Int
    /// Encodes every frame losslessly instead of lossy at ``quality``; false by default.
    public var lossless: Bool
    /// Creates an encoder: lossy at quality 90 by default.
    public init(quality: Int = 90, lossless: Bool = false) { self.quality = quality; self.lossless = lossless }
    /// "WebP".
    public var formatName: String { "WebP" }

    /// Encodes the frames as an animated WebP that loops forever; frame `i` starts at
    /// `i * 1000 / fps` milliseconds, rounded down. Throws `ImageCodecError` when `frames` is empty,
    /// `fps` is below 1, ``quality`` is outside 1...100, the frames differ in size or libwebp fails.
    public func encode(_ frames: [Bitmap], fps: Int) throws -> [UInt8] {
        guard let first = frames.first else { throw ImageCodecError("WebP: no frames") }
        guard fps >= 1, (1...100).contains(quality) else { throw ImageCodecError("WebP: fps or quality out of range") }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw ImageCodecError("WebP: libwebp version mismatch") }
        options.anim_params.loop_count = 0
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw ImageCodecError("WebP: cannot make an animation encoder for \(first.width) x \(first.height)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw ImageCodecError("WebP: libwebp version mismatch") }
        config.quality = Float(quality)
        config.lossless = lossless ? 1 : 0
        for (i, frame) in frames.enumerated() {
            guard frame.width == first.width, frame.height == first.height else { throw ImageCodecError("WebP: the frames differ in size") }
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw ImageCodecError("WebP: libwebp version mismatch") }
            picture.use_argb = 1
            picture.width = Int32(frame.width); picture.height = Int32(frame.height)
            defer { WebPPictureFree(&picture) }
            let straight = WebPEncoder.straight(frame)
            guard straight.withUnsafeBufferPointer({ WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.width * 4)) }) != 0,
                  WebPAnimEncoderAdd(encoder, &picture, Int32(i * 1000 / fps), &config) != 0 else {
                throw ImageCodecError("WebP: frame \(i + 1) could not be encoded")
            }
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(frames.count * 1000 / fps), nil) != 0 else {
            throw ImageCodecError("WebP: the animation could not be finished")
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw ImageCodecError("WebP: the animation could not be assembled")
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }
}
