import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraCPU
@_spi(Stages) import PenumbraCore

/// The optimised rasterizer (reused scratch, single-write resolve) against a verbatim copy of
/// the original: every coverage value must be bit-identical, not merely close.
final class RasterizerIdentityTests: XCTestCase {
    /// Random polygons, stars and flattened ellipses, partly outside their region, both rules.
    private func randomShape(_ rng: inout SplitMix64) -> DeviceShape {
        var contours: [[Point]] = []
        for _ in 0..<Int(rng.next() % 3 + 1) {
            switch rng.next() % 3 {
            case 0: // a random polygon, possibly self-intersecting
                contours.append((0..<Int(rng.next() % 12 + 2)).map { _ in rng.point(in: -40...140) })
            case 1: // a flattened ellipse under a random transform
                var path = Path()
                path.addEllipse(in: Rect(x: rng.double(in: -20...80), y: rng.double(in: -20...80),
                                         width: rng.double(in: 0.2...90), height: rng.double(in: 0.2...90)))
                contours += path.flattened(transform: rng.transform()).map(\.points)
            default: // a thin sliver: sub-pixel edges and near-horizontal steps
                let p = rng.point(in: -10...110), q = rng.point(in: -10...110)
                let e = rng.double(in: 0.01...1.5)
                contours.append([p, q, Point(q.x + e, q.y + e * 0.3)])
            }
        }
        return DeviceShape(contours: contours, rule: rng.next() % 2 == 0 ? .nonzero : .evenOdd)
    }

    /// A random shape scaled about the origin by a random factor in `factors`.
    private func randomShape(_ rng: inout SplitMix64, scaledBy factors: ClosedRange<Double>) -> DeviceShape {
        let base = randomShape(&rng)
        let k = rng.double(in: factors)
        return DeviceShape(contours: base.contours.map { $0.map { Point($0.x * k, $0.y * k) } }, rule: base.rule)
    }

    private func assertIdentical(_ shape: DeviceShape, _ region: PixelRect, _ label: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let expectedMask = referenceCoverage(of: shape, in: region)
        let actualMask = Rasterizer.coverage(of: shape, in: region)
        XCTAssertEqual(actualMask.region, expectedMask.region, label, file: file, line: line)
        let expected = expectedMask.denseValues(), actual = actualMask.denseValues()
        XCTAssertEqual(actual.count, expected.count, label, file: file, line: line)
                let mismatch = actual.indices.first { i in
            i >= expected.count || actual[i] != expected[i]
        }
        XCTAssertNil(mismatch, "\(label): first differing value at index \(mismatch ?? -1)", file: file, line: line)
    }

    func testRandomShapesMatchTheOriginalRasterizerBitForBit() {
        var rng = SplitMix64(seed: 0x5EED_C0DE)
        for i in 0..<400 {
            let shape = randomShape(&rng)
            let region = PixelRect(x: Int(rng.next() % 41) - 20, y: Int(rng.next() % 41) - 20,
                                   width: Int(rng.next() % 130) + 1, height: Int(rng.next() % 130) + 1)
            assertIdentical(shape, region, "shape \(i)")
        }
    }

    /// A big region then a smaller, differently shaped one: the second sees the reused scratch
    /// and must not inherit anything from the first.
    func testReusedScratchLeavesNoTrace() {
        var rng = SplitMix64(seed: 42)
        for i in 0..<60 {
            let shape = randomShape(&rng)
            let big = PixelRect(x: -30, y: -30, width: 200, height: 200)
            assertIdentical(shape, big, "big \(i)")
            let small = PixelRect(x: Int(rng.next() % 50), y: Int(rng.next() % 50),
                                  width: Int(rng.next() % 60) + 1, height: Int(rng.next() % 60) + 1)
            assertIdentical(randomShape(&rng), small, "small after big \(i)")
        }
    }

