// JPEGDecoder: JPEG through libjpeg-turbo, behind the CJPEGShim that keeps
// libjpeg's longjmp inside C. Baseline and progressive; grey and YCbCr come
// out as RGBA with the library's defaults (accurate integer IDCT, fancy
// upsampling), so the pixels equal djpeg's. CMYK and Adobe's inverted YCCK
// come out as CMYK: with an embedded profile lcms2 converts them to sRGB
// (Adobe files store the values inverted, which is lcms2's CMYK_8_REV),
// without one each channel is r = (1 - c)(1 - k) on the un-inverted values,
// rounded half up. The ICC profile is reassembled from the APP2 chunks by
// libjpeg; the orientation comes from the first APP1 Exif block. For
// shrink-on-load it also decodes at 1/2, 1/4 or 1/8 through libjpeg's DCT
// scaling (scale_denom, the rest of the defaults as above: djpeg -scale 1/N).
import CJPEGShim
#if canImport(Glibc)
import Glibc
#endif
import PenumbraModel

/// JPEG through libjpeg-turbo.
public struct JPEGDecoder: ImageDecoder, ShrinkingImageDecoder {
    /// Creates the decoder; it has no options. It reads baseline and progressive JPEGs in grey,
    /// YCbCr, CMYK and Adobe's YCCK, with libjpeg-turbo's defaults (accurate integer IDCT, fancy
    /// upsampling).
    public init() {}
    public var formatName: String { "JPEG" }

    public func matches(_ data: [UInt8]) -> Bool { data.starts(with: [0xFF, 0xD8, 0xFF]) }

    public func readHeader(_ data: [UInt8]) throws -> ImageHeader {
        try data.withUnsafeBufferPointer { bytes in
            let (handle, info) = try open(bytes)
            penumbra_jpeg_decoder_close(handle)
            return ImageHeader(width: Int(info.width), height: Int(info.height))
        }
    }

    package func readOrientedHeader(_ data: [UInt8]) throws -> (header: ImageHeader, orientation: ImageOrientation) {
        try data.withUnsafeBufferPointer { bytes in
            let (handle, info) = try open(bytes)
            defer { penumbra_jpeg_decoder_close(handle) }
            return (ImageHeader(width: Int(info.width), height: Int(info.height)), Self.orientation(handle))
        }
    }

    public func decode(_ data: [UInt8], maxPixels: Int, firstFrameOnly: Bool,
                       colorManager: (any ColorManaging)?) throws -> DecodedFrames {
        try decode(data, denominator: 1, maxPixels: maxPixels, colorManager: colorManager)
    }

    package func decode(_ data: [UInt8], denominator: Int, maxPixels: Int,
                        colorManager: (any ColorManaging)?) throws -> DecodedFrames {
        try data.withUnsafeBufferPointer { bytes in
            let (handle, header) = try open(bytes)
            defer { penumbra_jpeg_decoder_close(handle) }
            var info = header
            if denominator != 1 {
                var message = [CChar](repeating: 0, count: Int(PENUMBRA_JPEG_MESSAGE_CAPACITY))
                guard denominator > 0, denominator <= 8,
                      penumbra_jpeg_decoder_scale(handle, UInt32(denominator), &info, &message, message.count) == 0 else {
                    throw ImageCodecError("JPEG: " + CText.string(message))
                }
            }
            let w = Int(info.width), h = Int(info.height)
            guard w * h <= maxPixels else {
                throw ImageCodecError("JPEG: the image is \(w) x \(h) pixels, over the limit of \(maxPixels) pixels")
            }
            var iccStart: UnsafeMutablePointer<UInt8>?, iccLength = 0
            var icc: [UInt8]?
            if penumbra_jpeg_decoder_icc(handle, &iccStart, &iccLength) != 0, let iccStart {
                icc = Array(UnsafeBufferPointer(start: iccStart, count: iccLength))
                free(iccStart)
            }
            let orientation = Self.orientation(handle)
            var message = [CChar](repeating: 0, count: Int(PENUMBRA_JPEG_MESSAGE_CAPACITY))
            var failed = false
            // The shim writes every byte or fails (and then the buffer is thrown away), so it is
            // not cleared first.
            var pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, initialized in
                LargeBuffers.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                failed = penumbra_jpeg_decoder_read(handle, buffer.baseAddress, buffer.count, &message, message.count) != 0
                initialized = buffer.count
            }
            if failed { throw ImageCodecError("JPEG: " + CText.string(message)) }
            if info.layout == PENUMBRA_JPEG_CMYK {
                let inverted = info.adobe != 0
                if let icc, let lcms = colorManager as? LCMSColorManager, lcms.convertCMYK(&pixels, profile: icc, inverted: inverted) {
                    return DecodedFrames(width: w, height: h, frames: [pixels], orientation: orientation)
                }
                Self.cmykToRGB(&pixels, inverted: inverted)
                return DecodedFrames(width: w, height: h, frames: [pixels], orientation: orientation)
            }
            // libjpeg writes alpha 255 (JCS_EXT_RGBA) and the ICC conversion keeps alpha.
            var frames = DecodedFrames(width: w, height: h, frames: [pixels], iccProfile: icc, orientation: orientation)
            frames.isOpaque = true
            return frames
        }
    }

    /// The orientation of the first APP1 Exif block (`.up` without one).
    private static func orientation(_ handle: OpaquePointer) -> ImageOrientation {
        var exifStart: UnsafePointer<UInt8>?, exifLength = 0
        guard penumbra_jpeg_decoder_exif(handle, &exifStart, &exifLength) != 0, let exifStart else { return .up }
        return EXIF.orientation(tiff: Array(UnsafeBufferPointer(start: exifStart, count: exifLength))) ?? .up
    }

    /// r = (1 - c)(1 - k) per channel, alpha 255; stored values are inverted in Adobe files.
    static func cmykToRGB(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                var k = Int(p[i + 3])
                if !inverted { k = 255 - k }
                for c in 0..<3 {
                    let v = inverted ? Int(p[i + c]) : 255 - Int(p[i + c])
                    p[i + c] = UInt8((v * k * 2 + 255) / 510)
                }
                p[i + 3] = 255
                i += 4
            }
        }
    }

    private func open(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (OpaquePointer, penumbra_jpeg_info) {
        var info = penumbra_jpeg_info()
        var message = [CChar](repeating: 0, count: Int(PENUMBRA_JPEG_MESSAGE_CAPACITY))
        guard let handle = penumbra_jpeg_decoder_open(bytes.baseAddress, bytes.count, &info, &message, message.count) else {
            throw ImageCodecError("JPEG: " + CText.string(message))
        }
        return (handle, info)
    }
}

/// NUL-terminated C message buffers as Swift strings.
enum CText {
    static func string(_ message: [CChar]) -> String {
        let s = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return s.isEmpty ? "unknown error" : s
    }
}
