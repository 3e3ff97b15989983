// PNGCodec: PNG files to and from premultiplied Bitmaps (decoding through libpng).
//
// Every libpng call happens in the CPNG shim, which keeps setjmp/longjmp in C
// and returns an error code and libpng's message; here those become
// `PNGError`s. The shim speaks straight (un-premultiplied) RGBA8 only; this
// file premultiplies after reading and un-premultiplies before writing, with
// the scene format's roundings (SCENE_FORMAT.md, "Coordinates, colours,
// pixels"):
//
// > Stored pixels are premultiplied (`round(c * a / 255)`); PNG files are
// > written un-premultiplied (`round(c * 255 / a)`; every rounding in this
// > document rounds halves up), as PNG requires, with an sRGB chunk
// > (perceptual intent), as RGB without an alpha channel when every pixel is
// > opaque, and with no timestamp, so the same pixels always give the same
// > bytes. On reading, 16-bit channels are scaled (not truncated) to 8 bits;
// > gamma and ICC chunks are ignored.
//
// Decoding reads the header first and checks the pixel limit before the
// pixel buffer (or anything proportional to the width) is allocated, so a
// small file that claims to be huge fails fast.
import CPNG

/// A PNG that could not be read or written; `message` says why, starting with "PNG: ".
public struct PNGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, e.g. "PNG: IDAT: CRC error".
    public var message: String
    /// An error with this message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// PNG row filters (the PNG filter types); `adaptive` chooses per row.
public enum PNGFilter: String, Sendable, Hashable, CaseIterable {
    /// Filter type 0: bytes as they are.
    case none
    /// Filter type 1: difference from the pixel to the left.
    case sub
    /// Filter type 2: difference from the pixel above.
    case up
    /// Filter type 3: difference from the average of left and above.
    case average
    /// Filter type 4: difference from the Paeth predictor.
    case paeth
    /// The filter of each row is picked among all five with libpng's heuristic (the smallest
    /// sum of the filtered bytes as signed magnitudes, ties to the lower type).
    case adaptive

    var shimValue: penumbra_png_filter {
        switch self {
        case .none: return PENUMBRA_PNG_FILTER_NONE
        case .sub: return PENUMBRA_PNG_FILTER_SUB
        case .up: return PENUMBRA_PNG_FILTER_UP
        case .average: return PENUMBRA_PNG_FILTER_AVERAGE
        case .paeth: return PENUMBRA_PNG_FILTER_PAETH
        case .adaptive: return PENUMBRA_PNG_FILTER_ADAPTIVE
        }
    }
}

