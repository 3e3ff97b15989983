// FilterParityTests: filter graphs evaluated as GPU passes (GPUFilterEvaluator)
// held to the parity contract against the CPU's FilterEvaluator: every filter
// and generator over random images and parameters, requested over regions
// that reach outside their extents, chains of them, and the filter examples
// decoded with either evaluator (filters, blur-crop, vignette, frosted) and
// drawn; and blurBackdrop, whose replacement the GPU computes from its target
// texture without a readback: on the canvas, under a clip, at scale 2, and
// inside a layer with a shadow, whose target is a grown frame off the canvas
// origin.
import Foundation
import XCTest
import Penumbra
@testable import PenumbraModel
@testable import PenumbraCore
import PenumbraCPU
import PenumbraShaders
@testable import PenumbraGPU

final class FilterParityTests: XCTestCase {
    func check(_ name: String, scale: Double = 1, _ draw: (GraphicsContext) -> Void) throws {
        let gpu = try GPUTestSupport.renderer()
        let context = GraphicsContext(pixelWidth: Int(48 * scale), pixelHeight: Int(40 * scale), scale: scale,
                                      background: Color(red: 0.9, green: 0.85, blue: 0.7))
        FocusedParityTests.backdrop(context)
        draw(context)
        try GPUTestSupport.assertParity(context.displayList, name: name, gpu: gpu)
    }

