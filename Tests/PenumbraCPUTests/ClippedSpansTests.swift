// A draw's coverage under a clip composited as spans (ClippedSpans.swift)
// against the per-pixel definition: coverage div255(geometry x clip) at every
// pixel (geometry 255 for a plane), then composite(source:destination:
// coverage:mode:) of the paint's colour. Random polygons and rounded clips
// (long constant runs, explicit edges, products that round to 0), every blend
// mode, solid paints opaque and not, a rotated image; the mask path, the
// plane path and the band path (a shape resolved as it is composited).
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraCPU

final class ClippedSpansTests: XCTestCase {
    private let width = 160, height = 90

    private func randomShape(_ g: inout SplitMix64) -> DeviceShape {
        if g.next() % 2 == 0 {
            var path = Path()
            path.addRoundedRect(in: Rect(x: g.double(in: -20...60), y: g.double(in: -10...30), width: g.double(in: 40...150),
                                         height: g.double(in: 20...80)), cornerRadius: 12)
            if g.next() % 2 == 0 { path.addEllipse(in: Rect(x: g.double(in: 20...90), y: g.double(in: 10...40), width: 40, height: 30)) }
            return DeviceShape(contours: path.flattened(transform: .identity).map(\.points), rule: .evenOdd)
        }
        return DeviceShape(contours: [(0..<7).map { _ in g.point(in: -15...175) }], rule: .nonzero)
    }

    private func randomShader(_ g: inout SplitMix64) -> Shader {
        switch g.next() % 3 {
        case 0: return SolidShader(premultiplied8: SIMD4(40, 90, 200, 255))
        case 1: return SolidShader(premultiplied8: SIMD4(30, 20, 60, 100))
        default:
            var bitmap = Bitmap(width: 9, height: 7)
            for i in stride(from: 0, to: bitmap.pixels.count, by: 4) {
                let a = UInt8(truncatingIfNeeded: g.next())
                bitmap.pixels[i + 3] = a
                for k in 0..<3 { bitmap.pixels[i + k] = premultiply(UInt8(truncatingIfNeeded: g.next()), alpha: a) }
            }
            let draw = ImageDraw(bitmap: bitmap, scale: 1, transform: PenumbraModel.AffineTransform(a: 7, b: 3, c: -3, d: 7, tx: 40, ty: -5),
                                 rect: Rect(x: 0, y: 0, width: 9, height: 7), interpolation: .low)
            return makeShader(PaintPlan(image: draw))
        }
    }

    /// The paint's colour at one pixel (the shader's own row of one).
    private func color(_ shader: Shader, _ x: Int, _ y: Int) -> SIMD4<Int32> {
        var c = SIMD4<UInt8>(), k: UInt8 = 255
        shader.shade(y: y, x0: x, count: 1, colors: &c, coverage: &k)
        return SIMD4<Int32>(truncatingIfNeeded: c)
    }

    func testClippedSpansGiveThePerPixelDefinition() {
        var g = SplitMix64(seed: 0xC11_95A4)
        let frame = PixelRect(x: 0, y: 0, width: width, height: height)
        var checked = 0
        for trial in 0..<120 {
            let clip = Rasterizer.coverage(of: randomShape(&g), in: frame)
            let geometry = randomShape(&g)
            let region = Rasterizer.region(of: geometry, within: frame) ?? frame
            let shader = randomShader(&g)
            let mode = BlendMode.allCases[Int(g.next() % UInt64(BlendMode.allCases.count))]
            let alpha: UInt8 = g.next() % 3 == 0 ? 170 : 255
            let original: [UInt8] = (0..<(width * height)).flatMap { _ -> [UInt8] in
                let a = UInt8(truncatingIfNeeded: g.next())
                return (0..<3).map { _ in premultiply(UInt8(truncatingIfNeeded: g.next()), alpha: a) } + [a]
            }
            let path = ["mask", "plane", "bands"][trial % 3]
            let mask = path == "mask" ? Rasterizer.coverage(of: geometry, in: region) : nil
            var frameState = CPUFrame(list: DisplayList(width: width, height: height, scale: 1, background: nil))
            frameState.target.bitmap.pixels = original
            switch path {
            case "bands": frameState.composite(bands: ShapeBands(shape: geometry, region: region), clip: clip, shader: shader, alpha: alpha, mode: mode)
            case "plane": frameState.composite(region: region, coverage: nil, clip: clip, shader: shader, alpha: alpha, mode: mode)
            default: frameState.composite(region: region, coverage: mask, clip: clip, shader: shader, alpha: alpha, mode: mode)
            }
            let dense = path == "plane" ? nil : Rasterizer.coverage(of: geometry, in: region)
            var wrong: [(Int, Int)] = []
            for y in 0..<height { for x in 0..<width {
                let i = (y * width + x) * 4
                let d = SIMD4<Int32>(Int32(original[i]), Int32(original[i + 1]), Int32(original[i + 2]), Int32(original[i + 3]))
                var expected = d
                let inRegion = x >= region.x && x < region.maxX && y >= region.y && y < region.maxY
                let t = inRegion ? CoverageMask.product(dense?[x, y] ?? 255, clip[x, y]) : 0
                if t > 0 {
                    let s = Fixed.div255(color(shader, x, y) &* Int32(alpha))
                    if !(s.w == 0 && mode.preservesDestinationWhereSourceIsClear) {
                        expected = PenumbraCPU.composite(source: s, destination: d, coverage: Int32(t), mode: mode)
                    }
                    checked += 1
                }
                let p = frameState.target.bitmap.pixels
                if SIMD4<Int32>(Int32(p[i]), Int32(p[i + 1]), Int32(p[i + 2]), Int32(p[i + 3])) != expected { wrong.append((x, y)) }
            } }
            XCTAssert(wrong.isEmpty, "trial \(trial) (\(path), \(mode), alpha \(alpha)): \(wrong.count) pixels differ, first \(wrong.prefix(4))")
        }
        XCTAssertGreaterThan(checked, 100_000)
    }
}