    /// Edges exactly on the region's sides and on pixel boundaries (touched ranges reaching the
    /// two spare cells of a row).
    func testEdgesOnRegionSidesMatch() {
        let region = PixelRect(x: 0, y: 0, width: 16, height: 16)
        let rects: [[Point]] = [
            [Point(0, 0), Point(16, 0), Point(16, 16), Point(0, 16)],
            [Point(16, 2), Point(20, 2), Point(20, 9), Point(16, 9)],
            [Point(15.5, 1), Point(16, 1), Point(16, 15), Point(15.5, 15)],
            [Point(-5, 3), Point(0, 3), Point(0, 12), Point(-5, 12)],
        ]
        for (i, c) in rects.enumerated() {
            for rule in [FillRule.nonzero, .evenOdd] {
                assertIdentical(DeviceShape(contours: [c], rule: rule), region, "rect \(i) \(rule)")
            }
        }
    }

    /// Regions wider than one word of touched-block bits (64 blocks of 16 cells), with shapes
    /// scaled up so edges land in every word, long horizontal edges spanning many blocks, and
    /// stroked rings whose insides are runs of zero between touched blocks.
    func testWideRegionsMatch() {
        var rng = SplitMix64(seed: 0x00D1_DE5)
        for i in 0..<40 {
            let scaled = randomShape(&rng, scaledBy: 4...12)
            let region = PixelRect(x: Int(rng.next() % 81) - 40, y: Int(rng.next() % 41) - 20,
                                   width: Int(rng.next() % 1400) + 1000, height: Int(rng.next() % 60) + 1)
            assertIdentical(scaled, PixelRect(x: region.x, y: region.y + Int(rng.next() % 600), width: region.width,
                                              height: region.height), "wide \(i)")
        }
        var ring = Path()
        ring.addEllipse(in: Rect(x: 3.3, y: 2.7, width: 1180, height: 640))
        ring.addEllipse(in: Rect(x: 13.3, y: 12.7, width: 1160, height: 620))
        let contours = ring.flattened(transform: .identity).map(\.points)
        for rule in [FillRule.nonzero, .evenOdd] {
            assertIdentical(DeviceShape(contours: contours, rule: rule), PixelRect(x: 0, y: 0, width: 1190, height: 650), "ring \(rule)")
        }
    }

    /// Regions many bands tall (`Accumulator.bandHeight` rows each): long edges crossing several
    /// bands, vertices exactly on band boundaries, edges starting in the last, short band, and
    /// shapes reaching past the region's top and bottom.
    func testTallRegionsBandByBandMatch() {
        let band = Double(Accumulator.bandHeight)
        var rng = SplitMix64(seed: 0xBA4D5)
        for i in 0..<60 {
            let scaled = randomShape(&rng, scaledBy: 2...6)
            let region = PixelRect(x: Int(rng.next() % 41) - 20, y: Int(rng.next() % 81) - 40,
                                   width: Int(rng.next() % 300) + 1, height: Int(rng.next() % 700) + 33)
            assertIdentical(scaled, region, "tall \(i)")
        }
        // Vertices on band boundaries (and a quarter pixel either side), a zigzag down the bands.
        for offset in [0.0, 0.25, -0.25] {
            var zigzag: [Point] = [Point(5, 0)]
            for b in 1...9 { zigzag.append(Point(b % 2 == 0 ? 5 : 60.5, Double(b) * band + offset)) }
            zigzag += [Point(80, 9 * band + offset), Point(80, 0)]
            for rule in [FillRule.nonzero, .evenOdd] {
                assertIdentical(DeviceShape(contours: [zigzag], rule: rule),
                                PixelRect(x: 0, y: 0, width: 90, height: 9 * Accumulator.bandHeight + 7), "zigzag \(offset) \(rule)")
            }
        }
    }

