// ImageCodec: the one protocol every image file format implements, and the
// registry the scene decoder and `Image(data:)` are given.
//
// The core depends on no codec library beyond the PNG shim it already had:
// it defines what a codec is (sniff the content, read the header, decode),
// and the pipeline every decoded file goes through afterwards (colour
// profile to sRGB through a colour manager the registry is given,
// premultiplication, orientation). PenumbraIO implements JPEG, WebP, GIF
// and the lcms2 colour manager behind these protocols, and the public
// `Penumbra` target wires them together as `ImageCodecs.standard`.
//
// A codec's header read is cheap and allocates nothing proportional to the
// pixels; `ImageCodecs.decode` checks the header's pixel count (all frames)
// against the caller's budget before the codec decodes anything, and the
// codec checks again that what it decodes is what the header said.

/// What a file's header says, read before any pixel is allocated.
public struct ImageHeader: Hashable, Sendable {
    /// Pixel size of a frame as stored (before orientation).
    public var width: Int
    /// Pixel height of a frame as stored (before orientation).
    public var height: Int
    /// Frames in the file (1 for a still image).
    public var frameCount: Int
    /// Pixels of every frame together, saturating.
    public var totalPixels: Int {
        let (a, o1) = width.multipliedReportingOverflow(by: height)
        let (b, o2) = a.multipliedReportingOverflow(by: frameCount)
        return o1 || o2 ? Int.max : b
    }
    /// Creates a header: the stored pixel size of one frame and the number of frames (1 by default).
    public init(width: Int, height: Int, frameCount: Int = 1) {
        self.width = width; self.height = height; self.frameCount = frameCount
    }
}

/// A codec's output: straight (un-premultiplied) RGBA8 frames as stored, and what the pipeline
/// still applies to them.
public struct DecodedFrames: Sendable {
    /// Pixel width of every frame as stored (before orientation).
    public var width: Int
    /// Pixel height of every frame as stored (before orientation).
    public var height: Int
    /// Straight RGBA8 frames, `width * height * 4` bytes each, every frame full size (composited).
    public var frames: [[UInt8]]
    /// Seconds each frame shows (empty for a still image).
    public var durations: [Double]
    /// The embedded ICC profile, when the pixels are not sRGB yet.
    public var iccProfile: [UInt8]?
    /// The EXIF orientation (`.up` when the file has none).
    public var orientation: ImageOrientation
    /// Every alpha is 255 by construction (JPEG): premultiplying is skipped without a scan.
    public var isOpaque = false

    /// Creates a decoder's output: frames of `width * height * 4` straight RGBA8 bytes each,
    /// their durations in seconds (empty for a still image), the ICC profile the pixels are in
    /// (nil for sRGB) and the EXIF orientation to apply (``ImageOrientation/up`` by default).
    public init(width: Int, height: Int, frames: [[UInt8]], durations: [Double] = [], iccProfile: [UInt8]? = nil,
                orientation: ImageOrientation = .up) {
        self.width = width; self.height = height; self.frames = frames; self.durations = durations
        self.iccProfile = iccProfile; self.orientation = orientation
    }
}

/// A decoding failure; `message` starts with the format's name ("JPEG: ...").
public struct ImageCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words; also the error's ``description``.
    public var message: String
    /// Creates the error with its message; start it with the format's name ("JPEG: ...").
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One file format's decoder.
public protocol ImageDecoder: Sendable {
    /// The format's name in messages ("JPEG").
    var formatName: String { get }
    /// True when `data` starts like this format (content sniffing, never the file name).
    func matches(_ data: [UInt8]) -> Bool
    /// The size and frame count, without decoding pixels.
    func readHeader(_ data: [UInt8]) throws -> ImageHeader
    /// Decodes every frame (only the first when `firstFrameOnly`). `maxPixels` bounds all frames
    /// together; `colorManager` is for formats that must convert colour themselves (CMYK).
    func decode(_ data: [UInt8], maxPixels: Int, firstFrameOnly: Bool, colorManager: (any ColorManaging)?) throws -> DecodedFrames
}

/// Converts straight RGBA8 pixels described by an ICC profile to sRGB.
public protocol ColorManaging: Sendable {
    /// Converts in place (alpha untouched) with perceptual intent; false (pixels untouched) when
    /// the profile does not parse or does not describe RGB or grey pixels.
    func convertToSRGB(_ rgba: inout [UInt8], profile: [UInt8]) -> Bool
}

/// One output format's encoder.
public protocol ImageEncoder: Sendable {
    /// The format's name ("JPEG").
    var formatName: String { get }
    /// Encodes premultiplied pixels.
    func encode(_ bitmap: Bitmap) throws -> [UInt8]
}

/// A decoded image file: premultiplied sRGB frames, upright.
public struct DecodedImage: Sendable {
    /// The frames, premultiplied sRGB and upright, all of one size; one for a still image (or when
    /// only the first frame was asked for).
    public var frames: [Bitmap]
    /// Seconds per frame (empty for a still image).
    public var durations: [Double]
    /// The name of the format the data was decoded as ("PNG", "JPEG"), the decoder's
    /// ``ImageDecoder/formatName``.
    public var formatName: String
}

