// DifferentialFuzzTests: seeded random display lists (fills with random
// polygons and fill rules, images under random transforms with nine-slice,
// template and flip, linear and radial gradients with random extend flags,
// layers, clips, shadows, alpha and every blend mode, and text: outlines,
// underlines, colour emoji and right-to-left runs under random transforms,
// drawn through GraphicsContext as drawText draws, backdrop blurs, layers ended as backdrop
// masks (vibrancy), and filtered images: random
// chains of 1 to 3 filters on small images, evaluated by the CPU's FilterEvaluator for the CPU
// render and by the GPU's passes for the GPU render, kept there as textures, as the two backends
// decode scenes) rendered
// on the CPU and the GPU; and, in half the scenes, one or two random view trees drawn with
// DrawViewOp (DifferentialFuzzTests+Views.swift), from a random stream of their own and after
// every other op, so the rest of a seed's scene is what it was before views. On a mismatch the
// op list is cut to its shortest failing prefix (a view tree is shrunk too), and the failure
// names the seed and the index of the op that breaks parity.
// PENUMBRA_FUZZ_SCENES=N runs N scenes (default 500), PENUMBRA_FUZZ_SEED=S
// changes the base seed.
import Foundation
import XCTest
import PenumbraTestSupport
import Penumbra
@testable import PenumbraModel
@testable import PenumbraCore
import PenumbraCPU
@testable import PenumbraGPU

/// The shared seeded generator with the draws the scene generator needs, so every run and
/// machine sees the same scenes.
struct FuzzRandom {
    private var generator: SplitMix64
    init(state: UInt64) { generator = SplitMix64(state: state) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) / Double(1 << 53)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func chance(_ p: Double) -> Bool { double(0...1) < p }
    mutating func color() -> Color {
        Color(red: double(0...1), green: double(0...1), blue: double(0...1), alpha: chance(0.3) ? 1 : double(0...1))
    }
    mutating func point(_ w: Int, _ h: Int) -> Point { Point(x: double(-8...Double(w + 8)), y: double(-8...Double(h + 8))) }
}

/// Builds random display lists.
struct FuzzSceneBuilder {
    var random: FuzzRandom
    let width: Int, height: Int
    /// The filtered images of the last `build`: the command's index, the graph and its region.
    var filtered: [(index: Int, node: FilterNode, region: PixelRect)] = []
    /// Whether `build` adds view trees (after everything else, from `viewRandom`).
    let drawsViews: Bool
    /// The view trees' own stream, so that adding them changes no other op of a seed.
    var viewRandom: FuzzRandom
    /// The view trees of the last `build`, and how many views they had.
    var views: [FuzzViewDraw] = []
    var viewCount = 0

    init(seed: UInt64, views: Bool = true) {
        random = FuzzRandom(state: seed)
        width = random.int(8...40); height = random.int(8...40)
        viewRandom = FuzzRandom(state: seed ^ 0x5649_4557_5452_4545)  // "VIEWTREE"
        drawsViews = views
    }

    mutating func shape() -> DeviceShape {
        var contours: [[Point]] = []
        for _ in 0..<random.int(1...2) { contours.append((0..<random.int(3...6)).map { _ in random.point(width, height) }) }
        return DeviceShape(contours: contours, rule: random.chance(0.5) ? .nonzero : .evenOdd)
    }

    mutating func transform() -> PenumbraModel.AffineTransform {
        let angle = random.double(-3.2...3.2), sx = random.double(0.3...3), sy = random.double(0.3...3)
        return PenumbraModel.AffineTransform(scaleX: sx, y: sy).concatenating(PenumbraModel.AffineTransform(rotationAngle: angle))
            .concatenating(PenumbraModel.AffineTransform(translationX: random.double(0...Double(width)), y: random.double(0...Double(height))))
    }

    mutating func state(clips: Int) -> CompositeState {
        var s = CompositeState()
        if random.chance(0.4) { s.alpha = random.double(0...1) }
        if random.chance(0.5) { s.blendMode = BlendMode.allCases[random.int(0...(BlendMode.allCases.count - 1))] }
        if random.chance(0.3) {
            let sigma = random.chance(0.3) ? 0 : random.double(0.05...6)
            s.shadow = DeviceShadow(offset: Point(x: random.double(-12...12), y: random.double(-12...12)), sigma: sigma,
                                    color: random.color())
        }
        if clips > 0, random.chance(0.4) { s.clip = random.int(0...(clips - 1)) }
        return s
    }

    mutating func bitmap() -> Bitmap { Self.randomBitmap(&random, 1...9) }

