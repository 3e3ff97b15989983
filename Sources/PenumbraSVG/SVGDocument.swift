// The public face of the SVG reader: parse a document once, then draw it into any
// GraphicsContext at any size (the drawing is the context's own calls, so both renderers
// execute it and agree byte for byte).
import PenumbraModel

/// A rejected SVG document: the element at fault (`<use id="a">`, `!DOCTYPE`, `svg` for the
/// document as a whole) and what was wrong.
public struct SVGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The element at fault, as `<name id="...">` or a bare name.
    public var element: String
    /// What was wrong with it.
    public var message: String
    /// An error for `element` (a label or a bare name) with `message`.
    public init(element: String, message: String) {
        self.element = element.hasPrefix("<") ? element : "<\(element)>"
        self.message = message
    }
    /// "<element>: message".
    public var description: String { "\(element): \(message)" }
}

/// Bounds that keep a hostile document's cost small: nesting depth, element count, `use`
/// instantiations (cycles are errors too), path commands and document size.
package struct SVGLimits: Sendable {
    package var maxDepth = 200
    package var maxElements = 200_000
    package var maxUseInstances = 10_000
    package var maxPathElements = 1_000_000
    package var maxTotalPathElements = 4_000_000
    package var maxDocumentBytes = 64 << 20
    package init() {}
}

/// An SVG document, parsed and checked, ready to draw into a `GraphicsContext` at any size.
///
/// Supported: the structure elements (`svg`, `g`, `defs`, `use`, `symbol`, `switch`), every
/// shape and the whole path grammar, fill and stroke with their properties, opacity as group
/// opacity, `style` attributes and `<style>` sheets, linear and radial gradients, `clipPath` and
/// `image` (PNG, JPEG, GIF, WebP through the codecs given). docs/svg.md lists what is not.
public struct SVGDocument: @unchecked Sendable {
    let root: SVGNode
    let ids: [String: SVGNode]
    let baseDirectory: String?
    let assetsDirectory: String?
    let codecs: ImageCodecs
    let limits: SVGLimits
    /// How deep inside other documents' `image` elements this one is drawn.
    var nesting = 0

    /// Parses `bytes` (UTF-8 XML, or gzip-compressed XML, `.svgz`, inflated up to 64 MiB). Relative references (`image` files) resolve in
    /// `baseDirectory` (the document's folder) and must stay inside `assetsDirectory` (by default
    /// `baseDirectory`); nil for both refuses every file reference. URLs are never fetched.
    /// `codecs` decode embedded and referenced images. Throws `SVGError` naming the element at
    /// fault for malformed XML, DOCTYPE entities, nesting deeper than 200 and more than 200,000
    /// elements.
    public init(bytes: [UInt8], baseDirectory: String? = nil, assetsDirectory: String? = nil,
                codecs: ImageCodecs = .png) throws {
        try self.init(bytes: bytes, baseDirectory: baseDirectory, assetsDirectory: assetsDirectory, codecs: codecs, limits: SVGLimits())
    }

    package init(bytes: [UInt8], baseDirectory: String?, assetsDirectory: String?, codecs: ImageCodecs, limits: SVGLimits) throws {
        self.limits = limits
        self.baseDirectory = baseDirectory
        self.assetsDirectory = assetsDirectory ?? baseDirectory
        self.codecs = codecs
        let xml = SVGGzip.isGzip(bytes) ? try SVGGzip.inflate(bytes, maxBytes: limits.maxDocumentBytes) : bytes
        root = try SVGXML.parse(xml, limits: limits)
        var ids: [String: SVGNode] = [:]
        func collect(_ n: SVGNode) {
            if let id = n.attributes["id"], ids[id] == nil { ids[id] = n }
            for c in n.children { collect(c) }
        }
        collect(root)
        self.ids = ids
        SVGCascade.apply(root: root)
    }

    /// The document's size in CSS pixels: its `width` and `height` (absolute units converted),
    /// else the `viewBox` size, else 100 x 100.
    public var size: Size { SVGRenderer.documentSize(root) }

    /// Draws the document into `context` so that it fills `width` x `height` user units from the
    /// origin (the document's own size when nil; an axis given alone keeps the aspect ratio).
    /// Throws `SVGError` naming the element for `use` cycles, more than 10,000 `use`
    /// instantiations, path data over 1,000,000 commands, references outside the assets folder
    /// or to URLs, and images that cannot be read. The context's state is restored afterwards.
    public func draw(in context: GraphicsContext, width: Double? = nil, height: Double? = nil) throws {
        let s = size
        var w = width ?? s.width, h = height ?? s.height
        if width != nil, height == nil, s.width > 0 { h = s.height * w / s.width }
        if height != nil, width == nil, s.height > 0 { w = s.width * h / s.height }
        let renderer = SVGRenderer(document: self, context: context)
        renderer.canvas = Size(width: w, height: h)
        context.saveGState()
        defer { context.restoreGState() }
        if s.width > 0, s.height > 0 { context.scaleBy(x: w / s.width, y: h / s.height) }
        try renderer.renderRoot()
    }
}

/// The core's transform (Foundation has one of the same name).
typealias AffineTransform = PenumbraModel.AffineTransform
