// The transform algebra against CGAffineTransform's rules: x' = a x + c y + tx,
// y' = b x + d y + ty; t1.concatenating(t2) applies t1 first; translatedBy /
// scaledBy / rotated(by:) prepend (CGAffineTransformTranslate and friends).

import Foundation
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

final class AffineTransformTests: XCTestCase {
    func assertClose(_ p: Point, _ q: Point, _ accuracy: Double = 1e-12,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, q.x, accuracy: accuracy, "x of \(p) vs \(q)", file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: accuracy, "y of \(p) vs \(q)", file: file, line: line)
    }

    func assertClose(_ s: AffineTransform, _ t: AffineTransform, _ accuracy: Double = 1e-12,
                     file: StaticString = #filePath, line: UInt = #line) {
        let pairs = [(s.a, t.a), (s.b, t.b), (s.c, t.c), (s.d, t.d), (s.tx, t.tx), (s.ty, t.ty)]
        for (x, y) in pairs { XCTAssertEqual(x, y, accuracy: accuracy, "\(s) vs \(t)", file: file, line: line) }
    }

    // MARK: Applying and concatenating

    func testApplyUsesQuartzFieldLayout() {
        let t = AffineTransform(a: 2, b: 3, c: 5, d: 7, tx: 11, ty: 13)
        XCTAssertEqual(t.apply(Point(1, 10)), Point(2 * 1 + 5 * 10 + 11, 3 * 1 + 7 * 10 + 13))
        XCTAssertEqual(t.applyToVector(Point(1, 10)), Point(2 * 1 + 5 * 10, 3 * 1 + 7 * 10))
    }

    func testConcatenatingAppliesTheReceiverFirst() {
        let translate = AffineTransform(translationX: 10, y: 20)
        let scale = AffineTransform(scaleX: 2, y: 3)
        let p = Point(1, 1)
        // Translate then scale: (1 + 10) * 2, (1 + 20) * 3.
        XCTAssertEqual(translate.concatenating(scale).apply(p), Point(22, 63))
        // Scale then translate: 1 * 2 + 10, 1 * 3 + 20.
        XCTAssertEqual(scale.concatenating(translate).apply(p), Point(12, 23))
    }

    func testConcatenatingAgreesWithApplyingInTurn() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<100 {
            let s = rng.transform(), t = rng.transform(), p = rng.point(in: -100...100)
            assertClose(s.concatenating(t).apply(p), t.apply(s.apply(p)), 1e-9)
        }
    }

    func testIdentityIsNeutral() {
        let t = AffineTransform(a: 1.5, b: -2, c: 0.25, d: 3, tx: 4, ty: -5)
        XCTAssertEqual(t.concatenating(.identity), t)
        XCTAssertEqual(AffineTransform.identity.concatenating(t), t)
        XCTAssertTrue(AffineTransform.identity.isIdentity)
        XCTAssertFalse(t.isIdentity)
    }

    // MARK: Constructors

    func testRotationMatrixValues() {
        let angle = 0.3
        let r = AffineTransform(rotationAngle: angle)
        XCTAssertEqual(r.a, cos(angle)); XCTAssertEqual(r.b, sin(angle))
        XCTAssertEqual(r.c, -sin(angle)); XCTAssertEqual(r.d, cos(angle))
        XCTAssertEqual(r.tx, 0); XCTAssertEqual(r.ty, 0)
        // A quarter turn takes +x to +y: clockwise on screen with y down.
        assertClose(AffineTransform(rotationAngle: .pi / 2).apply(Point(1, 0)), Point(0, 1))
        assertClose(AffineTransform(rotationAngle: .pi / 2).apply(Point(0, 1)), Point(-1, 0))
    }

    func testTranslationAndScaleMatrixValues() {
        XCTAssertEqual(AffineTransform(translationX: 3, y: -4), AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: -4))
        XCTAssertEqual(AffineTransform(scaleX: 2, y: -5), AffineTransform(a: 2, b: 0, c: 0, d: -5, tx: 0, ty: 0))
        XCTAssertEqual(AffineTransform(a: 2, b: 3, c: 5, d: 7, tx: 0, ty: 0).determinant, 2 * 7 - 3 * 5)
    }

    // MARK: Prepending operations (CGAffineTransformTranslate, Scale, Rotate)

    func testTranslatedByPrependsTheTranslation() {
        let base = AffineTransform(scaleX: 2, y: 3)
        let t = base.translatedBy(x: 10, y: 20)
        // The translation acts in the untransformed (user) space, then the scale.
        XCTAssertEqual(t.apply(Point(1, 1)), Point(22, 63))
        XCTAssertEqual(t, AffineTransform(translationX: 10, y: 20).concatenating(base))
        XCTAssertEqual(t, AffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 20, ty: 60))
    }

    func testScaledByPrependsTheScale() {
        let base = AffineTransform(translationX: 10, y: 20)
        let t = base.scaledBy(x: 2, y: 3)
        XCTAssertEqual(t.apply(Point(1, 1)), Point(12, 23))
        XCTAssertEqual(t, AffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20))
    }

    func testRotatedByPrependsTheRotation() {
        let base = AffineTransform(translationX: 10, y: 0)
        let t = base.rotated(by: .pi / 2)
        // Rotate (1, 0) to (0, 1) first, then translate.
        assertClose(t.apply(Point(1, 0)), Point(10, 1))
        assertClose(t, AffineTransform(rotationAngle: .pi / 2).concatenating(base))
        // The other order would give (0, 11).
        assertClose(base.concatenating(AffineTransform(rotationAngle: .pi / 2)).apply(Point(1, 0)), Point(0, 11))
    }

    // MARK: Inversion

    func testInvertedRoundTrips() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<100 {
            let t = rng.transform()
            let inverse = try XCTUnwrap(t.inverted())
            assertClose(t.concatenating(inverse), .identity, 1e-9)
            assertClose(inverse.concatenating(t), .identity, 1e-9)
            let p = rng.point(in: -100...100)
            assertClose(inverse.apply(t.apply(p)), p, 1e-9)
        }
    }

    func testInvertedIsNilForSingularOrNonFiniteMatrices() {
        XCTAssertNil(AffineTransform(scaleX: 0, y: 1).inverted())
        XCTAssertNil(AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 6).inverted())
        XCTAssertNil(AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0).inverted())
        XCTAssertFalse(AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).isInvertible)
        XCTAssertTrue(AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 0, ty: 0).isInvertible)
    }

    // MARK: Largest stretch

    func testMaximumStretchOfRotationsIsOne() {
        for angle in stride(from: -3.0, through: 3.0, by: 0.7) {
            XCTAssertEqual(AffineTransform(rotationAngle: angle).maximumStretch, 1, accuracy: 1e-12)
        }
    }

    func testMaximumStretchOfScalesIsTheLargerFactor() {
        XCTAssertEqual(AffineTransform(scaleX: 3, y: -5).maximumStretch, 5, accuracy: 1e-12)
        XCTAssertEqual(AffineTransform(scaleX: -7, y: 2).translatedBy(x: 100, y: 3).maximumStretch, 7, accuracy: 1e-12)
        XCTAssertEqual(AffineTransform(scaleX: 4, y: 0.5).rotated(by: 0.8).maximumStretch, 4, accuracy: 1e-12)
        XCTAssertEqual(AffineTransform(scaleX: 0, y: 0).maximumStretch, 0)
    }

    func testMaximumStretchMatchesTheLongestImageOfAUnitVector() {
        var rng = SplitMix64(seed: 13)
        for _ in 0..<50 {
            let t = rng.transform()
            var longest = 0.0
            for i in 0..<20_000 {
                let angle = Double(i) / 20_000 * .pi
                longest = max(longest, t.applyToVector(Point(cos(angle), sin(angle))).length)
            }
            XCTAssertGreaterThanOrEqual(t.maximumStretch, longest - 1e-12)
            XCTAssertEqual(t.maximumStretch, longest, accuracy: 1e-6 * longest)
        }
    }
}
