// `penumbra bench --thumbnail SCENE.json`: the thumbnail benchmark of issue
// 12 (Benchmarks/thumbnail: a 4000 x 3000 JPEG drawn at 400 x 300, encoded as
// JPEG quality 80). Each timed run does everything a thumbnail server does
// per request: read and decode the scene and its image files, record,
// render and encode the JPEG; render_ms is that whole time and png_ms the
// JPEG encoding alone (the key keeps its name; the encoding is JPEG here).
import Foundation
import Penumbra

extension BenchCommand {
    func measureThumbnail(_ first: Scene, path: String, backend: Backend, renderer: Renderer) throws -> Result {
        var totals: [Double] = [], encodes: [Double] = []
        let encoder = JPEGEncoder(quality: 80)
        func once() throws {
            var encodeTime = 0.0
            let total = try Measurement.time {
                let scene = try SceneLoading.load(path, limits: limits.limits, scale: nil, assets: assets.assets)
                let bitmap = try renderer.render(SceneLoading.record(scene, from: path))
                encodeTime = try Measurement.time { _ = try encoder.encode(bitmap) }
            }
            totals.append(total); encodes.append(encodeTime)
        }
        do {
            try once()
            totals = []; encodes = []
            if let runs {
                for _ in 0..<runs { try once() }
            } else {
                let deadline = Measurement.now() + seconds * 1000
                repeat { try once() } while Measurement.now() < deadline || totals.count < 3
            }
        } catch let e as ToolError { throw e } catch {
            throw ToolError(.failure, "\(path): the thumbnail run failed: \(error)")
        }
        let total = Summary(totals)
        let megapixels = Double(first.pixelWidth * first.pixelHeight) / 1e6
        return Result(scene: path, backend: backend.rawValue, renderer: renderer.name,
                      width: first.pixelWidth, height: first.pixelHeight, render_ms: total, record_ms: nil, render_png_ms: total,
                      png_ms: Summary(encodes), scenes_per_second: 1000 / total.median,
                      megapixels_per_second: megapixels * 1000 / total.median,
                      scenes_per_second_with_png: 1000 / total.median, megapixels_per_second_with_png: megapixels * 1000 / total.median,
                      iterations: totals.count, peak_rss_mb: Measurement.peakResidentMegabytes(),
                      pipelined_scenes_per_second: 0, frames_in_flight: 0)
    }
}
