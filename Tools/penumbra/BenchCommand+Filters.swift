// `penumbra bench --filters SCENE.json`: the filter benchmark of issue 13. The
// scene's image named "input" (decoded once, not timed) goes through two
// chains, each timed from the image to finished 8-bit pixels of the input's
// extent by one FilterContext made on the backend's renderer: gaussianBlur
// sigma 10, and colorControls (saturation 1.2, brightness 0.05, contrast 1.1)
// followed by unsharpMask (radius 2.5, intensity 0.5). On `--backend gpu` the
// chains run as GPU passes (GPUFilterEvaluator) and the result carries the
// GPU's counters (passes, uploads, readback); on `cpu`, PenumbraCPU's FilterEvaluator.
// Benchmarks/filters/peers_filters.py times libvips and OpenCV on the same work.
// On the CPU two more results: the stage alone, W2 of issue 9 (the dense
// input's four channels blurred with sigma 10 by the RGBA blur,
// GaussianKernel.blurRGBA, no graph around it, timed on a fresh copy), and
// for comparison the path the filters took before (each channel split out,
// blurred by the shadow's plane blur, merged back; the plane blur itself now
// runs the same one-channel code).
import Foundation
import Penumbra
import PenumbraCPU
import PenumbraGPU

extension BenchCommand {
    func measureFilters(_ scene: Scene, path: String, backend: Backend, renderer: Renderer) throws -> [Result] {
        guard let input = scene.images["input"] else {
            throw ToolError(.failure, "\(path): --filters needs an image named \"input\"")
        }
        let context = FilterContext(renderer: renderer, limits: limits.limits)
        let gpu = renderer as? GPURenderer
        let chains: [(String, FilterImage)] = [
            ("gaussianBlur(10)", input.filterImage.applyingFilter(.gaussianBlur(radius: 10))),
            ("colorControls+unsharpMask", input.filterImage
                .applyingFilter(.colorControls(saturation: 1.2, brightness: 0.05, contrast: 1.1))
                .applyingFilter(.unsharpMask(radius: 2.5, intensity: 0.5))),
        ]
        var results: [Result] = []
        let region = Rect(x: 0, y: 0, width: Double(input.bitmap.width), height: Double(input.bitmap.height))
        let kernel = GaussianKernel(sigma: 10)
        // Each stage returns its own time in ms; the chains run on the backend's renderer.
        var stages: [(name: String, onRenderer: Bool, run: () throws -> Double)] = chains.map { name, chain in
            (name, true, { try Measurement.time { _ = try context.createImage(chain, from: region) } })
        }
        if backend == .cpu {
            stages.append(("W2 stage: RGBA blur sigma 10, 4 channels", false, {
                var copy = input.bitmap
                copy.pixels[0] = copy.pixels[0]  // copies the pixels (copy on write) before the timing
                return Measurement.time { kernel.blurRGBA(&copy) }
            }))
            // The path the filters took before the RGBA blur: each channel split out, blurred as a
            // plane by the shadow's blur, merged back. Same bytes; for comparison in the same run.
            stages.append(("W2 as four planes (split, shadow plane blur, merge)", false, {
                let (width, height, pixels) = (input.bitmap.width, input.bitmap.height, input.bitmap.pixels)
                var out = pixels
                return Measurement.time {
                    var plane = AlphaPlane(width: width, height: height)
                    for channel in 0..<4 {
                        pixels.withUnsafeBufferPointer { px in
                            plane.values.withUnsafeMutableBufferPointer { p in for i in p.indices { p[i] = px[4 * i + channel] } }
                        }
                        plane.blur(with: kernel)
                        out.withUnsafeMutableBufferPointer { px in
                            plane.values.withUnsafeBufferPointer { p in for i in p.indices { px[4 * i + channel] = p[i] } }
                        }
                    }
                }
            }))
        }
        for (name, onRenderer, stage) in stages {
            var times: [Double] = [], frames: [GPUFrameCounters] = []
            func once() throws {
                times.append(try stage())
                if onRenderer, let gpu { frames.append(gpu.lastFrameCounters) }
            }
            try once()
            times = []; frames = []
            if let runs {
                for _ in 0..<runs { try once() }
            } else {
                let deadline = Measurement.now() + seconds * 1000
                repeat { try once() } while Measurement.now() < deadline || times.count < 3
            }
            let summary = Summary(times)
            let megapixels = Double(input.bitmap.width * input.bitmap.height) / 1e6
            results.append(Result(scene: "\(path) \(name)", backend: backend.rawValue, renderer: onRenderer ? "filters on \(context.rendererName)" : "cpu stage",
                                  width: input.bitmap.width, height: input.bitmap.height, render_ms: summary, record_ms: nil, render_png_ms: summary,
                                  png_ms: Summary([0]), scenes_per_second: 1000 / summary.median,
                                  megapixels_per_second: megapixels * 1000 / summary.median,
                                  scenes_per_second_with_png: 1000 / summary.median,
                                  megapixels_per_second_with_png: megapixels * 1000 / summary.median,
                                  iterations: times.count, peak_rss_mb: Measurement.peakResidentMegabytes(),
                                  pipelined_scenes_per_second: 0, frames_in_flight: 0,
                                  gpu: frames.last.map { last in
                                      var counters = last
                                      counters.hostMilliseconds = Summary(frames.map(\.hostMilliseconds)).median
                                      return counters
                                  }))
        }
        return results
    }
}