    /// A random premultiplied bitmap, each side in `sides`.
    static func randomBitmap(_ random: inout FuzzRandom, _ sides: ClosedRange<Int>) -> Bitmap {
        let w = random.int(sides), h = random.int(sides)
        var b = Bitmap(width: w, height: h)
        for i in 0..<(w * h) {
            let a = UInt8(random.int(0...255))
            for k in 0..<3 { b.pixels[i * 4 + k] = premultiply(UInt8(random.int(0...255)), alpha: a) }
            b.pixels[i * 4 + 3] = a
        }
        return b
    }

    mutating func stops() -> [GradientStop] {
        var offsets = (0..<random.int(1...4)).map { _ in random.chance(0.2) ? 0.5 : random.double(0...1) }
        offsets.sort()
        return offsets.map { GradientStop(offset: $0, color: random.color()) }
    }

    mutating func build() -> DisplayList {
        var list = DisplayList(width: width, height: height, scale: 1, background: random.chance(0.5) ? random.color() : nil)
        for _ in 0..<random.int(0...3) {
            let parent = list.clips.isEmpty || random.chance(0.5) ? nil : random.int(0...(list.clips.count - 1))
            list.clips.append(ClipNode(parent: parent, shape: shape()))
        }
        var open = 0
        for _ in 0..<random.int(1...8) {
            let st = state(clips: list.clips.count)
            switch random.int(0...9) {
            case 0...3: list.commands.append(.fill(shape(), random.color(), st))
            case 4, 5:
                let bmp = bitmap()
                let slicing = random.chance(0.4)
                    ? NineSlice(capInsets: EdgeInsets(top: random.double(0...4), left: random.double(0...4),
                                                      bottom: random.double(0...4), right: random.double(0...4)),
                                mode: random.chance(0.5) ? .tile : .stretch) : nil
                let draw = ImageDraw(bitmap: bmp, scale: random.chance(0.5) ? 1 : 2, transform: transform(),
                                     rect: Rect(x: random.double(-4...4), y: random.double(-4...4),
                                                width: random.double(0.5...16), height: random.double(0.5...16)),
                                     slicing: slicing, tint: random.chance(0.2) ? random.color() : nil,
                                     flippedHorizontally: random.chance(0.3))
                list.commands.append(.image(draw, st))
            case 6, 7:
                let kind: GradientDraw.Kind = random.chance(0.5)
                    ? .linear(start: random.point(width, height), end: random.point(width, height))
                    : .radial(startCenter: random.point(width, height), startRadius: random.double(0...20),
                              endCenter: random.point(width, height), endRadius: random.double(0...20))
                list.commands.append(.gradient(GradientDraw(kind: kind, stops: stops(), extendStart: random.chance(0.5),
                                                            extendEnd: random.chance(0.5), transform: transform()), st))
            case 8:
                var layerState = st
                layerState.clip = nil  // clips never span a layer boundary; keep the layer's own state clip-free
                list.commands.append(.beginLayer(layerState)); open += 1
            default:
                if open > 0 { list.commands.append(.endLayer); open -= 1 }
            }
        }
        // Drawn after the other ops so that the scenes without text stay what they were.
        if random.chance(0.4) { text(into: &list) }
        // A backdrop blur last (after the text), so that the scenes without one stay what they were:
        // the GPU reads its target back and must compute the same replacement as the CPU.
        if random.chance(0.3) {
            var st = state(clips: list.clips.count)
            st.alpha = 1; st.blendMode = .copy; st.shadow = nil
            let blur = BackdropBlur(shape: shape(), sigma: random.double(0...4), saturation: random.double(0...2),
                                    tint: random.chance(0.5) ? random.color() : nil)
            list.commands.append(.blurBackdrop(blur, st))
        }
        // Filtered images last, so that the scenes without one stay what they were.
        filtered = []
        if random.chance(0.35) {
            for _ in 0..<random.int(1...2) { filteredImage(into: &list) }
        }
        // A layer ended as a backdrop mask, then view trees from their own stream, last of all, so
        // that the scenes without them stay what they were.
        if random.chance(0.3) { backdropMask(into: &list) }
        views = []; viewCount = 0
        if drawsViews, viewRandom.chance(0.5) {
            for _ in 0..<(viewRandom.chance(0.8) ? 1 : 2) { viewTree(into: &list) }
        }
        return list
    }

