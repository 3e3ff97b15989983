// `penumbra render X.svg`: the document parsed by PenumbraSVG, drawn into a context of the size
// asked for (the document's own when not given), rendered on the chosen backend and encoded.
// Relative references resolve in the file's folder and must stay inside --assets (default: that
// folder), as a scene's images do; URLs are never fetched.
import Foundation
import Penumbra
import PenumbraSVG

extension RenderCommand {
    func renderSVG() throws {
        guard let data = FileManager.default.contents(atPath: scene) else {
            throw ToolError(.rejected, "\(scene): cannot read the SVG file")
        }
        let folder = (scene as NSString).deletingLastPathComponent.isEmpty ? "." : (scene as NSString).deletingLastPathComponent
        let document: SVGDocument
        do {
            document = try SVGDocument(bytes: [UInt8](data), baseDirectory: folder, assetsDirectory: assets.assets ?? folder,
                                       codecs: .standard)
        } catch let error as SVGError {
            throw ToolError(.rejected, "\(scene): \(error)")
        }
        let natural = document.size
        var w = width ?? natural.width, h = height ?? natural.height
        if width != nil, height == nil, natural.width > 0 { h = natural.height * w / natural.width }
        if height != nil, width == nil, natural.height > 0 { w = natural.width * h / natural.height }
        let k = scale ?? 1
        let pw = Int((w * k).rounded()), ph = Int((h * k).rounded())
        guard pw > 0, ph > 0, pw <= 100_000, ph <= 100_000, pw * ph <= limits.limits.maxPixels else {
            throw ToolError(.rejected, "\(scene): the canvas \(pw)x\(ph) px is empty or over the pixel limit")
        }
        let context = GraphicsContext(pixelWidth: pw, pixelHeight: ph, scale: k)
        do { try document.draw(in: context, width: w, height: h) } catch let error as SVGError {
            throw ToolError(.rejected, "\(scene): \(error)")
        }
        let choice: RendererChoice
        do { choice = try backend.makeRenderer() } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "backend \(backend.rawValue) unavailable: \(e.message)")
        }
        let bitmap: Bitmap
        do { bitmap = try choice.renderer.render(context.displayList) } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "backend \(backend.rawValue) cannot render this document: \(e.message)")
        } catch {
            throw ToolError(.failure, "rendering failed: \(error)")
        }
        let encoder = encoding.encoder(for: output)
        let encoded: [UInt8]
        do { encoded = try encoder.encode(bitmap) } catch {
            throw ToolError(.failure, "\(encoder.formatName) encoding failed: \(error)")
        }
        try OutputFile.write(encoded, to: output)
    }
}
