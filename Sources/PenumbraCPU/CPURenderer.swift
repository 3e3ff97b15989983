// CPURenderer: the reference rasterizer. It defines the correct pixels; the
// GPU renderer is proven against it.
//
// It executes Core's lowered draw stream (DrawStream): every draw goes
// through one path (`draw`): the planned coverage of its geometry (a device
// shape, or the whole plane for gradients and layers), a shader executing its
// paint plan, the clip's coverage multiplied in, and the blend formula of the
// mode applied bounded by coverage:
//     result = dst + coverage * (blend(src * alpha, dst) - dst)
// in the exact U8 integer arithmetic of docs/ARITHMETIC.md, into the 8-bit
// premultiplied target. A shadow, when set, is composited first the same way
// with its own coverage (CPURenderer+Shadow.swift). Layers are 8-bit targets
// of their own, composited as a plane-wide source at endLayer, or ended as a
// mask on the filtered backdrop (CPURenderer+Backdrop.swift).
import PenumbraModel
import PenumbraCore

/// The CPU reference renderer.
public final class CPURenderer: Renderer {
    /// Creates a CPU renderer. It needs no device and cannot fail; it keeps no state between
    /// renders, so one renderer can render any number of display lists.
    public init() { form = .cpu }

    /// A renderer planning shapes' coverage in `form` (tests compare the forms' bytes).
    package init(coverageForm form: CoverageForm) { self.form = form }

    /// How shapes' coverage is planned: bands for large shapes, masks for small ones.
    private let form: CoverageForm
    public var name: String { "cpu" }

    /// Renders the list, stopping once the current cancellation token (if any) is set.
    public func render(_ list: DisplayList) throws -> Bitmap {
        try render(list, cancellation: RenderCancellation.current)
    }

    /// Renders the list, checking `cancellation` between draws and every few rows inside one.
    public func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
        // Bound as the current token too, so that the blurs' row loops see it.
        guard let cancellation, RenderCancellation.current !== cancellation else { return try run(list, cancellation) }
        return try cancellation.during { try run(list, cancellation) }
    }

    /// Renders the list into `bitmap`'s memory when it has the canvas's pixel count (checking the
    /// current cancellation token, if any, between draws).
    public func render(_ list: DisplayList, into bitmap: inout Bitmap) throws {
        var memory: [UInt8] = []
        swap(&memory, &bitmap.pixels)  // the caller's only reference, when it held one
        bitmap = try run(list, RenderCancellation.current, reusing: consume memory)
    }

    private func run(_ list: DisplayList, _ cancellation: RenderCancellation?,
                     reusing memory: consuming [UInt8]? = nil) throws -> Bitmap {
        list.makeDeferredImages()
        var frame = CPUFrame(list: list, form: form, reusing: consume memory)
        try frame.run(cancellation: cancellation)
        return frame.target.bitmap
    }
}

/// A pixel buffer placed on the device grid: the canvas, or a layer (which may extend past
/// the canvas so that content outside it can still cast its shadow in).
struct RenderTarget {
    var bitmap: Bitmap
    var frame: PixelRect
    /// A target of transparent pixels, or of `fill` written once (no zeroing pass before it), in
    /// `memory` when it holds exactly the frame's bytes (its old contents are overwritten).
    init(frame: PixelRect, fill: Color? = nil, reusing memory: consuming [UInt8]? = nil) {
        self.frame = frame
        let color = fill?.premultiplied8 ?? .zero, count = frame.area
        if var pixels = consume memory, pixels.count == count * 4, count > 0 {
            pixels.withUnsafeMutableBytes { raw in
                raw.baseAddress!.withMemoryRebound(to: SIMD4<UInt8>.self, capacity: count) {
                    RenderTarget.write(color, to: $0, width: frame.width, height: frame.height, initializing: false)
                }
            }
            bitmap = Bitmap(width: frame.width, height: frame.height, pixels: pixels)
            return
        }
        guard fill != nil, count > 0 else { bitmap = Bitmap(width: frame.width, height: frame.height); return }
        let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!).bindMemory(to: SIMD4<UInt8>.self, capacity: count)
            RenderTarget.write(color, to: base, width: frame.width, height: frame.height, initializing: true)
            initialized = count * 4
        }
        bitmap = Bitmap(width: frame.width, height: frame.height, pixels: pixels)
    }

    /// Writes `color` to every pixel of a `width` x `height` buffer, bands of rows on the cores
    /// when it is large (a canvas of 1024 x 1024 is 4 MB, a quarter of W1's render on one core).
    private static func write(_ color: SIMD4<UInt8>, to base: UnsafeMutablePointer<SIMD4<UInt8>>, width: Int, height: Int,
                              initializing: Bool) {
        let pixels = DisjointWrites(base)  // each band writes its own rows
        RowBands.run(rows: 0..<height, pixels: width * height) { rows in
            let start = pixels.value + rows.lowerBound * width, count = rows.count * width
            if initializing { start.initialize(repeating: color, count: count) } else { start.update(repeating: color, count: count) }
        }
    }
}