    /// A shape of more edges than a scratch keeps room for: its coverage is the original
    /// rasterizer's, and its lists are freed rather than kept in the pool.
    func testHugeEdgeListsAreNotKept() {
        let count = AccumulationScratch.retainedEdgeLimit + 1000
        let zigzag = (0..<count).map { i in Point(Double(i % 2) * 90 + 3, 2 + 2000 * Double(i) / Double(count)) }
        let region = PixelRect(x: 0, y: 0, width: 100, height: 2010)
        let shape = DeviceShape(contours: [zigzag], rule: .evenOdd)
        assertIdentical(shape, region, "zigzag of \(count) edges")
        let scratch = AccumulationScratch()
        scratch.edges.sortByBand(of: shape, in: region, bands: 63)
        XCTAssertGreaterThan(scratch.edges.capacity, AccumulationScratch.retainedEdgeLimit)
        scratch.releaseLargeEdgeLists()
        XCTAssertEqual(scratch.edges.capacity, 0)
        scratch.edges.sortByBand(of: DeviceShape(contours: [Array(zigzag.prefix(50))], rule: .evenOdd), in: region, bands: 63)
        scratch.releaseLargeEdgeLists()
        XCTAssertGreaterThan(scratch.edges.capacity, 0, "small lists are kept for the next call")
    }

