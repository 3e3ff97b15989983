// HostileSceneTests: the attacks of Tests/HostileScenes (and the ones made
// here: 100,000 combining marks, a GIF of 100 frames of 2000 x 2000) through
// the library as a server's worker runs them: each is refused with an error
// naming its place, or renders within the budget; a deadline stops the work
// wherever it is; text shaping on one thread does not hold up another's; hostile
// view trees (an unknown type or key, a frame with a transform, a negative
// size, a missing image, too many views, too deep) are refused naming the
// view, and a tree of 10,000 views (the default limit) decodes and renders.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU
@testable import PenumbraModel
@testable import PenumbraCore

final class HostileSceneTests: XCTestCase {
    static let folder = TestSupport.root.appendingPathComponent("Tests/HostileScenes")

    func load(_ name: String, limits: ResourceLimits = .default) throws -> Scene {
        let url = Self.folder.appendingPathComponent(name)
        return try Scene.decode([UInt8](try Data(contentsOf: url)), baseDirectory: Self.folder.path, limits: limits,
                                environment: .standard)
    }

    func assertRejected(_ scene: @autoclosure () throws -> Any, at place: String, saying words: String,
                        file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try scene(), file: file, line: line) { error in
            guard let error = error as? SceneError else { return XCTFail("not a SceneError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.location, place, "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(words), "\(error)", file: file, line: line)
        }
    }

    // MARK: Layers and shadows

    /// The 254-byte request that aborted the server: its layer is cut to what it holds.
    func testLayerWithAFarShadowIsCutToItsContentAndRenders() throws {
        for name in ["shadow-layer-far-offset.json", "shadow-layer-offset-8000.json"] {
            let list = try load(name).displayList()
            var sequence = DrawSequence(list)
            var frames: [PixelRect] = []
            while let step = sequence.next() { if case .beginLayer(let frame) = step { frames.append(frame) } }
            XCTAssertEqual(frames.count, 1)
            XCTAssertLessThanOrEqual(frames[0].area, 64, "\(name): the layer is \(frames[0])")
            let bitmap = try CPURenderer().render(list)
            // The square itself (its shadow lands far outside) is drawn: black where it is.
            XCTAssertEqual(bitmap.pixels[(2 * 10 + 2) * 4 + 3], 255, name)
            XCTAssertEqual(bitmap.pixels[(8 * 10 + 8) * 4 + 3], 0, name)
        }
    }

    /// A layer cut to its content composites, and casts its shadow, exactly as the whole layer
    /// would: the same layer with a fully transparent gradient in it (which changes no pixel but
    /// makes its content unbounded, so its frame is not cut) gives the same bytes, for blend
    /// modes that write outside the content too (copy, sourceIn, destinationIn), clips and
    /// fractional shadow offsets.
    func testACutLayerGivesTheBytesOfTheWholeLayer() throws {
        func render(mode: String, offset: String, uncut: Bool) throws -> Bitmap {
            let filler = uncut ? ##"{"op":"linearGradient","start":[0,0],"end":[9,0],"stops":[[0,"#00000000"],[1,"#00000000"]]},"## : ""
            let json = ##"{"format":"penumbra-scene","version":1,"size":[80,60],"background":"#FFFFFF80","ops":["##
                + ##"{"op":"fill","path":{"rect":[5,5,60,40]}},{"op":"clip","path":{"ellipse":[2,3,74,52]}},"##
                + ##"{"op":"setBlendMode","mode":"\##(mode)"},{"op":"setShadow","offset":\##(offset),"blur":6,"color":"#00008080"},"##
                + ##"{"op":"beginLayer"},\##(filler){"op":"setFillColor","color":"#C03010C0"},"##
                + ##"{"op":"fill","path":{"ellipse":[12,10,30,24]}},{"op":"endLayer"}]}"##
            return try CPURenderer().render(Scene.decode(json, baseDirectory: "/", environment: .standard).displayList())
        }
        for mode in ["normal", "copy", "sourceIn", "destinationIn", "multiply"] {
            for offset in ["[17.5,9.25]", "[-30,4]", "[0,0]"] {
                let cut = try render(mode: mode, offset: offset, uncut: false), whole = try render(mode: mode, offset: offset, uncut: true)
                let differing = zip(cut.pixels, whole.pixels).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(mode), offset \(offset): \(differing) bytes differ")
            }
        }
    }

