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

    @Option(help: "The decoded-pixel budget: most pixels of all images together, every frame counted.")
    var maxImagePixels: Int = ResourceLimits.default.maxImagePixels

    func validate() throws {
        for (name, v) in [("--max-pixels", maxPixels), ("--max-ops", maxOps), ("--max-path-segments", maxPathSegments),
                          ("--max-nesting", maxNesting), ("--max-dash-entries", maxDashEntries),
                          ("--max-image-pixels", maxImagePixels), ("--max-text", maxText)] where v < 0 {
            throw ValidationError("\(name) must not be negative")
        }
    }

    var limits: ResourceLimits {
        var l = ResourceLimits.default
        l.maxPixels = maxPixels; l.maxOps = maxOps; l.maxPathSegments = maxPathSegments
        l.maxNesting = maxNesting; l.maxDashEntries = maxDashEntries; l.maxImagePixels = maxImagePixels
        l.maxTextCharacters = maxText
        return l
    }
}