    /// A layer of 0 to 3 random fills ended as a mask on the backdrop filtered by random
    /// colorControls (vibrancy): begun with a random state, of which only the clip applies.
    mutating func backdropMask(into list: inout DisplayList) {
        list.commands.append(.beginLayer(state(clips: list.clips.count)))
        for _ in 0..<random.int(0...3) { list.commands.append(.fill(shape(), random.color(), CompositeState())) }
        let filter = BackdropMaskFilter(saturation: random.double(0...2), brightness: random.double(-0.6...0.6))
        list.commands.append(.endLayerMaskingBackdrop(filter))
    }

    /// A chain of 1 to 3 random filters on a small image, drawn under a random transform; the list
    /// holds the CPU's pixels (`withGPUFilters` swaps in the GPU's).
    mutating func filteredImage(into list: inout DisplayList) {
        var node: FilterNode = .bitmap(Self.randomBitmap(&random, 2...12))
        for _ in 0..<random.int(1...3) {
            node = .filtered(node, FilterParityTests.randomFilter(random.int(0...15), &random, image: node))
        }
        var region = node.extent.rect ?? PixelRect(x: -2, y: -2, width: 16, height: 16)
        if region.area > 4096 || region.isEmpty { region = PixelRect(x: 0, y: 0, width: 12, height: 12) }
        let pixels = (try? FilterEvaluator(services: .cpu).render(node, in: region)) ?? Bitmap(width: region.width, height: region.height)
        let st = state(clips: list.clips.count)
        filtered.append((list.commands.count, node, region))
        list.commands.append(.image(ImageDraw(bitmap: pixels, scale: 1, transform: transform(),
                                              rect: Rect(x: random.double(-4...4), y: random.double(-4...4),
                                                         width: random.double(1...16), height: random.double(1...16))), st))
    }

    /// `list` (from `build`) with each filtered image's pixels evaluated by the GPU's passes and
    /// kept there as a texture, not read back, as a scene's chains are (so the GPU render draws
    /// the kept texture, or reads it back first for a mipmapped draw).
    func withGPUFilters(_ list: DisplayList, _ gpu: GPURenderer) throws -> DisplayList {
        var out = list
        for (index, node, region) in filtered {
            guard case .image(var draw, let state) = out.commands[index] else { continue }
            let produced = try gpu.renderFilterKeeping(node, in: region, maxPixels: ResourceLimits.default.maxPixels) {
                try FilterEvaluator(services: .cpu).render(node, in: region)
            }
            let pixels = DeferredPixels(width: region.width, height: region.height, place: "filtered", producing: { produced })
            try pixels.prepare()
            draw.pixels = .deferred(pixels)
            out.commands[index] = .image(draw, state)
        }
        return out
    }

    static let texts = ["Hello, world!", "office fi", "שלום עולם", "Wy 😀 ok", "AV Ta", "abc אבג 123", "🇫🇷❤️"]

    /// A random text, recorded by a GraphicsContext with random state and transform (which may add
    /// clip nodes: the text's layer is bounded by one) and appended to `list`.
    mutating func text(into list: inout DisplayList) {
        let context = GraphicsContext(pixelWidth: width, pixelHeight: height)
        context.list.clips = list.clips
        context.concatenate(PenumbraModel.AffineTransform(rotationAngle: random.double(-0.6...0.6)))
        if random.chance(0.4) { context.setAlpha(random.double(0...1)) }
        if random.chance(0.4) { context.setBlendMode(BlendMode.allCases[random.int(0...(BlendMode.allCases.count - 1))]) }
        if random.chance(0.3) { context.setShadow(offset: Size(width: random.double(-4...4), height: random.double(-4...4)),
                                                  blur: random.double(0...4), color: random.color()) }
        context.setFillColor(random.color())
        let string = Self.texts[random.int(0...(Self.texts.count - 1))]
        let font = Font(family: "DejaVu Sans", size: random.double(4...24), weight: random.chance(0.3) ? 700 : 400)
        let run = AttributedText.Run(string, font: font, color: random.chance(0.5) ? random.color() : nil,
                                     underline: random.chance(0.3), strikethrough: random.chance(0.2))
        _ = try? context.draw(AttributedText(runs: [run]), at: Point(x: random.double(-4...8), y: random.double(-4...8)),
                              maxWidth: random.chance(0.5) ? random.double(5...60) : nil)
        let recorded = context.displayList
        list.clips = recorded.clips
        list.commands += recorded.commands
    }
}

