import XCTest
import Foundation
import Penumbra
import PenumbraCPU
import PenumbraGPU
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraUI

/// Partial re-renders: after random changes to a tree, ViewRenderer's image is byte for byte a
/// full render's, and it repainted less than everything when little changed.
final class DamageTests: XCTestCase {
    /// A list like the benchmark's: rows of an image view, two labels and a separator in a
    /// scrolled, clipping view, with a shadowed card and a blur panel above it.
    static func makeTree(rows: Int = 14) -> (root: View, labels: [Label], cards: [View]) {
        let root = View(frame: Rect(x: 0, y: 0, width: 240, height: 320))
        root.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.97)
        let list = View(frame: Rect(x: 0, y: 0, width: 240, height: 320))
        list.clipsToBounds = true
        list.bounds = Rect(x: 0, y: 200, width: 240, height: 320)
        root.addSubview(list)
        var labels: [Label] = [], cards: [View] = []
        var pixels = [UInt8](repeating: 0, count: 8 * 8 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = 200; pixels[i + 1] = 80; pixels[i + 3] = 255 }
        let icon = Image(bitmap: Bitmap(width: 8, height: 8, pixels: pixels), scale: 1)
        for r in 0..<rows {
            let row = View(frame: Rect(x: 0, y: Double(r) * 44, width: 240, height: 44))
            let image = ImageView(image: icon)
            image.frame = Rect(x: 8, y: 8, width: 28, height: 28)
            image.layer.cornerRadius = 6
            image.clipsToBounds = true
            let title = Label(frame: Rect(x: 44, y: 2, width: 180, height: 24))
            title.text = "Row \(r)"
            title.font = Font(size: 15, weight: 600)
            let detail = Label(frame: Rect(x: 44, y: 26, width: 180, height: 17))
            detail.text = "detail \(r * 7)"
            detail.font = Font(size: 11)
            detail.textColor = Color(red: 0.4, green: 0.4, blue: 0.45)
            let separator = View(frame: Rect(x: 44, y: 43.5, width: 196, height: 0.5))
            separator.backgroundColor = Color(red: 0.8, green: 0.8, blue: 0.8)
            for v in [image, title, detail, separator] { row.addSubview(v) }
            list.addSubview(row)
            labels.append(title); labels.append(detail)
        }
        let card = View(frame: Rect(x: 150, y: 240, width: 70, height: 50))
        card.backgroundColor = .white
        card.layer.cornerRadius = 10
        card.layer.shadowOpacity = 0.4
        card.layer.shadowRadius = 4
        card.layer.shadowOffset = Size(width: 0, height: 3)
        root.addSubview(card)
        let blur = VisualEffectView(effect: .blur(.light), frame: Rect(x: 0, y: 280, width: 240, height: 40))
        root.addSubview(blur)
        cards.append(card)
        return (root, labels, cards)
    }

    func checkPartialRenders(renderer make: () throws -> Renderer, steps: Int, seed: UInt64) throws {
        let (root, labels, cards) = Self.makeTree()
        let partial = ViewRenderer(view: root, scale: 1, renderer: try make())
        let full = try make()
        _ = try partial.render()
        var random = SplitMix64(state: seed)
        var repainted = 0, total = 0
        for step in 0..<steps {
            let pick = Int(random.next() % 6)
            let label = labels[Int(random.next() % UInt64(labels.count))]
            switch pick {
            case 0: label.text = "changed \(random.next() % 1000)"
            case 1: label.textColor = Color(red: Double(random.next() % 255) / 255, green: 0.2, blue: 0.3)
            case 2: cards[0].center = Point(x: 40 + Double(random.next() % 160), y: 40 + Double(random.next() % 240))
            case 3: label.superview?.alpha = Double(random.next() % 10) / 10
            case 4: label.superview?.isHidden.toggle()
            default: root.subviews[0].bounds.origin.y = Double(random.next() % 1200)
            }
            let image = try partial.render()
            let expected = try full.render(root.rootDisplayList(scale: 1))
            if image.bitmap != expected {
                return XCTFail("step \(step) (change \(pick)): the partial render differs from a full render; repainted \(String(describing: partial.lastRepaint))")
            }
            if let r = partial.lastRepaint { repainted += r.width * r.height }
            total += expected.width * expected.height
        }
        XCTAssertLessThan(repainted, total, "small changes repaint less than everything: \(repainted) of \(total) pixels")
    }

    func testPartialRendersGiveTheBytesOfFullRendersOnTheCPU() throws {
        try checkPartialRenders(renderer: { CPURenderer() }, steps: 10, seed: 7)
    }

    func testPartialRendersGiveTheBytesOfFullRendersOnTheGPU() throws {
        let gpu: GPURenderer
        do { gpu = try GPURenderer() } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("CI=true and no GPU context: \(error)") }
            throw XCTSkip("no headless EGL/GLES 3 context: \(error)")
        }
        try checkPartialRenders(renderer: { gpu }, steps: 6, seed: 11)
    }

    func testAnUnchangedTreeRepaintsNothingAndOneLabelRepaintsItsRow() throws {
        let (root, labels, _) = Self.makeTree()
        let renderer = ViewRenderer(view: root, scale: 1, renderer: CPURenderer())
        let first = try renderer.render()
        XCTAssertEqual(renderer.lastRepaint?.width, first.bitmap.width)
        _ = try renderer.render()
        XCTAssertNil(renderer.lastRepaint, "nothing changed")
        labels[10].text = "Row 5, renamed"   // row 5 is on screen (scrolled by 200 points: rows 4...11)
        _ = try renderer.render()
        let r = try XCTUnwrap(renderer.lastRepaint)
        XCTAssertLessThanOrEqual(r.height, 26, "one label's height, not the list: \(r)")
        labels[0].text = "off screen"        // row 0 is scrolled out and clipped
        _ = try renderer.render()
        XCTAssertNil(renderer.lastRepaint, "a label scrolled above the canvas repaints nothing")
    }
}

extension View {
    /// The display list of a full render of the tree, as ViewRenderer draws it.
    func rootDisplayList(scale: Double) -> DisplayList {
        let root = rootNode(direction: .leftToRight)
        let context = GraphicsContext(size: root.bounds.size, scale: scale)
        DrawViewOp(root: root).draw(into: context)
        return context.displayList
    }
}