    func testALayerThatMustHoldTheShadowsReachIsRefusedNamingIt() throws {
        assertRejected(try load("shadow-layer-unbounded.json").displayList(), at: "ops[1]", saying: "the layer needs")
    }

    func testNestedCanvasSizedLayersStopAtTheBudget() throws {
        // 64 layers of 3163 x 3163 (40 MB each) on a 40 MB canvas: the 26th crosses 1 GiB.
        assertRejected(try load("nested-layers-10mp.json").displayList(), at: "ops[26]", saying: "over the render budget")
        var small = ResourceLimits.default
        small.maxRenderBytes = 200 << 20
        assertRejected(try load("nested-layers-10mp.json", limits: small).displayList(), at: "ops[5]",
                       saying: "the layer needs 3163 x 3163 pixels")
    }

    // MARK: Geometry

    func testStrokesOfBillionsOfDashesStopAtTheGeometryBudget() throws {
        // The default budget (2^22 points) holds half of one of these strokes' billion dashes, cut at a
        // million pieces each; a smaller one makes the test quick and proves the same.
        var limits = ResourceLimits.default
        limits.maxGeometryPoints = 200_000
        let scene = try load("dash-billion.json", limits: limits)
        let started = Date()
        XCTAssertThrowsError(try scene.displayList()) { error in
            XCTAssertTrue("\(error)".contains("geometry budget"), "\(error)")
            XCTAssertTrue((error as? SceneError)?.location.hasPrefix("ops[") == true, "\(error)")
        }
        // Bounded work: at most the budget's points were made (seconds, not minutes).
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }

    func testFillsOfHugeCurvesStopAtTheGeometryBudget() throws {
        // 200 curves of a billion pixels flatten to 65,536 pieces each: 13 M points.
        let curves = String(repeating: "C 1e9 0 1e9 1e9 0 1e9 ", count: 200)
        let json = #"{"format":"penumbra-scene","version":1,"size":[50,50],"ops":[{"op":"fill","path":"M0 0 \#(curves)Z"}]}"#
        assertRejected(try Scene.decode(json, baseDirectory: "/").displayList(), at: "ops[0]", saying: "geometry budget")
        var roomy = ResourceLimits.default
        roomy.maxGeometryPoints = 1 << 25
        XCTAssertNoThrow(try Scene.decode(json, baseDirectory: "/", limits: roomy).displayList())
    }

    // MARK: Images

