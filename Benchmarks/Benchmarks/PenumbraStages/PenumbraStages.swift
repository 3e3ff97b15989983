// The hot stages of rendering, one benchmark each, on the standard workloads
// (1024x1024 canvases): coverage of the hypnosis circles, image sampling under
// the decorator's rotation, one shadow blur (both passes, sigma 10), W2's
// dense RGBA blur (sigma 10, four interleaved channels), a row
// blend, PNG encoding of the decorator output. package-benchmark reports
// time, throughput and allocations. Benchmarks are not tests: nothing here is
// asserted.
import Benchmark
import Foundation
import Penumbra
import PenumbraCPU
@_spi(Stages) import PenumbraCore

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

    let hypnosis = scene("hypnosis").displayList()
    let shapes: [DeviceShape] = hypnosis.commands.compactMap { if case .fill(let s, _, _) = $0 { return s } else { return nil } }
    let canvas = PixelRect(x: 0, y: 0, width: 1024, height: 1024)
    Benchmark("coverage: hypnosis (26 stroked circles + oval)") { benchmark in
        for _ in benchmark.scaledIterations {
            for shape in shapes { blackHole(Rasterizer.coverage(of: shape, in: Rasterizer.region(of: shape, within: canvas)!)) }
        }
    }

    Benchmark("stroke + flatten: hypnosis display list") { benchmark in
        let s = scene("hypnosis")
        for _ in benchmark.scaledIterations { blackHole(try s.displayList()) }
    }

    // Non-zero everywhere, so both passes run over the whole plane (the blur skips zero rows).
    var plane = AlphaPlane(width: 1024, height: 1024)
    for i in plane.values.indices { plane.values[i] = UInt8(1 + i % 7) * 36 }
    let kernel = GaussianKernel(sigma: 10)
    Benchmark("blur: 1024x1024 alpha plane, sigma 10, both passes") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plane.blurred(with: kernel)) }
    }

    // W2 (issue 9): a dense 1024x1024 RGBA image, every channel blurred with sigma 10.
    var image = Bitmap(width: 1024, height: 1024)
    for i in image.pixels.indices { image.pixels[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
    Benchmark("blur: W2, 1024x1024 RGBA, sigma 10, four channels") { benchmark in
        for _ in benchmark.scaledIterations {
            var copy = image
            kernel.blurRGBA(&copy)
            blackHole(copy)
        }
    }

    let decorator = scene("decorator").displayList()
    var unshadowed = decorator
    unshadowed.commands = decorator.commands.map {
        if case .image(let draw, var state) = $0 { state.shadow = nil; return .image(draw, state) } else { return $0 }
    }
    Benchmark("image sampling: W1, 512x512 image under rotate(-pi/4) into 1024x1024") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! CPURenderer().render(unshadowed)) }
    }
    Benchmark("render: W3, W1 plus the seed's drop shadow") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! CPURenderer().render(decorator)) }
    }

    var row = [UInt8](repeating: 128, count: 1024 * 4)
    let coverage = [Float]((0..<1024).map { Float($0 % 17) / 16 })
    Benchmark("blend: one 1024-pixel row, normal and multiply", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            row.withUnsafeMutableBufferPointer { d in
                coverage.withUnsafeBufferPointer { c in
                    BlendMode.normal.blendRow(source: SIMD4(0.2, 0.3, 0.4, 0.5), coverage: c, destination: d)
                    BlendMode.multiply.blendRow(source: SIMD4(0.2, 0.3, 0.4, 0.5), coverage: c, destination: d)
                }
            }
        }
    }

    let output = try! CPURenderer().render(decorator)
    Benchmark("PNG encode: W5, decorator output, zlib level 6") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! PNGCodec.encode(output, compressionLevel: 6)) }
    }
    // libvips's pngsave defaults (level 6, no row filter since 8.13), the W5 reference figure's settings.
    Benchmark("PNG encode: W5, decorator output, zlib level 6, filter none") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! PNGCodec.encode(output, compressionLevel: 6, filter: .none)) }
    }
}
