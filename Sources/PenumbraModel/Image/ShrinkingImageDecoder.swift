// ShrinkingImageDecoder: a codec that can decode at 1/2, 1/4 or 1/8 of the
// stored size while it decodes (JPEG: libjpeg-turbo's DCT scaling), the
// decoding half of shrink-on-load (SceneDecoder+ShrinkOnLoad.swift decides
// when). The scaled pixels are the codec's own scaled output, exactly; after
// it they go through the ordinary pipeline (colour profile to sRGB,
// premultiplication, orientation), as a full decode does.

/// A still-image codec that can shrink while decoding.
package protocol ShrinkingImageDecoder: ImageDecoder {
    /// The stored size and the file's own orientation, without decoding pixels.
    func readOrientedHeader(_ data: [UInt8]) throws -> (header: ImageHeader, orientation: ImageOrientation)
    /// The first frame decoded at 1/`denominator` (2, 4 or 8) of its stored size: ceil(w / d) x
    /// ceil(h / d) pixels. `maxPixels` bounds that scaled size.
    func decode(_ data: [UInt8], denominator: Int, maxPixels: Int, colorManager: (any ColorManaging)?) throws -> DecodedFrames
}

extension ImageCodecs {
    /// `decode(_:maxPixels:firstFrameOnly:orientation:)` of a still image at 1/`denominator`
    /// (1: the ordinary decode) through a shrinking codec; nil when the codec cannot shrink.
    package func decodeShrunk(_ data: [UInt8], denominator: Int, maxPixels: Int,
                              orientation: ImageOrientation?) throws -> DecodedImage? {
        guard let codec = try decoder(for: data) as? any ShrinkingImageDecoder else { return nil }
        let header = try codec.readHeader(data)
        let w = (header.width + denominator - 1) / denominator, h = (header.height + denominator - 1) / denominator
        guard header.width > 0, header.height > 0, w * h <= max(0, maxPixels) else {
            throw ImageCodecError("\(codec.formatName): the image is \(header.width) x \(header.height) pixels (\(w) x \(h) "
                + "at 1/\(denominator)), over the limit of \(maxPixels) pixels")
        }
        var raw = try codec.decode(data, denominator: denominator, maxPixels: maxPixels, colorManager: colorManager)
        guard raw.width == w, raw.height == h, raw.frames.count == 1, raw.frames[0].count == w * h * 4 else {
            throw ImageCodecError("\(codec.formatName): the decoded pixels do not match the header")
        }
        return finish(&raw, orientation: orientation, formatName: codec.formatName)
    }
}
