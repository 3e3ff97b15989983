// `penumbra bench SCENE.json... [--backend cpu|gpu|both] [--seconds N] [--json] [--soak N]`
//
// For each scene and backend: decode once, warm up, then render repeatedly
// for the time given, timing render-to-pixels (recording the display list,
// which strokes and flattens, plus rendering) and render-plus-PNG
// separately. Reports median and spread, scenes and megapixels per second,
// peak RSS, and a 4 MiB memory copy timed in the same run as the floor.
// Then the same number of renders go through a RenderPipeline (several
// frames in flight, PNG encoding on another thread) and their throughput is
// reported as pipelined scenes per second, PNG included.
import ArgumentParser
import Foundation
import Penumbra
import PenumbraGPU

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure rendering throughput of scenes.")

    enum Backends: String, ExpressibleByArgument, CaseIterable { case cpu, gpu, both }

    @Argument(help: "Scene files (JSON).")
    var scenes: [String]
    @Option(help: "cpu, gpu or both.")
    var backend: Backends = .cpu
    @Option(help: "Seconds of measurement per scene and backend (after a warm-up).")
    var seconds: Double = 2
    @Option(help: "Render exactly this many times per scene and backend instead of for --seconds.")
    var runs: Int?
    @Flag(help: "Print one JSON object instead of a table.")
    var json = false
    @Option(help: "zlib compression level of the PNG, 0...9.")
    var pngLevel: Int = 6
    @Option(help: "PNG row filter.")
    var pngFilter: PNGFilter = .adaptive
    @Option(help: "Frames in flight in the pipelined measurement (at least 1).")
    var framesInFlight: Int = 2
    @Flag(help: "The thumbnail benchmark: each run decodes the scene and its image files, renders and encodes JPEG quality 80.")
    var thumbnail = false
    @Flag(help: "The filter benchmark: gaussianBlur sigma 10, and colorControls + unsharpMask, on each scene's image named \"input\".")
    var filters = false
    @Option(help: "Resource hygiene: render the scenes round-robin this many times on one renderer per backend, reporting the resident set after 10, 100, 1,000 ... renders.")
    var soak: Int?
    @OptionGroup var limits: LimitOptions
    @OptionGroup var assets: AssetOptions

    func validate() throws {
        guard !scenes.isEmpty else { throw ValidationError("give at least one scene") }
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be positive") }
        if let runs, runs < 1 { throw ValidationError("--runs must be at least 1") }
        if !(0...9).contains(pngLevel) { throw ValidationError("--png-level must be in 0...9") }
        if framesInFlight < 1 { throw ValidationError("--frames-in-flight must be at least 1") }
        if let soak, soak < 1 { throw ValidationError("--soak must be at least 1") }
    }

    struct Result: Encodable {
        var scene: String
        var backend: String
        var renderer: String
        var width: Int
        var height: Int
        var render_ms: Summary
        /// The part of `render_ms` spent recording the scene into its display list (stroke
        /// outlining included), before the renderer draws it (nil for the filter and thumbnail modes).
        var record_ms: Summary?
        var render_png_ms: Summary
        /// PNG encoding alone (the encode of each run, timed on its own).
        var png_ms: Summary
        var scenes_per_second: Double
        var megapixels_per_second: Double
        var scenes_per_second_with_png: Double
        var megapixels_per_second_with_png: Double
        var iterations: Int
        var peak_rss_mb: Double
        /// Renders plus PNG encodings per second through a RenderPipeline (`frames_in_flight`
        /// scenes in flight, encoding on another thread), over `iterations` scenes.
        var pipelined_scenes_per_second: Double
        var frames_in_flight: Int
        /// GPU results: one frame's counters (the last measured; host_ms the median of all).
        var gpu: GPUFrameCounters?
    }
    struct Report: Encodable {
        var floor_ms: Double
        var results: [Result]
    }

    func run() throws {
        let floor = Measurement.memoryCopyFloor()
        let backends: [Backend] = backend == .both ? [.cpu, .gpu] : [backend == .cpu ? .cpu : .gpu]
        var renderers: [Backend: Renderer] = [:]
        for b in backends {
            do { renderers[b] = try b.makeRenderer().renderer } catch let e as BackendUnavailable {
                throw ToolError(.backendUnavailable, "backend \(b.rawValue) unavailable: \(e.message)")
            }
        }
        if let soak { return try self.soak(soak, backends: backends, renderers: renderers) }
        let progress = Progress(enabled: !json && isatty(STDERR_FILENO) == 1)
        var results: [Result] = []
        for path in scenes {
            for b in backends {
                // Decoded for the renderer that draws it: its offscreen images and filter chains are that renderer's.
                let scene = try SceneLoading.load(path, limits: limits.limits, scale: nil, assets: assets.assets,
                                                  environment: .standard(renderingWith: renderers[b]!))
                progress.say("\(path) on \(b.rawValue)")
                if filters {
                    results += try measureFilters(scene, path: path, backend: b, renderer: renderers[b]!)
                } else if thumbnail {
                    results.append(try measureThumbnail(scene, path: path, backend: b, renderer: renderers[b]!))
                } else {
                    results.append(try measure(scene, path: path, backend: b, renderer: renderers[b]!))
                }
            }
        }
        progress.done()
        let report = Report(floor_ms: floor, results: results)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(table(report))
        }
    }

    private func measure(_ scene: Scene, path: String, backend: Backend, renderer: Renderer) throws -> Result {
        var renderTimes: [Double] = [], pngTimes: [Double] = [], encodeTimes: [Double] = [], recordTimes: [Double] = []
        var bitmap = Bitmap(width: 0, height: 0)
        var frames: [GPUFrameCounters] = []
        func once() throws {
            var list: DisplayList?
            var record = 0.0
            let render = try Measurement.time {
                record = try Measurement.time { list = try SceneLoading.record(scene, from: path) }
                // Into the last run's pixels, as a render loop (and the peers, drawing into their
                // canvas) would: the time is the drawing's, not fresh memory's page faults.
                try renderer.render(list!, into: &bitmap)
            }
            if let gpu = renderer as? GPURenderer { frames.append(gpu.lastFrameCounters) }
            let encode = try Measurement.time { _ = try PNGCodec.encode(bitmap, compressionLevel: pngLevel, filter: pngFilter) }
            renderTimes.append(render); pngTimes.append(render + encode); encodeTimes.append(encode)
            recordTimes.append(record)
        }
        do {
            try once() // warm-up: caches, first-touch page faults, shader compilation
            renderTimes = []; pngTimes = []; encodeTimes = []; recordTimes = []; frames = []
            if let runs {
                for _ in 0..<runs { try once() }
            } else {
                let deadline = Measurement.now() + seconds * 1000
                repeat { try once() } while Measurement.now() < deadline || renderTimes.count < 3
            }
        } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "\(path): backend \(backend.rawValue) cannot render this scene: \(e.message)")
        } catch let e as ToolError { throw e } catch {
            throw ToolError(.failure, "\(path): rendering failed: \(error)")
        }
        let pipelined: Double
        do {
            let pipeline = RenderPipeline(renderer: renderer, framesInFlight: framesInFlight)
            // Recorded afresh for each frame, as the timed runs do (the first run proved it fits).
            let first = try scene.displayList()
            let lists = (0..<renderTimes.count).lazy.map { _ in (try? scene.displayList()) ?? first }
            var delivered = 0
            let total = try Measurement.time {
                try pipeline.encode(lists, compressionLevel: pngLevel, filter: pngFilter) { _, _ in delivered += 1 }
            }
            pipelined = Double(delivered) * 1000 / total
        } catch {
            throw ToolError(.failure, "\(path): pipelined rendering failed: \(error)")
        }
        let render = Summary(renderTimes), png = Summary(pngTimes)
        let megapixels = Double(scene.pixelWidth * scene.pixelHeight) / 1e6
        return Result(scene: path, backend: backend.rawValue, renderer: renderer.name,
                      width: scene.pixelWidth, height: scene.pixelHeight, render_ms: render, record_ms: Summary(recordTimes),
                      render_png_ms: png,
                      png_ms: Summary(encodeTimes),
                      scenes_per_second: 1000 / render.median, megapixels_per_second: megapixels * 1000 / render.median,
                      scenes_per_second_with_png: 1000 / png.median, megapixels_per_second_with_png: megapixels * 1000 / png.median,
                      iterations: renderTimes.count, peak_rss_mb: Measurement.peakResidentMegabytes(),
                      pipelined_scenes_per_second: pipelined, frames_in_flight: framesInFlight,
                      gpu: frames.last.map { last in
                          var counters = last
                          counters.hostMilliseconds = Summary(frames.map(\.hostMilliseconds)).median
                          return counters
                      })
    }

    private func table(_ report: Report) -> String {
        func f(_ v: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", v) }
        var lines = ["floor: 4 MiB memory copy \(f(report.floor_ms, 3)) ms (median, this run)", ""]
        let header = ["scene", "backend", "size", "render ms (med/min/max)", "render+png ms (med/min/max)", "png ms (med)",
                      "scenes/s", "MP/s",
                      "pipelined+png scenes/s", "runs", "peak RSS MB"]
        var rows = [header]
        for r in report.results {
            rows.append([r.scene, r.backend, "\(r.width)x\(r.height)",
                         "\(f(r.render_ms.median))/\(f(r.render_ms.min))/\(f(r.render_ms.max))",
                         "\(f(r.render_png_ms.median))/\(f(r.render_png_ms.min))/\(f(r.render_png_ms.max))",
                         f(r.png_ms.median), f(r.scenes_per_second, 1), f(r.megapixels_per_second, 1),
                         "\(f(r.pipelined_scenes_per_second, 1)) (\(r.frames_in_flight) in flight)", "\(r.iterations)", f(r.peak_rss_mb, 1)])
        }
        let widths = header.indices.map { i in rows.map { $0[i].count }.max()! }
        for row in rows { lines.append(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")) }
        let renderers = Set(report.results.map { "\($0.backend): \($0.renderer)" }).sorted()
        lines.append(""); lines.append("renderers: " + renderers.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}
