import XCTest
import PenumbraTestSupport
@testable import PenumbraCPU
@testable import PenumbraModel
@testable import PenumbraCore

/// The shadow caster's alpha plane (alpha-only shading, trimmed rows, two threads, reused stale
/// buffers) against its definition: every row's coverage, shaded with the full colour shader over
/// the whole plane width, alpha = coverage x colour alpha where coverage > 0, 0 elsewhere.
final class CasterAlphaTests: XCTestCase {
    /// The caster plane as the shadow code defined it before it was optimised; `shader` is the
    /// paint resolved at the shadow's offset.
    private func referencePlane(_ plan: ShadowPlan, _ shader: Shader) -> [UInt8] {
        let plane = plan.plane
        var alpha = [UInt8](repeating: 0, count: plane.area)
        var colors = [SIMD4<UInt8>](repeating: .zero, count: plane.width)
        var row = [UInt8](repeating: 255, count: plane.width)
        for y in plane.y..<plane.maxY {
            let any: Bool = row.withUnsafeMutableBufferPointer { rp in
                CPUFrame.coverageRow(y: y, x0: plane.x, width: plane.width, coverage: plan.casterCoverage, into: rp)
                return rp.contains { $0 > 0 }
            }
            guard any else { continue }
            colors.withUnsafeMutableBufferPointer { cp in
                row.withUnsafeMutableBufferPointer { rp in
                    shader.shade(y: y, x0: plane.x, count: plane.width,
                                 colors: cp.baseAddress!, coverage: rp.baseAddress!)
                }
            }
            let base = (y - plane.y) * plane.width
            for i in 0..<plane.width where row[i] > 0 { alpha[base + i] = CoverageMask.product(row[i], colors[i].w) }
        }
        return alpha
    }

    private func casterPlane(_ plan: ShadowPlan, _ shader: Shader, threads: Int) -> [UInt8] {
        var values = [UInt8](repeating: 77, count: plan.plane.area)  // stale contents must all be replaced
        values.withUnsafeMutableBufferPointer { v in
            CasterAlpha(plan: plan, shader: shader.preparedForAlpha(), values: v.baseAddress!, threads: threads).run()
        }
        return values
    }

