// Vector images: an image whose content is a drawing (an SVG document) rather than pixels. The
// core cannot know the formats (PenumbraSVG depends on the core, not the other way), so a
// format implements `VectorImage` (its natural size and a replay of its drawing into a rect of
// any context) and a `VectorImageDecoder` in the scene environment turns a source's bytes into
// one. Such an image still carries a bitmap (the drawing rasterized at its natural size at the
// scene's scale, what an @Nx PNG would hold) for what needs pixels: nine-slice, filter chains.
// Every other draw of it goes through `GraphicsContext.draw(_:in:)`, which replays the drawing
// under the current transform and clip into the destination rect, so it is sharp at any size
// and both renderers draw it from the same context calls (GraphicsContext+VectorImages.swift).

/// A drawing that stands in for an image's pixels: its natural size and a replay of it.
package protocol VectorImage: Sendable {
    /// The natural size in points.
    var size: Size { get }
    /// Draws the whole drawing so that it fills `rect` (user space) of `context`, with the
    /// context's state restored afterwards. Errors were found when it was made; a draw that
    /// still fails draws what it drew up to the failure.
    func draw(in context: GraphicsContext, rect: Rect)
}

/// What a vector image decoder is given: the bytes and where references inside them may go.
package struct VectorImageRequest: Sendable {
    /// The source's bytes (a file, a data URI's payload or a request part).
    package var bytes: [UInt8]
    /// The folder the source's own relative references resolve in (its file's folder); nil
    /// refuses them.
    package var baseDirectory: String?
    /// The folder every reference must stay inside (the scene's assets folder).
    package var assetsDirectory: String?
    /// Decoders for raster images the drawing embeds.
    package var codecs: ImageCodecs
    package init(bytes: [UInt8], baseDirectory: String?, assetsDirectory: String?, codecs: ImageCodecs) {
        self.bytes = bytes; self.baseDirectory = baseDirectory; self.assetsDirectory = assetsDirectory; self.codecs = codecs
    }
}

/// Reads a vector image format: which sources it claims and how they become drawings.
package struct VectorImageDecoder: Sendable {
    /// Data URI prefixes it reads, lowercase (`data:image/svg+xml;base64,`).
    package var dataURIPrefixes: [String]
    /// File extensions it reads, lowercase, without the dot (`svg`, `svgz`).
    package var fileExtensions: [String]
    /// Media types of its documents, lowercase (`image/svg+xml`: a render server's body).
    package var mediaTypes: [String]
    /// True when bytes of unknown name (a request part) look like this format's.
    package var recognizes: @Sendable ([UInt8]) -> Bool
    /// Parses and checks the bytes; its error's description becomes the scene error's message.
    package var decode: @Sendable (VectorImageRequest) throws -> any VectorImage
    package init(dataURIPrefixes: [String], fileExtensions: [String], mediaTypes: [String],
                 recognizes: @escaping @Sendable ([UInt8]) -> Bool,
                 decode: @escaping @Sendable (VectorImageRequest) throws -> any VectorImage) {
        self.dataURIPrefixes = dataURIPrefixes; self.fileExtensions = fileExtensions; self.mediaTypes = mediaTypes
        self.recognizes = recognizes; self.decode = decode
    }

    /// True when `source` (a path, `part:NAME` or a data URI) is one of this format's.
    package func claims(_ source: String) -> Bool {
        let lower = source.lowercased()
        if lower.hasPrefix("data:") { return dataURIPrefixes.contains { lower.hasPrefix($0) } }
        guard let dot = lower.lastIndex(of: "."), !lower[dot...].contains("/") else { return false }
        return fileExtensions.contains(String(lower[lower.index(after: dot)...]))
    }
}

/// An image's drawing, compared by identity (two loads of one file are two drawings), with the
/// part of it the image shows after a crop.
package struct VectorContent: Hashable, Sendable {
    private final class Box: Sendable {
        let drawing: any VectorImage
        init(_ drawing: any VectorImage) { self.drawing = drawing }
    }
    private let box: Box
    /// The drawing.
    package var drawing: any VectorImage { box.drawing }
    /// The image's size when the drawing was attached (the whole drawing maps onto it).
    package var fullSize: Size
    /// The part shown, in the points of `fullSize` (a crop); nil: all of it.
    package var crop: Rect?

    package init(_ drawing: any VectorImage, fullSize: Size) { box = Box(drawing); self.fullSize = fullSize }

    package static func == (a: VectorContent, b: VectorContent) -> Bool {
        a.box === b.box && a.fullSize == b.fullSize && a.crop == b.crop
    }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(box)); hasher.combine(fullSize.width); hasher.combine(fullSize.height)
    }
}
