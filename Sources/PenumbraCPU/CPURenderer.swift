// CPURenderer: the reference rasterizer. It defines the correct pixels; the
// GPU renderer is proven against it.
//
// Every command goes through one path (`draw`): a geometry (a device shape,
// or the whole plane for gradients and layers) gives coverage, a shader gives
// the paint, the clip multiplies the coverage, and the blend formula of the
// mode is applied bounded by coverage:
//     result = dst + coverage * (blend(src * alpha, dst) - dst)
// computed in Float and stored rounded (halves up) into the 8-bit
// premultiplied target. A shadow, when set, is composited first the same way
// with its own coverage (CPURenderer+Shadow.swift). Layers are 8-bit targets
// of their own, composited as a plane-wide source at endLayer.
import PenumbraCore

/// The CPU reference renderer.
public final class CPURenderer: Renderer {
    public init() {}
    public var name: String { "cpu" }

    /// Renders the list into a new premultiplied bitmap.
    public func render(_ list: DisplayList) throws -> Bitmap {
        var frame = CPUFrame(list: list)
        frame.run()
        return frame.target.bitmap
    }
}

/// A pixel buffer placed on the device grid: the canvas, or a layer (which may extend past
/// the canvas so that content outside it can still cast its shadow in).
struct RenderTarget {
    var bitmap: Bitmap
    var frame: PixelRect
    init(frame: PixelRect) { self.frame = frame; bitmap = Bitmap(width: frame.width, height: frame.height) }
}

/// The state of one render: the current target, the layers below it, cached clip masks.
struct CPUFrame {
    let list: DisplayList
    var target: RenderTarget
    private var layers: [(target: RenderTarget, state: CompositeState)] = []
    private var clipMasks: [Int: CoverageMask] = [:]

    init(list: DisplayList) {
        self.list = list
        target = RenderTarget(frame: PixelRect(x: 0, y: 0, width: list.width, height: list.height))
        if let bg = list.background { target.bitmap.fill(with: bg) }
    }

    mutating func run() {
        for command in list.commands {
            switch command {
            case .fill(let shape, let color, let state):
                draw(.shape(shape), SolidShader(color), state)
            case .image(let image, let state):
                draw(.shape(ImageShader.coverageShape(of: image)), ImageShader(image), state)
            case .gradient(let gradient, let state):
                draw(.clipArea(state.clip), GradientShader(gradient), state)
            case .beginLayer(let state):
                layers.append((target, state))
                target = RenderTarget(frame: target.frame.grown(by: ShadowPlan.margin(for: state.shadow)))
            case .endLayer:
                endLayer()
            }
        }
        while !layers.isEmpty { endLayer() }
    }

    private mutating func endLayer() {
        guard let (below, state) = layers.popLast() else { return }
        let layer = target
        target = below
        draw(.plane, BitmapShader(bitmap: layer.bitmap, frame: layer.frame), state)
    }

    /// Draws one op: its shadow first, then the op itself, each as the shared plan says.
    mutating func draw(_ geometry: DrawGeometry, _ shader: Shader, _ state: CompositeState) {
        let clip = state.clip.map { clipMask($0) }
        if let shadow = state.shadow,
           let plan = ShadowPlan(shadow: shadow, geometry: geometry, frame: target.frame, clips: list.clips, clipRegion: clip?.region) {
            drawShadow(plan, shadow.color, shader, state, clip: clip)
        }
        guard let plan = OpPlan(geometry: geometry, frame: target.frame, clipRegion: clip?.region) else { return }
        composite(region: plan.region, coverage: plan.coverage, clip: clip, shader: shader, offset: .zero,
                  alpha: Float(state.alpha), mode: state.blendMode)
    }

    /// The clip's coverage over the current target's frame (zero outside its region), cached per
    /// clip node. Clip nodes never span a layer boundary, so one frame serves each node.
    mutating func clipMask(_ index: Int) -> CoverageMask {
        if let m = clipMasks[index] { return m }
        let mask = ClipCoverage.mask(ofClip: index, in: list.clips, within: target.frame)
            ?? CoverageMask(region: PixelRect(x: 0, y: 0, width: 0, height: 0), values: [])
        clipMasks[index] = mask
        return mask
    }

    /// Composites `shader` into the target over `region` with coverage = geometry x clip.
    /// Works a row at a time: the coverage row is the geometry row times the clip row, the
    /// shader runs only between the first and last covered pixel, and the blend mode's row
    /// compositor (specialised per mode) mixes and rounds.
    mutating func composite(region: PixelRect, coverage: CoverageMask?, clip: CoverageMask?, shader: Shader,
                            offset: Point, alpha: Float, mode: BlendMode) {
        let width = region.width, frame = target.frame
        let solid = (shader as? SolidShader).map { $0.color * alpha }
        var colors = [SIMD4<Float>](repeating: .zero, count: width)
        var rowCoverage = [Float](repeating: 0, count: width)
        target.bitmap.pixels.withUnsafeMutableBufferPointer { px in
            colors.withUnsafeMutableBufferPointer { colors in
                rowCoverage.withUnsafeMutableBufferPointer { cov in
                    for y in region.y..<region.maxY {
                        CPUFrame.coverageRow(y: y, x0: region.x, width: width, coverage: coverage, clip: clip, into: cov)
                        var lo = 0, hi = width
                        while lo < hi && cov[lo] == 0 { lo += 1 }
                        guard lo < hi else { continue }
                        while cov[hi - 1] == 0 { hi -= 1 }
                        let count = hi - lo
                        let rowStart = ((y - frame.y) * frame.width + region.x + lo - frame.x) * 4
                        let destination = UnsafeMutableBufferPointer(rebasing: px[rowStart..<(rowStart + count * 4)])
                        let coverageSpan = UnsafeBufferPointer(rebasing: cov[lo..<hi])
                        if let solid {
                            mode.blendRow(source: solid, coverage: coverageSpan, destination: destination)
                        } else {
                            shader.shade(y: y, x0: region.x + lo, count: count, offset: offset,
                                         colors: colors.baseAddress! + lo, coverage: cov.baseAddress! + lo)
                            if alpha != 1 { for i in lo..<hi { colors[i] *= alpha } }
                            mode.blendRow(sources: UnsafeBufferPointer(rebasing: colors[lo..<hi]),
                                          coverage: coverageSpan, destination: destination)
                        }
                    }
                }
            }
        }
    }

    /// Fills `out[0..<width]` with the coverage of row `y` from `x0`: 1 times the geometry's
    /// (when there is one) times the clip's, 0 outside either mask's region.
    static func coverageRow(y: Int, x0: Int, width: Int, coverage: CoverageMask?, clip: CoverageMask?,
                            into out: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<width { out[i] = 1 }
        coverage?.multiplyRow(y: y, x0: x0, into: out)
        clip?.multiplyRow(y: y, x0: x0, into: out)
    }
}

extension Bitmap {
    /// Fills every pixel with the colour, premultiplied and rounded (halves up).
    mutating func fill(with color: Color) {
        let p = color.premultiplied
        let v: [UInt8] = (0..<4).map { UInt8(roundHalfUp(min(1, max(0, p[$0])) * 255)) }
        pixels.withUnsafeMutableBufferPointer { px in
            var i = 0
            while i < px.count { px[i] = v[0]; px[i + 1] = v[1]; px[i + 2] = v[2]; px[i + 3] = v[3]; i += 4 }
        }
    }
}
