import XCTest
import Penumbra
import PenumbraCPU
@testable import PenumbraModel
@testable import PenumbraCore

/// Each rule of the contract's view drawing order, as a tree (a scene's `drawView`) against the
/// same drawing written as plain context calls: the bytes must be the same. Where a rule could be
/// mistaken for a simpler one (group opacity for per-view alpha, the composited view's shadow for
/// a shadow per piece), the test also shows that the simpler drawing gives other bytes.
final class ViewEquivalenceTests: XCTestCase {
    static let size = Size(width: 200, height: 140)
    static let scale = 2.0

    func render(tree view: String, direction: String = "leftToRight", images: String = "{}") throws -> Bitmap {
        let scene = try Scene.decode("""
            {"format":"penumbra-scene","version":1,"size":[200,140],"scale":2,"background":"#FFFFFF","images":\(images),
             "ops":[{"op":"drawView","layoutDirection":"\(direction)","view":\(view)}]}
            """, baseDirectory: "/nonexistent", environment: .standard)
        return try CPURenderer().render(scene.displayList())
    }

    /// The plain drawing: inside the drawView's layer, as the contract says.
    func render(plain body: (GraphicsContext) -> Void) throws -> Bitmap {
        let context = GraphicsContext(size: Self.size, scale: Self.scale, background: .white)
        context.beginTransparencyLayer()
        body(context)
        context.endTransparencyLayer()
        return try CPURenderer().render(context.displayList)
    }

    func fill(_ c: GraphicsContext, _ rect: Rect, _ color: Color, radius: Double = 0) {
        c.setFillColor(color)
        c.fill(Path(roundedRect: rect, cornerRadius: radius))
    }

    static let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
    static let green = Color(red: 0, green: 0.8, blue: 0.2)

    func testGroupOpacityCompositesTheViewAndItsSubviewsOnce() throws {
        let tree = try render(tree: """
            {"frame":[10,10,120,80],"alpha":0.5,"backgroundColor":"#FF0000",
             "subviews":[{"frame":[60,40,100,60],"backgroundColor":"#0000FF"}]}
            """)
        let plain = try render { c in
            c.saveGState(); c.translateBy(x: 10, y: 10)
            c.setAlpha(0.5); c.beginTransparencyLayer()
            self.fill(c, Rect(x: 0, y: 0, width: 120, height: 80), Self.red)
            c.saveGState(); c.translateBy(x: 60, y: 40)
            self.fill(c, Rect(x: 0, y: 0, width: 100, height: 60), Self.blue)
            c.restoreGState()
            c.endTransparencyLayer(); c.restoreGState()
        }
        XCTAssertTrue(tree == plain, "the tree and the plain drawing differ")
        let perView = try render { c in
            c.setAlpha(0.5)
            self.fill(c, Rect(x: 10, y: 10, width: 120, height: 80), Self.red)
            self.fill(c, Rect(x: 70, y: 50, width: 100, height: 60), Self.blue)
        }
        XCTAssertFalse(tree == perView, "per-view alpha shows the red under the blue; a group does not")
    }

    func testBorderIsDrawnAboveTheSubviews() throws {
        let tree = try render(tree: """
            {"frame":[20,20,150,100],"backgroundColor":"#00CC33","layer":{"cornerRadius":18,"borderWidth":6,"borderColor":"#0000FF"},
             "subviews":[{"frame":[-10,30,60,30],"backgroundColor":"#FF0000"}]}
            """)
        let plain = try render { c in
            c.saveGState(); c.translateBy(x: 20, y: 20)
            self.fill(c, Rect(x: 0, y: 0, width: 150, height: 100), Self.green, radius: 18)
            c.saveGState(); c.translateBy(x: -10, y: 30)
            self.fill(c, Rect(x: 0, y: 0, width: 60, height: 30), Self.red)
            c.restoreGState()
            var border = Path(roundedRect: Rect(x: 0, y: 0, width: 150, height: 100), cornerRadius: 18)
            border.addRoundedRect(in: Rect(x: 6, y: 6, width: 138, height: 88), cornerRadius: 12)
            c.setFillColor(Self.blue); c.fill(border, using: .evenOdd)
            c.restoreGState()
        }
        XCTAssertTrue(tree == plain, "the tree and the plain drawing differ")
    }

