// `penumbra render SCENE.json -o OUT [--backend auto|cpu|gpu] [--scale S] [--time T] [--format png|jpeg|webp] [--quality Q]`
// `penumbra render DRAWING.svg[z] -o OUT [--width W] [--height H] [--scale S] [--assets DIR]`: an SVG document
// (by its extension) drawn at W x H points (its own size when not given), RenderCommand+SVG.swift.
import ArgumentParser
import Foundation
import Penumbra

extension Backend: ExpressibleByArgument {}
extension PNGFilter: ExpressibleByArgument {}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render one scene to a PNG, JPEG or WebP file.")

    @Argument(help: "The scene file (JSON) or an SVG document (.svg, .svgz), or - for standard input (a scene).")
    var scene: String
    @Option(name: .shortAndLong, help: "The image to write (.png, .jpg, .webp), or - for standard output.")
    var output: String
    @Option(help: ArgumentHelp(Backend.optionHelp))
    var backend: Backend = .auto
    @Option(help: "Pixels per point, overriding the scene's scale.")
    var scale: Double?
    @Option(help: "Seconds: which frame of each animated image is drawn, overriding the scene's time.")
    var time: Double?
    @OptionGroup var encoding: EncodingOptions
    @Flag(name: .shortAndLong, help: "Report the renderer and timings on standard error.")
    var verbose = false
    @OptionGroup var limits: LimitOptions
    @OptionGroup var assets: AssetOptions
    @Option(help: "SVG only: the width in points to draw the document at (default: its own; the height follows the aspect ratio when not given).")
    var width: Double?
    @Option(help: "SVG only: the height in points to draw the document at (default: its own; the width follows the aspect ratio when not given).")
    var height: Double?

    /// True when the input is an SVG document (by its extension: .svg, or .svgz gzip-compressed).
    var isSVG: Bool { scene.lowercased().hasSuffix(".svg") || scene.lowercased().hasSuffix(".svgz") }

    func validate() throws {
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number") }
        if let time, !time.isFinite { throw ValidationError("--time must be a finite number") }
        try encoding.validate(output: output)
        for (name, v) in [("--width", width), ("--height", height)] {
            guard let v else { continue }
            guard isSVG else { throw ValidationError("\(name) applies to SVG documents only") }
            guard v > 0, v.isFinite, v <= 100_000 else { throw ValidationError("\(name) must be a positive number up to 100000") }
        }
    }

    func run() throws {
        if isSVG { return try renderSVG() }
        let start = Date()
        // The renderer first, so that the scene's filter chains run on it (the GPU's passes); a
        // backend that is unavailable is reported after the scene is checked, as before.
        let made = Result { try backend.makeRenderer() }
        let madeAt = Date()
        let environment = (try? made.get()).map { SceneEnvironment.standard(renderingWith: $0.renderer) } ?? .standard
        let decoded = try SceneLoading.load(scene, limits: limits.limits, scale: scale, time: time, assets: assets.assets,
                                              environment: environment)
        let loaded = Date()
        let choice: RendererChoice
        do { choice = try made.get() } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "backend \(backend.rawValue) unavailable: \(e.message)")
        }
        if let note = choice.note { Diagnostics.print("penumbra: \(note)") }
        let ready = loaded
        let list = try SceneLoading.record(decoded, from: scene)
        let recorded = Date()
        let bitmap: Bitmap
        do { bitmap = try choice.renderer.render(list) } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "backend \(backend.rawValue) cannot render this scene: \(e.message)")
        } catch {
            throw ToolError(.failure, "rendering failed: \(error)")
        }
        let rendered = Date()
        let encoder = encoding.encoder(for: output)
        let encoded: [UInt8]
        do { encoded = try encoder.encode(bitmap) } catch {
            throw ToolError(.failure, "\(encoder.formatName) encoding failed: \(error)")
        }
        try OutputFile.write(encoded, to: output)
        if verbose {
            let ms = { (a: Date, b: Date) in String(format: "%.2f ms", b.timeIntervalSince(a) * 1000) }
            Diagnostics.print("penumbra: renderer \(choice.renderer.name); \(bitmap.width)x\(bitmap.height) px; "
                + "renderer set-up \(ms(start, madeAt)), decode \(ms(madeAt, loaded)), record \(ms(ready, recorded)), "
                + "render \(ms(recorded, rendered)), encode+write \(ms(rendered, Date()))")
        }
    }
}
