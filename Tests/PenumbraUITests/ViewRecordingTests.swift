import XCTest
import Foundation
import Penumbra
import PenumbraCPU
@testable import PenumbraModel
@testable import PenumbraUI

/// `View.recording()`: a view tree kept as drawing. Lowered at a scale it is the snapshot at that
/// scale; the Swift drawing bodies ran when it was made, so later changes do not reach it.
final class ViewRecordingTests: XCTestCase {
    /// A tree with a list scrolled by its bounds, labels, an image, a shadowed card, and a view
    /// drawing in Swift whose colour lives outside the tree.
    private func makeTree() -> (root: View, swatch: Swatch) {
        let (root, _, cards) = DamageTests.makeTree(rows: 5)
        cards.first?.layer.shadowOpacity = 0.4
        let swatch = Swatch(frame: Rect(x: 20, y: 250, width: 90, height: 50))
        swatch.layer.cornerRadius = 8
        swatch.clipsToBounds = true
        root.addSubview(swatch)
        return (root, swatch)
    }

    final class Swatch: View, @unchecked Sendable {
        private let lock = NSLock()
        private var _color = Color(red: 0.1, green: 0.6, blue: 0.3)
        var color: Color {
            get { lock.withLock { _color } }
            set { lock.withLock { _color = newValue } }
        }
        override func draw(_ rect: Rect, in context: GraphicsContext) {
            context.setFillColor(color)
            context.rotate(by: 0.3)
            context.fill(Path(ellipseIn: Rect(x: rect.minX + 10, y: rect.minY - 5, width: rect.width - 15, height: rect.height)))
            context.setLineWidth(3)
            context.stroke(Path(rect: rect.insetBy(dx: 4, dy: 4)))
        }
    }

    func testARecordedTreeLoweredAtAScaleIsTheSnapshotAtThatScale() throws {
        let (root, _) = makeTree()
        let recording = root.recording()
        XCTAssertEqual(recording.size, root.bounds.size)
        let renderer = CPURenderer()
        for scale in [1.0, 2.0, 1.5] {
            let snapshot = try root.snapshot(scale: scale)
            let lowered = try renderer.render(recording, scale: scale)
            XCTAssertEqual(lowered.width, snapshot.bitmap.width)
            XCTAssertTrue(lowered == snapshot.bitmap, "at \(scale)x the recording and the snapshot differ")
        }
    }

    func testChangesAfterTheRecordingDoNotReachIt() throws {
        let (root, swatch) = makeTree()
        let before = try root.snapshot(scale: 2)
        let recording = root.recording()
        // A recording that kept the drawing body instead of its calls would call it again later.
        let keepingTheBody = Recording(size: root.bounds.size) {
            DrawViewOp(root: root.rootNode(direction: .leftToRight), layoutDirection: .leftToRight).draw(into: $0)
        }
        swatch.color = Color(red: 0.9, green: 0.1, blue: 0.1)
        swatch.backgroundColor = .white
        let after = try root.snapshot(scale: 2)
        XCTAssertFalse(after.bitmap == before.bitmap, "the change must show in a new snapshot")
        let renderer = CPURenderer()
        XCTAssertTrue(try renderer.render(recording, scale: 2) == before.bitmap, "the recording saw a later change")
        XCTAssertFalse(try renderer.render(keepingTheBody, scale: 2) == before.bitmap,
                       "a body called again at lowering sees the new colour")
        XCTAssertTrue(root.recording() != recording)
    }
}
