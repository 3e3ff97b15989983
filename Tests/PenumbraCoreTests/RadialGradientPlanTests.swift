// RadialGradientPlanTests: the integer radial solve (docs/ARITHMETIC.md,
// "Radial gradients") against the canvas rule solved in float64.
import XCTest
import PenumbraTestSupport
import PenumbraModel
import PenumbraCore

final class RadialGradientPlanTests: XCTestCase {
    /// The canvas rule in Double: the largest t with a non-negative radius where the gradient draws.
    static func reference(_ g: GradientDraw, x: Int, y: Int) -> Double? {
        guard case .radial(let c0, let r0, let c1, let r1) = g.kind, let inverse = g.transform.inverted() else { return nil }
        let p = inverse.apply(Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
        let cd = c1 - c0, pd = p - c0, dr = r1 - r0
        let a = cd.dot(cd) - dr * dr, b = pd.dot(cd) + r0 * dr, c = pd.dot(pd) - r0 * r0
        func draws(_ t: Double) -> Bool {
            r0 + t * dr >= 0 && (t < 0 ? g.extendStart : (t > 1 ? g.extendEnd : true))
        }
        if abs(a) < 1e-12 {
            guard b != 0 else { return nil }
            let t = c / (2 * b)
            return draws(t) ? t : nil
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return nil }
        let t1 = (b + disc.squareRoot()) / a, t2 = (b - disc.squareRoot()) / a
        let (hi, lo) = t1 > t2 ? (t1, t2) : (t2, t1)
        if draws(hi) { return hi }
        if draws(lo) { return lo }
        return nil
    }

    func testSquareRootIsTheFloorOfTheRealRoot() {
        var values: [UInt64] = [0, 1, 2, 3, 4, (1 << 63) - 1, 1 << 62, (1 << 62) - 1]
        var g = SplitMix64(state: 5)
        for _ in 0..<50_000 { values.append(g.next() >> 1) }
        for _ in 0..<10_000 { let k = g.next() % (1 << 31); values += [k * k, k * k &- 1, k * k + 1] }
        for n in values + [UInt64.max, UInt64.max - 1, (1 << 32) * (1 << 32 - 1)] {
            let r = Fixed.squareRoot(n)
            XCTAssertTrue(r * r <= n, "sqrt(\(n)) = \(r)")
            let (next, overflow) = (r + 1).multipliedReportingOverflow(by: r + 1)
            XCTAssertTrue(overflow || next > n, "sqrt(\(n)) = \(r)")
        }
    }

    /// On random gradients under random transforms, a black-to-white ramp read through t16 against
    /// the float64 parameter: the mean error stays below the contract's 0.3, and drawn/undrawn
    /// pixels disagree only where the float64 solve itself sits on a boundary.
    func testParameterMatchesTheFloat64CanvasRule() {
        var random = SplitMix64(state: 17)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        var total = 0.0, samples = 0, large = 0, disagreements = 0
        for _ in 0..<200 {
            let angle = unit() * 6.28, scale = 0.3 + 3 * unit()
            let transform = AffineTransform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle),
                                            d: scale * cos(angle), tx: 60 * unit(), ty: 60 * unit())
            let c0 = Point(x: 100 * unit(), y: 100 * unit())
            let c1 = unit() < 0.3 ? c0 : Point(x: 100 * unit(), y: 100 * unit())
            let gradient = GradientDraw(kind: .radial(startCenter: c0, startRadius: unit() < 0.4 ? 0 : 40 * unit(),
                                                      endCenter: c1, endRadius: 5 + 80 * unit()),
                                        stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)],
                                        extendStart: random.next() % 2 == 0, extendEnd: random.next() % 2 == 0,
                                        transform: transform)
            guard let plan = RadialGradientPlan(gradient) else { XCTFail("no plan"); continue }
            for y in stride(from: 0, to: 400, by: 7) {
                for x in stride(from: 0, to: 400, by: 7) {
                    let exact = RadialGradientPlanTests.reference(gradient, x: x, y: y)
                    let fixed = plan.parameter(x, y)
                    guard let exact, let fixed else {
                        if (exact == nil) != (fixed == nil) { disagreements += 1 }
                        continue
                    }
                    let expected = 255 * max(0, min(1, exact))
                    let got = 255 * Double(max(0, min(65536, fixed))) / 65536
                    let error = abs(expected - got)
                    total += error; samples += 1
                    if error > 2 { large += 1 }
                }
            }
        }
        let mean = total / Double(samples)
        print("radial: \(samples) samples, mean error \(mean), \(large) over 2 levels, \(disagreements) drawn/undrawn disagreements")
        XCTAssertGreaterThan(samples, 100_000)
        XCTAssertLessThan(mean, 0.05)
        XCTAssertLessThan(Double(large), 0.001 * Double(samples))
        XCTAssertLessThan(Double(disagreements), 0.002 * Double(samples))
    }

    func testConcentricGradientIsTheDistanceOverTheRadius() throws {
        let gradient = GradientDraw(kind: .radial(startCenter: Point(x: 50, y: 49.5), startRadius: 0,
                                                  endCenter: Point(x: 50, y: 49.5), endRadius: 40),
                                    stops: [], extendStart: false, extendEnd: false, transform: .identity)
        let plan = try XCTUnwrap(RadialGradientPlan(gradient))
        // Pixel (69, 49) has its centre 19.5 right of the gradient's centre: t = 19.5 / 40.
        let t = try XCTUnwrap(plan.parameter(69, 49))
        XCTAssertEqual(Double(t) / 65536, 19.5 / 40, accuracy: 2.0 / 65536)
        XCTAssertNil(plan.parameter(95, 49), "beyond the unextended end circle")
    }

    func testDegenerateGradientsDrawNothing() {
        let point = Point(x: 10, y: 10)
        let zero = GradientDraw(kind: .radial(startCenter: point, startRadius: 0, endCenter: point, endRadius: 0),
                                stops: [], transform: .identity)
        XCTAssertNil(RadialGradientPlan(zero))
    }
}
