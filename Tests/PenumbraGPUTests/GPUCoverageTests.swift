// GPUCoverageTests: coverage computed on the GPU from a shape's edges
// (GPUCoverage: accumulate.comp, resolve.comp) equals the CPU rasterizer's
// mask value for value: random polygons (self-intersecting, partly outside
// their region), flattened ellipses under random transforms, sub-pixel
// slivers, both fill rules; several shapes in one batch; regions done in bands of rows; and regions as
// wide as the passes allow. The cells are zero again after every op (a
// second shape after the first gives its own coverage, not the sum).
import XCTest
import CEGL
import PenumbraTestSupport
import PenumbraModel
@_spi(Stages) import PenumbraCore
@testable import PenumbraGPU

final class GPUCoverageTests: XCTestCase {
    private func randomShape(_ rng: inout SplitMix64, scale: Double = 1) -> DeviceShape {
        var contours: [[Point]] = []
        for _ in 0..<Int(rng.next() % 3 + 1) {
            switch rng.next() % 3 {
            case 0:
                contours.append((0..<Int(rng.next() % 12 + 2)).map { _ in rng.point(in: -40 * scale...140 * scale) })
            case 1:
                var path = Path()
                path.addEllipse(in: Rect(x: rng.double(in: -20...80) * scale, y: rng.double(in: -20...80) * scale,
                                         width: rng.double(in: 0.2...90) * scale, height: rng.double(in: 0.2...90) * scale))
                contours += path.flattened(transform: rng.transform()).map(\.points)
            default:
                let p = rng.point(in: -10 * scale...110 * scale), q = rng.point(in: -10 * scale...110 * scale)
                let e = rng.double(in: 0.01...1.5)
                contours.append([p, q, Point(q.x + e, q.y + e * 0.3)])
            }
        }
        return DeviceShape(contours: contours, rule: rng.next() % 2 == 0 ? .nonzero : .evenOdd)
    }

    /// The GPU's coverage of the shape over the region, read back as bytes (row-major).
    private func gpuCoverage(_ shape: DeviceShape, _ region: PixelRect, _ gpu: GPURenderer) throws -> [UInt8] {
        try gpuCoverage([(shape, region)], gpu)[0]
    }

    private func gpuCoverage(_ shapes: [(DeviceShape, PixelRect)], _ gpu: GPURenderer) throws -> [[UInt8]] {
        try GPUTestSupport.coverage(shapes, gpu)
    }

    private func assertSameCoverage(_ shape: DeviceShape, _ region: PixelRect, _ gpu: GPURenderer, _ label: String,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = Rasterizer.coverage(of: shape, in: region).denseValues()
        let actual = try gpuCoverage(shape, region, gpu)
        let mismatch = expected.indices.first { expected[$0] != actual[$0] }
        XCTAssertNil(mismatch, "\(label): first difference at pixel \(mismatch.map { ($0 % region.width, $0 / region.width) } as Any): "
                     + "CPU \(mismatch.map { expected[$0] } ?? 0), GPU \(mismatch.map { actual[$0] } ?? 0)", file: file, line: line)
        XCTAssertTrue(expected.contains { $0 != 0 } || actual.allSatisfy { $0 == 0 }, label, file: file, line: line)
    }

    func testRandomShapesMatchTheCPUMasks() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        var rng = SplitMix64(seed: 0xC0FE)
        var covered = 0
        for i in 0..<120 {
            let shape = randomShape(&rng)
            let region = PixelRect(x: Int(rng.next() % 20) - 10, y: Int(rng.next() % 20) - 10,
                                   width: Int(rng.next() % 110) + 1, height: Int(rng.next() % 110) + 1)
            try assertSameCoverage(shape, region, gpu, "shape \(i) over \(region)")
            if Rasterizer.coverage(of: shape, in: region).denseValues().contains(where: { $0 != 0 }) { covered += 1 }
        }
        // The comparison means something only if most shapes cover pixels.
        XCTAssertGreaterThan(covered, 60)
    }

    /// Several shapes computed in one batch (one accumulate and one resolve pass, their masks
    /// stacked in one atlas) each get their own coverage: the batch's cells, points and rows are
    /// kept apart, whatever their sizes and rules.
    func testABatchGivesEachShapeItsOwnCoverage() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        var rng = SplitMix64(seed: 0xBA7C)
        for round in 0..<6 {
            let shapes = (0..<Int(rng.next() % 9) + 2).map { _ in
                (randomShape(&rng), PixelRect(x: Int(rng.next() % 20) - 10, y: Int(rng.next() % 20) - 10,
                                              width: Int(rng.next() % 90) + 1, height: Int(rng.next() % 90) + 1))
            }
            let actual = try gpuCoverage(shapes, gpu)
            for (index, (shape, region)) in shapes.enumerated() {
                XCTAssertEqual(actual[index], Rasterizer.coverage(of: shape, in: region).denseValues(),
                               "round \(round), shape \(index) of \(shapes.count) over \(region)")
            }
        }
    }

    func testBandsOfRowsGiveTheSameCoverage() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        let coverage = gpu.shared.coverage
        let limit = coverage.cellLimit
        defer { coverage.cellLimit = limit }
        var rng = SplitMix64(seed: 7)
        let region = PixelRect(x: 0, y: 0, width: 97, height: 83)
        for rows in [1, 2, 5, 40] {
            coverage.cellLimit = (region.width + 2) * rows
            for i in 0..<6 {
                try assertSameCoverage(randomShape(&rng), region, gpu, "bands of \(rows) rows, shape \(i)")
            }
        }
    }

    func testWideRegionsWithLongEdges() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        var rng = SplitMix64(seed: 99)
        // Long edges make the quotient-and-remainder row steps cover many rows and wide products.
        let region = PixelRect(x: 0, y: 0, width: 4000, height: 24)
        for i in 0..<4 {
            let shape = DeviceShape(contours: [[Point(rng.double(in: -50...10), rng.double(in: -5...2)),
                                                Point(rng.double(in: 3990...4060), rng.double(in: 10...30)),
                                                Point(rng.double(in: 100...200), rng.double(in: 20...40))]],
                                    rule: i % 2 == 0 ? .nonzero : .evenOdd)
            try assertSameCoverage(shape, region, gpu, "wide shape \(i)")
        }
        let tall = PixelRect(x: 0, y: 0, width: 6, height: 3000)
        try assertSameCoverage(DeviceShape(contours: [[Point(0.3, -4), Point(5.7, 3003.2), Point(1.1, 2500.5)]], rule: .nonzero),
                               tall, gpu, "tall sliver")
    }

    func testShapesBeyondThePassesAreUnsupported() throws {
        let gpu = try GPUTestSupport.renderer()
        try gpu.makeCurrent()
        let wide = PixelRect(x: 0, y: 0, width: GPUCoverage.maxWidth + 1, height: 1)
        let shape = DeviceShape(contours: [[Point(0, 0), Point(Double(wide.width), 0), Point(0, 1)]], rule: .nonzero)
        XCTAssertThrowsError(try gpu.shared.coverage.check(Rasterizer.edges(of: shape, in: wide))) { error in
            XCTAssertTrue(error is BackendUnavailable, "\(error)")
        }
    }
}