final class DifferentialFuzzTests: XCTestCase {
    func testRandomScenesAreByteIdentical() throws {
        let gpu = try GPUTestSupport.renderer()
        let env = ProcessInfo.processInfo.environment
        let count = env["PENUMBRA_FUZZ_SCENES"].flatMap(Int.init) ?? 500
        let baseSeed = env["PENUMBRA_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_0001
        let cpu = CPURenderer()
        var worst = 0, failures = 0, exact = 0, filteredImages = 0, trees = 0, views = 0
        let started = Date()
        let (keptBefore, drawsBefore, readBefore) = (gpu.images.kept.kept, gpu.images.kept.draws, gpu.images.kept.readBacks)
        for i in 0..<count {
            let seed = baseSeed &+ UInt64(i)
            var builder = FuzzSceneBuilder(seed: seed)
            let list = builder.build()
            let gpuList = try builder.withGPUFilters(list, gpu)
            filteredImages += builder.filtered.count
            trees += builder.views.count; views += builder.viewCount
            let diff = try XCTUnwrap(ImageDifference(try cpu.render(list), try gpu.render(gpuList)))
            worst = max(worst, diff.maxChannelDifference)
            guard !diff.isExact else { exact += 1; continue }
            failures += 1
            let index = try firstBreakingOp(list, gpuList, cpu: cpu, gpu: gpu)
            XCTFail("fuzz seed \(seed): op \(index) (\(list.commands[index])) breaks parity: \(diff)")
            // In a view tree: the smallest tree that still differs, in the scene format's terms.
            if let draw = builder.views.last(where: { $0.start <= index }),
               let shrunk = try shrink(list, gpuList, draw, cpu: cpu, gpu: gpu) {
                print("fuzz seed \(seed): the view tree at op \(draw.start) breaks parity; shrunk (\(shrunk.2)) to, "
                      + "under \(shrunk.1.description), layoutDirection \(shrunk.0.layoutDirection), after the scene's first "
                      + "\(draw.start) ops:\n" + Self.describe(shrunk.0.root, notes: draw.notes))
            }
            if failures >= 3 { break }
        }
        let kept = gpu.images.kept.kept - keptBefore, fromKept = gpu.images.kept.draws - drawsBefore
        let readBack = gpu.images.kept.readBacks - readBefore
        print("fuzz: \(count) scenes from seed \(baseSeed) (\(filteredImages) filtered images, \(kept) kept as textures, "
              + "\(fromKept) draws from them, \(readBack) read back for mipmapped draws, \(trees) view trees of \(views) views): \(exact) byte-identical; largest difference \(worst); \(failures) failing; "
              + String(format: "%.1f s", Date().timeIntervalSince(started)))
        if filteredImages > 20 { XCTAssertGreaterThan(fromKept, 0, "the GPU renders drew filtered images from their kept textures") }
    }

    /// The index of the first command whose prefix breaks the parity contract.
    func firstBreakingOp(_ list: DisplayList, _ gpuList: DisplayList? = nil, cpu: CPURenderer, gpu: GPURenderer) throws -> Int {
        for n in 1...list.commands.count {
            var prefix = list, gpuPrefix = gpuList ?? list
            prefix.commands = Array(list.commands.prefix(n))
            gpuPrefix.commands = Array(gpuPrefix.commands.prefix(n))
            let diff = try XCTUnwrap(ImageDifference(try cpu.render(prefix), try gpu.render(gpuPrefix)))
            if !diff.isExact { return n - 1 }
        }
        return list.commands.count - 1
    }

    /// The checker must be able to fail: two images that differ are reported as differing.
    func testTheCheckerReportsARealDifference() throws {
        var a = Bitmap(width: 20, height: 20)
        var b = a
        for i in stride(from: 0, to: a.pixels.count, by: 4) { a.pixels[i + 3] = 255; b.pixels[i + 3] = 255 }
        for i in stride(from: 0, to: 40 * 4, by: 4) { b.pixels[i] = 9 }
        let diff = try XCTUnwrap(ImageDifference(a, b))
        XCTAssertFalse(diff.isExact)
        XCTAssertEqual(diff.maxChannelDifference, 9)
        XCTAssertEqual(diff.pixelsDiffering, 40)
        // And a GPU rendering of something else than the CPU's list is caught too.
        let gpu = try GPUTestSupport.renderer()
        var list = DisplayList(width: 16, height: 16, scale: 1, background: .white)
        let cpuImage = try CPURenderer().render(list)
        list.commands.append(.fill(DeviceShape(contours: [[Point(x: 2, y: 2), Point(x: 14, y: 2), Point(x: 8, y: 14)]], rule: .nonzero),
                                   .black, CompositeState()))
        let other = try XCTUnwrap(ImageDifference(cpuImage, try gpu.render(list)))
        XCTAssertFalse(other.isExact, "\(other)")
    }
}
