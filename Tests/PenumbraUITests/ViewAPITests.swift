import XCTest
import Foundation
import Penumbra
import PenumbraCPU
import PenumbraText
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraUI

/// The Swift API: trees built with it draw the bytes of the same tree written as a scene, and it
/// behaves as UIKit's names promise (hierarchy, tint inheritance, sizing, snapshots, redraws).
final class ViewAPITests: XCTestCase {
    private func sceneImage(_ view: String, size: Size, scale: Double = 2, images: String = "{}") throws -> Bitmap {
        let scene = try Scene.decode("""
            {"format":"penumbra-scene","version":1,"size":[\(size.width),\(size.height)],"scale":\(scale),"images":\(images),
             "ops":[{"op":"drawView","view":\(view)}]}
            """, baseDirectory: "/nonexistent", environment: .standard)
        return try CPURenderer().render(scene.displayList())
    }

    final class Rings: View, @unchecked Sendable {
        override func draw(_ rect: Rect, in context: GraphicsContext) {
            context.setStrokeColor(Color(red: 0.6, green: 0.6, blue: 0.6))
            context.setLineWidth(4)
            for r in stride(from: 10.0, through: 60, by: 12) {
                context.stroke(Path(ellipseIn: Rect(x: rect.midX - r, y: rect.midY - r, width: 2 * r, height: 2 * r)))
            }
        }
    }