    /// A GIF header announcing 100 frames of 2000 x 2000 (2.5 KB of file): refused from the header.
    func testAGIFOfManyLargeFramesIsRefusedFromItsHeader() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.manyFrameGIF(frames: 100, side: 2000)).write(to: dir.appendingPathComponent("anim.gif"))
        let json = #"{"format":"penumbra-scene","version":1,"size":[10,10],"images":{"a":"anim.gif"},"#
            + #""ops":[{"op":"drawImage","image":"a","rect":[0,0,10,10]}]}"#
        let started = Date()
        XCTAssertThrowsError(try Scene.decode(json, baseDirectory: dir.path, environment: .standard)) { error in
            XCTAssertTrue("\(error)".contains("render budget") || "\(error)".contains("decoded images"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    /// A GIF whose structure says `frames` images of `side` x `side`, each with a token of image data.
    static func manyFrameGIF(frames: Int, side: Int) -> [UInt8] {
        let s = [UInt8(side & 255), UInt8(side >> 8)]
        var gif: [UInt8] = Array("GIF89a".utf8) + s + s + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        gif += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for _ in 0..<frames {
            gif += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            gif += [0x2C, 0, 0, 0, 0] + s + s + [0]
            gif += [2, 2, 0x4C, 0x01, 0]
        }
        return gif + [0x3B]
    }

    // MARK: Cancellation

    /// The radius-256 backdrop blur over 4000 x 4000 ran for minutes past its deadline: a token
    /// set while it runs stops it within the blur's rows.
    func testCancellingStopsABackdropBlurPartWay() throws {
        let list = try load("backdrop-256.json").displayList()
        let token = RenderCancellation()
        let started = Date()
        let canceller = Thread { Thread.sleep(forTimeInterval: 0.3); token.cancel() }
        canceller.start()
        XCTAssertThrowsError(try CPURenderer().render(list, cancellation: token)) { XCTAssertTrue($0 is RenderCancelled, "\($0)") }
        let seconds = Date().timeIntervalSince(started)
        XCTAssertLessThan(seconds, 5, "the render stopped \(seconds) s after it started (cancelled at 0.3 s)")
    }

    /// The token reaches the recording too: strokes stop outlining once it is set.
    func testCancellingStopsRecording() throws {
        var roomy = ResourceLimits.default
        roomy.maxGeometryPoints = Int.max / 2
        let scene = try load("dash-billion.json", limits: roomy)
        let token = RenderCancellation()
        token.cancel()
        XCTAssertThrowsError(try token.during { try scene.displayList() }) { XCTAssertTrue($0 is RenderCancelled, "\($0)") }
    }

    // MARK: Views

    /// The view scenes of Tests/HostileScenes refused under the default limits: where and why.
    static let viewRefusals: [(scene: String, place: String, words: String)] = [
        ("invalid/view-unknown-type.json", "ops[0].view.subviews[2].type", "unknown view type \"button\""),
        ("invalid/view-unknown-key.json", "ops[0].view.subviews[2]", "unknown key \"colour\""),
        ("invalid/view-frame-and-transform.json", "ops[0].view.subviews[2].transform", "cannot have a \"transform\""),
        ("invalid/view-negative-size.json", "ops[0].view.subviews[2].frame[2]", "width must not be negative"),
        ("view-missing-image.json", "ops[0].view.subviews[2].image", "no image named \"icon\""),
        ("view-65-levels.json", "ops[0].view" + String(repeating: ".subviews[0]", count: 64), "more than 64 levels"),
    ]

    /// `view-8-views.json` under `--max-views 5`: the sixth view (subviews[4]) is refused.
    static let tooManyViews = (scene: "view-8-views.json", place: "ops[0].view.subviews[4]", words: "(--max-views)")

    func testHostileViewTreesAreRefusedNamingTheView() throws {
        for (scene, place, words) in Self.viewRefusals {
            assertRejected(try load(scene).displayList(), at: place, saying: words)
        }
        var five = ResourceLimits.default
        five.maxViews = 5
        assertRejected(try load(Self.tooManyViews.scene, limits: five), at: Self.tooManyViews.place, saying: Self.tooManyViews.words)
        // Within the limit the same tree renders.
        XCTAssertNoThrow(try CPURenderer().render(try load(Self.tooManyViews.scene).displayList()))
    }

    /// A scene of one tree of `count` views: a root, then groups of a view and 100 small subviews
    /// (backgrounds, rounded corners, borders, clipping; in every tenth group one view with alpha
    /// and one with a shadow, every other one with a path) on a 400 x 400 canvas. 10,000 is 99
    /// full groups. Few layers: a view with alpha or a path-less shadow is a transparency layer,
    /// and each layer's composite costs the whole canvas on the CPU renderer (a 3 x 3 layer on
    /// 400 x 400 takes about 0.6 s on a debug build), so 2,000 of them took over 15 minutes.
    static func viewForest(_ count: Int) -> String {
        var groups: [String] = []
        var left = count - 1, g = 0
        while left > 0 {
            let children = min(100, left - 1)
            left -= 1 + children
            let subviews = (0..<children).map { i -> String in
                let colour = String(format: "#%06X", (i * 40503 + g * 977) & 0xFFFFFF)
                var view = ##"{"frame":[\##(i % 10 * 4),\##(i / 10 * 4),3,3],"backgroundColor":"\##(colour)""##
                if i % 7 == 0 { view += ##","layer":{"cornerRadius":1,"borderWidth":0.5,"borderColor":"#000000"}"## }
                if i == 1, g % 10 == 0 { view += ##","alpha":0.5"## }
                if i == 2, g % 10 == 0 {
                    let path = g % 20 == 0 ? ##","shadowPath":{"rect":[0,0,3,3]}"## : ""
                    view += ##","layer":{"shadowOpacity":0.5,"shadowRadius":1\##(path)}"##
                }
                return view + "}"
            }
            groups.append(##"{"frame":[\##(g % 10 * 40),\##(g / 10 * 40),40,40],"clipsToBounds":\##(g % 3 == 0),"##
                          + ##""layer":{"cornerRadius":6},"subviews":["## + subviews.joined(separator: ",") + "]}")
            g += 1
        }
        return ##"{"format":"penumbra-scene","version":1,"size":[400,400],"ops":[{"op":"drawView","view":"##
            + ##"{"frame":[0,0,400,400],"backgroundColor":"#FFFFFF","subviews":["## + groups.joined(separator: ",") + "]}}]}"
    }

    func testTenThousandViewsDecodeAndRenderAndOneMoreIsRefused() throws {
        let started = Date()
        let scene = try Scene.decode(Self.viewForest(10_000), baseDirectory: "/", environment: .standard)
        guard case .drawView(let op) = scene.ops[0] else { return XCTFail("not a drawView") }
        XCTAssertEqual(op.root.count, 10_000)
        let bitmap = try CPURenderer().render(scene.displayList())
        let seconds = Date().timeIntervalSince(started)
        XCTAssertLessThan(seconds, 60, "10,000 views took \(seconds) s to decode and render")
        XCTAssertEqual(Array(bitmap.pixels[0..<4]), [255, 255, 255, 255], "the root's background")
        // The 10,001st view (the 100th group) is over the default limit.
        assertRejected(try Scene.decode(Self.viewForest(10_001), baseDirectory: "/", environment: .standard),
                       at: "ops[0].view.subviews[99]", saying: "more than 10000 views")
    }

    // MARK: Text

    /// A drawText op of "a" and `count` copies of a combining mark (U+0300 + `mark`).
    static func textOp(_ count: Int, mark: Int = 1) -> String {
        let text = "a" + String(repeating: Character(Unicode.Scalar(0x300 + mark)!), count: count)
        return #"{"op":"drawText","text":"\#(text)","at":[10,50],"font":{"family":"DejaVu Sans","size":20}}"#
    }

    /// A scene of `ops` such ops, each with another mark (so that no shaping is cached).
    static func combiningMarks(_ count: Int, ops: Int = 1) -> String {
        #"{"format":"penumbra-scene","version":1,"size":[200,100],"ops":["#
            + (0..<ops).map { textOp(count, mark: 1 + $0) }.joined(separator: ",") + "]}"
    }

    /// "a" and 99,999 combining marks took 35 s in one HarfBuzz call; shaped in bounded pieces it
    /// takes a moment, and a cancelled decode stops between pieces.
    func testACharacterWithATenThousandMarksShapesInBoundedPieces() throws {
        let json = Self.combiningMarks(99_999)
        let started = Date()
        _ = try Scene.decode(json, baseDirectory: "/", environment: .standard).displayList()
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        let token = RenderCancellation()
        token.cancel()
        XCTAssertThrowsError(try token.during { try Scene.decode(json, baseDirectory: "/", environment: .standard) }) {
            XCTAssertTrue($0 is RenderCancelled, "\($0)")
        }
    }

    /// Shaping takes no lock: a long shaping job on one thread, and the same face's short text on
    /// another finishes while it runs.
    func testLongShapingDoesNotHoldUpAnotherThreadsText() throws {
        let long = Self.combiningMarks(99_999), short = Self.combiningMarks(0).replacingOccurrences(of: #""text":"a""#, with: #""text":"Hello""#)
        let longDone = ManagedFlag(), shortDone = ManagedFlag()
        let worker = Thread {
            _ = try? Scene.decode(long, baseDirectory: "/", environment: .standard)
            longDone.set()
        }
        worker.start()
        Thread.sleep(forTimeInterval: 0.05)
        _ = try Scene.decode(short, baseDirectory: "/", environment: .standard).displayList()
        shortDone.set()
        XCTAssertFalse(longDone.value, "the long job ended before the short one could show it was not blocked; make it longer")
        while !longDone.value { Thread.sleep(forTimeInterval: 0.01) }
    }
}

/// A flag set once from another thread.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.lock(); defer { lock.unlock() }; return flag }
    func set() { lock.lock(); flag = true; lock.unlock() }
}
