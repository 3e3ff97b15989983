// Output formats of `render`: chosen by `--format`, else by OUT's extension
// (.png, .jpg / .jpeg, .webp; `-` is PNG; any other name is a usage error, so
// that `-o x.gif` is not a PNG under another name). JPEG and lossy
// WebP take `--quality` 1...100 (default 90); `--lossless` makes WebP
// lossless; `--chroma 444` and `--progressive` shape JPEG.
import ArgumentParser
import Penumbra

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case png, jpeg, webp

    /// The format OUT's extension names (nil when none does).
    static func forPath(_ path: String) -> OutputFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { return .jpeg }
        if lower.hasSuffix(".webp") { return .webp }
        if lower.hasSuffix(".png") { return .png }
        return nil
    }
}

struct EncodingOptions: ParsableArguments {
    @Option(help: "Output format: png, jpeg or webp (default: OUT's extension, PNG for -).")
    var format: OutputFormat?
    @Option(help: "JPEG and lossy WebP quality, 1...100.")
    var quality: Int = 90
    @Flag(help: "Lossless WebP.")
    var lossless = false
    @Option(help: "JPEG chroma subsampling: 420 or 444.")
    var chroma: Int = 420
    @Flag(help: "Progressive JPEG.")
    var progressive = false
    @Option(help: "zlib compression level of the PNG, 0...9.")
    var pngLevel: Int = 6
    @Option(help: "PNG row filter: none, sub, up, average, paeth or adaptive.")
    var pngFilter: PNGFilter = .adaptive

    /// Refuses an OUT whose format neither its extension nor `--format` says (a usage error).
    func validate(output: String) throws {
        guard format == nil, output != "-", OutputFormat.forPath(output) == nil else { return }
        throw ValidationError("-o \(output): no output format for this name; end it in .png, .jpg, .jpeg or .webp, "
            + "or give --format png|jpeg|webp")
    }

    func validate() throws {
        if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100") }
        if chroma != 420 && chroma != 444 { throw ValidationError("--chroma must be 420 or 444") }
        if !(0...9).contains(pngLevel) { throw ValidationError("--png-level must be in 0...9") }
    }

    /// The encoder for `output` (its extension, unless --format says otherwise).
    func encoder(for output: String) -> any ImageEncoder {
        switch format ?? (output == "-" ? .png : OutputFormat.forPath(output) ?? .png) {
        case .png: return PNGEncoder(compressionLevel: pngLevel, filter: pngFilter)
        case .jpeg: return JPEGEncoder(quality: quality, fullChroma: chroma == 444, progressive: progressive)
        case .webp: return WebPEncoder(quality: quality, lossless: lossless)
        }
    }
}
