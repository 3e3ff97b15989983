// ImageIO: the default wiring of the codecs. PenumbraIO implements JPEG,
// WebP and GIF and the lcms2 colour manager behind the core's ImageDecoder
// and ColorManaging protocols; this file puts them beside the core's PNG
// decoder as `ImageCodecs.standard`, gives scenes the CPU reference renderer
// for offscreen images and PenumbraSVG's SVG images (`SceneEnvironment.standard`), and adds the UIImage
// entry points that read files: `Image(data:)`, `Image(contentsOf:)`,
// `Image.named(_:in:scale:)`, `image.withOrientation(_:)`.
@_exported import PenumbraIO
import PenumbraCPU
import PenumbraSVG
import Foundation

extension ImageCodecs {
    /// PNG, JPEG, WebP and GIF, with ICC profiles converted to sRGB by lcms2.
    public static let standard = ImageCodecs(
        decoders: [PNGImageDecoder(), JPEGDecoder(), WebPDecoder(), GIFDecoder()], colorManager: LCMSColorManager())
}

extension SceneEnvironment {
    /// Every codec, the CPU reference renderer for offscreen images and filters, the text engine,
    /// and SVG images (`.svg`, `.svgz`, `data:image/svg+xml;base64,`) drawn as vectors.
    public static let standard: SceneEnvironment = {
        var environment = SceneEnvironment(codecs: .standard, renderOffscreen: { .bitmap(try CPURenderer().render($0.displayList())) },
                                           textEngine: TextEngines.standard, filterRenderer: { .bitmap(try FilterEvaluator.cpu($0, $1, $2)) }, filterRendererName: "cpu")
        environment.vectorImages = [.svg]
        return environment
    }()
}

extension Image {
    /// UIImage(data:): any PNG, JPEG, WebP or GIF (sniffed), upright, in sRGB; an animated file
    /// gives its first frame (see `AnimatedImage(data:)`).
    public init(data: [UInt8], scale: Double = 1, maxPixels: Int = ResourceLimits.default.maxPixels) throws {
        let decoded = try ImageCodecs.standard.decode(data, maxPixels: maxPixels, firstFrameOnly: true)
        self.init(bitmap: decoded.frames[0], scale: scale)
    }

    /// UIImage(contentsOfFile:): the file's image; an `@2x` / `@3x` name sets the scale.
    public init(contentsOf url: URL, maxPixels: Int = ResourceLimits.default.maxPixels) throws {
        let data = try Data(contentsOf: url)
        try self.init(data: [UInt8](data), scale: Self.impliedScale(url.lastPathComponent), maxPixels: maxPixels)
    }

    /// UIImage(named:in:compatibleWith:): `name` in `directory`, the variant for `scale` first
    /// (then larger, then smaller), each with .png, .jpg, .jpeg, .webp, .gif. Nil when none exists.
    public static func named(_ name: String, in directory: URL, scale: Double = 1) throws -> Image? {
        let canvas = min(3, max(1, Int(roundHalfUp(scale))))
        for s in [canvas] + Array(stride(from: canvas + 1, through: 3, by: 1)) + (1..<canvas).reversed() {
            for ext in ["png", "jpg", "jpeg", "webp", "gif"] {
                let url = directory.appendingPathComponent(name + (s == 1 ? "" : "@\(s)x") + "." + ext)
                guard FileManager.default.fileExists(atPath: url.path) else { continue }
                var image = try Image(contentsOf: url)
                image.scale = Double(s)
                return image
            }
        }
        return nil
    }

    /// UIImage(cgImage:scale:orientation:): these pixels turned by `orientation`.
    public func withOrientation(_ orientation: ImageOrientation) -> Image {
        var copy = self
        copy.bitmap = bitmap.oriented(orientation)
        return copy
    }

    static func impliedScale(_ file: String) -> Double {
        let stem = file.split(separator: ".").dropLast().joined(separator: ".")
        if stem.hasSuffix("@3x") { return 3 }
        if stem.hasSuffix("@2x") { return 2 }
        return 1
    }
}

extension AnimatedImage {
    /// An animated GIF or WebP (or any still image, as one frame of 0.1 s), with its own delays.
    public init(data: [UInt8], scale: Double = 1, maxPixels: Int = ResourceLimits.default.maxImagePixels) throws {
        let decoded = try ImageCodecs.standard.decode(data, maxPixels: maxPixels)
        let frames = decoded.frames.map { Image(bitmap: $0, scale: scale) }
        self.init(frames: frames, frameDurations: decoded.durations.isEmpty ? frames.map { _ in 0.1 } : decoded.durations)
    }
}
