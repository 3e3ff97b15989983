// GPUClipTests: clips are computed on the GPU from their edges (GPUFrame+Clips.swift): a scene
// of rounded-rect clips uploads no coverage mask, and nested clips (products of a chain), a
// clip-shaped shadow caster and clips inside layers give the CPU's bytes.
import Foundation
import XCTest
import Penumbra
import PenumbraGPU
import PenumbraCPU

final class GPUClipTests: XCTestCase {
    /// `count` cards (twelve by default), each a rounded-rect clip (unless `clips` is false) over a fill
    /// of its bounds and an ellipse; every third nested in a second clip (a chain of two) and
    /// every fourth in a third. With
    /// `gradients`, each card is a gradient instead, every other one casting a shadow (a
    /// gradient's shadow is cast by the clip's area: a clip-shaped caster), and a stroke.
    private func cards(gradients: Bool, clips: Bool = true, count: Int = 12) -> DisplayList {
        let context = GraphicsContext(pixelWidth: 620, pixelHeight: 340, scale: 1, background: .white)
        for i in 0..<count {
            let x = Double(i % 4) * 150 + 10, y = Double(i / 4) * 110 + 10
            context.saveGState()
            if clips {
                context.clip(to: Path(roundedRect: Rect(x: x, y: y, width: 140, height: 100), cornerRadius: 14))
                if i % 3 == 0 { context.clip(to: Path(ellipseIn: Rect(x: x - 10, y: y + 5, width: 150, height: 90))) }
                if i % 4 == 0 { context.clip(to: Path(roundedRect: Rect(x: x + 20, y: y - 5, width: 130, height: 80), cornerRadius: 30)) }
            }
            if gradients {
                if i % 2 == 0 { context.setShadow(offset: Size(width: 5, height: 7), blur: 6, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5)) }
                let stops = [GradientStop(offset: 0, color: Color(red: 0.9, green: 0.3, blue: 0.2)),
                             GradientStop(offset: 1, color: Color(red: 0.2, green: 0.3, blue: 0.9))]
                context.drawLinearGradient(stops: stops, start: Point(x, y), end: Point(x + 140, y + 100))
                context.setShadow(offset: Size(width: 0, height: 0), blur: 0, color: .clear)
                context.setStrokeColor(Color(red: 0.1, green: 0.1, blue: 0.1))
                context.setLineWidth(3)
                context.stroke(Path(roundedRect: Rect(x: x + 5, y: y + 5, width: 130, height: 90), cornerRadius: 10))
            } else {
                context.setFillColor(Color(red: 0.2 + 0.05 * Double(i), green: 0.4, blue: 0.8))
                context.fill(Path(rect: Rect(x: x, y: y, width: 140, height: 100)))
            }
            context.setFillColor(Color(red: 1, green: 1, blue: 1, alpha: 0.6))
            context.fill(Path(ellipseIn: Rect(x: x + 30, y: y + 20, width: 80, height: 60)))
            context.restoreGState()
        }
        return context.displayList
    }

    /// The bytes a frame of `list` uploads once the renderer's buffers are sized (the second of
    /// two renders), which must be the CPU's bytes.
    private func uploadBytes(of list: DisplayList, on gpu: GPURenderer) throws -> Int {
        _ = try gpu.render(list)  // sizes the buffers
        XCTAssertTrue(try gpu.render(list).pixels == CPURenderer().render(list).pixels, "the CPU's bytes")
        return gpu.lastFrameCounters.uploadBytes
    }

    /// The clips cost their edges, not masks: the frame uploads a few KiB more than the same
    /// draws without their clips, where one clip mask (a byte a pixel) alone would be 14,000
    /// bytes or more.
    func testRoundedRectClipsUploadNoMaskAndGiveTheCPUsBytes() throws {
        let gpu = try GPUTestSupport.renderer()
        let clipped = cards(gradients: false), unclipped = cards(gradients: false, clips: false)
        XCTAssertEqual(clipped.clips.count, 12 + 4 + 3)
        XCTAssertEqual(unclipped.clips.count, 0)
        let withClips = try uploadBytes(of: clipped, on: gpu), without = try uploadBytes(of: unclipped, on: gpu)
        print("gpu clips: \(withClips) bytes uploaded with 19 clips, \(without) without them")
        // Each clip costs its edges and its passes' blocks, under 2 KiB; the smallest clip's mask
        // (140 x 100 bytes) would be 14,000.
        XCTAssertLessThan((withClips - without) / 19, 2048, "\(withClips - without) bytes for 19 clips: a mask went up")
    }

    /// The frame budget for a scene with rounded-rect clips: four clipped cards (seven clip
    /// nodes, chains of one to three) upload at most 16 KiB, edges and every pass's block
    /// included; a solid paint sends the two fields of the paint block it reads.
    func testAFrameOfRoundedRectClipsUploadsAtMost16KiB() throws {
        let gpu = try GPUTestSupport.renderer()
        let list = cards(gradients: false, count: 4)
        XCTAssertEqual(list.clips.count, 4 + 2 + 1)
        let bytes = try uploadBytes(of: list, on: gpu)
        print("gpu clips: \(bytes) bytes uploaded for four clipped cards")
        XCTAssertLessThanOrEqual(bytes, 16 * 1024)
    }

    func testClipShapedShadowCastersAreByteIdentical() throws {
        let gpu = try GPUTestSupport.renderer()
        let list = cards(gradients: true)
        XCTAssertTrue(try gpu.render(list).pixels == CPURenderer().render(list).pixels)
    }

    /// Clip chains over layers, in layers, at scale 2 and under a transform.
    func testNestedClipsInLayersAreByteIdentical() throws {
        let gpu = try GPUTestSupport.renderer()
        let context = GraphicsContext(pixelWidth: 200, pixelHeight: 160, scale: 2, background: .white)
        context.translateBy(x: 10, y: 6)
        context.rotate(by: 0.2)
        context.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 90, height: 70)))
        context.beginTransparencyLayer()
        context.clip(to: Path(roundedRect: Rect(x: 10, y: 5, width: 60, height: 60), cornerRadius: 12))
        context.clip(to: Path(rect: Rect(x: 20, y: 0, width: 80, height: 40)), using: .evenOdd)
        context.setFillColor(Color(red: 0.2, green: 0.6, blue: 0.3))
        context.fill(Path(rect: Rect(x: 0, y: 0, width: 100, height: 80)))
        context.endTransparencyLayer()
        context.setFillColor(Color(red: 0.8, green: 0.1, blue: 0.5, alpha: 0.5))
        context.fill(Path(ellipseIn: Rect(x: 30, y: 20, width: 70, height: 50)))
        let list = context.displayList
        XCTAssertTrue(try gpu.render(list).pixels == CPURenderer().render(list).pixels)
    }
}
