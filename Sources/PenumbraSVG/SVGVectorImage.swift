// SVG as the core's vector image (VectorImage.swift): what lets a scene's `images` name an
// `.svg`, an `.svgz` or an image/svg+xml data URI and have it drawn as vectors. The document is
// parsed and then drawn once into a scratch context when it is read, so that what only drawing
// finds (`use` cycles, the `use` budget, references outside the assets folder, images that do
// not decode) is the scene's error at load time, naming the element; later draws cannot fail
// differently and ignore an error (the drawing stops there).
import PenumbraModel

/// An SVG document that draws itself into a rect.
struct SVGVectorImage: VectorImage {
    let document: SVGDocument
    let size: Size

    init(_ request: VectorImageRequest) throws {
        document = try SVGDocument(bytes: request.bytes, baseDirectory: request.baseDirectory,
                                   assetsDirectory: request.assetsDirectory, codecs: request.codecs)
        size = document.size
        try document.draw(in: GraphicsContext(pixelWidth: 1, pixelHeight: 1))
    }

    func draw(in context: GraphicsContext, rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        context.saveGState()
        defer { context.restoreGState() }
        context.translateBy(x: rect.minX, y: rect.minY)
        try? document.draw(in: context, width: rect.width, height: rect.height)
    }
}

extension VectorImageDecoder {
    /// SVG documents: `.svg` and `.svgz` files, `data:image/svg+xml;base64,` URIs and
    /// `image/svg+xml` bodies.
    /// Parts of unknown name are SVG when they are gzip (`.svgz`) or start with `<` after any
    /// byte-order mark and white space (raster formats start otherwise).
    package static let svg = VectorImageDecoder(
        dataURIPrefixes: ["data:image/svg+xml;base64,"], fileExtensions: ["svg", "svgz"], mediaTypes: ["image/svg+xml"],
        recognizes: { bytes in
            if SVGGzip.isGzip(bytes) { return true }
            var rest = bytes.prefix(4096)
            if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
            return rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
        },
        decode: { try SVGVectorImage($0) })
}
