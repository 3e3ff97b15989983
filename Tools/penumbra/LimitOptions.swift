// The resource-limit flags shared by every command that reads scenes.
import ArgumentParser
import Penumbra

struct LimitOptions: ParsableArguments {
    @Option(help: "Most pixels of a canvas, layer or image.")
    var maxPixels: Int = ResourceLimits.default.maxPixels
    @Option(help: "Most ops in one scene.")
    var maxOps: Int = ResourceLimits.default.maxOps
    @Option(help: "Most path segments in one scene, after parsing.")
    var maxPathSegments: Int = ResourceLimits.default.maxPathSegments
    @Option(help: "Deepest save and layer nesting.")
    var maxNesting: Int = ResourceLimits.default.maxNesting
    @Option(help: "Most entries in one dash array.")
    var maxDashEntries: Int = ResourceLimits.default.maxDashEntries
    @Option(help: "Most characters of text in one drawText op.")
    var maxText: Int = ResourceLimits.default.maxTextCharacters
    @Option(help: "Most views in one scene (every drawView tree and view snapshot image together).")
    var maxViews: Int = ResourceLimits.default.maxViews

    @Option(help: "The decoded-pixel budget: most pixels of all images together, every frame counted.")
    var maxImagePixels: Int = ResourceLimits.default.maxImagePixels
    @Option(help: ArgumentHelp("The render's memory budget in bytes: every surface alive at once (canvas, layers, shadow and blur planes, filter intermediates, decoded images).",
                               discussion: "Default: 1 GiB for render, animate, parity, bench and each line of batch; for serve, \(LimitOptions.serverRenderBytes >> 20) MiB shared out among the workers."))
    var maxRenderBytes: Int?
    @Option(help: "The scene's geometry budget: points of all flattened paths and stroke outlines together.")
    var maxGeometryPoints: Int = ResourceLimits.default.maxGeometryPoints

    func validate() throws {
        for (name, v) in [("--max-pixels", maxPixels), ("--max-ops", maxOps), ("--max-path-segments", maxPathSegments),
                          ("--max-nesting", maxNesting), ("--max-dash-entries", maxDashEntries),
                          ("--max-image-pixels", maxImagePixels), ("--max-text", maxText), ("--max-views", maxViews),
                          ("--max-render-bytes", maxRenderBytes ?? 0), ("--max-geometry-points", maxGeometryPoints)] where v < 0 {
            throw ValidationError("\(name) must not be negative")
        }
    }

    /// What all of a server's renders together may hold in surfaces by default: with the
    /// geometry budgets and the server's own memory, the default workers fit a 2 GiB container.
    static let serverRenderBytes = 1_280 << 20

    /// The limits of a server whose `workers` render at once: unless given, each render's budget is
    /// an equal share of `serverRenderBytes`.
    func limits(sharedBy workers: Int) -> ResourceLimits {
        var l = limits
        if maxRenderBytes == nil { l.maxRenderBytes = LimitOptions.serverRenderBytes / max(1, workers) }
        return l
    }

    var limits: ResourceLimits {
        var l = ResourceLimits.default
        l.maxPixels = maxPixels; l.maxOps = maxOps; l.maxPathSegments = maxPathSegments
        l.maxNesting = maxNesting; l.maxDashEntries = maxDashEntries; l.maxImagePixels = maxImagePixels
        l.maxTextCharacters = maxText; l.maxViews = maxViews
        l.maxRenderBytes = maxRenderBytes ?? ResourceLimits.default.maxRenderBytes; l.maxGeometryPoints = maxGeometryPoints
        return l
    }
}
