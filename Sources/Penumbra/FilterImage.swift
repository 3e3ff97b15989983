// FilterImage: the Core Image analogue of the Swift API (CIImage, CIFilter,
// CIContext). A FilterImage is a recipe, a node of PenumbraCore's filter graph:
// making one from an Image, a generator or another FilterImage, applying
// filters, cropping or clamping computes nothing. Pixels are made only when a
// FilterContext renders it (`createImage(_:from:)`, CIContext's
// createCGImage(_:from:)), and then only the pixels the requested rectangle
// needs (each filter asks its input for its region of interest), with the
// context's one renderer: a context is made once and reused, so filtering
// does not make a renderer (or a GPU context) per call, as the eager filters
// of Image+Filters.swift do. A context made on the caller's renderer
// (`FilterContext(renderer:)`) filters with it: a GPU renderer (or auto's)
// runs the graph as passes on its own GL context (GPUFilterEvaluator), any
// other the CPU's FilterEvaluator; the bytes are the same either way.
//
// Custom filters whose output is built from other filters conform to
// `CustomImageFilter` (a CIFilter subclass overriding outputImage);
// `VignetteFilter` is the seed's vignetter.
//
// Coordinates are the input image's pixels (origin top-left, one unit a
// pixel), as in scenes' filter chains; an image keeps its scale through the
// chain, and a generator has scale 1.

import PenumbraCPU
import PenumbraGPU

/// A lazily evaluated image: pixels, a generator, or filters applied to another FilterImage.
public struct FilterImage: Hashable, Sendable {
    /// The filter graph this image stands for.
    package let node: FilterNode
    /// Pixels per point of the image the chain started from (1 for a generator).
    public let scale: Double

    /// The graph `node`, at `scale`.
    package init(node: FilterNode, scale: Double = 1) { self.node = node; self.scale = scale }

    /// An image's pixels, extent [0, 0, width, height] (CIImage(cgImage:)).
    public init(_ image: Image) { self.init(node: .bitmap(image.bitmap), scale: image.scale) }

    /// A generator's infinite image.
    public init(generator: FilterGenerator) { self.init(node: .generator(generator)) }

    /// An infinite image of one colour (CIConstantColorGenerator).
    public static func constantColor(_ color: Color) -> FilterImage { FilterImage(generator: .constantColor(color)) }

    /// The two-circle radial gradient of the `radialGradient` op, in pixels (CIRadialGradient);
    /// by default white at the start circle to black at the end circle, as Core Image's.
    public static func radialGradient(center: Point, radius0: Double, radius1: Double,
                                      color0: Color = .white, color1: Color = .black) -> FilterImage {
        FilterImage(generator: .radialGradient(startCenter: center, startRadius: radius0, endCenter: center, endRadius: radius1,
                                               stops: [GradientStop(offset: 0, color: color0), GradientStop(offset: 1, color: color1)],
                                               extendStart: true, extendEnd: true))
    }

    /// The linear gradient of the `linearGradient` op, in pixels (CILinearGradient).
    public static func linearGradient(from start: Point, to end: Point, color0: Color = .white, color1: Color = .black) -> FilterImage {
        FilterImage(generator: .linearGradient(start: start, end: end,
                                               stops: [GradientStop(offset: 0, color: color0), GradientStop(offset: 1, color: color1)],
                                               extendStart: true, extendEnd: true))
    }

