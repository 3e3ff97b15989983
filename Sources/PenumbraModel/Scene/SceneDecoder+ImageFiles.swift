// Loading image files: one source (file or data URI) through the codecs,
// named images by the scale-variant rule, and animations from a frame list
// or a `%d` pattern. Every decode is measured first: the header's size and
// frame count are checked against the canvas pixel limit (each frame) and
// against what is left of the decoded-pixel budget (`maxImagePixels`, every
// entry's pixels added up, an animation's frames all counted) before any
// pixel is allocated. Names whose sources are the same file or data URI
// share one decoded result (and count once towards the budget).
//
// Choices where the format is silent: a scale of 1 is the plain name (no
// `@1x` variant is looked for); a pattern stops at 10,000 frames; the
// frames of a `frames` list or pattern must share one pixel size and scale.

extension SceneDecoder {
    /// A decoded source: upright premultiplied frames and their durations.
    struct LoadedFile {
        var frames: [Bitmap]
        var durations: [Double]
        /// 2, 4 or 8 when shrunk on load (decoded at 1 / denominator), else 1.
        var denominator = 1
    }

    /// The pixels of `source` (every frame when `animated`, else the first only). With `shrink`
    /// (the draws of a shrink-on-load candidate and its scale), a JPEG they all draw from mip
    /// level 1 or deeper is decoded at 1/2, 1/4 or 1/8 (SceneDecoder+ShrinkOnLoad.swift); the
    /// budget counts the pixels decoded.
    mutating func loadFile(_ source: String, orientation: ImageOrientation?, animated: Bool,
                           shrink: (draws: [ShrinkDraw], scale: Double)? = nil,
                           fail: (String) -> SceneError) throws -> LoadedFile {
        let resolved: ImageSource.Resolved
        do { resolved = try ImageSource.resolve(source, in: sources) } catch let f as ImageSource.Failure {
            throw fail(f.message)
        }
        let baseKey = resolved.identity + "|\(orientation?.rawValue ?? "file")|\(animated)"
        if shrink == nil, let shared = filesBySource[baseKey] { return shared }
        let bytes: [UInt8]
        do { bytes = try resolved.bytes(maxBytes: maxImageFileBytes) } catch let f as ImageSource.Failure {
            throw fail(f.message)
        }
        var header: ImageHeader
        let format: String
        var denominator = 1
        do {
            let codec = try environment.codecs.decoder(for: bytes)
            format = codec.formatName
            if let shrink, let shrinking = codec as? any ShrinkingImageDecoder {
                let read = try shrinking.readOrientedHeader(bytes)
                header = read.header
                let turned = (orientation ?? read.orientation).swapsAxes
                let upright = turned ? (width: header.height, height: header.width) : (width: header.width, height: header.height)
                denominator = Self.shrinkDenominator(width: header.width, height: header.height, upright: upright,
                                                     scale: shrink.scale, draws: shrink.draws)
            } else {
                header = try codec.readHeader(bytes)
            }
        } catch {
            throw fail(Self.message(error))
        }
        let key = baseKey + (denominator > 1 ? "|1/\(denominator)" : "")
        if let shared = filesBySource[key] { return shared }
        if denominator > 1 {
            let d = denominator
            header = ImageHeader(width: (header.width + d - 1) / d, height: (header.height + d - 1) / d)
        }
        let frames = animated ? header.frameCount : 1
        let framePixels = header.width.multipliedReportingOverflow(by: header.height)
        guard header.width > 0, header.height > 0, !framePixels.overflow, framePixels.partialValue <= limits.maxPixels else {
            throw fail("\(format): image is \(header.width) x \(header.height) pixels, over the limit of \(limits.maxPixels) pixels")
        }
        let total = ImageHeader(width: header.width, height: header.height, frameCount: frames).totalPixels
        try spendImagePixels(total, what: frames > 1 ? "its \(frames) frames of \(header.width) x \(header.height)"
                                                     : "its \(header.width) x \(header.height) pixels", fail: fail)
        let decoded: DecodedImage
        do {
            if denominator > 1, let shrunk = try environment.codecs.decodeShrunk(bytes, denominator: denominator, maxPixels: total,
                                                                               orientation: orientation) {
                decoded = shrunk
            } else {
                denominator = 1
                decoded = try environment.codecs.decode(bytes, maxPixels: total, firstFrameOnly: !animated, orientation: orientation)
            }
        } catch let cancelled as RenderCancelled {
            throw cancelled
        } catch {
            throw fail(Self.message(error))
        }
        let loaded = LoadedFile(frames: decoded.frames, durations: decoded.durations, denominator: denominator)
        filesBySource[key] = loaded
        return loaded
    }

