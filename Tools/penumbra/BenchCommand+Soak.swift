// `penumbra bench --soak N SCENE.json...`: resource hygiene over many renders
// (issue 10). One renderer per backend renders the scenes round-robin N times
// in all, and the current resident set (VmRSS from /proc/self/status, not the
// peak) is recorded after 10, 100, 1,000, 10,000 ... renders and at the end,
// with the allocator's in-use bytes (mallinfo2) beside it. Flat figures from
// 100 renders on mean that nothing a render makes outlives it: caches are
// bounded and filled early, and textures, buffers and bitmaps are returned.
import Foundation
import Penumbra
import CMallocStats

extension BenchCommand {
    struct SoakPoint: Encodable {
        var renders: Int
        var rss_mb: Double
        var heap_in_use_mb: Double
        var seconds: Double
    }
    struct SoakResult: Encodable {
        var backend: String
        var renderer: String
        var scenes: [String]
        var points: [SoakPoint]
    }

    func soak(_ count: Int, backends: [Backend], renderers: [Backend: Renderer]) throws {
        let lists = try scenes.map { try SceneLoading.load($0, limits: limits.limits, scale: nil, assets: assets.assets).displayList() }
        var results: [SoakResult] = []
        for b in backends {
            let renderer = renderers[b]!
            var checkpoints = Set<Int>([count])
            var mark = 10
            while mark < count { checkpoints.insert(mark); mark *= 10 }
            var points: [SoakPoint] = []
            let start = Date()
            for i in 1...count {
                _ = try renderer.render(lists[(i - 1) % lists.count])
                if checkpoints.contains(i) {
                    points.append(SoakPoint(renders: i, rss_mb: Measurement.residentMegabytes(),
                                            heap_in_use_mb: Double(penumbra_heap_in_use()) / 1_048_576,
                                            seconds: Date().timeIntervalSince(start)))
                    if !json {
                        let p = points[points.count - 1]
                        FileHandle.standardError.write(Data(String(format: "%@ %6d renders: RSS %.1f MB, heap in use %.1f MB (%.0f s)\n",
                                                                   b.rawValue, p.renders, p.rss_mb, p.heap_in_use_mb, p.seconds).utf8))
                    }
                }
            }
            results.append(SoakResult(backend: b.rawValue, renderer: renderer.name, scenes: scenes, points: points))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        }
    }
}

extension Measurement {
    /// The current resident set size of this process (VmRSS), in MB of 2^20 bytes; 0 if unknown.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }
}