    /// The rectangle of pixels the image defines (CIImage.extent), nil when it is infinite (a
    /// generator, or a chain through `clampedToExtent()` that nothing has cropped).
    public var extent: Rect? {
        node.extent.rect.map { Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height)) }
    }

    /// This image with `filter` applied (CIImage.applyingFilter(_:parameters:)).
    public func applyingFilter(_ filter: ImageFilter) -> FilterImage {
        FilterImage(node: .filtered(node, filter), scale: scale)
    }

    /// This image through a custom filter.
    public func applyingFilter(_ filter: some CustomImageFilter) -> FilterImage { filter.outputImage(for: self) }

    /// Transparent outside `rect`, rounded out to whole pixels (CIImage.cropped(to:)).
    public func cropped(to rect: Rect) -> FilterImage { applyingFilter(.crop(rect)) }

    /// The edge pixels repeated outwards to infinity (CIImage.clampedToExtent()).
    public func clampedToExtent() -> FilterImage { applyingFilter(.clampToExtent) }

    /// This image blended over `background` with `mode`, coverage 1 (CIImage.composited(over:) for `.normal`).
    public func composited(over background: FilterImage, mode: BlendMode = .normal) -> FilterImage {
        applyingFilter(.composite(mode: mode, background: background.node))
    }

    /// mix(background, self, luma of `mask`) (CIBlendWithMask); a nil background is transparent.
    public func blended(withMask mask: FilterImage, background: FilterImage? = nil) -> FilterImage {
        applyingFilter(.blendWithMask(mask: mask.node, background: background?.node))
    }

    /// This image resampled under `transform`, as drawImage draws it (CIImage.transformed(by:)).
    public func transformed(by transform: AffineTransform) -> FilterImage { applyingFilter(.affineTransform(transform)) }
}

/// A filter built from other filters (a CIFilter subclass that overrides `outputImage`).
public protocol CustomImageFilter {
    /// The filtered image; computes nothing, only describes.
    func outputImage(for input: FilterImage) -> FilterImage
}

/// A vignette built from other filters: a radial gradient from white at `percentage` x half the
/// shorter side to black at half the longer side, centred on the input's extent, used as the
/// mask of ``FilterImage/blended(withMask:background:)`` over a transparent background, so the
/// image fades to transparent towards its corners. An input of infinite extent is returned
/// unchanged.
public struct VignetteFilter: CustomImageFilter {
    /// The inner radius, where the fade starts, as a fraction of half the shorter side.
    public var percentage: Double
    /// Creates the filter; `percentage` (1 by default) is the inner radius as a fraction of half
    /// the input's shorter side.
    public init(percentage: Double = 1) { self.percentage = percentage }

    public func outputImage(for input: FilterImage) -> FilterImage {
        guard let e = input.node.extent.rect else { return input }
        let w = Double(e.width), h = Double(e.height)
        let mask = FilterImage.radialGradient(center: Point(x: Double(e.x) + w / 2, y: Double(e.y) + h / 2),
                                              radius0: min(w, h) / 2 * percentage, radius1: max(w, h) / 2)
        return input.blended(withMask: mask)
    }
}

/// Renders FilterImages (CIContext): one renderer, made once, reused for every image.
public final class FilterContext {
    private let evaluator: FilterEvaluator
    /// The caller's renderer when it evaluates filter graphs itself (the GPU's passes).
    private let graphRenderer: (any FilterGraphRendering)?

    /// A context rendering with the CPU reference renderer's machinery (display lists for
    /// generators and resampling, the shadow blur).
    public init(limits: ResourceLimits = .default) {
        evaluator = FilterEvaluator(services: .cpu, maxPixels: limits.maxPixels)
        graphRenderer = nil
    }

    /// A context filtering with `renderer`, made once by the caller and reused: a GPU renderer
    /// (or `auto`'s) evaluates every graph as GPU passes on its own context, making no other;
    /// any other renderer's images are the CPU's evaluation. The bytes are the same either way
    /// (the parity contract). Use the context on the renderer's thread.
    public init(renderer: Renderer, limits: ResourceLimits = .default) {
        evaluator = FilterEvaluator(services: .cpu, maxPixels: limits.maxPixels)
        graphRenderer = renderer as? any FilterGraphRendering
    }

    /// The renderer's name when filters run on it ("cpu" otherwise).
    public var rendererName: String { (graphRenderer as? Renderer)?.name ?? "cpu" }

    /// The pixels of `image` in `rect` (pixels, rounded out; nil: the image's extent, which must
    /// then be finite) as an Image of the chain's scale (CIContext.createCGImage(_:from:)).
    public func createImage(_ image: FilterImage, from rect: Rect? = nil) throws -> Image {
        let region: PixelRect
        if let rect {
            region = PixelRect(enclosing: rect)
        } else if let e = image.node.extent.rect {
            region = e
        } else {
            throw FilterError("the image's extent is infinite; give the rectangle to render")
        }
        let bitmap = try graphRenderer?.renderFilter(image.node, in: region, maxPixels: evaluator.maxPixels)
            ?? evaluator.render(image.node, in: region)
        return Image(bitmap: bitmap, scale: image.scale)
    }
}

