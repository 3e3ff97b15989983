import XCTest
import Penumbra
import PenumbraCPU

/// Every example scene rendered on the CPU reference renderer matches its blessed PNG.
/// Bless new or changed references with PENUMBRA_BLESS=1 swift test --filter ReferenceImageTests.
final class ReferenceImageTests: XCTestCase {
    func testEveryExampleMatchesItsReference() throws {
        let scenes = try TestSupport.exampleScenes()
        XCTAssertGreaterThanOrEqual(scenes.count, 4)
        for url in scenes {
            let scene = try TestSupport.loadScene(url)
            let bitmap = try CPURenderer().render(scene.displayList())
            XCTAssertEqual(bitmap.width, scene.pixelWidth)
            try TestSupport.assertMatchesReference(bitmap, name: url.deletingPathExtension().lastPathComponent)
        }
    }

    func testTheReferenceCheckerReportsARealDifference() throws {
        let url = TestSupport.examples.appendingPathComponent("oval.json")
        var bitmap = try CPURenderer().render(TestSupport.loadScene(url).displayList())
        let reference = bitmap
        bitmap[10, 10] = SIMD4(0, 0, 0, 255)
        bitmap[11, 10] = bitmap[11, 10] &+ SIMD4(3, 0, 0, 0)
        let diff = try XCTUnwrap(ImageDifference(reference, bitmap))
        XCTAssertFalse(diff.isExact)
        XCTAssertEqual(diff.pixelsDiffering, 2)
        XCTAssertEqual(diff.maxChannelDifference, 255)
        XCTAssertTrue(ImageDifference(reference, reference)!.isExact)
    }

    func testHypnosisRendersAtItsFullSize() throws {
        let scene = try TestSupport.loadScene(TestSupport.examples.appendingPathComponent("hypnosis.json"))
        XCTAssertEqual(scene.pixelWidth, 1024)
        XCTAssertEqual(scene.pixelHeight, 1024)
        let bitmap = try CPURenderer().render(scene.displayList())
        // The outermost circle (radius 512, width 10) touches the middle of each edge in purple,
        // the blue oval fills the top-left corner's (50, 50), and between rings it is white.
        XCTAssertEqual(bitmap[1020, 512], SIMD4(128, 0, 128, 255))
        XCTAssertEqual(bitmap[50, 50], SIMD4(0, 0, 255, 255))
        XCTAssertEqual(bitmap[512 + 502, 512], SIMD4(255, 255, 255, 255))
    }
}