/// Reads PNG through libpng, behind a C shim that keeps setjmp/longjmp in C, and writes PNG
/// with the shim's own parallel encoder (zlib only).
public enum PNGCodec {
    /// Applies `convert(channel, alpha:)` to the colour channels of every RGBA8 pixel that is
    /// not opaque (premultiplying decoded pixels; the encoder un-premultiplies in its C shim, row
    /// by row as it filters); a pixel of alpha 0 becomes 0. Blocks of 32 pixels whose alphas are all 255
    /// (ANDed eight bytes at a time) are skipped whole, as are blocks whose bytes are all 0: an
    /// opaque photo, or the transparent part of a canvas, costs one read of its bytes.
    @inline(__always)
    static func convertColours(_ pixels: inout [UInt8], _ convert: (UInt8, UInt8) -> UInt8) {
        pixels.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            let alphas: UInt64 = 0xFF00_0000_FF00_0000
            var i = 0
            while i < p.count {
                if i & 127 == 0, i + 128 <= p.count {
                    var all = UInt64.max, any: UInt64 = 0
                    for k in 0..<16 {
                        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 8 * k, as: UInt64.self))
                        all &= word; any |= word
                    }
                    if all & alphas == alphas || any == 0 { i += 128; continue }
                }
                let a = p[i + 3]
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a != 255 {
                    p[i] = convert(p[i], a); p[i + 1] = convert(p[i + 1], a); p[i + 2] = convert(p[i + 2], a)
                }
                i += 4
            }
        }
    }

    /// The largest width or height the decoder accepts (2^24), whatever `maxPixels` says.
    public static let maxDimension = Int(PENUMBRA_PNG_MAX_DIMENSION)

    /// The pixel size from the header, without decoding the pixels (the chunks before the
    /// first IDAT are read and checked too).
    public static func readHeader(_ data: [UInt8]) throws -> (width: Int, height: Int) {
        try data.withUnsafeBufferPointer { bytes in
            let decoder = try openDecoder(bytes)
            defer { penumbra_png_decoder_close(decoder.handle) }
            return (decoder.width, decoder.height)
        }
    }

    /// Decodes any PNG (every colour type, bit depth and interlacing) into premultiplied RGBA8.
    /// 16-bit channels are scaled to 8 bits, round(v * 255 / 65535); gamma and ICC chunks are
    /// ignored. Images over `maxPixels` pixels are rejected after reading the header and
    /// before the pixel buffer is allocated.
    public static func decode(_ data: [UInt8], maxPixels: Int = 100_000_000) throws -> Bitmap {
        let straight = try decodeStraight(data, maxPixels: maxPixels)
        var pixels = straight.pixels
        convertColours(&pixels, premultiply)
        return Bitmap(width: straight.width, height: straight.height, pixels: pixels)
    }

    /// Decodes into straight (un-premultiplied) RGBA8, exactly as the file says after scaling
    /// to 8 bits. `decode` premultiplies this.
    package static func decodeStraight(_ data: [UInt8], maxPixels: Int) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let d = try decodeStraightWithMetadata(data, maxPixels: maxPixels)
        return (d.width, d.height, d.pixels)
    }

    /// `decodeStraight` plus the iCCP profile and the eXIf payload read with the header.
    static func decodeStraightWithMetadata(_ data: [UInt8], maxPixels: Int) throws
        -> (width: Int, height: Int, pixels: [UInt8], icc: [UInt8]?, exif: [UInt8]?) {
        try data.withUnsafeBufferPointer { bytes in
            let decoder = try openDecoder(bytes)
            defer { penumbra_png_decoder_close(decoder.handle) }
            let (width, height) = (decoder.width, decoder.height)
            var iccStart: UnsafePointer<UInt8>?, exifStart: UnsafePointer<UInt8>?
            var iccLength = 0, exifLength = 0
            penumbra_png_decoder_metadata(decoder.handle, &iccStart, &iccLength, &exifStart, &exifLength)
            let icc = iccStart.map { Array(UnsafeBufferPointer(start: $0, count: iccLength)) }
            let exif = exifStart.map { Array(UnsafeBufferPointer(start: $0, count: exifLength)) }
            let (count, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, count <= max(0, maxPixels) else {
                throw PNGError("PNG: image is \(width) x \(height) pixels, over the limit of \(maxPixels) pixels")
            }
            var message = [CChar](repeating: 0, count: Int(PENUMBRA_PNG_MESSAGE_CAPACITY))
            var failed = false
            let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
                buffer.initialize(repeating: 0)
                failed = penumbra_png_decoder_read_rgba(
                    decoder.handle, buffer.baseAddress, buffer.count, &message, message.count) != 0
                initialized = buffer.count
            }
            if failed { throw PNGError("PNG: " + text(message)) }
            return (width, height, pixels, icc, exif)
        }
    }

    /// Encodes a premultiplied bitmap as an 8-bit PNG: un-premultiplied (round(c * 255 / a)),
    /// RGB (colour type 2) when every pixel is opaque, RGBA (colour type 6) otherwise, with an
    /// sRGB chunk (perceptual intent) and no timestamp or text, so the same pixels always give
    /// the same bytes. `compressionLevel` is zlib's 0 (none, fastest) ... 9 (smallest).
    /// Rows are filtered and deflated in independent bands on every core; the bytes do not
    /// depend on the number of cores.
    public static func encode(_ bitmap: Bitmap, compressionLevel: Int = 6, filter: PNGFilter = .adaptive) throws -> [UInt8] {
        try encode(bitmap, compressionLevel: compressionLevel, filter: filter, threads: 0)
    }

    /// `encode` on `threads` threads (0: one per core); the output is the same for every count.
    /// `encode`, always as RGBA (colour type 6) even when opaque: the frames of an APNG share
    /// the first frame's header, so they must share a colour type.
    package static func encodeRGBA(_ bitmap: Bitmap, compressionLevel: Int = 6, filter: PNGFilter = .adaptive) throws -> [UInt8] {
        guard (0...9).contains(compressionLevel) else {
            throw PNGError("PNG: compression level \(compressionLevel) is outside 0...9")
        }
        return try encodePixels(bitmap.pixels, width: bitmap.width, height: bitmap.height, premultiplied: true,
                                compressionLevel: compressionLevel, filter: filter, threads: 0)
    }

    static func encode(_ bitmap: Bitmap, compressionLevel: Int, filter: PNGFilter, threads: Int) throws -> [UInt8] {
        guard bitmap.width >= 1, bitmap.height >= 1 else {
            throw PNGError("PNG: cannot encode a \(bitmap.width) x \(bitmap.height) bitmap: a PNG needs a width and height of at least 1 pixel")
        }
        guard bitmap.width <= Int(Int32.max), bitmap.height <= Int(Int32.max) else {
            throw PNGError("PNG: cannot encode a \(bitmap.width) x \(bitmap.height) bitmap: a PNG's width and height are at most 2^31 - 1 pixels")
        }
        guard bitmap.pixels.count == bitmap.width * bitmap.height * 4 else { // `pixels` is a public var
            throw PNGError("PNG: the \(bitmap.width) x \(bitmap.height) bitmap holds \(bitmap.pixels.count) bytes, not \(bitmap.width * bitmap.height * 4)")
        }
        guard (0...9).contains(compressionLevel) else {
            throw PNGError("PNG: compression level \(compressionLevel) is outside 0...9")
        }
        // Opaque: straight equals premultiplied, and the shim drops the alpha bytes (RGB).
        return try encodePixels(bitmap.pixels, width: bitmap.width, height: bitmap.height, premultiplied: !bitmap.isOpaque,
                                compressionLevel: compressionLevel, filter: filter, threads: threads)
    }

    /// Encodes premultiplied RGBA pixels as RGBA (the shim makes each row straight as it
    /// filters it, `unpremultiply`'s values, so no converted copy is made), or opaque ones as RGB.
    private static func encodePixels(_ rgba: [UInt8], width: Int, height: Int, premultiplied hasAlpha: Bool,
                                     compressionLevel: Int, filter: PNGFilter, threads: Int) throws -> [UInt8] {
        var message = [CChar](repeating: 0, count: Int(PENUMBRA_PNG_MESSAGE_CAPACITY))
        var buffer = penumbra_png_buffer(bytes: nil, size: 0, capacity: 0)
        // The current cancellation token stops the encoder between its bands.
        let cancellation = RenderCancellation.current
        let status = rgba.withUnsafeBufferPointer { pixels in
            penumbra_png_encode_cancellable(pixels.baseAddress, UInt32(width), UInt32(height), hasAlpha ? 1 : 0,
                                            hasAlpha ? 1 : 0, Int32(compressionLevel), filter.shimValue, Int32(max(0, min(threads, 16))),
                                            cancellation?.flagForC, &buffer, &message, message.count)
        }
        defer { penumbra_png_buffer_free(&buffer) }
        if status == 2 { throw RenderCancelled() }
        guard status == 0, let bytes = buffer.bytes else { throw PNGError("PNG: " + text(message)) }
        return Array(UnsafeBufferPointer(start: bytes, count: buffer.size))
    }

    private struct OpenDecoder {
        let handle: OpaquePointer
        let width: Int
        let height: Int
    }

    /// Opens a decoder on `bytes` (which must outlive it); the caller closes it.
    private static func openDecoder(_ bytes: UnsafeBufferPointer<UInt8>) throws -> OpenDecoder {
        var message = [CChar](repeating: 0, count: Int(PENUMBRA_PNG_MESSAGE_CAPACITY))
        var width: UInt32 = 0, height: UInt32 = 0
        guard let handle = penumbra_png_decoder_open(bytes.baseAddress, bytes.count, &width, &height,
                                                     &message, message.count) else {
            throw PNGError("PNG: " + text(message))
        }
        return OpenDecoder(handle: handle, width: Int(width), height: Int(height))
    }

    private static func text(_ message: [CChar]) -> String {
        let s = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return s.isEmpty ? "unknown error" : s
    }
}
