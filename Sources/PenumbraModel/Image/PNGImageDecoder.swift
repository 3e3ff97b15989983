// PNGImageDecoder: PNGCodec behind the ImageDecoder protocol, handing the
// pipeline the file's iCCP profile and eXIf orientation. An APNG's frames
// are decoded by APNG.swift; as one frame (firstFrameOnly), or to a reader
// that ignores animation, it is its default image.

/// PNG through libpng (the core's own codec).
public struct PNGImageDecoder: ImageDecoder {
    /// Creates the decoder; it has no options.
    public init() {}
    public var formatName: String { "PNG" }

    public func matches(_ data: [UInt8]) -> Bool {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    public func readHeader(_ data: [UInt8]) throws -> ImageHeader {
        do {
            let (w, h) = try PNGCodec.readHeader(data)
            return ImageHeader(width: w, height: h, frameCount: APNG.frameCount(data) ?? 1)
        } catch let e as PNGError { throw ImageCodecError(e.message) }
    }

    public func decode(_ data: [UInt8], maxPixels: Int, firstFrameOnly: Bool,
                       colorManager: (any ColorManaging)?) throws -> DecodedFrames {
        do {
            let d = try PNGCodec.decodeStraightWithMetadata(data, maxPixels: maxPixels)
            let orientation = d.exif.flatMap(EXIF.orientation(tiff:)) ?? .up
            if !firstFrameOnly, let count = APNG.frameCount(data), count > 1 {
                guard d.width * d.height * count <= maxPixels else {
                    throw ImageCodecError("APNG: \(count) frames of \(d.width) x \(d.height) pixels, over the limit of \(maxPixels) pixels")
                }
                let animation = try APNG.decodeFrames(data, width: d.width, height: d.height, frameLimit: count, maxPixels: maxPixels)
                return DecodedFrames(width: d.width, height: d.height, frames: animation.frames, durations: animation.durations,
                                     iccProfile: d.icc, orientation: orientation)
            }
            return DecodedFrames(width: d.width, height: d.height, frames: [d.pixels], iccProfile: d.icc, orientation: orientation)
        } catch let e as PNGError { throw ImageCodecError(e.message) }
    }
}
