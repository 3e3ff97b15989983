// Image+PNG: UIImage(data:) and UIImage.pngData() for PNG. Thin wrappers
// over PNGCodec, which does the premultiplication and the limits; the image's
// scale is presentation only and never touches the file.

extension Image {
    /// Decodes a PNG (any colour type, bit depth or interlacing) into a premultiplied image with
    /// the given scale (pixels per point). Throws `PNGError` for a malformed file or one with
    /// more than `maxPixels` pixels (checked from the header, before decoding).
    public init(pngData: [UInt8], scale: Double = 1, maxPixels: Int = 100_000_000) throws {
        self.init(bitmap: try PNGCodec.decode(pngData, maxPixels: maxPixels), scale: scale)
    }

    /// The image's pixels as a PNG (see `PNGCodec.encode`): un-premultiplied, RGB when opaque,
    /// with an sRGB chunk and no timestamp. Presentation attributes (scale, slicing, tint,
    /// flip) are not stored.
    public func pngData(compressionLevel: Int = 6, filter: PNGFilter = .adaptive) throws -> [UInt8] {
        try PNGCodec.encode(bitmap, compressionLevel: compressionLevel, filter: filter)
    }
}