    /// Adds `pixels` to the decoded-pixel budget, failing when it would run over, or when the
    /// images' bytes and the canvas's would not fit the render budget.
    mutating func spendImagePixels(_ pixels: Int, what: String, fail: (String) -> SceneError) throws {
        let (sum, overflow) = imagePixelsSpent.addingReportingOverflow(pixels)
        guard !overflow, sum <= limits.maxImagePixels else {
            throw fail("\(what) would bring the scene's decoded images to more than the budget of "
                + "\(limits.maxImagePixels) pixels (--max-image-pixels)")
        }
        let bytes = RenderBudget.imageBytes(pixels: sum), canvas = RenderBudget.surfaceBytes(pixels: canvasPixels)
        guard bytes <= limits.maxRenderBytes - canvas else {
            throw fail("\(what) would bring the scene's decoded images to \(bytes) bytes; with the canvas's \(canvas) bytes "
                + "that is over the render budget of \(limits.maxRenderBytes) bytes (--max-render-bytes)")
        }
        imagePixelsSpent = sum
    }

    /// What a filter chain's or an offscreen image's render may still use: the render budget
    /// less the canvas and the images decoded so far.
    var renderBytesLeft: Int {
        limits.maxRenderBytes - RenderBudget.surfaceBytes(pixels: canvasPixels) - RenderBudget.imageBytes(pixels: imagePixelsSpent)
    }

    /// `{ "named": base }`: the scale variants in the scene format's order, each with every extension.
    mutating func loadNamed(_ base: String, fail: (String) -> SceneError) throws -> Image {
        let canvas = min(3, max(1, Int(roundHalfUp(scale))))
        let order = [canvas] + Array(stride(from: canvas + 1, through: 3, by: 1)) + (1..<canvas).reversed()
        var tried: [String] = []
        for s in order {
            for ext in ["png", "jpg", "jpeg", "webp", "gif"] {
                let file = base + (s == 1 ? "" : "@\(s)x") + "." + ext
                tried.append(file)
                do { _ = try ImageSource.resolve(file, in: sources) } catch { continue }
                let loaded = try loadFile(file, orientation: nil, animated: false, fail: fail)
                return Image(bitmap: loaded.frames[0], scale: Double(s))
            }
        }
        throw fail("no file for the named image \(SceneText.quote(base)); tried \(tried.joined(separator: ", "))")
    }

    /// `{ "frames" }` or `{ "pattern" }`: each file's first frame, shown evenly over `duration`.
    mutating func loadAnimation(frames: [String]?, pattern: String?, duration: Double, location: String) throws -> AnimatedImage {
        var sources: [(source: String, location: String)] = []
        if let frames {
            sources = frames.enumerated().map { ($0.element, JSONReader.location(location, index: $0.offset)) }
        } else if let pattern, let parts = Self.patternParts(pattern) {
            var n = 1
            while true {
                let file = parts.prefix + String(n) + parts.suffix
                guard (try? ImageSource.resolve(file, in: self.sources)) != nil else { break }
                guard n <= 10_000 else { throw SceneError(location: location, message: "the pattern finds more than 10000 frames") }
                sources.append((file, location)); n += 1
            }
            guard !sources.isEmpty else {
                throw SceneError(location: location, message: "no frame \(SceneText.quote(parts.prefix + "1" + parts.suffix)) for the pattern")
            }
        }
        var images: [Image] = []
        for (source, place) in sources {
            let fail = { (message: String) in SceneError(location: place, message: message) }
            let loaded = try loadFile(source, orientation: nil, animated: false, fail: fail)
            let image = Image(bitmap: loaded.frames[0], scale: ImageSource.impliedScale(source) ?? 1)
            if let first = images.first, first.pixelWidth != image.pixelWidth || first.pixelHeight != image.pixelHeight
                || first.scale != image.scale {
                throw fail("frame \(SceneText.quote(source)) is \(image.pixelWidth) x \(image.pixelHeight) pixels at scale "
                    + "\(SceneText.number(image.scale)); the first frame is \(first.pixelWidth) x \(first.pixelHeight) at "
                    + "\(SceneText.number(first.scale)); all frames must match")
            }
            images.append(image)
        }
        return AnimatedImage(frames: images, duration: duration)
    }

    /// The text before and after the one `%d` of a pattern; nil unless it holds exactly one and no other `%`.
    static func patternParts(_ pattern: String) -> (prefix: String, suffix: String)? {
        let bytes = Array(pattern.utf8)
        let percents = bytes.indices.filter { bytes[$0] == UInt8(ascii: "%") }
        guard percents.count == 1, let at = percents.first, at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "d") else {
            return nil
        }
        return (String(decoding: bytes[..<at], as: UTF8.self), String(decoding: bytes[(at + 2)...], as: UTF8.self))
    }

    static func message(_ error: any Error) -> String {
        if let e = error as? ImageCodecError { return e.message }
        if let e = error as? PNGError { return e.message }
        return "\(error)"
    }

    /// The largest image file read: 8 bytes a pixel (16-bit RGBA) at the pixel limit, plus 64 MiB
    /// for filter bytes, chunk overhead and ancillary chunks.
    var maxImageFileBytes: Int {
        let (product, overflow) = max(0, limits.maxPixels).multipliedReportingOverflow(by: 8)
        return overflow ? Int.max : product.addingReportingOverflow(64 << 20).overflow ? Int.max : product + (64 << 20)
    }
}
