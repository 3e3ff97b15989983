// RenderRequest: a POST body (or a signed GET's scene) turned into what a
// worker needs: the scene's JSON (or an SVG document's bytes), where its images come from, and the
// options. Checking the media type and splitting a multipart form happen
// here, on the caller's thread (cheap, linear in the body); decoding the
// scene (JSON, PNGs) happens in `displayList()`, which the server runs on a
// render worker. A scene's errors keep the decoder's place (`ops[3].matrix`);
// a missing scene part is `parts.scene`.
import PenumbraModel
import PenumbraCore

/// A render request, checked but not yet decoded.
package struct RenderRequest: Sendable {
    /// The scene document's bytes.
    package var scene: [UInt8]
    /// Where the scene's images come from.
    package var sources: ImageSources
    /// The query's options.
    package var options: RenderOptions
    /// Scene limits.
    package var limits: ResourceLimits
    /// The media type of a vector document sent as the whole body (`image/svg+xml`); nil: a scene.
    package var documentType: String?

    /// A request from its parts.
    package init(scene: [UInt8], sources: ImageSources, options: RenderOptions, limits: ResourceLimits) {
        self.scene = scene; self.sources = sources; self.options = options; self.limits = limits
    }

    /// Reads a POST body by its media type: `application/json` (the scene),
    /// `multipart/form-data` (a `scene` part and image parts named as `part:NAME`) or
    /// `image/svg+xml` (a document drawn at its own size, RenderRequest+Document.swift); any other is 415.
    /// Paths resolve inside `assets`; without it, a path is rejected.
    package static func parse(body: [UInt8], contentType: String?, options: RenderOptions, assets: String?,
                             limits: ResourceLimits) throws -> RenderRequest {
        let mediaType = (contentType ?? "").split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        switch mediaType {
        case "application/json":
            return RenderRequest(scene: body, sources: ImageSources(baseDirectory: assets), options: options, limits: limits)
        case "multipart/form-data":
            let parts = try Multipart.parse(body, boundary: try Multipart.boundary(contentType: contentType ?? ""))
            var files: [String: [UInt8]] = [:]
            var scene: [UInt8]?
            for part in parts {
                if part.name == "scene" { scene = part.body } else { files[part.name] = part.body }
            }
            guard let scene else { throw RequestError(400, "the form has no part named scene", place: "parts.scene") }
            return RenderRequest(scene: scene, sources: ImageSources(baseDirectory: assets, parts: files),
                                 options: options, limits: limits)
        case "image/svg+xml":
            var request = RenderRequest(scene: body, sources: ImageSources(baseDirectory: assets), options: options, limits: limits)
            request.documentType = mediaType
            return request
        case "":
            throw RequestError(415, "no Content-Type; send application/json, multipart/form-data or image/svg+xml", place: "content-type")
        default:
            throw RequestError(415, "unsupported media type \(RequestError.quote(mediaType)); send application/json, multipart/form-data "
                               + "or image/svg+xml", place: "content-type")
        }
    }

    /// Decodes the scene at the request's `time` and records its display list, with the codecs and
    /// offscreen renderer of `environment`; a rejected scene is a 400 naming its place.
    package func displayList(environment: SceneEnvironment = .core) throws -> DisplayList {
        if let documentType { return try documentDisplayList(mediaType: documentType, environment: environment) }
        do {
            return try Scene.decode(scene, sources: sources, limits: limits, scale: options.scale, time: options.time,
                                    environment: environment).displayList()
        } catch let error as SceneError {
            throw RequestError(error)
        }
    }
}

/// The fuzzing entry: any bytes through the request parsers, never a crash. SPI, not API: the
/// fuzzer (Tools/fuzz/requests) is compiled outside the package.
@_spi(Fuzzing) public enum RequestFuzzing {
    /// The first byte picks JSON (even) or multipart (odd, with boundary "B"); the rest is the body.
    /// Scenes are decoded with small limits and recorded, not rendered.
    public static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let body = Array(data.dropFirst())
        var limits = ResourceLimits.default
        limits.maxPixels = 1 << 16; limits.maxOps = 256; limits.maxPathSegments = 4096
        let contentType = selector & 1 == 0 ? "application/json" : "multipart/form-data; boundary=B"
        do {
            let request = try RenderRequest.parse(body: body, contentType: contentType, options: RenderOptions(),
                                                  assets: nil, limits: limits)
            _ = try request.displayList()
        } catch let error as RequestError {
            precondition(error.status == 400 || error.status == 415, "unexpected status \(error.status)")
            _ = error.jsonBody
        } catch {
            preconditionFailure("an error that is not a RequestError: \(error)")
        }
    }
}