    private func assertIdentical(_ actual: [UInt8], _ expected: [UInt8], _ label: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, label, file: file, line: line)
        let mismatch = actual.indices.first { actual[$0] != expected[$0] }
        XCTAssertNil(mismatch, "\(label): first difference at \(mismatch ?? -1)", file: file, line: line)
    }

    private func image(_ rng: inout SplitMix64, opaque: Bool) -> Bitmap {
        var b = Bitmap(width: 23, height: 17)
        for y in 0..<17 { for x in 0..<23 {
            let a: UInt8 = opaque ? 255 : UInt8(truncatingIfNeeded: rng.next())
            b[x, y] = SIMD4(premultiply(UInt8(truncatingIfNeeded: rng.next()), alpha: a), 0, premultiply(200, alpha: a), a)
        } }
        return b
    }

    func testImageCastersMatchTheDefinitionOnAnyThreadCount() {
        var rng = SplitMix64(seed: 21)
        let frame = PixelRect(x: 0, y: 0, width: 90, height: 70)
        for i in 0..<16 {
            let tint: Color? = i % 4 == 3 ? Color(red: 1, green: 0.5, blue: 0, alpha: 0.6) : nil
            let slicing: NineSlice? = i % 8 == 5 ? NineSlice(capInsets: EdgeInsets(top: 3, left: 4, bottom: 2, right: 5)) : nil
            let draw = ImageDraw(bitmap: image(&rng, opaque: i % 2 == 0), scale: 1, transform: rng.transform(),
                                 rect: Rect(x: rng.double(in: -5...30), y: rng.double(in: -5...30), width: 32, height: 16),
                                 slicing: slicing, tint: tint, flippedHorizontally: i % 3 == 0)
            let shadow = DeviceShadow(offset: Point(rng.double(in: -12...12), rng.double(in: -12...12)), sigma: rng.double(in: 0.5...4),
                                      color: .black)
            guard let plan = ShadowPlan(shadow: shadow, geometry: .shape(DrawPlanner.coverageShape(of: draw)), frame: frame,
                                        clips: [], clipRegion: nil, form: .masks) else { continue }
            let shader = makeShader(PaintPlan(image: draw, offset: plan.offset))
            let expected = referencePlane(plan, shader)
            for threads in [1, 2, 3] {
                assertIdentical(casterPlane(plan, shader, threads: threads), expected, "image \(i), \(threads) threads")
            }
        }
    }

    func testSolidAndGradientCastersMatchTheDefinition() {
        let frame = PixelRect(x: 0, y: 0, width: 60, height: 50)
        var path = Path(); path.addEllipse(in: Rect(x: 8, y: 6, width: 40, height: 30))
        let shape = DeviceShape(contours: path.flattened(transform: .identity).map(\.points), rule: .nonzero)
        let shadow = DeviceShadow(offset: Point(3.5, -2), sigma: 2, color: .black)
        let plan = ShadowPlan(shadow: shadow, geometry: .shape(shape), frame: frame, clips: [], clipRegion: nil, form: .masks)!
        let gradient = GradientDraw(kind: .linear(start: Point(10, 0), end: Point(40, 0)),
                                    stops: [GradientStop(offset: 0, color: Color(red: 1, green: 0, blue: 0, alpha: 0.2)),
                                            GradientStop(offset: 1, color: Color(red: 0, green: 0, blue: 1, alpha: 0.9))],
                                    extendStart: false, extendEnd: true, transform: .identity)
        for (name, paint) in [("solid", PaintPlan(color: Color(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.7))),
                              ("gradient", PaintPlan(gradient: gradient, offset: plan.offset))] {
            let shader = makeShader(paint)
            let expected = referencePlane(plan, shader)
            XCTAssertTrue(expected.contains { $0 > 0 }, name)
            for threads in [1, 2] { assertIdentical(casterPlane(plan, shader, threads: threads), expected, "\(name), \(threads) threads") }
        }
    }

    func testScratchBuffersHaveTheRequestedCountAndAreReused() {
        let first = ShadowScratch.planes.take(count: 5000)
        XCTAssertEqual(first.count, 5000)
        let capacity = first.capacity
        ShadowScratch.planes.give(first)
        let smaller = ShadowScratch.planes.take(count: 1200)
        XCTAssertEqual(smaller.count, 1200)
        XCTAssertGreaterThanOrEqual(smaller.capacity, 1200)
        ShadowScratch.planes.give(smaller)
        let larger = ShadowScratch.planes.take(count: capacity + 10)
        XCTAssertEqual(larger.count, capacity + 10)
        ShadowScratch.planes.give(larger)
        XCTAssertEqual(ShadowScratch.planes.take(count: 0).count, 0)
    }

    func testIsOpaqueMatchesAByteByByteScan() {
        var rng = SplitMix64(seed: 8)
        for (w, h) in [(1, 1), (3, 1), (7, 5), (8, 8), (16, 1), (17, 3), (64, 17), (1030, 3)] {
            var bitmap = Bitmap(width: w, height: h)
            for y in 0..<h { for x in 0..<w { bitmap[x, y] = SIMD4(UInt8(truncatingIfNeeded: rng.next()), 0, 9, 255) } }
            XCTAssertTrue(bitmap.isOpaque, "\(w)x\(h)")
            // One translucent pixel anywhere makes it not opaque; colour bytes never matter.
            for _ in 0..<12 {
                let (x, y) = (Int(rng.next() % UInt64(w)), Int(rng.next() % UInt64(h)))
                var copy = bitmap
                copy[x, y] = SIMD4(255, 255, 255, UInt8(rng.next() % 255))
                XCTAssertFalse(copy.isOpaque, "\(w)x\(h) at (\(x), \(y))")
            }
        }
        XCTAssertTrue(Bitmap(width: 0, height: 0).isOpaque)
        XCTAssertFalse(Bitmap(width: 2, height: 2).isOpaque)
    }
}