extension Image {
    /// This image as the start of a lazy filter chain.
    public var filterImage: FilterImage { FilterImage(self) }
}

extension AutoRenderer: FilterGraphRendering {
    /// On the GPU, and on the CPU for a region the GPU cannot hold (as `render` falls back).
    func renderFilter(_ node: FilterNode, in region: PixelRect, maxPixels: Int) throws -> Bitmap {
        do { return try gpu.renderFilter(node, in: region, maxPixels: maxPixels) } catch is BackendUnavailable {
            return try FilterEvaluator(services: .cpu, maxPixels: maxPixels).render(node, in: region)
        }
    }
}

/// A renderer lent to Sendable closures that are only ever called on the renderer's thread
/// (scene decoding runs where the render will).
private final class RendererBox: @unchecked Sendable {
    let renderer: Renderer
    /// The renderer as an evaluator of filter graphs, when it is one.
    let graphs: (any FilterGraphRendering)?
    /// The renderer when it is the GPU's, which keeps what it draws for the scene as textures.
    let gpu: GPURenderer?
    init(_ renderer: Renderer) {
        self.renderer = renderer; graphs = renderer as? any FilterGraphRendering; gpu = renderer as? GPURenderer
    }

    /// The list drawn by the renderer, kept on the GPU as an image texture when it is the GPU
    /// (the CPU reference renderer makes its pixels wherever they are asked for off the GPU).
    func renderImage(_ list: DisplayList) throws -> ProducedPixels {
        if let gpu { return try gpu.renderKeeping(list) { try CPURenderer().render(list) } }
        return .bitmap(try renderer.render(list))
    }

    /// The graph evaluated by the renderer's passes, kept on the GPU as an image texture when
    /// it is the GPU (the CPU's evaluator makes its pixels wherever they are asked for off the
    /// GPU); nil when the renderer has no passes.
    func renderFilterImage(_ node: FilterNode, in region: PixelRect, maxPixels: Int) throws -> ProducedPixels? {
        if let gpu {
            return try gpu.renderFilterKeeping(node, in: region, maxPixels: maxPixels) { try FilterEvaluator.cpu(node, region, maxPixels) }
        }
        return try graphs.map { .bitmap(try $0.renderFilter(node, in: region, maxPixels: maxPixels)) }
    }
}

extension SceneEnvironment {
    /// `standard`, with the images a scene draws (offscreen images, view snapshots, vector
    /// images' pixels, filter chains and generators) drawn by `renderer`, the one that will render
    /// the scene: offscreen images and drawings as display lists it renders, filter graphs by its
    /// own passes when it has them (a GPU renderer's, on its context, which keeps each result as
    /// a texture, so drawing it in the scene reads nothing back and uploads nothing; their
    /// pixels, asked for elsewhere, are the CPU renderer's, the same bytes). Where the GPU cannot hold a
    /// canvas or a region, the CPU renderer and evaluator draw it (the same bytes). Decoding draws
    /// none of them: `Scene.displayList()` draws them, before the scene's ops, so call it on the
    /// renderer's thread.
    public static func standard(renderingWith renderer: Renderer) -> SceneEnvironment {
        var environment = SceneEnvironment.standard
        let box = RendererBox(renderer)
        environment.renderOffscreen = { content in
            let list = try content.displayList()
            do { return try box.renderImage(list) } catch is BackendUnavailable {
                return .bitmap(try CPURenderer().render(list))
            }
        }
        if box.graphs != nil {
            environment.filterRenderer = { node, region, maxPixels in
                do {
                    if let pixels = try box.renderFilterImage(node, in: region, maxPixels: maxPixels) { return pixels }
                } catch is BackendUnavailable {}
                return .bitmap(try FilterEvaluator.cpu(node, region, maxPixels))
            }
            environment.filterRendererName = renderer.name
        }
        return environment
    }

    /// ``standard(renderingWith:)``, which draws offscreen images with `renderer` too.
    @available(*, deprecated, renamed: "standard(renderingWith:)")
    public static func standard(filteringWith renderer: Renderer) -> SceneEnvironment {
        standard(renderingWith: renderer)
    }
}
