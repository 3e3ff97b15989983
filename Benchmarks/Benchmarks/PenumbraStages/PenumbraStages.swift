// The stages of rendering that a client of the library can time, one benchmark each, on the
// standard workloads (1024x1024 canvases): recording the hypnosis scene (stroking and
// flattening), the decorator's image sampling under rotation (W1), the same with the seed's
// drop shadow (W3), W2's dense RGBA blur (sigma 10) through a filter context, and PNG encoding
// of the W3 output (W5). package-benchmark reports time, throughput and allocations.
// Benchmarks are not tests: nothing here is asserted.
//
// This package sees only Penumbra's public API (Tools/api/public-api.txt): the coverage,
// blend-row and alpha-plane kernels are internal and are timed by `penumbra bench` and the
// callgrind counts in BENCHMARKS.md instead.
import Benchmark
import Foundation
import Penumbra
import PenumbraCPU

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

func scene(_ name: String) -> Scene {
    let url = root.appendingPathComponent("Examples/\(name).json")
    let bytes = [UInt8](try! Data(contentsOf: url))
    return try! Scene.decode(bytes, baseDirectory: url.deletingLastPathComponent().path)
}

let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput, .peakMemoryResident]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: metrics, maxDuration: .seconds(3), maxIterations: 200)

    // The bandwidth floor of the machine, measured in the same run as the stages.
    let copySource = [UInt8](repeating: 0x5A, count: 4 << 20)
    var copyTarget = [UInt8](repeating: 0, count: 4 << 20)
    Benchmark("floor: 4 MiB memory copy") { benchmark in
        for _ in benchmark.scaledIterations {
            copyTarget.withUnsafeMutableBytes { t in copySource.withUnsafeBytes { s in t.copyMemory(from: s) } }
            blackHole(copyTarget[0])
        }
    }

    Benchmark("record: hypnosis (stroke + flatten 26 circles and an oval)") { benchmark in
        let s = scene("hypnosis")
        for _ in benchmark.scaledIterations { blackHole(try! s.displayList()) }
    }

    // W1: the decorator's image under rotate(-pi/4), without its shadow; W3: with it.
    let photo = scene("decorator").images["mars"]!
    let rotation = AffineTransform(rotationAngle: -.pi / 4)
        .concatenating(AffineTransform(translationX: -photo.size.width / 2, y: photo.size.height / 8))
    func decorator(shadow: Bool) -> DisplayList {
        let context = GraphicsContext(size: Size(width: 1024, height: 1024))
        context.translateBy(x: 512, y: 512)
        let rotated = TransformFilter(photo, transform: rotation)
        if shadow {
            ShadowFilter(rotated, offset: Size(width: -25, height: 15), blur: 20).draw(at: .zero, context: context)
        } else {
            rotated.draw(at: .zero, context: context)
        }
        return context.displayList
    }
    let w1 = decorator(shadow: false), w3 = decorator(shadow: true)
    Benchmark("render: W1, 512x512 image under rotate(-pi/4) into 1024x1024") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! CPURenderer().render(w1)) }
    }
    Benchmark("render: W3, W1 plus the seed's drop shadow") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! CPURenderer().render(w3)) }
    }

    // W2 (issue 9): a dense 1024x1024 RGBA image, every channel blurred with sigma 10.
    var noise = Bitmap(width: 1024, height: 1024)
    for i in noise.pixels.indices { noise.pixels[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
    let dense = FilterImage(Image(bitmap: noise)).applyingFilter(.gaussianBlur(radius: 10))
        .cropped(to: Rect(x: 0, y: 0, width: 1024, height: 1024))
    let filters = FilterContext()
    Benchmark("blur: W2, 1024x1024 RGBA, sigma 10, four channels") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! filters.createImage(dense)) }
    }

    let output = try! CPURenderer().render(w3)
    Benchmark("PNG encode: W5, decorator output, zlib level 6") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! PNGCodec.encode(output, compressionLevel: 6)) }
    }
    // libvips's pngsave defaults (level 6, no row filter since 8.13), the W5 reference figure's settings.
    Benchmark("PNG encode: W5, decorator output, zlib level 6, filter none") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! PNGCodec.encode(output, compressionLevel: 6, filter: .none)) }
    }
}
