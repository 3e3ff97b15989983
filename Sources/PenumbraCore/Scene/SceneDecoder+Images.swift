// Images: the `images` object maps a name to a source string or to
// {"path": source, "scale": s}. Declarations are checked when the document
// is read (types, scale > 0, source text); the bytes are read and decoded
// with PNGCodec.decode(bytes, maxPixels:) once per name, the first time an
// op draws it or at the end for images no op uses, so every image is
// validated and none is decoded twice; names whose sources are the same
// file (same real path) or the same data URI share one decoded bitmap, so
// declaring one large PNG under many names costs its pixels once. Every failure names `images.NAME`;
// a PNG failure carries PNGError's own message.

/// One entry of `images`, checked but not yet loaded.
struct ImageDeclaration {
    /// `images.NAME`, where errors about this image are reported.
    var location: String
    /// A relative path or a data URI.
    var source: String
    /// The declared scale; nil takes the one the file name implies, or 1.
    var scale: Double?
}

extension SceneDecoder {
    static let imageObjectKeys: Set<String> = ["path", "scale"]

    /// Reads the `images` object's declarations (no file is touched yet).
    mutating func declareImages(_ reader: JSONReader) throws {
        guard case .object(let object) = reader.value else {
            throw reader.typeError(expected: "an object mapping image names to sources")
        }
        for member in object.members {
            let entry = JSONReader(member.value, at: JSONReader.location(reader.location, key: member.key))
            let source: String, scale: Double?
            switch member.value {
            case .string(let s):
                source = s; scale = nil
            case .object:
                let o = try entry.object(allowing: Self.imageObjectKeys)
                source = try o.required("path").string()
                scale = try o.optional("scale")?.positive()
            default:
                throw entry.typeError(expected: "an image source (a relative path or a data URI) or {\"path\", \"scale\"}")
            }
            if let problem = ImageSource.syntaxProblem(source) { throw entry.error(problem) }
            imageNames.append(member.key)
            imageDeclarations[member.key] = ImageDeclaration(location: entry.location, source: source, scale: scale)
        }
    }

    /// The image declared as `name`, read and decoded on first use.
    mutating func image(named name: String) throws -> Image {
        if let image = loadedImages[name] { return image }
        guard let declaration = imageDeclarations[name] else {
            throw SceneError(location: "images", message: "no image named \(SceneText.quote(name))")
        }
        let fail = { (message: String) in SceneError(location: declaration.location, message: message) }

        let resolved: ImageSource.Resolved
        do {
            resolved = try ImageSource.resolve(declaration.source, in: sources)
        } catch let failure as ImageSource.Failure {
            throw fail(failure.message)
        }

        let bitmap: Bitmap
        if let shared = bitmapsBySource[resolved.identity] {
            bitmap = shared
        } else {
            let bytes: [UInt8]
            do {
                bytes = try resolved.bytes(maxBytes: maxImageFileBytes)
            } catch let failure as ImageSource.Failure {
                throw fail(failure.message)
            }
            do {
                bitmap = try PNGCodec.decode(bytes, maxPixels: limits.maxPixels)
            } catch let error as PNGError {
                throw fail(error.message)
            } catch {
                throw fail("\(error)")
            }
            guard bitmap.width > 0, bitmap.height > 0,
                  bitmap.width.multipliedReportingOverflow(by: bitmap.height).partialValue <= limits.maxPixels else {
                throw fail("the image is \(bitmap.width) x \(bitmap.height) pixels, over the limit of \(limits.maxPixels) pixels")
            }
            bitmapsBySource[resolved.identity] = bitmap
        }
        let image = Image(bitmap: bitmap, scale: declaration.scale ?? ImageSource.impliedScale(declaration.source) ?? 1)
        loadedImages[name] = image
        return image
    }

    /// The largest image file read: 8 bytes a pixel (16-bit RGBA) at the pixel limit, plus 64 MiB
    /// for filter bytes, chunk overhead and ancillary chunks.
    private var maxImageFileBytes: Int {
        let (product, overflow) = max(0, limits.maxPixels).multipliedReportingOverflow(by: 8)
        return overflow ? Int.max : product.addingReportingOverflow(64 << 20).overflow ? Int.max : product + (64 << 20)
    }
}
