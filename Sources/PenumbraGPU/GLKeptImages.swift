// GLKeptImages: the images a scene draws for itself (an offscreen image, a
// filter chain) kept on the GPU as the textures the scene draws them from,
// never read back unless something asks for their pixels.
//
// Drawing one (GPURenderer.renderKeeping, renderFilterKeeping) copies the
// result into a texture of its own (RGBA8UI, what image draws sample, copied
// on the GPU: glCopyImageSubData) and hands the scene a GLKeptImage, the
// KeptPixels of its deferred pixels (DeferredPixels.swift). A later draw of
// the image on this renderer samples that texture: no readback, no upload.
// The pixels are made only where something asks for them: read back when
// the asking thread is the renderer's, between frames (a chain reading the
// image as its input, a mipmapped draw, made before the frame plans); made
// by the CPU reference renderer anywhere else (the portable twin: the same
// bytes by the parity contract). The texture lives as long as the image:
// the cache holds the image weakly and deletes the textures of images gone
// at the next render, on the renderer's thread. They are not evicted for
// the cache's budget (their images may need them), and `purgeCaches`
// deletes them too, after which their images are made the portable way.
import CEGL
import PenumbraModel
import PenumbraCore

/// An image drawn by a GPU renderer and kept as its texture.
final class GLKeptImage: KeptPixels, @unchecked Sendable {
    let width: Int, height: Int
    /// The renderer that keeps it; its texture is only touched on that renderer's thread.
    private weak var renderer: GPURenderer?

    init(width: Int, height: Int, renderer: GPURenderer) {
        self.width = width; self.height = height; self.renderer = renderer
    }

    /// Read back by the renderer when this thread is its own and no frame is being drawn.
    func readBack() -> Bitmap? { renderer?.readBack(self) }
}

/// The textures of a renderer's kept images.
final class GLKeptTextures {
    private struct Entry {
        weak var image: GLKeptImage?
        let texture: GLuint
    }
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Images kept, draws served from a kept texture, and the images and bytes read back, for
    /// tests and reports.
    private(set) var kept = 0, draws = 0
    var readBacks = 0, readBackBytes = 0

    /// Textures alive.
    var count: Int { entries.count }

    /// A new image of `width` x `height` texels of the RGBA8 texture `source` from `origin`,
    /// copied into a texture of its own; nil where the driver refuses the copy.
    func keep(copiedFrom source: GLuint, origin: (x: Int, y: Int), width: Int, height: Int,
              renderer: GPURenderer) -> GLKeptImage? {
        guard width > 0, height > 0 else { return nil }
        guard let texture = GLImageCache.copyTexture(from: source, origin: origin, width: width, height: height) else { return nil }
        let image = GLKeptImage(width: width, height: height, renderer: renderer)
        // An image gone since the last collection may have left its texture under this key.
        if let stale = entries[ObjectIdentifier(image)] { delete(stale) }
        entries[ObjectIdentifier(image)] = Entry(image: image, texture: texture)
        kept += 1
        return image
    }

    /// The texture of `image`, if this set keeps it.
    func texture(of image: GLKeptImage, counting: Bool = true) -> GLuint? {
        guard let entry = entries[ObjectIdentifier(image)], entry.image === image else { return nil }
        if counting { draws += 1 }
        return entry.texture
    }

    /// Deletes the textures of images that are gone (the context must be current).
    func collect() {
        for (key, entry) in entries where entry.image == nil {
            delete(entry)
            entries[key] = nil
        }
    }

    /// Deletes every texture (the context must be current).
    func purge() {
        for entry in entries.values { delete(entry) }
        entries.removeAll()
    }

    private func delete(_ entry: Entry) {
        var name = entry.texture
        glDeleteTextures(1, &name)
    }
}
