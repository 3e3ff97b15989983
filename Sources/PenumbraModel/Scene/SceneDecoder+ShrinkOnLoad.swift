// Shrink-on-load: a JPEG that every draw samples from mip level k >= 1 is
// decoded at 1/2^j by libjpeg's DCT scaling, and its remaining levels come
// from that scaled image (docs/images.md, "Shrink-on-load").
//
// Before the ops are decoded (and so before any image is loaded), the
// scene's own op list is walked once as JSON: the CTM is followed through
// save / restore / layers / concat / translate / scale / rotate, and every
// top-level `drawImage` records its device transform and placement. An image
// is a candidate only when each use of its name anywhere in the document is
// such a draw with interpolation `default` or `high`, no `crop` and no
// `capInsets` (a filter chain, an offscreen image, a text frame, a nine-slice
// or cropped draw need the full pixels). Anything the walk does not
// understand cancels shrinking for the whole scene; the decoder proper then
// reports it as usual.
//
// When the file is loaded, each draw's level is computed exactly as the draw
// will compute it (ImageSamplingPlan: the Double steps of the inverse CTM
// times pixels / destination, MipLevels.level), k is the smallest over the
// draws and j = min(k, 3), lowered until 2^j divides both stored sides. The
// scaled image is ceil(w / 2^j) = w / 2^j pixels at scale s / 2^j, so its
// size in points is the same to the bit and every draw's steps are exactly
// 2^-j of what they were: each draw picks level k_draw - j of it, the level
// k_draw of the original it would have picked.
//
// Filters at the drawn resolution: a filter chain that is itself a candidate,
// has no `extent` and only filters that scale with their input (the colour
// filters but vignette, gaussianBlur, clampToExtent), over a JPEG file that
// nothing else names, lends the file its draws; the chain then runs on the
// shrunk file with each blur's radius divided by 2^j
// (SceneDecoder+Filters.swift), and its result has the shrunk size and scale.

/// One top-level `drawImage` of a shrink candidate: what its mip level depends on.
struct ShrinkDraw {
    /// The device transform in force (the canvas scale included).
    var transform: AffineTransform
    var placement: DrawImageOp.Placement
    var contentMode: ContentMode
}

extension SceneDecoder {
    /// The deepest DCT scaling libjpeg offers: 1/8.
    static let maxShrinkLevel = 3

    /// The shrink candidates and the chains that shrink with their input: a filter chain that is a
    /// candidate itself, without `extent`, of colour filters (not vignette), gaussianBlur and
    /// clampToExtent only, over a file that nothing else names, lends the file its draws.
    func shrinkPlan(document: JSONValue, ops: JSONValue) -> (draws: [String: [ShrinkDraw]], chains: Set<String>) {
        var (draws, mentions) = Self.shrinkCandidates(document: document, ops: ops, scale: scale, names: Set(imageNames))
        var chains: Set<String> = []
        for (name, list) in draws {
            guard case .filterChain(let chain)? = imageDeclarations[name]?.form, chain.extent == nil,
                  chain.steps.allSatisfy(Self.scalesWithItsInput),
                  case .file? = imageDeclarations[chain.input.name]?.form,
                  draws[chain.input.name] == nil, mentions[chain.input.name] == 1 else { continue }
            draws[chain.input.name] = list
            chains.insert(name)
        }
        return (draws.filter { name, _ in
            if case .file? = imageDeclarations[name]?.form { return true } else { return false }
        }, chains)
    }

    /// Filters that commute with scaling the image, up to their rounding: per-pixel colour
    /// filters, a blur (its radius scaled too), clampToExtent.
    static func scalesWithItsInput(_ step: FilterStep) -> Bool {
        guard case .plain(let filter, _) = step else { return false }
        switch filter {
        case .gaussianBlur, .colorControls, .colorMatrix, .sepiaTone, .colorMonochrome, .exposureAdjust, .gammaAdjust,
             .hueAdjust, .colorInvert, .clampToExtent:
            return true
        default:
            return false
        }
    }