/// The state of one render: the current target, the layers below it, and the lowered draw
/// stream (Core's DrawStream: its plans computed ahead on other cores).
struct CPUFrame {
    var target: RenderTarget
    private var layers: [RenderTarget] = []
    private var stream: DrawStream
    /// Set while `run` has a token: long row loops (compositing, shadow casters, blurs) look at
    /// it every `CPUFrame.cancellationRows` rows and stop early; the draw's pixels are then
    /// incomplete, and `run` throws before anything can read them.
    var cancellation: RenderCancellation?
    /// Rows between two looks at the cancellation token inside one draw (one atomic load each).
    static let cancellationRows = 32

    init(list: DisplayList, form: CoverageForm = .cpu, reusing memory: consuming [UInt8]? = nil) {
        target = RenderTarget(frame: list.canvasFrame, fill: list.background, reusing: consume memory)
        stream = DrawStream(list, form: form)
    }

    mutating func run(cancellation: RenderCancellation? = nil) throws {
        self.cancellation = cancellation
        while let step = stream.next() {
            try cancellation?.check()
            switch step {
            case .beginLayer(let frame):
                layers.append(target)
                target = RenderTarget(frame: frame)
            case .draw(let draw):
                self.draw(draw)
            case .endLayer(let draw):
                guard let below = layers.popLast() else { preconditionFailure("a layer ended that did not begin") }
                let layer = target
                target = below
                self.draw(draw, placed: layer.bitmap)
            case .blurBackdrop(let replacement, _, let draw):
                self.draw(draw, placed: backdropReplacement(replacement))
            case .maskBackdrop(let replacement, let draw):
                guard let below = layers.popLast() else { preconditionFailure("a layer ended that did not begin") }
                let layer = target
                target = below
                if let replacement { maskBackdrop(replacement, layer: layer, draw) }
            }
        }
        try cancellation?.check()  // the last draw may have stopped early
    }

    /// Executes a lowered draw: its shadow first, then the op itself, each as planned.
    /// `placed` supplies the pixels of a `placed` paint.
    mutating func draw(_ draw: LoweredDraw, placed: Bitmap? = nil) {
        let clip = draw.clip?.coverage.mask
        if let shadow = draw.shadow {
            drawShadow(shadow, makeShader(shadow.casterPaint, placed: placed), alpha8: draw.alpha8, mode: draw.mode, clip: clip)
        }
        guard let plan = draw.op else { return }
        let shader = makeShader(draw.paint, placed: placed)
        if let bands = plan.bands {
            composite(bands: bands, clip: clip, shader: shader, alpha: draw.alpha8, mode: draw.mode)
        } else {
            composite(region: plan.region, coverage: plan.coverage, clip: clip, shader: shader, alpha: draw.alpha8, mode: draw.mode)
        }
    }

    /// Composites `shader` into the target over `region` with coverage = geometry x clip (no
    /// geometry: the whole region, coverage 1). Works a row at a time, rows split in bands over
    /// the cores, on spans: without a clip each span of the geometry's sparse coverage is
    /// composited as it is (a constant span of a solid paint in one call, a plane as one run);
    /// under a clip the geometry's spans times the clip's (ClippedSpans.swift). The blend
    /// mode's row compositor (specialised per mode) mixes and rounds.
    mutating func composite(region: PixelRect, coverage: CoverageMask?, clip: CoverageMask?, shader: Shader,
                            alpha: UInt8, mode: BlendMode) {
        let frame = target.frame, cancellation = self.cancellation
        let plane = [RowSpan(x: region.x, count: region.width, values: nil, constant: 255)]
        target.bitmap.pixels.withUnsafeMutableBufferPointer { px in
            let pixels = SpanCompositor(pixels: px, frame: frame, shader: shader, alpha: alpha, mode: mode, region: region)
            RowBands.run(rows: region.y..<region.maxY, pixels: region.area) { rows in
                let scratch = SpanCompositor.Scratch(width: region.width)
                for y in rows {
                    if (y - rows.lowerBound) % CPUFrame.cancellationRows == 0, cancellation?.isCancelled == true { return }
                    guard let clip else {
                        if let coverage {
                            pixels.composite(y: y, mask: coverage, from: region.x, to: region.maxX, scratch)
                        } else {
                            pixels.composite(y: y, x: region.x, count: region.width, coverage: nil, constant: 255, scratch)
                        }
                        continue
                    }
                    clip.withSpans(inRow: y, from: region.x, to: region.maxX, collectingInto: &scratch.clipSpans) { clipSpans in
                        guard let coverage else {
                            return pixels.composite(y: y, geometry: plane, clip: clipSpans, originX: region.x, scratch)
                        }
                        coverage.withSpans(inRow: y, from: region.x, to: region.maxX, collectingInto: &scratch.geometrySpans) {
                            pixels.composite(y: y, geometry: $0, clip: clipSpans, originX: region.x, scratch)
                        }
                    }
                }
            }
        }
    }

    /// Fills `out[0..<width]` with the U8 coverage of row `y` from `x0` (a shadow caster's,
    /// densely): the geometry's, 0 outside its region, or 255 everywhere without one.
    static func coverageRow(y: Int, x0: Int, width: Int, coverage: CoverageMask?,
                            into out: UnsafeMutableBufferPointer<UInt8>) {
        for i in 0..<width { out[i] = 255 }
        coverage?.multiplyRow(y: y, x0: x0, into: out)
    }
}