    func testShadowIsCastByTheCompositedView() throws {
        let tree = try render(tree: """
            {"frame":[20,20,100,60],"backgroundColor":"#FF000080",
             "layer":{"shadowOpacity":0.6,"shadowRadius":5,"shadowOffset":[4,6],"shadowColor":"#000080"},
             "subviews":[{"frame":[50,30,80,50],"backgroundColor":"#0000FF80"}]}
            """)
        let plain = try render { c in
            c.saveGState(); c.translateBy(x: 20, y: 20)
            c.setShadow(offset: Size(width: 4, height: 6), blur: 10, color: Color(red: 0, green: 0, blue: 128 / 255.0, alpha: 0.6))
            c.beginTransparencyLayer()
            self.fill(c, Rect(x: 0, y: 0, width: 100, height: 60), Color(red: 1, green: 0, blue: 0, alpha: 128 / 255.0))
            c.saveGState(); c.translateBy(x: 50, y: 30)
            self.fill(c, Rect(x: 0, y: 0, width: 80, height: 50), Color(red: 0, green: 0, blue: 1, alpha: 128 / 255.0))
            c.restoreGState()
            c.endTransparencyLayer(); c.restoreGState()
        }
        XCTAssertTrue(tree == plain, "the tree and the plain drawing differ")
        let perPiece = try render { c in
            c.setShadow(offset: Size(width: 4, height: 6), blur: 10, color: Color(red: 0, green: 0, blue: 128 / 255.0, alpha: 0.6))
            self.fill(c, Rect(x: 20, y: 20, width: 100, height: 60), Color(red: 1, green: 0, blue: 0, alpha: 128 / 255.0))
            self.fill(c, Rect(x: 70, y: 50, width: 80, height: 50), Color(red: 0, green: 0, blue: 1, alpha: 128 / 255.0))
        }
        XCTAssertFalse(tree == perPiece, "a shadow per piece falls on the red; the composited view's does not")
    }

    func testShadowPathCastsTheShadowAndTheViewNone() throws {
        let tree = try render(tree: """
            {"frame":[30,30,120,60],"backgroundColor":"#FF0000",
             "layer":{"shadowOpacity":1,"shadowRadius":3,"shadowOffset":[0,12],"shadowPath":{"ellipse":[0,50,120,20]}}}
            """)
        let plain = try render { c in
            c.saveGState(); c.translateBy(x: 30, y: 30)
            c.setShadow(offset: Size(width: 0, height: 12), blur: 6, color: .black)
            c.fillShadow(Path(ellipseIn: Rect(x: 0, y: 50, width: 120, height: 20)))
            c.clearShadow()
            self.fill(c, Rect(x: 0, y: 0, width: 120, height: 60), Self.red)
            c.restoreGState()
        }
        XCTAssertTrue(tree == plain, "the tree and the plain drawing differ")
        // Only the shadow: the ellipse itself is not filled (its bottom half lies outside the view).
        let belowView = (Int(2 * 30 + 2 * 62) * tree.width + Int(2 * 90)) * 4
        XCTAssertGreaterThan(tree.pixels[belowView], 0, "no opaque black ellipse below the view")
    }

    func testAClippingViewCastsNoShadow() throws {
        let view = """
            {"frame":[30,30,120,60],"backgroundColor":"#FF0000","clipsToBounds":CLIPS,
             "layer":{"cornerRadius":10,"shadowOpacity":1,"shadowRadius":4,"shadowOffset":[0,8]},
             "subviews":[{"frame":[80,30,100,60],"backgroundColor":"#0000FF"}]}
            """
        let tree = try render(tree: view.replacingOccurrences(of: "CLIPS", with: "true"))
        let plain = try render { c in
            c.saveGState(); c.translateBy(x: 30, y: 30)
            self.fill(c, Rect(x: 0, y: 0, width: 120, height: 60), Self.red, radius: 10)
            c.saveGState(); c.clip(to: Path(roundedRect: Rect(x: 0, y: 0, width: 120, height: 60), cornerRadius: 10))
            c.saveGState(); c.translateBy(x: 80, y: 30)
            self.fill(c, Rect(x: 0, y: 0, width: 100, height: 60), Self.blue)
            c.restoreGState(); c.restoreGState(); c.restoreGState()
        }
        XCTAssertTrue(tree == plain, "the tree and the plain drawing differ")
        XCTAssertFalse(tree == (try render(tree: view.replacingOccurrences(of: "CLIPS", with: "false"))),
                          "without clipping the shadow and the whole subview show")
    }