/// The decoders a scene or `Image(data:)` may use, and the colour manager for embedded profiles.
public struct ImageCodecs: Sendable {
    /// The decoders, tried in order: the first whose ``ImageDecoder/matches(_:)`` accepts the data decodes it.
    public var decoders: [any ImageDecoder]
    /// Converts embedded ICC profiles to sRGB; nil leaves the pixels as stored (treated as sRGB).
    public var colorManager: (any ColorManaging)?

    /// Creates a registry of `decoders` (tried in order) and an optional colour manager
    /// (without one, embedded ICC profiles are ignored).
    public init(decoders: [any ImageDecoder], colorManager: (any ColorManaging)? = nil) {
        self.decoders = decoders; self.colorManager = colorManager
    }

    /// PNG only, without colour management: what the core can do on its own.
    public static let png = ImageCodecs(decoders: [PNGImageDecoder()])

    /// The decoder whose signature `data` starts with (the first that matches). Throws
    /// ``ImageCodecError`` when none does.
    public func decoder(for data: [UInt8]) throws -> any ImageDecoder {
        guard let d = decoders.first(where: { $0.matches(data) }) else {
            let names = decoders.map(\.formatName)
            let list = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
            // The first decoder says why in its own words ("PNG: not a PNG file (wrong signature)").
            var why = ""
            if let first = decoders.first {
                do { _ = try first.readHeader(data) } catch let e as ImageCodecError { why = " (\(e.message))" } catch {}
            }
            throw ImageCodecError("the data is not a \(list) image\(why)")
        }
        return d
    }

    /// The header of whatever format `data` is.
    public func readHeader(_ data: [UInt8]) throws -> ImageHeader {
        try decoder(for: data).readHeader(data)
    }

    /// Decodes `data`: sniffed, header checked against `maxPixels` (every frame counted) before
    /// any pixel is allocated, converted to sRGB, premultiplied and turned upright by the file's
    /// orientation, or by `orientation` when given (it replaces the file's own). Throws
    /// ``ImageCodecError`` when no decoder recognises the data, the image is empty or over
    /// `maxPixels`, or the pixels do not decode (``RenderCancelled`` when the current
    /// ``RenderCancellation`` is cancelled while an animation decodes).
    public func decode(_ data: [UInt8], maxPixels: Int, firstFrameOnly: Bool = false,
                       orientation: ImageOrientation? = nil) throws -> DecodedImage {
        let codec = try decoder(for: data)
        let header = try codec.readHeader(data)
        guard header.width > 0, header.height > 0 else {
            throw ImageCodecError("\(codec.formatName): the image is \(header.width) x \(header.height) pixels")
        }
        let counted = firstFrameOnly ? ImageHeader(width: header.width, height: header.height) : header
        guard counted.totalPixels <= max(0, maxPixels) else {
            let frames = counted.frameCount > 1 ? " in \(counted.frameCount) frames" : ""
            throw ImageCodecError("\(codec.formatName): the image is \(header.width) x \(header.height) pixels\(frames), "
                + "over the limit of \(maxPixels) pixels")
        }
        var raw = try codec.decode(data, maxPixels: maxPixels, firstFrameOnly: firstFrameOnly, colorManager: colorManager)
        guard raw.width == header.width, raw.height == header.height, !raw.frames.isEmpty,
              raw.frames.allSatisfy({ $0.count == raw.width * raw.height * 4 }) else {
            throw ImageCodecError("\(codec.formatName): the decoded pixels do not match the header")
        }
        return finish(&raw, orientation: orientation, formatName: codec.formatName)
    }

    /// A codec's checked output converted to sRGB, premultiplied and turned upright by its
    /// orientation, or by `orientation` when given (its frames are moved out, not copied).
    func finish(_ raw: inout DecodedFrames, orientation: ImageOrientation?, formatName: String) -> DecodedImage {
        if let profile = raw.iccProfile, let colorManager {
            for i in raw.frames.indices {
                if !colorManager.convertToSRGB(&raw.frames[i], profile: profile) { break }
            }
        }
        let turn = orientation ?? raw.orientation
        // Each frame's buffer is taken out of `raw` before it is premultiplied in place, so no
        // copy of the pixels is made (a 12-megapixel photo is 48 MB).
        var frames: [Bitmap] = []
        frames.reserveCapacity(raw.frames.count)
        for i in raw.frames.indices {
            var pixels: [UInt8] = []
            swap(&pixels, &raw.frames[i])
            if !raw.isOpaque { PNGCodec.convertColours(&pixels, premultiply) }
            frames.append(Bitmap(width: raw.width, height: raw.height, pixels: pixels).oriented(turn))
        }
        return DecodedImage(frames: frames, durations: raw.durations, formatName: formatName)
    }
}