    /// Per image name, its draws, for the images whose every use is a draw that allows
    /// shrinking (see the file comment); empty when the ops cannot be followed. Also how many
    /// times each of `names` occurs as a string anywhere in the document.
    static func shrinkCandidates(document: JSONValue, ops: JSONValue, scale: Double,
                                 names: Set<String>) -> (draws: [String: [ShrinkDraw]], mentions: [String: Int]) {
        guard case .array(let items) = ops else { return ([:], [:]) }
        var ctm = AffineTransform(scaleX: scale, y: scale)
        var stack: [(ctm: AffineTransform, layer: Bool)] = []
        var draws: [String: [ShrinkDraw]] = [:]
        var blocked: Set<String> = []
        for item in items {
            guard case .object(let o) = item, case .string(let name)? = o["op"] else { return ([:], [:]) }
            switch name {
            case "save": stack.append((ctm, false))
            case "beginLayer": stack.append((ctm, true))
            case "restore":
                guard let top = stack.last, !top.layer else { return ([:], [:]) }
                ctm = stack.removeLast().ctm
            case "endLayer":
                guard let layer = stack.lastIndex(where: { $0.layer }) else { return ([:], [:]) }
                ctm = stack[layer].ctm
                stack.removeSubrange(layer...)
            case "concat":
                guard let m = numbers(o["matrix"], 6) else { return ([:], [:]) }
                ctm = AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]).concatenating(ctm)
            case "translate", "scale":
                guard let x = numbers(o["x"], 1)?.first, let y = numbers(o["y"], 1)?.first else { return ([:], [:]) }
                let t = name == "translate" ? AffineTransform(translationX: x, y: y) : AffineTransform(scaleX: x, y: y)
                ctm = t.concatenating(ctm)
            case "rotate":
                guard let angle = numbers(o["angle"], 1)?.first else { return ([:], [:]) }
                ctm = AffineTransform(rotationAngle: angle).concatenating(ctm)
            case "drawImage":
                guard case .string(let image)? = o["image"] else { return ([:], [:]) }
                let interpolation: String
                switch o["interpolation"] {
                case nil: interpolation = "default"
                case .string(let s)?: interpolation = s
                default: return ([:], [:])
                }
                var mode = ContentMode.scaleToFill
                if let value = o["contentMode"] {
                    guard case .string(let s) = value, let m = ContentMode(rawValue: s) else { return ([:], [:]) }
                    mode = m
                }
                let placement: DrawImageOp.Placement
                if let r = numbers(o["rect"], 4), o["at"] == nil {
                    placement = .rect(Rect(x: r[0], y: r[1], width: r[2], height: r[3]))
                } else if let p = numbers(o["at"], 2), o["rect"] == nil {
                    placement = .at(Point(x: p[0], y: p[1]))
                } else {
                    return ([:], [:])
                }
                if o["crop"] != nil || o["capInsets"] != nil || (interpolation != "default" && interpolation != "high") {
                    blocked.insert(image)
                }
                draws[image, default: []].append(ShrinkDraw(transform: ctm, placement: placement, contentMode: mode))
            default:
                break
            }
        }
        // Every other mention of a name (a filter's input, an offscreen image's op, a text frame)
        // makes the counts differ: such images are decoded whole.
        var mentions: [String: Int] = [:]
        countStrings(document, among: names, into: &mentions)
        return (draws.filter { name, list in !blocked.contains(name) && mentions[name] == list.count }, mentions)
    }

    /// How many times each of `names` occurs as a string value anywhere in `value`.
    private static func countStrings(_ value: JSONValue, among names: Set<String>, into counts: inout [String: Int]) {
        switch value {
        case .string(let s): if names.contains(s) { counts[s, default: 0] += 1 }
        case .array(let items): for item in items { countStrings(item, among: names, into: &counts) }
        case .object(let o): for m in o.members { countStrings(m.value, among: names, into: &counts) }
        default: break
        }
    }

    private static func numbers(_ value: JSONValue?, _ count: Int) -> [Double]? {
        if count == 1, case .number(let x)? = value { return x.isFinite ? [x] : nil }
        guard case .array(let items)? = value, items.count == count else { return nil }
        var out: [Double] = []
        for item in items {
            guard case .number(let x) = item, x.isFinite else { return nil }
            out.append(x)
        }
        return out
    }

    /// The DCT scaling denominator (1, 2, 4 or 8) for an image stored `width` x `height` pixels,
    /// upright `uprightWidth` x `uprightHeight`, at `scale` pixels per point, drawn by `draws`.
    static func shrinkDenominator(width: Int, height: Int, upright: (width: Int, height: Int), scale: Double,
                                  draws: [ShrinkDraw]) -> Int {
        guard !draws.isEmpty, width > 0, height > 0 else { return 1 }
        let size = Size(width: Double(upright.width) / scale, height: Double(upright.height) / scale)
        let maxLevel = MipLevels.maxLevel(width: upright.width, height: upright.height)
        var level = maxShrinkLevel
        for draw in draws {
            level = min(level, mipLevel(draw, imageSize: size, pixels: upright, maxLevel: maxLevel))
            if level == 0 { return 1 }
        }
        while level > 0, width % (1 << level) != 0 || height % (1 << level) != 0 { level -= 1 }
        return 1 << level
    }

    /// The level `draw` picks for the image (ImageSamplingPlan.init and chooseLevels, the same
    /// Double operations in the same order); a draw that draws nothing picks none (Int.max).
    static func mipLevel(_ draw: ShrinkDraw, imageSize: Size, pixels: (width: Int, height: Int), maxLevel: Int) -> Int {
        let bounds: Rect
        switch draw.placement {
        case .rect(let r): bounds = r
        case .at(let p): bounds = Rect(x: p.x, y: p.y, width: imageSize.width, height: imageSize.height)
        }
        let placed: Rect
        if case .rect = draw.placement, draw.contentMode != .scaleToFill {
            placed = draw.contentMode.placedRect(imageSize: imageSize, in: bounds)
        } else {
            placed = bounds
        }
        guard draw.transform.isInvertible, !placed.isEmpty, let inverse = draw.transform.inverted() else { return Int.max }
        let rect = placed.standardized
        let kx = rect.width > 0 ? Double(pixels.width) / rect.width : 0
        let ky = rect.height > 0 ? Double(pixels.height) / rect.height : 0
        let hs = SIMD2(inverse.a * kx, inverse.c * kx), vs = SIMD2(inverse.b * ky, inverse.d * ky)
        return MipLevels.level(jacobianDeterminant: hs.x * vs.y - hs.y * vs.x, maxLevel: maxLevel)
    }
}
