// libFuzzer entry over the SVG reader (built by Tools/fuzz/svg/run.sh with
// -sanitize=fuzzer,address; not part of the package): the bytes parsed as an SVG document
// (plain or gzip) under small limits, drawn into a 64 x 64 context with a geometry budget, and
// the display list rendered on the CPU. A rejection is the usual end; a crash, a trap, a
// sanitizer report or an allocation past -malloc_limit_mb is a bug.
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
    guard context.geometryOverflow == nil else { return 0 }
    _ = try? CPURenderer().render(context.displayList)
    return 0
}