    func testBackdropBlurOnTheCanvasUnderAClipAndAtScale2() throws {
        try check("backdrop-plain") { $0.blurBackdrop(Path(roundedRect: Rect(x: 6, y: 4, width: 30, height: 24), cornerRadius: 6), radius: 3) }
        try check("backdrop-clipped") { c in
            c.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 30, height: 30)))
            c.blurBackdrop(Path(rect: Rect(x: 4, y: 4, width: 40, height: 30)), radius: 2.5, saturation: 1.7,
                           tint: Color(red: 1, green: 1, blue: 1, alpha: 0.3))
        }
        try check("backdrop-scale2", scale: 2) { c in
            c.rotate(by: 0.3)
            c.blurBackdrop(Path(rect: Rect(x: 10, y: 0, width: 24, height: 20)), radius: 1.5, saturation: 0.2)
        }
    }

    func testBackdropBlurInsideALayerWithAShadow() throws {
        try check("backdrop-layer") { c in
            c.setShadow(offset: Size(width: 3, height: 4), blur: 4, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
            c.beginTransparencyLayer()
            c.setFillColor(Color(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.8))
            c.fill(Path(ellipseIn: Rect(x: 8, y: 8, width: 20, height: 20)))
            c.blurBackdrop(Path(rect: Rect(x: 0, y: 0, width: 30, height: 30)), radius: 2)
            c.endTransparencyLayer()
        }
    }

    // MARK: Filter graphs

    /// The CPU's and the GPU's pixels of `node` over `region`, which must be the same bytes.
    func assertSameBytes(_ node: FilterNode, _ region: PixelRect, _ what: String,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let gpu = try GPUTestSupport.renderer()
        let cpu = try FilterEvaluator(services: .cpu).render(node, in: region)
        let out = try gpu.renderFilter(node, in: region, maxPixels: ResourceLimits.default.maxPixels)
        let diff = try XCTUnwrap(ImageDifference(cpu, out))
        XCTAssertTrue(diff.isExact, "\(what) over \(region): \(diff)", file: file, line: line)
    }

    /// The graph without its pixels: sizes for bitmaps, the filters' parameters.
    static func describe(_ node: FilterNode) -> String {
        switch node {
        case .bitmap(let b): return "bitmap \(b.width)x\(b.height)"
        case .generator(let g): return "\(g)"
        case .filtered(let input, let filter):
            let f: String
            switch filter {
            case .blendWithMask(let m, let b): f = "blendWithMask(\(describe(m)), \(b.map(describe) ?? "nil"))"
            case .composite(let mode, let b): f = "composite(\(mode), \(describe(b)))"
            default: f = "\(filter)"
            }
            return describe(input) + " -> " + f
        }
    }

    /// One random filter of every kind (by `kind`), with random parameters.
    static func randomFilter(_ kind: Int, _ random: inout FuzzRandom, image: FilterNode) -> ImageFilter {
        switch kind {
        case 0: return .gaussianBlur(radius: random.chance(0.1) ? 0 : random.double(0.2...6))
        case 1: return .colorControls(saturation: random.double(-1...3), brightness: random.double(-0.5...0.5),
                                      contrast: random.double(0...3))
        case 2:
            func row() -> [Double] { (0..<4).map { _ in random.double(-1.5...1.5) } }
            return .colorMatrix(r: row(), g: row(), b: row(), a: row(), bias: row())
        case 3: return .sepiaTone(intensity: random.double(-0.5...1.5))
        case 4: return .colorMonochrome(color: random.color(), intensity: random.double(-0.5...1.5))
        case 5: return .exposureAdjust(ev: random.double(-4...4))
        case 6: return .gammaAdjust(power: random.double(0.1...4))
        case 7: return .hueAdjust(angle: random.double(-7...7))
        case 8: return .colorInvert
        case 9:
            return .vignette(center: random.chance(0.5) ? nil : Point(x: random.double(-5...30), y: random.double(-5...30)),
                             radius: random.chance(0.5) ? nil : random.double(0...30), intensity: random.double(-1...2),
                             falloff: random.double(0...1))
        case 10: return .unsharpMask(radius: random.double(0.2...5), intensity: random.double(-2...4))
        case 11:
            return .blendWithMask(mask: .bitmap(FuzzSceneBuilder.randomBitmap(&random, 4...24)),
                                  background: random.chance(0.5) ? nil : .generator(.constantColor(random.color())))
        case 12:
            return .composite(mode: BlendMode.allCases[random.int(0...(BlendMode.allCases.count - 1))],
                              background: random.chance(0.5) ? .bitmap(FuzzSceneBuilder.randomBitmap(&random, 4...24))
                                                             : .generator(.constantColor(random.color())))
        case 13:
            let angle = random.double(-3.2...3.2), s = random.double(0.3...2.5)
            return .affineTransform(AffineTransform(scaleX: s, y: s * random.double(0.7...1.3))
                .concatenating(AffineTransform(rotationAngle: angle))
                .concatenating(AffineTransform(translationX: random.double(-10...10), y: random.double(-10...10))))
        case 14: return .crop(Rect(x: random.double(-4...12), y: random.double(-4...12), width: random.double(0...20),
                                   height: random.double(0...20)))
        default: return .clampToExtent
        }
    }

    func testEveryFilterIsByteIdenticalOnRandomImagesAndParameters() throws {
        var random = FuzzRandom(state: 0xF117_E125)
        for kind in 0...15 {
            for trial in 0..<6 {
                let source = FilterNode.bitmap(FuzzSceneBuilder.randomBitmap(&random, 3...26))
                let node = FilterNode.filtered(source, Self.randomFilter(kind, &random, image: source))
                // The extent (when finite) and a region reaching outside it.
                let e = node.extent.rect ?? PixelRect(x: 0, y: 0, width: 20, height: 20)
                try assertSameBytes(node, e, "filter \(kind) trial \(trial): \(Self.describe(node))")
                let off = PixelRect(x: e.x - random.int(0...7), y: e.y + random.int(-7...7), width: random.int(1...30),
                                    height: random.int(1...30))
                try assertSameBytes(node, off, "filter \(kind) trial \(trial) (off): \(Self.describe(node))")
            }
        }
    }

    func testGeneratorsAndChainsAreByteIdentical() throws {
        var random = FuzzRandom(state: 0xC4A1_2005)
        let stops = [GradientStop(offset: 0.1, color: random.color()), GradientStop(offset: 0.8, color: random.color())]
        let generators: [FilterNode] = [
            .generator(.constantColor(random.color())),
            .generator(.linearGradient(start: Point(x: 2, y: 3), end: Point(x: 20, y: 14), stops: stops, extendStart: true,
                                       extendEnd: false)),
            .generator(.radialGradient(startCenter: Point(x: 10, y: 9), startRadius: 2, endCenter: Point(x: 12, y: 10),
                                       endRadius: 14, stops: stops, extendStart: false, extendEnd: true)),
        ]
        for (i, g) in generators.enumerated() {
            try assertSameBytes(g, PixelRect(x: -3, y: 2, width: 25, height: 19), "generator \(i)")
        }
        for trial in 0..<24 {
            var node: FilterNode = random.chance(0.8) ? .bitmap(FuzzSceneBuilder.randomBitmap(&random, 4...24))
                                                      : generators[random.int(0...2)].cropped(to: Rect(x: 0, y: 0, width: 18, height: 15))
            for _ in 0..<random.int(2...4) {
                node = .filtered(node, Self.randomFilter(random.int(0...15), &random, image: node))
            }
            let region = node.extent.rect ?? PixelRect(x: -2, y: -2, width: 24, height: 21)
            guard region.area <= 200_000 else { continue }
            try assertSameBytes(node, region, "chain \(trial): \(Self.describe(node))")
        }
    }

    /// A crop after a blur blurs only what is kept on the GPU too (same bytes, fewer pixels computed).
    func testACropAfterABlurEqualsTheBlurCropped() throws {
        var random = FuzzRandom(state: 77)
        let source = FilterNode.bitmap(FuzzSceneBuilder.randomBitmap(&random, 30...30))
        let blurred = FilterNode.filtered(source, .gaussianBlur(radius: 3))
        let gpu = try GPUTestSupport.renderer()
        let whole = try gpu.renderFilter(blurred, in: try XCTUnwrap(blurred.extent.rect), maxPixels: 1 << 20)
        let keep = PixelRect(x: 5, y: 7, width: 9, height: 6)
        let cropped = try gpu.renderFilter(blurred.cropped(to: Rect(x: 5, y: 7, width: 9, height: 6)), in: keep, maxPixels: 1 << 20)
        let e = try XCTUnwrap(blurred.extent.rect)
        XCTAssertEqual(cropped, whole.placed(at: e, into: keep))
        XCTAssertLessThanOrEqual(gpu.lastFrameCounters.passes, 2)
    }

    /// Examples with filter chains and offscreen images, both drawn by the GPU when the scene is
    /// lowered (decoding draws none of them).
    func testExamplesDrawnBeforeTheirOpsDecodeToTheSameBytesOnTheGPU() throws {
        let gpu = try GPUTestSupport.renderer()
        for name in GPUTestSupport.examplesDrawingImages {
            let (onCPU, onGPU) = try GPUTestSupport.exampleDecodedForBoth(name, gpu: gpu)
            let cpuPixels = try CPURenderer().render(onCPU.displayList())
            let gpuPixels = try gpu.render(onGPU.displayList())
            XCTAssertEqual(Set(onCPU.images.keys), Set(onGPU.images.keys), name)
            for (key, image) in onCPU.images {
                XCTAssertEqual(image.bitmap, onGPU.images[key]?.bitmap, "\(name): image \(key)")
            }
            let diff = try XCTUnwrap(ImageDifference(cpuPixels, gpuPixels))
            print("parity \(name) (GPU filters): \(diff)")
            XCTAssertTrue(diff.isExact, "\(name): \(diff)")
        }
    }

    /// Filters at the drawn resolution: the photo drawn at 1/10 through a colour + blur chain is
    /// decoded at 1/8 and the chain runs there with radius 12 / 8; the GPU's filter passes give the
    /// same bytes as Core's evaluator, and the draws the same pixels.
    func testAChainShrunkWithItsJPEGIsByteIdenticalOnTheGPU() throws {
        let gpu = try GPUTestSupport.renderer()
        let base = GPUTestSupport.examples.appendingPathComponent("images").path
        let json = """
            {"format": "penumbra-scene", "version": 1, "size": [200, 150], "background": "#FFFFFF",
             "images": {"photo": "photo.jpg", "soft": {"input": "photo", "filters": [{"filter": "clampToExtent"},
                        {"filter": "colorControls", "saturation": 1.4}, {"filter": "gaussianBlur", "radius": 12}]}},
             "ops": [{"op": "drawImage", "image": "soft", "rect": [10, 10, 160, 120]},
                     {"op": "rotate", "angle": 0.3}, {"op": "drawImage", "image": "soft", "rect": [60, 0, 80, 60]}]}
            """
        let onCPU = try Scene.decode(json, baseDirectory: base, environment: .standard)
        let onGPU = try Scene.decode(json, baseDirectory: base, environment: .standard(renderingWith: gpu))
        XCTAssertEqual(onCPU.images["soft"]?.bitmap.width, 200, "the 1600 x 1200 photo at 1/8")
        XCTAssertTrue(onCPU.images["soft"]?.bitmap == onGPU.images["soft"]?.bitmap, "the chain's bytes")
        let diff = try XCTUnwrap(ImageDifference(try CPURenderer().render(onCPU.displayList()), try gpu.render(onGPU.displayList())))
        XCTAssertTrue(diff.isExact, "\(diff)")
    }

    func testAFilterContextOnTheGPURendererMakesNoOtherContext() throws {
        let gpu = try GPUTestSupport.renderer()
        var random = FuzzRandom(state: 9)
        let image = Image(bitmap: FuzzSceneBuilder.randomBitmap(&random, 16...16), scale: 1)
        let chain = image.filterImage.applyingFilter(.sepiaTone(intensity: 0.8)).applyingFilter(.gaussianBlur(radius: 2))
        let context = FilterContext(renderer: gpu)
        XCTAssertEqual(context.rendererName, gpu.name)
        let out = try context.createImage(chain)
        // The passes ran on this renderer: its counters are the chain's (colour, two blur passes).
        XCTAssertEqual(gpu.lastFrameCounters.passes, 3)
        XCTAssertEqual(out.bitmap, try FilterContext().createImage(chain).bitmap)
    }

    /// A chain wider than the GPU's textures is evaluated on the CPU when a scene is decoded for
    /// the GPU (the same bytes), rather than rejected.
    func testAChainBeyondTheGPUsTextureSizeFallsBackToTheCPUWhenDecoding() throws {
        let gpu = try GPUTestSupport.renderer()
        let wide = gpu.maxTextureSize + 3
        let json = """
        {"format": "penumbra-scene", "version": 1, "size": [8, 8],
         "images": {"band": {"generator": "linearGradient", "start": [0, 0], "end": [\(wide), 0],
                             "stops": [[0, "#FF000080"], [1, "#0000FF"]], "extent": [0, 0, \(wide), 2]},
                    "inverted": {"input": "band", "filters": [{"filter": "colorInvert"}, {"filter": "gaussianBlur", "radius": 1}]}},
         "ops": [{"op": "drawImage", "image": "inverted", "rect": [0, 0, 8, 8]}]}
        """
        XCTAssertThrowsError(try gpu.renderFilter(.generator(.constantColor(.white)), in: PixelRect(x: 0, y: 0, width: wide, height: 1),
                                                  maxPixels: 1 << 30)) { XCTAssertTrue($0 is BackendUnavailable, "\($0)") }
        let onCPU = try Scene.decode(json, baseDirectory: ".", environment: .standard)
        let onGPU = try Scene.decode(json, baseDirectory: ".", environment: .standard(renderingWith: gpu))
        XCTAssertEqual(onCPU.images["inverted"]?.bitmap.width, wide)
        XCTAssertEqual(onCPU.images["inverted"]?.bitmap, onGPU.images["inverted"]?.bitmap)
    }

    func testFilterProgramsAssembleWithTheirSnippetsAndCompile() throws {
        for name in ShaderSources.filterPrograms {
            let source = try XCTUnwrap(ShaderSources.fragment(name))
            XCTAssertTrue(source.hasPrefix("#version 320 es"), name)
            XCTAssertFalse(source.contains("//! include"), name)
            XCTAssertFalse(source.contains("#error missing snippet"), name)
        }
        // Every colour op and pass compiles and links on this context (colour op 1 is the matrix).
        _ = try GPUTestSupport.renderer()  // a context exists (else the test skips, or fails under CI)
        for op in 0...7 {
            let node = FilterNode.filtered(.generator(.constantColor(Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7))),
                                           [ImageFilter.colorControls(saturation: 1.3, brightness: 0.1, contrast: 0.8),
                                            .colorMatrix(r: [0, 1, 0, 0], g: [1, 0, 0, 0], b: [0, 0, 1, 0], a: [0, 0, 0, 1], bias: [0.1, 0, 0, 0]),
                                            .sepiaTone(intensity: 0.7), .colorMonochrome(color: .white, intensity: 0.5),
                                            .exposureAdjust(ev: 1), .gammaAdjust(power: 2.2), .colorInvert,
                                            .vignette(center: Point(x: 2, y: 2), radius: 3, intensity: 1, falloff: 0.5)][op])
            try assertSameBytes(node, PixelRect(x: 0, y: 0, width: 5, height: 4), "colour op \(op)")
        }
    }
}
