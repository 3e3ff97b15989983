// The ratchet over resvg's test suite (Tests/SVGSuite: 718 documents of the categories
// structure, shapes, painting, paint-servers and masking, each beside the PNG it should give).
// Every document is rendered in-process at its reference's size, references confined to the
// suite's folder, on the CPU renderer, and judged by the rule of the suite's judge.py: a test
// passes when at most 0.5% of its pixels differ from the reference by more than 40 of 255 in a
// premultiplied channel. The test fails when fewer pass than Tests/SVGSuite/ratchet.txt records
// (raise that number when more pass), and when any document crashes, hangs past the budget or
// throws anything but an SVGError.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU
import PenumbraSVG

/// The suite's judging rule, on premultiplied RGBA8 bitmaps.
enum SVGSuiteJudge {
    /// The share of pixels where some premultiplied channel differs by more than 40 of 255 (1
    /// when the sizes differ). judge.py premultiplies straight PNG pixels in floating point;
    /// premultiplied 8-bit values differ from those by under one level.
    static func badShare(_ a: Bitmap, _ b: Bitmap) -> Double {
        guard a.width == b.width, a.height == b.height else { return 1 }
        var bad = 0
        a.pixels.withUnsafeBufferPointer { x in
            b.pixels.withUnsafeBufferPointer { y in
                var i = 0
                while i < x.count {
                    for c in 0..<4 where abs(Int(x[i + c]) - Int(y[i + c])) > 40 { bad += 1; break }
                    i += 4
                }
            }
        }
        return Double(bad) / Double(max(1, a.width * a.height))
    }

    static func passes(_ a: Bitmap, _ b: Bitmap) -> Bool { badShare(a, b) <= 0.005 }
}

final class SVGSuiteTests: XCTestCase {
    static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SVGSuite")

    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var verdicts: [String: String?] = [:] // nil: passed; else why not
        private(set) var seconds: [String: Double] = [:]
        func record(_ name: String, _ failure: String?, seconds time: Double) {
            lock.withLock { verdicts[name] = .some(failure); seconds[name] = time }
        }
    }

    func testThePassCountDoesNotFallBelowTheRatchet() throws {
        let tests = Self.suite.appendingPathComponent("tests")
        let names = (FileManager.default.enumerator(atPath: tests.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".svg") }.sorted()
        XCTAssertEqual(names.count, 718, "the suite's documents")
        let results = Results()
        let root = Self.suite.path
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            let name = names[i]
            let svg = tests.appendingPathComponent(name)
            let start = Date()
            func record(_ failure: String?) { results.record(name, failure, seconds: Date().timeIntervalSince(start)) }
            do {
                let reference = try PNGCodec.decode([UInt8](Data(contentsOf: svg.deletingPathExtension().appendingPathExtension("png"))))
                let document = try SVGDocument(bytes: [UInt8](Data(contentsOf: svg)), baseDirectory: svg.deletingLastPathComponent().path,
                                               assetsDirectory: root, codecs: .standard)
                let context = GraphicsContext(pixelWidth: reference.width, pixelHeight: reference.height)
                try document.draw(in: context, width: Double(reference.width), height: Double(reference.height))
                let bitmap = try CPURenderer().render(context.displayList)
                let share = SVGSuiteJudge.badShare(bitmap, reference)
                record(share <= 0.005 ? nil : String(format: "%.2f%% of the pixels differ", share * 100))
            } catch let error as SVGError {
                record("rejected: \(error)")
            } catch {
                record("unexpected error: \(error)")
            }
        }
        let verdicts = results.verdicts
        let unexpected = verdicts.filter { $0.value?.hasPrefix("unexpected") == true }
        XCTAssertTrue(unexpected.isEmpty, "documents that failed other than by an SVGError: \(unexpected)")
        var perCategory: [String: (passed: Int, total: Int)] = [:]
        for (name, failure) in verdicts {
            let category = String(name.prefix { $0 != "/" })
            perCategory[category, default: (0, 0)].total += 1
            if failure == nil { perCategory[category, default: (0, 0)].passed += 1 }
        }
        let passed = verdicts.values.filter { $0 == nil }.count
        let ratchetText = try String(contentsOf: Self.suite.appendingPathComponent("ratchet.txt"), encoding: .utf8)
        let ratchet = Int(ratchetText.split(separator: "\n").first { !$0.hasPrefix("#") }?.trimmingCharacters(in: .whitespaces) ?? "") ?? Int.max
        print(perCategory.sorted { $0.key < $1.key }.map { "svg-suite \($0.key): \($0.value.passed)/\($0.value.total)" }.joined(separator: "\n"))
        print("svg-suite: \(passed)/\(verdicts.count) passed (ratchet \(ratchet))")
        for (name, failure) in verdicts.sorted(by: { $0.key < $1.key }) { if let failure { print("svg-suite fail \(name): \(failure)") } }
        let slowest = results.seconds.sorted { $0.value > $1.value }.prefix(8)
        print("svg-suite slowest: " + slowest.map { String(format: "%@ %.2f s", $0.key, $0.value) }.joined(separator: ", "))
        XCTAssertGreaterThanOrEqual(passed, ratchet, "fewer suite documents pass than Tests/SVGSuite/ratchet.txt records")
        if passed > ratchet { print("svg-suite: \(passed) pass, more than the ratchet's \(ratchet): raise Tests/SVGSuite/ratchet.txt") }
    }

    /// The judge reports a real difference: a bitmap against itself passes, against a copy with
    /// 1% of its pixels changed by 41 levels fails, and with 0.4% changed passes.
    func testTheJudgeReportsARealDifference() throws {
        let reference = try PNGCodec.decode([UInt8](Data(contentsOf: Self.suite.appendingPathComponent("tests/shapes/rect/ch-values.png"))))
        XCTAssertTrue(SVGSuiteJudge.passes(reference, reference))
        func changed(_ share: Double) -> Bitmap {
            var b = reference
            let count = Int(Double(b.width * b.height) * share)
            for p in 0..<count { b.pixels[p * 4 + 3] = b.pixels[p * 4 + 3] > 127 ? b.pixels[p * 4 + 3] - 41 : b.pixels[p * 4 + 3] + 41 }
            return b
        }
        XCTAssertFalse(SVGSuiteJudge.passes(changed(0.01), reference))
        XCTAssertTrue(SVGSuiteJudge.passes(changed(0.004), reference))
        XCTAssertEqual(SVGSuiteJudge.badShare(changed(0.01), reference), 0.01, accuracy: 0.0001)
        let other = Bitmap(width: reference.width + 1, height: reference.height, pixels: [UInt8](repeating: 0, count: (reference.width + 1) * reference.height * 4))
        XCTAssertEqual(SVGSuiteJudge.badShare(other, reference), 1)
    }
}
