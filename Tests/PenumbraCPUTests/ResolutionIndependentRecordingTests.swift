// A recording (Recording.swift) lowered at a scale is the display list, and so the pixels, of
// making the same calls on a context of that scale; a scene's display list is its recording
// lowered, origins included; drawing a recording into a rect restores the state it found.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU
import PenumbraTestSupport

final class ResolutionIndependentRecordingTests: XCTestCase {
    private let size = Size(width: 61, height: 47)

    /// Calls over most of the context's API, under transforms whose products round differently
    /// at every scale (rotations, shears, a scale of 1/3), with a shadow, clips, layers, images.
    private func draw(_ c: GraphicsContext, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var pixels = [UInt8]()
        for i in 0..<(9 * 7) {
            let a = UInt8(40 + (i * 37) % 216)
            pixels += [UInt8(Int(a) * (i % 3) / 2), UInt8(Int(a) * (i % 5) / 4), a / 2, a]
        }
        let image = Image(bitmap: Bitmap(width: 9, height: 7, pixels: pixels), scale: 2)
        c.translateBy(x: 3.25, y: 1.5)
        c.rotate(by: random.double(in: -0.4...0.4))
        c.scaleBy(x: 1.0 / 3.0 * 3.1, y: 0.97)
        c.saveGState()
        var clip = Path()
        clip.addRoundedRect(in: Rect(x: 2, y: 3, width: 50, height: 38), cornerRadius: 7.3)
        c.clip(to: clip)
        c.setShadow(offset: Size(width: 1.7, height: 2.3), blur: 3.1, color: Color(red: 0.1, green: 0, blue: 0.4, alpha: 0.6))
        c.setFillColor(Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.85))
        var blob = Path()
        blob.move(to: random.point(in: 5...45))
        for _ in 0..<4 { blob.addCurve(to: random.point(in: 0...55), control1: random.point(in: 0...55), control2: random.point(in: 0...55)) }
        blob.closeSubpath()
        c.fill(blob, using: .evenOdd)
        c.clearShadow()
        c.setStrokeColor(Color(red: 0.1, green: 0.5, blue: 0.2, alpha: 1))
        c.setLineWidth(2.3); c.setLineCap(.round); c.setLineJoin(.bevel); c.setMiterLimit(3)
        c.setLineDash(phase: 1.5, lengths: [4, 2.5])
        c.stroke(blob)
        c.restoreGState()
        c.setAlpha(0.8)
        c.setBlendMode(.multiply)
        c.beginTransparencyLayer()
        c.concatenate(AffineTransform(a: 1, b: 0.2, c: -0.1, d: 1, tx: 0.5, ty: 0.25))
        c.draw(image, in: Rect(x: 20, y: 4, width: 23.7, height: 17.1), alpha: 0.9)
        c.setInterpolationQuality(.none)
        c.draw(image.flippedHorizontally(), at: Point(4, 25), blendMode: .screen)
        c.endTransparencyLayer()
        c.setBlendMode(.normal)
        c.drawLinearGradient(stops: [GradientStop(offset: 0, color: Color(red: 1, green: 1, blue: 0, alpha: 0.3)),
                                     GradientStop(offset: 1, color: Color(red: 0, green: 0.4, blue: 1, alpha: 0.5))],
                             start: Point(0, 0), end: Point(40, 30))
        c.blurBackdrop(Path(rect: Rect(x: 30, y: 20, width: 20, height: 15)), radius: 2.5, saturation: 1.4,
                       tint: Color(red: 1, green: 1, blue: 1, alpha: 0.2))
        c.drawRadialGradient(stops: [GradientStop(offset: 0, color: Color(red: 0, green: 0, blue: 0, alpha: 0.4)),
                                     GradientStop(offset: 1, color: Color(red: 0, green: 0, blue: 0, alpha: 0))],
                             startCenter: Point(10, 10), startRadius: 0, endCenter: Point(12, 11), endRadius: 14, extendEnd: false)
    }

    func testARecordingLoweredAtAScaleIsTheDrawingAtThatScale() throws {
        let renderer = CPURenderer()
        for seed: UInt64 in 1...4 {
            let recording = Recording(size: size) { draw($0, seed: seed) }
            XCTAssertEqual(recording.callCount, 29)
            for scale in [1.0, 2.0, 3.0, 1.5, 0.7] {
                let direct = GraphicsContext(size: size, scale: scale, background: .white)
                draw(direct, seed: seed)
                let lowered = recording.displayList(scale: scale, background: .white)
                XCTAssertEqual(lowered.width, Int((size.width * scale).rounded(.toNearestOrAwayFromZero)))
                XCTAssertTrue(lowered == direct.displayList, "seed \(seed) at \(scale)x: the lowered list differs")
                let a = try renderer.render(lowered), b = try renderer.render(direct.displayList)
                XCTAssertTrue(a == b, "seed \(seed) at \(scale)x: the pixels differ")
            }
        }
    }

    /// The comparison above sees one call more or less, and a scale that is not the one drawn.
    func testTheComparisonSeesAMissingCallAndAnotherScale() throws {
        let recording = Recording(size: size) { draw($0, seed: 7) }
        var shorter = recording
        let fill = try XCTUnwrap(shorter.entries.firstIndex { if case .fill = $0.call { return true } else { return false } })
        shorter.entries.remove(at: fill)
        XCTAssertFalse(shorter == recording)
        XCTAssertFalse(shorter.displayList(scale: 2) == recording.displayList(scale: 2))
        let direct = GraphicsContext(size: size, scale: 2)
        draw(direct, seed: 7)
        XCTAssertFalse(recording.displayList(scale: 3) == direct.displayList)
        let renderer = CPURenderer()
        XCTAssertFalse(try renderer.render(shorter.displayList(scale: 2)) == renderer.render(direct.displayList))
    }

    func testARecordingContextKeepsCallsAndLowersNothing() throws {
        let context = GraphicsContext(recordingSize: size)
        XCTAssertTrue(context.isRecording)
        context.translateBy(x: 10, y: 5)
        context.saveGState()
        context.scaleBy(x: 2, y: 2)
        XCTAssertEqual(context.ctm, AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 5))
        context.fill(Path(rect: Rect(x: 0, y: 0, width: 4, height: 4)))
        context.beginTransparencyLayer()
        XCTAssertEqual(context.saveDepth, 2)
        XCTAssertEqual(context.openLayerCount, 1)
        XCTAssertEqual(context.commandCount, 0)
        XCTAssertTrue(context.displayList.commands.isEmpty)
        let recording = try XCTUnwrap(context.recording)
        XCTAssertEqual(recording.callCount, 5)
        XCTAssertEqual(recording.entries.map(\.call).first, .concat(AffineTransform(translationX: 10, y: 5)))
        XCTAssertEqual(recording.size, size)
        // A context that draws to a canvas keeps no recording.
        XCTAssertNil(GraphicsContext(size: size).recording)
        XCTAssertFalse(GraphicsContext(size: size).isRecording)
    }

    func testARecordingDrawnIntoARectIsItsCallsUnderThatRectAndRestoresTheState() throws {
        // The recording leaves a save and a layer open; drawing it must not leave them behind.
        let recording = Recording(size: size) { c in
            draw(c, seed: 3)
            c.saveGState(); c.setAlpha(0.5); c.beginTransparencyLayer()
            c.setFillColor(Color(red: 0, green: 0.5, blue: 0.5, alpha: 1))
            c.fill(Path(rect: Rect(x: 0, y: 0, width: 30, height: 30)))
        }
        let rect = Rect(x: 40, y: 10, width: 90, height: 70)
        for scale in [1.0, 2.0] {
            let placed = GraphicsContext(size: Size(width: 150, height: 100), scale: scale)
            placed.setFillColor(.white)
            placed.draw(recording, in: rect)
            XCTAssertEqual(placed.saveDepth, 0)
            XCTAssertEqual(placed.openLayerCount, 0)
            XCTAssertEqual(placed.state.fillColor, .white, "the recording's fill colour stayed")

            let direct = GraphicsContext(size: Size(width: 150, height: 100), scale: scale)
            direct.setFillColor(.white)
            direct.saveGState()
            direct.clip(to: Path(rect: rect))
            direct.concatenate(AffineTransform(a: rect.width / size.width, b: 0, c: 0, d: rect.height / size.height,
                                               tx: rect.minX, ty: rect.minY))
            draw(direct, seed: 3)
            direct.saveGState(); direct.setAlpha(0.5); direct.beginTransparencyLayer()
            direct.setFillColor(Color(red: 0, green: 0.5, blue: 0.5, alpha: 1))
            direct.fill(Path(rect: Rect(x: 0, y: 0, width: 30, height: 30)))
            direct.endTransparencyLayer(); direct.restoreGState(); direct.restoreGState()
            XCTAssertTrue(placed.displayList == direct.displayList, "at \(scale)x")
            XCTAssertFalse(placed.displayList.commands.isEmpty)
        }
        // Drawn into a recording context, it is kept as the same calls, which lower the same way.
        let nested = Recording(size: Size(width: 150, height: 100)) { $0.draw(recording, in: rect) }
        let placed = GraphicsContext(size: Size(width: 150, height: 100), scale: 2)
        placed.draw(recording, in: rect)
        XCTAssertTrue(nested.displayList(scale: 2) == placed.displayList)
    }

    /// The example of the DocC article (DrawingWithAContext.md, "Recording once, rendering at any scale").
    func testTheArticleExample() throws {
        let badge = Recording(size: Size(width: 64, height: 64)) { context in
            context.setFillColor(Color(hex: "#1E88E5")!)
            context.fill(Path(ellipseIn: Rect(x: 4, y: 4, width: 56, height: 56)))
        }
        let renderer = CPURenderer()
        let at1x = try renderer.render(badge, scale: 1)
        let at3x = try renderer.render(badge, scale: 3)
        XCTAssertEqual([at1x.width, at1x.height, at3x.width, at3x.height], [64, 64, 192, 192])
        // The centre is the fill's colour at both scales; a corner is clear.
        XCTAssertEqual(Array(at3x.pixels[(96 * 192 + 96) * 4..<(96 * 192 + 96) * 4 + 4]), [0x1E, 0x88, 0xE5, 255])
        XCTAssertEqual(Array(at1x.pixels[(32 * 64 + 32) * 4..<(32 * 64 + 32) * 4 + 4]), [0x1E, 0x88, 0xE5, 255])
        XCTAssertEqual(Array(at1x.pixels[0..<4]), [0, 0, 0, 0])
        let page = GraphicsContext(size: Size(width: 300, height: 200), scale: 2)
        page.draw(badge, in: Rect(x: 10, y: 10, width: 128, height: 128))
        let placed = try renderer.render(page.displayList)
        XCTAssertEqual(Array(placed.pixels[(148 * 600 + 148) * 4..<(148 * 600 + 148) * 4 + 4]), [0x1E, 0x88, 0xE5, 255])
        XCTAssertEqual(Array(placed.pixels[(148 * 600 + 290) * 4..<(148 * 600 + 290) * 4 + 4]), [0, 0, 0, 0])
    }

    /// Every example's display list is its recording lowered: the same commands and the same
    /// origins as making its ops on the scene's context directly.
    func testEveryExampleIsItsRecordingLowered() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let urls = try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        XCTAssertGreaterThan(urls.count, 20)
        for url in urls {
            let scene = try Scene.decode([UInt8](try Data(contentsOf: url)), baseDirectory: examples.path, environment: .standard)
            let recording = scene.recording
            let direct = scene.makeContext()
            for (index, op) in scene.ops.enumerated() {
                direct.origin = index
                op.replay(into: direct)
            }
            let lowered = scene.makeContext()
            recording.replay(into: lowered, keepingOrigins: true)
            let name = url.lastPathComponent
            XCTAssertTrue(lowered.displayList == direct.displayList, "\(name): the lowered list differs")
            XCTAssertEqual(lowered.commandOrigins, direct.commandOrigins, name)
            var list = direct.displayList
            list.warnings = scene.warnings
            XCTAssertTrue(try scene.displayList() == list, "\(name): Scene.displayList() is not the lowered recording")
            XCTAssertTrue(Set(recording.entries.map(\.origin)).isSubset(of: Set(scene.ops.indices)), name)
        }
    }
}