    func testCenterTransformAndBoundsOriginPlaceTheContent() throws {
        let tree = try render(tree: """
            {"center":[100,70],"bounds":[10,-5,80,40],"transform":[0.8,0.6,-0.6,0.8,0,0],"backgroundColor":"#00CC33",
             "draw":[{"op":"setFillColor","color":"#0000FF"},{"op":"fill","path":{"ellipse":[20,0,40,40]}}],
             "subviews":[{"frame":[60,20,30,30],"backgroundColor":"#FF0000"}]}
            """)
        let plain = try render { c in
            c.saveGState()
            c.concatenate(AffineTransform(translationX: -10, y: 5)
                .concatenating(AffineTransform(translationX: -40, y: -20))
                .concatenating(AffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 0, ty: 0))
                .concatenating(AffineTransform(translationX: 100, y: 70)))
            let bounds = Rect(x: 10, y: -5, width: 80, height: 40)
            self.fill(c, bounds, Self.green)
            c.saveGState(); c.clip(to: Path(rect: bounds))
            c.setFillColor(Self.blue); c.fill(Path(ellipseIn: Rect(x: 20, y: 0, width: 40, height: 40)))
            c.restoreGState()
            c.saveGState(); c.translateBy(x: 60, y: 20)
            self.fill(c, Rect(x: 0, y: 0, width: 30, height: 30), Self.red)
            c.restoreGState()
            c.restoreGState()
        }
        XCTAssertTrue(tree == plain, "the tree and the plain drawing differ")
    }

    func testTemplateTintIsInheritedAndFlippingFollowsTheDirection() throws {
        var pixels = [UInt8](repeating: 0, count: 4 * 4 * 4)
        for i in [0, 1, 4, 5, 8] { pixels[i * 4 + 3] = 255 }  // an L in the top-left corner: alpha only
        let icon = Image(bitmap: Bitmap(width: 4, height: 4, pixels: pixels), scale: 1)
        let uri = "data:image/png;base64," + (try icon.pngData()).base64
        let images = """
            {"icon":{"path":"\(uri)","renderingMode":"alwaysTemplate","flipsForRightToLeftLayoutDirection":true}}
            """
        let view = """
            {"frame":[0,0,200,140],"tintColor":"#FF0000","subviews":[
              {"frame":[10,10,100,100],"subviews":[{"type":"imageView","image":"icon","frame":[0,0,40,40]},
                {"frame":[50,0,50,50],"tintColor":"#0000FF","subviews":[{"type":"imageView","image":"icon","frame":[0,0,40,40]}]}]}]}
            """
        let rtl = try render(tree: view, direction: "rightToLeft", images: images)
        let plain = try render { c in
            c.saveGState(); c.saveGState(); c.translateBy(x: 10, y: 10)
            c.saveGState()
            c.draw(icon.withRenderingMode(.template, tint: Self.red).flippedHorizontally(), in: Rect(x: 0, y: 0, width: 40, height: 40))
            c.restoreGState()
            c.saveGState(); c.translateBy(x: 50, y: 0); c.saveGState()
            c.draw(icon.withRenderingMode(.template, tint: Self.blue).flippedHorizontally(), in: Rect(x: 0, y: 0, width: 40, height: 40))
            c.restoreGState(); c.restoreGState()
            c.restoreGState(); c.restoreGState()
        }
        XCTAssertTrue(rtl == plain, "the tree and the plain drawing differ")
        XCTAssertFalse(rtl == (try render(tree: view, images: images)), "left to right does not mirror")
    }
}

extension Array where Element == UInt8 {
    var base64: String { Data(self).base64EncodedString() }
}
