// Encoders: one ImageEncoder per output format. PNG is the core's encoder
// (deterministic bytes, sRGB chunk). JPEG goes through the CJPEGShim
// (libjpeg's longjmp stays in C) with libjpeg's defaults at the given
// quality, 4:2:0 unless 4:4:4 is asked for, optionally progressive; JPEG
// has no alpha, so a translucent image is flattened on white first
// (source-over onto opaque white, the premultiplied rule:
// c + 255 - a). WebP is lossy at a quality or lossless, from straight RGBA.
import CJPEGShim
import CWebP
import PenumbraModel
#if canImport(Glibc)
import Glibc
#endif

/// PNG (the core's encoder): un-premultiplied, RGB when opaque, sRGB chunk, no timestamp.
public struct PNGEncoder: ImageEncoder {
    /// zlib's compression level: 0 (none, fastest) ... 9 (smallest); 6 by default. Encoding
    /// throws `PNGError` outside 0...9.
    public var compressionLevel: Int
    /// The PNG row filter; `PNGFilter.adaptive` by default.
    public var filter: PNGFilter
    /// Creates an encoder with a zlib compression level 0...9 (6 by default) and a row filter
    /// (adaptive by default). The same pixels and settings always give the same bytes.
    public init(compressionLevel: Int = 6, filter: PNGFilter = .adaptive) {
        self.compressionLevel = compressionLevel; self.filter = filter
    }
    public var formatName: String { "PNG" }
    public func encode(_ bitmap: Bitmap) throws -> [UInt8] {
        try PNGCodec.encode(bitmap, compressionLevel: compressionLevel, filter: filter)
    }
}

/// JPEG through libjpeg-turbo.
public struct JPEGEncoder: ImageEncoder {
    /// 1...100.
    public var quality: Int
    /// 4:4:4 chroma instead of 4:2:0.
    public var fullChroma: Bool
    /// Writes a progressive JPEG (refined in several scans) instead of a baseline one; false by default.
    public var progressive: Bool
    /// Creates an encoder: quality 1...100 (90 by default), 4:2:0 chroma subsampling unless
    /// `fullChroma`, baseline unless `progressive`. JPEG has no alpha: a translucent image is
    /// flattened onto opaque white when encoded.
    public init(quality: Int = 90, fullChroma: Bool = false, progressive: Bool = false) {
        self.quality = quality; self.fullChroma = fullChroma; self.progressive = progressive
    }
    public var formatName: String { "JPEG" }

    public func encode(_ bitmap: Bitmap) throws -> [UInt8] {
        guard (1...100).contains(quality) else { throw ImageCodecError("JPEG: quality \(quality) is outside 1...100") }
        let n = bitmap.width * bitmap.height
        var rgb = [UInt8](repeating: 0, count: n * 3)
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in 0..<n {
                let white = 255 - Int(p[i * 4 + 3])
                rgb[i * 3] = UInt8(Int(p[i * 4]) + white)
                rgb[i * 3 + 1] = UInt8(Int(p[i * 4 + 1]) + white)
                rgb[i * 3 + 2] = UInt8(Int(p[i * 4 + 2]) + white)
            }
        }
        var out = penumbra_jpeg_buffer(bytes: nil, size: 0)
        var message = [CChar](repeating: 0, count: Int(PENUMBRA_JPEG_MESSAGE_CAPACITY))
        let status = penumbra_jpeg_encode(rgb, UInt32(bitmap.width), UInt32(bitmap.height), Int32(quality),
                                          fullChroma ? 1 : 0, progressive ? 1 : 0, &out, &message, message.count)
        defer { free(out.bytes) }
        guard status == 0, let bytes = out.bytes else { throw ImageCodecError("JPEG: " + CText.string(message)) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(out.size)))
    }
}

/// WebP through libwebp: lossy at `quality`, or lossless.
public struct WebPEncoder: ImageEncoder {
    /// 1...100 (lossy only, but checked either way).
    public var quality: Int
    /// Encodes losslessly instead of lossy at ``quality``; false by default.
    public var lossless: Bool
    /// Creates an encoder: lossy at quality 1...100 (90 by default), or lossless.
    public init(quality: Int = 90, lossless: Bool = false) { self.quality = quality; self.lossless = lossless }
    public var formatName: String { "WebP" }

    public func encode(_ bitmap: Bitmap) throws -> [UInt8] {
        guard (1...100).contains(quality) else { throw ImageCodecError("WebP: quality \(quality) is outside 1...100") }
        guard bitmap.width <= Int(WEBP_MAX_DIMENSION), bitmap.height <= Int(WEBP_MAX_DIMENSION) else {
            throw ImageCodecError("WebP: \(bitmap.width) x \(bitmap.height) is larger than WebP's \(WEBP_MAX_DIMENSION) pixels a side")
        }
        let straight = Self.straight(bitmap)
        var output: UnsafeMutablePointer<UInt8>?
        let size = straight.withUnsafeBufferPointer { p in
            lossless
                ? WebPEncodeLosslessRGBA(p.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4), &output)
                : WebPEncodeRGBA(p.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4), Float(quality), &output)
        }
        defer { WebPFree(output) }
        guard size > 0, let output else { throw ImageCodecError("WebP: encoding failed") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// Un-premultiplied RGBA8 (round(c * 255 / a)).
    static func straight(_ bitmap: Bitmap) -> [UInt8] {
        var p = bitmap.pixels
        var i = 0
        while i < p.count {
            let a = p[i + 3]
            if a != 255 { p[i] = unpremultiply(p[i], alpha: a); p[i + 1] = unpremultiply(p[i + 1], alpha: a); p[i + 2] = unpremultiply(p[i + 2], alpha: a) }
            i += 4
        }
        return p
    }
}
