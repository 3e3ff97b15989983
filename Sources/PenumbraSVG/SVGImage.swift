// `image`: PNG, JPEG, GIF and WebP through the document's codecs, and SVG drawn as vectors.
// Data URIs are decoded in place; a relative path resolves in the document's folder and must
// stay inside the assets folder (its real path, symbolic links followed); URLs and absolute
// paths are refused and never fetched.
import Foundation
import PenumbraModel

extension SVGRenderer {
    enum LoadedImage { case raster(Image), vector(SVGDocument) }

    func drawImage(_ node: SVGNode, style: SVGStyle) throws {
        guard style.visible, let href = node.href?.trimmingCharacters(), !href.isEmpty else { return }
        // A width or height of zero disables the image: nothing is loaded.
        for name in ["width", "height"] {
            if let l = SVGLength.parse(node.attributes[name]), l.value <= 0 { return }
        }
        let loaded = try loadImage(href, node: node)
        let intrinsic: Size
        switch loaded {
        case .raster(let image): intrinsic = image.size
        case .vector(let svg): intrinsic = svg.size
        }
        guard intrinsic.width > 0, intrinsic.height > 0 else { return }
        let x = length(node, "x", axis: "x"), y = length(node, "y", axis: "y")
        var w = SVGLength.parse(node.attributes["width"]).map { resolve($0, axis: "x") }
        var h = SVGLength.parse(node.attributes["height"]).map { resolve($0, axis: "y") }
        if w == nil, h == nil { w = intrinsic.width; h = intrinsic.height }
        else if w == nil { w = h! * intrinsic.width / intrinsic.height }
        else if h == nil { h = w! * intrinsic.height / intrinsic.width }
        guard let vw = w, let vh = h, vw > 0, vh > 0 else { return }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        let par = node.attributes["preserveAspectRatio"]
        if (par ?? "").contains("slice") { ctx.clip(to: Path(rect: Rect(x: x, y: y, width: vw, height: vh))) }
        ctx.translateBy(x: x, y: y)
        let viewSize = Size(width: vw, height: vh)
        switch loaded {
        case .raster(let image):
            ctx.concatenate(Self.viewBoxTransform(Rect(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height), viewSize, par))
            let quality = node.declared["image-rendering"]
            let interpolation: ImageInterpolation? = (quality == "optimizeSpeed" || quality == "pixelated") ? ImageInterpolation.none : nil
            ctx.draw(image, in: Rect(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height), interpolation: interpolation)
        case .vector(let svg):
            ctx.clip(to: Path(rect: Rect(x: 0, y: 0, width: vw, height: vh)))
            ctx.concatenate(Self.viewBoxTransform(Rect(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height), viewSize, par))
            try svg.draw(in: ctx, width: intrinsic.width, height: intrinsic.height)
        }
    }

    func loadImage(_ href: String, node: SVGNode) throws -> LoadedImage {
        let bytes: [UInt8]
        let lower = href.lowercased()
        var isSVG = false
        if lower.hasPrefix("data:") {
            guard let comma = href.firstIndex(of: ",") else {
                throw SVGError(element: node.label, message: "malformed data URI")
            }
            let header = lower[lower.index(lower.startIndex, offsetBy: 5)..<lower.index(lower.startIndex, offsetBy: href.distance(from: href.startIndex, to: comma))]
            let payload = String(href[href.index(after: comma)...])
            isSVG = header.hasPrefix("image/svg+xml")
            if header.hasSuffix(";base64") {
                guard let data = Data(base64Encoded: payload.filter { !$0.isWhitespace }, options: .ignoreUnknownCharacters) else {
                    throw SVGError(element: node.label, message: "the data URI's base64 does not decode")
                }
                bytes = [UInt8](data)
            } else {
                bytes = Array((payload.removingPercentEncoding ?? payload).utf8)
            }
        } else if lower.contains("://") || lower.hasPrefix("http:") || lower.hasPrefix("https:") || lower.hasPrefix("file:") {
            throw SVGError(element: node.label, message: "\"\(href)\" is a URL; URLs are never fetched")
        } else {
            bytes = try readConfined(href, node: node)
            isSVG = lower.hasSuffix(".svg") || lower.hasSuffix(".svgz")
        }
        let looksSVG = isSVG || SVGGzip.isGzip(bytes) || bytes.prefix(256).contains(UInt8(ascii: "<"))
        if looksSVG, (try? doc.codecs.decoder(for: bytes)) == nil {
            guard doc.nesting < 2 else { throw SVGError(element: node.label, message: "SVG images nested too deeply") }
            let folder = lower.hasPrefix("data:") ? doc.baseDirectory
                : doc.baseDirectory.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + ((href.removingPercentEncoding ?? href) as NSString).deletingLastPathComponent }
            var d = try SVGDocument(bytes: bytes, baseDirectory: folder, assetsDirectory: doc.assetsDirectory, codecs: doc.codecs,
                                    limits: doc.limits)
            d.nesting = doc.nesting + 1
            return .vector(d)
        }
        do {
            let decoded = try doc.codecs.decode(bytes, maxPixels: 100_000_000, firstFrameOnly: true)
            guard let frame = decoded.frames.first else { throw SVGError(element: node.label, message: "the image has no frames") }
            return .raster(Image(bitmap: frame))
        } catch let e as SVGError { throw e } catch {
            throw SVGError(element: node.label, message: "the image cannot be decoded: \(error)")
        }
    }

    /// The bytes of a relative file, which must lie inside the assets folder.
    func readConfined(_ source: String, node: SVGNode) throws -> [UInt8] {
        guard let base = doc.baseDirectory, let assets = doc.assetsDirectory else {
            throw SVGError(element: node.label, message: "\"\(source)\" cannot be read: no folder is set for references")
        }
        guard !source.hasPrefix("/") else {
            throw SVGError(element: node.label, message: "absolute path \"\(source)\" is not allowed")
        }
        guard !source.utf8.contains(0), let assetsReal = realPath(assets) else {
            throw SVGError(element: node.label, message: "the assets folder cannot be opened")
        }
        let joined = (base.hasSuffix("/") ? base : base + "/") + (source.removingPercentEncoding ?? source)
        guard let fileReal = realPath(joined) else {
            throw SVGError(element: node.label, message: "file \"\(source)\" not found")
        }
        let inside = assetsReal == "/" ? "/" : assetsReal + "/"
        guard fileReal.hasPrefix(inside) else {
            throw SVGError(element: node.label, message: "\"\(source)\" leads outside the assets folder")
        }
        var info = stat()
        guard stat(fileReal, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw SVGError(element: node.label, message: "\"\(source)\" is not a regular file")
        }
        guard Int(info.st_size) <= 256 << 20, let data = FileManager.default.contents(atPath: fileReal) else {
            throw SVGError(element: node.label, message: "\"\(source)\" cannot be read")
        }
        return [UInt8](data)
    }

    private func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