    func testAPITreeDrawsTheBytesOfTheSceneTree() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 150))
        root.backgroundColor = .white
        root.tintColor = Color(red: 1, green: 0, blue: 0)
        let rings = Rings(frame: Rect(x: 10, y: 10, width: 120, height: 120))
        rings.layer.cornerRadius = 12
        rings.layer.borderWidth = 2
        rings.layer.borderColor = Color(red: 0, green: 0, blue: 1)
        rings.clipsToBounds = true
        root.addSubview(rings)
        let label = Label(frame: Rect(x: 120, y: 20, width: 70, height: 40))
        label.text = "Hello, views"
        label.numberOfLines = 0
        label.font = Font(size: 13)
        label.textColor = Color(red: 0.2, green: 0.2, blue: 0.2)
        root.addSubview(label)
        let card = View(frame: Rect(x: 130, y: 80, width: 50, height: 40))
        card.backgroundColor = Color(red: 0, green: 0.5, blue: 0.25)
        card.layer.shadowOpacity = 0.5
        card.layer.shadowRadius = 4
        card.alpha = 0.8
        root.addSubview(card)

        let api = try root.snapshot(scale: 2)
        let scene = try sceneImage("""
            {"frame":[0,0,200,150],"backgroundColor":"#FFFFFF","tintColor":"#FF0000","subviews":[
              {"frame":[10,10,120,120],"clipsToBounds":true,"layer":{"cornerRadius":12,"borderWidth":2,"borderColor":"#0000FF"},
               "draw":[{"op":"setStrokeColor","color":[0.6,0.6,0.6,1]},{"op":"setLineWidth","width":4},
                 {"op":"stroke","path":{"ellipse":[50,50,20,20]}},{"op":"stroke","path":{"ellipse":[38,38,44,44]}},
                 {"op":"stroke","path":{"ellipse":[26,26,68,68]}},{"op":"stroke","path":{"ellipse":[14,14,92,92]}},
                 {"op":"stroke","path":{"ellipse":[2,2,116,116]}}]},
              {"type":"label","frame":[120,20,70,40],"text":"Hello, views","numberOfLines":0,"font":{"size":13},"textColor":[0.2,0.2,0.2,1]},
              {"frame":[130,80,50,40],"backgroundColor":[0,0.5,0.25,1],"alpha":0.8,"layer":{"shadowOpacity":0.5,"shadowRadius":4}}]}
            """, size: Size(width: 200, height: 150))
        XCTAssertTrue(api.bitmap == scene, "the API's tree and the scene's tree differ")
    }

    func testHierarchyAndInheritance() {
        let a = View(frame: Rect(x: 0, y: 0, width: 10, height: 10)), b = View(), c = View()
        a.addSubview(b)
        b.addSubview(c)
        XCTAssertEqual(c.tintColor, ViewNode.defaultTint)
        a.tintColor = Color(red: 1, green: 0, blue: 0)
        XCTAssertEqual(c.tintColor, Color(red: 1, green: 0, blue: 0), "inherited two levels down")
        b.tintColor = Color(red: 0, green: 1, blue: 0)
        XCTAssertEqual(c.tintColor, Color(red: 0, green: 1, blue: 0))
        b.tintColor = nil
        XCTAssertEqual(c.tintColor, Color(red: 1, green: 0, blue: 0), "nil inherits again")

        b.semanticContentAttribute = .forceRightToLeft
        XCTAssertEqual(c.effectiveUserInterfaceLayoutDirection, .rightToLeft)
        XCTAssertEqual(a.effectiveUserInterfaceLayoutDirection, .leftToRight)

        c.addSubview(a)  // a cycle: refused
        XCTAssertTrue(c.subviews.isEmpty)
        a.insertSubview(c, at: 0)  // moves c from b to a
        XCTAssertTrue(b.subviews.isEmpty)
        XCTAssertTrue(a.subviews.first === c && c.superview === a)
        c.removeFromSuperview()
        XCTAssertNil(c.superview)
        XCTAssertEqual(a.subviews.count, 1)
    }

    func testGeometryFollowsUIKit() {
        let v = View(frame: Rect(x: 10, y: 20, width: 40, height: 30))
        XCTAssertEqual(v.center, Point(x: 30, y: 35))
        XCTAssertEqual(v.bounds, Rect(x: 0, y: 0, width: 40, height: 30))
        v.transform = AffineTransform(scaleX: 2, y: 2)
        XCTAssertEqual(v.frame, Rect(x: -10, y: 5, width: 80, height: 60), "the transformed bounds' box about the centre")
        v.transform = .identity
        v.bounds.origin = Point(x: 5, y: 5)
        XCTAssertEqual(v.frame, Rect(x: 10, y: 20, width: 40, height: 30), "scrolling moves the content, not the frame")
    }

    func testLabelSizingMatchesTheScenesSizeToFit() throws {
        let label = Label(frame: Rect(x: 5, y: 5, width: 120, height: 10))
        label.text = "A note that wraps over a few lines of text"
        label.numberOfLines = 0
        label.sizeToFit()
        XCTAssertEqual(label.frame.origin, Point(x: 5, y: 5))
        XCTAssertLessThanOrEqual(label.bounds.width, 120)
        XCTAssertGreaterThan(label.bounds.height, 40, "several lines at 17 points")
        let scene = try Scene.decode("""
            {"format":"penumbra-scene","version":1,"size":[200,200],"ops":[{"op":"drawView","view":
              {"type":"label","frame":[5,5,120,10],"text":"A note that wraps over a few lines of text","numberOfLines":0,"sizeToFit":true}}]}
            """, baseDirectory: "/", environment: .standard)
        guard case .drawView(let op) = scene.ops[0] else { return XCTFail() }
        XCTAssertEqual(op.root.bounds.size, label.bounds.size)
        XCTAssertGreaterThan(label.intrinsicContentSize.width, label.bounds.width, "one unbounded line is wider")
    }

    func testSnapshotsAndDrawHierarchyAgree() throws {
        let (root, _, _) = DamageTests.makeTree(rows: 6)
        let snapshot = try root.snapshot(scale: 1)
        let drawn = try ImageRenderer(size: root.bounds.size, scale: 1).image { context in
            root.drawHierarchy(in: root.bounds, context: context)
        }
        XCTAssertTrue(snapshot.bitmap == drawn.bitmap)
        root.frame = Rect(x: 30, y: 40, width: 240, height: 320)
        let copy = try root.snapshotView()
        XCTAssertEqual(copy.frame, root.frame)
        XCTAssertTrue(copy.image?.bitmap == snapshot.bitmap)
    }

    func testCustomDrawingRedrawsOnlyWhenMarked() throws {
        final class Counter: View, @unchecked Sendable {
            var color = Color.black
            override func draw(_ rect: Rect, in context: GraphicsContext) {
                context.setFillColor(color)
                context.fill(Path(rect: rect))
            }
        }
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        let counter = Counter(frame: Rect(x: 10, y: 10, width: 10, height: 10))
        root.addSubview(counter)
        let renderer = ViewRenderer(view: root, renderer: CPURenderer())
        _ = try renderer.render()
        counter.color = Color(red: 1, green: 0, blue: 0)
        _ = try renderer.render()
        XCTAssertNil(renderer.lastRepaint, "UIKit redraws a view only after setNeedsDisplay")
        counter.setNeedsDisplay()
        let image = try renderer.render()
        XCTAssertNotNil(renderer.lastRepaint)
        XCTAssertEqual(Array(image.bitmap.pixels[(15 * 40 + 15) * 4..<(15 * 40 + 15) * 4 + 4]), [255, 0, 0, 255])
    }

    func testAnImageViewShowsTheFrameOfItsAnimationAtItsTime() throws {
        let red = Image(bitmap: Bitmap(width: 1, height: 1, pixels: [255, 0, 0, 255]))
        let blue = Image(bitmap: Bitmap(width: 1, height: 1, pixels: [0, 0, 255, 255]))
        let view = ImageView(animation: AnimatedImage(frames: [red, blue], frameDurations: [0.5, 0.5]), time: 0.25)
        view.frame = Rect(x: 0, y: 0, width: 4, height: 4)
        XCTAssertEqual(Array(try view.snapshot().bitmap.pixels[0..<4]), [255, 0, 0, 255])
        view.time = 0.75
        XCTAssertEqual(Array(try view.snapshot().bitmap.pixels[0..<4]), [0, 0, 255, 255])
        let renderer = ViewRenderer(view: view, renderer: CPURenderer())
        _ = try renderer.render()
        view.time = 0.2
        XCTAssertEqual(Array(try renderer.render().bitmap.pixels[0..<4]), [255, 0, 0, 255], "a new frame is a change")
    }

    func testRenderingFromAnotherThread() throws {
        let (root, labels, _) = DamageTests.makeTree(rows: 8)
        let here = try root.snapshot()
        labels[10].text = "changed"  // row 5, on screen
        let there = try DispatchQueue.global().sync { try root.snapshot() }
        XCTAssertFalse(here.bitmap == there.bitmap, "the change shows in a render on another thread")
    }
}
