// SceneFuzzing: the libFuzzer entry over whole scenes (Tools/fuzz/scenes):
// any bytes decoded as a scene and, when accepted, recorded and rendered on
// the CPU, under limits small enough that every input runs in milliseconds.
// A rejection is the expected end of most inputs; a crash, a trap, or an
// allocation past libFuzzer's limit is a bug (the budget must have refused
// the scene first).
import PenumbraModel
import PenumbraCore

/// Decodes, records and renders fuzzer input as a scene; exposed for the fuzz target only.
@_spi(Fuzzing) public enum SceneFuzzing {
    /// The limits every input runs under: a 256 x 256 canvas at most, 16 MiB of surfaces.
    public static let limits: ResourceLimits = {
        var limits = ResourceLimits(maxPixels: 1 << 16, maxOps: 256, maxPathSegments: 4096, maxNesting: 16,
                                    maxDashEntries: 64, maxTextCharacters: 1024)
        limits.maxImagePixels = 1 << 18
        limits.maxRenderBytes = 16 << 20
        limits.maxGeometryPoints = 1 << 16
        return limits
    }()

    /// One input; returns normally for accepted and rejected scenes alike.
    public static func run(_ data: [UInt8]) {
        let renderer = CPURenderer()
        let environment = SceneEnvironment(codecs: .png, renderOffscreen: { .bitmap(try CPURenderer().render($0.displayList())) },
                                           filterRenderer: { .bitmap(try FilterEvaluator.cpu($0, $1, $2)) }, filterRendererName: "cpu")
        do {
            let scene = try Scene.decode(data, sources: ImageSources(baseDirectory: nil), limits: limits, environment: environment)
            _ = try renderer.render(scene.displayList())
        } catch is SceneError {
        } catch {
            // Render-time refusals (a filter over its limit) are errors, not crashes.
        }
    }
}
