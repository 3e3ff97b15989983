// libFuzzer entry over the SVG reader (built by Tools/fuzz/svg/run.sh with
// -sanitize=fuzzer,address; not part of the package): the bytes parsed as an SVG document
// (plain or gzip) under small limits, drawn into a 64 x 64 context with a geometry budget, drawn
// again as a scene's vector image would be, and the display list rendered on the CPU. A
// rejection is the usual end; a crash, a trap, a sanitizer report or an allocation past
// -malloc_limit_mb is a bug.
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import PenumbraSVG

let limits: SVGLimits = {
    var limits = SVGLimits()
    limits.maxDepth = 64
    limits.maxElements = 4096
    limits.maxUseInstances = 512
    limits.maxPathElements = 20_000
    limits.maxTotalPathElements = 50_000
    limits.maxDocumentBytes = 1 << 20
    return limits
}()

/// The document as a vector image, drawn as PenumbraSVG's own adapter draws it.
struct FuzzDrawing: VectorImage {
    let document: SVGDocument
    var size: Size { document.size }
    func draw(in context: GraphicsContext, rect: Rect) {
        context.saveGState()
        defer { context.restoreGState() }
        context.translateBy(x: rect.minX, y: rect.minY)
        try? document.draw(in: context, width: rect.width, height: rect.height)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? SVGDocument(bytes: bytes, baseDirectory: nil, assetsDirectory: nil, codecs: .png, limits: limits) else {
        return 0
    }
    _ = document.size
    let context = GraphicsContext(pixelWidth: 64, pixelHeight: 64)
    context.geometryBudget = GeometryBudget(limit: 1 << 16)
    try? document.draw(in: context, width: 64, height: 64)
    // The same document as a scene's vector image (GraphicsContext+VectorImages.swift), the last
    // byte choosing crop, template, flip and alpha.
    let flags = bytes[bytes.count - 1]
    var image = Image(bitmap: Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)), scale: 1)
    image.vector = VectorContent(FuzzDrawing(document: document), fullSize: image.size)
    if flags & 1 != 0, let cropped = image.cropped(to: Rect(x: 1, y: 0, width: 1, height: 2)) { image = cropped }
    if flags & 2 != 0 { image = image.withRenderingMode(.template, tint: .black) }
    if flags & 4 != 0 { image = image.flippedHorizontally() }
    context.draw(image, in: Rect(x: 8, y: 8, width: 48, height: 40), alpha: flags & 8 != 0 ? 0.5 : 1)
    guard context.geometryOverflow == nil else { return 0 }
    _ = try? CPURenderer().render(context.displayList)
    return 0
}