    /// A large shape's edges rounded on several threads are the one-thread sort's, edge for edge
    /// and band for band: many contours (rings, some past the region's sides and clipped, a
    /// zigzag crossing every band), every thread count, runs of balanced points.
    func testEdgesSortedOnSeveralThreadsAreTheOneThreadSort() {
        var contours: [[Point]] = []
        var rng = SplitMix64(seed: 0x50_27ED)
        for ring in 0..<44 {
            var circle = Path()
            let r = 20 + Double(ring) * 17.3
            circle.addEllipse(in: Rect(x: 300 - r + rng.double(in: -40...40), y: 300 - r, width: 2 * r, height: 2 * r))
            contours += circle.flattened(transform: .identity).map(\.points)
            if ring == 20 {
                contours.append((0..<3000).map { i in Point(Double(i % 2) * 500 + rng.double(in: -3...3), 600 * Double(i) / 3000) })
            }
        }
        let region = PixelRect(x: 0, y: 0, width: 600, height: 600)
        let bands = (region.height + Accumulator.bandHeight - 1) / Accumulator.bandHeight
        for rule in [FillRule.nonzero, .evenOdd] {
            let shape = DeviceShape(contours: contours, rule: rule)
            XCTAssertGreaterThan(shape.contours.reduce(0) { $0 + $1.count }, 5 * BandedEdges.pointsPerThread)
            var one = BandedEdges()
            one.sortByBand(of: shape, in: region, bands: bands)
            for threads in 2...5 {
                let runs = BandedEdges.runs(of: shape, threads: threads)
                XCTAssert(runs.count > 1 && runs.count <= threads, "\(threads) threads: \(runs.count) runs")
                XCTAssertEqual(runs.first?.lowerBound, 0)
                XCTAssertEqual(runs.last?.upperBound, shape.contours.count)
                for (a, b) in zip(runs, runs.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound) }
                var many = BandedEdges()
                many.sortByBand(of: shape, in: region, bands: bands, threads: threads)
                XCTAssertEqual(many.bandStarts, one.bandStarts, "\(threads) threads: band starts")
                XCTAssert(many.edges.elementsEqual(one.edges) { a, b in
                    (a.sx, a.sy, a.ex, a.bottom, a.direction) == (b.sx, b.sy, b.ex, b.bottom, b.direction)
                }, "\(threads) threads: the edges differ from one thread's")
            }
        }
        // A small shape stays on one thread.
        XCTAssertEqual(BandedEdges.runs(of: DeviceShape(contours: [Array(contours[0].prefix(100))], rule: .nonzero), threads: 4).count, 1)
    }

    /// The edges' rounding to 1/256 pixel is `rounded()`'s (half away from zero), ties and the
    /// values next to them included, negative values and the clamps too.
    func testFixedPointRoundingMatchesRounded() {
        func expected(_ v: Double, _ limit: Int) -> Int { min(limit, max(0, Int((v * 256).rounded()))) }
        var values: [Double] = []
        for k in -600...600 {
            let tie = (Double(k) + 0.5) / 256
            values += [tie, tie.nextUp, tie.nextDown, Double(k) / 256, (Double(k) / 256).nextUp, (Double(k) / 256).nextDown]
        }
        values += [0.49999999999999994 / 256, 0.5 / 256, 1e-300, -1e-300, 0, -0.0, 4095.998046875, 4096, 1e6]
        var rng = SplitMix64(seed: 256)
        values += (0..<20_000).map { _ in rng.double(in: -10...5000) }
        for v in values {
            for limit in [1 << 20, 256 * 100] {
                XCTAssertEqual(EdgeClipper.fixed(v, limit), expected(v, limit), "\(v) (limit \(limit))")
            }
        }
    }

    func testConcurrentCallsMatch() {
        var rng = SplitMix64(seed: 7)
        let shapes = (0..<32).map { _ in randomShape(&rng) }
        let region = PixelRect(x: -10, y: -10, width: 120, height: 120)
        let expected = shapes.map { referenceCoverage(of: $0, in: region).denseValues() }
        let results = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: shapes.count)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        let output = DisjointWrites(results)
        DispatchQueue.concurrentPerform(iterations: shapes.count) { i in
            output.value[i] = Rasterizer.coverage(of: shapes[i], in: region).denseValues()
        }
        for i in shapes.indices {
            XCTAssertEqual(results[i], expected[i], "shape \(i)")
        }
    }

    /// The rows of `ShapeBands`, resolved a range of bands at a time in any order, are the rows of
    /// the mask: the same spans, value for value.
    func testBandRangesResolveToTheMasksRows() {
        var rng = SplitMix64(seed: 0xBA4D5)
        for i in 0..<80 {
            let shape = randomShape(&rng, scaledBy: 1...4)
            let region = PixelRect(x: Int(rng.next() % 41) - 20, y: Int(rng.next() % 41) - 20,
                                   width: Int(rng.next() % 300) + 1, height: Int(rng.next() % 300) + 1)
            let mask = Rasterizer.coverage(of: shape, in: region)
            let bands = ShapeBands(shape: shape, region: region)
            var rows = [[UInt8]](repeating: [], count: region.height)
            // Ranges cut at random, resolved last first: each finds the edges reaching it itself.
            var cuts = Set((0..<3).map { _ in Int(rng.next() % UInt64(bands.bandCount + 1)) })
            cuts.formUnion([0, bands.bandCount])
            let bounds = cuts.sorted()
            for k in (0..<(bounds.count - 1)).reversed() {
                bands.resolve(bands: bounds[k]..<bounds[k + 1]) { row in
                    var values = [UInt8](repeating: 0, count: region.width)
                    row.forEachSpan { x, count, v, constant in
                        for j in 0..<count { values[x - region.x + j] = v?[j] ?? constant }
                    }
                    rows[row.y - region.y] = values
                    return true
                }
            }
            let expected = mask.denseValues(), actual = Array(rows.joined())
            XCTAssertEqual(actual.count, expected.count, "shape \(i)")
            let mismatch = actual.indices.first { actual[$0] != expected[$0] }
            XCTAssertNil(mismatch, "shape \(i): first differing value at index \(mismatch ?? -1)")
        }
    }

    /// A resolve stopped after a few rows (a cancelled render) leaves the scratch clean: the next
    /// coverage on this thread, which takes the same scratch from the pool, is exact.
    func testStoppedBandsLeaveNoTrace() {
        var rng = SplitMix64(seed: 7)
        for i in 0..<40 {
            let shape = randomShape(&rng, scaledBy: 2...3)
            let region = PixelRect(x: -10, y: -10, width: 280, height: 280)
            var seen = 0
            let stopAfter = Int(rng.next() % 70)
            ShapeBands(shape: shape, region: region).resolve(bands: 0..<9) { _ in
                seen += 1
                return seen < stopAfter
            }
            XCTAssertEqual(seen, max(1, min(stopAfter, 280)), "stop \(i)")
            assertIdentical(randomShape(&rng), PixelRect(x: 0, y: 0, width: 150, height: 120), "after stop \(i)")
        }
    }
}
