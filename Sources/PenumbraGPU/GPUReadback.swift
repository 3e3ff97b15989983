// GPUReadback: the canvas's pixels back to the CPU. `render` waits at once
// and reads straight into the bitmap; `submit` goes through a pixel-pack
// buffer and a fence. `start` queues glReadPixels into a buffer (the copy
// happens on the GPU's timeline, after the render's draws) and a fence
// behind it, and flushes; the render returns at once. `GPUPendingFrame.bitmap`
// later waits for the fence, maps the buffer and copies the rows out. In
// between, the caller can record and submit the next render, so the GPU's
// work and the CPU's overlap (on a software rasterizer the two share the
// CPU, and the gain is only what the driver leaves idle).
//
// Buffers are kept for reuse (a few per size). A pending frame dropped
// without `bitmap()` cannot delete its buffer (its thread may have no
// context current): it hands the buffer and fence back, and the next render
// deletes them.
import CEGL
import PenumbraModel
import PenumbraCore

/// Pixel-pack buffers of one context.
final class GLReadbackBuffers {
    private var idle: [Int: [GLuint]] = [:]
    private var abandoned: [(buffer: GLuint, fence: GLsync?)] = []
    /// Idle buffers kept per size.
    let keepPerSize = 4
    /// Buffers alive (idle or in flight), for tests.
    private(set) var count = 0

    /// Queues the readback of `width x height` pixels of `target` and a fence after it.
    func start(reading target: GLTarget, width: Int, height: Int, renderer: GPURenderer) throws -> GPUPendingFrame {
        let bytes = width * height * 4
        let buffer = take(bytes: bytes)
        glBindFramebuffer(glEnum(GL_READ_FRAMEBUFFER), target.framebuffer)
        glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), buffer)
        glPixelStorei(glEnum(GL_PACK_ALIGNMENT), 1)
        if bytes > 0 {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), glEnum(GL_RGBA), glEnum(GL_UNSIGNED_BYTE), nil)
        }
        glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), 0)
        let fence = glFenceSync(glEnum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        glFlush()
        return GPUPendingFrame(renderer: renderer, buffer: buffer, fence: fence, width: width, height: height)
    }

    /// Waits for the fence and copies the pixels out; the buffer goes back for reuse.
    func finish(_ frame: GPUPendingFrame) throws -> Bitmap {
        var bitmap = Bitmap(width: frame.width, height: frame.height)
        defer { give(frame.buffer, bytes: bitmap.pixels.count) }
        if let fence = frame.fence {
            defer { glDeleteSync(fence) }
            while true {
                let status = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 1_000_000_000)
                if status == glEnum(GL_ALREADY_SIGNALED) || status == glEnum(GL_CONDITION_SATISFIED) { break }
                if status == glEnum(GL_WAIT_FAILED) { throw RenderError("GPU: waiting for the readback fence failed") }
            }
        }
        let bytes = bitmap.pixels.count
        guard bytes > 0 else { return bitmap }
        glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), frame.buffer)
        defer { glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(glEnum(GL_PIXEL_PACK_BUFFER), 0, bytes, GLbitfield(GL_MAP_READ_BIT)) else {
            try GPURenderer.checkGLError("readback (map)")
            throw RenderError("GPU: mapping the readback buffer failed")
        }
        bitmap.pixels.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: mapped, byteCount: bytes) }
        glUnmapBuffer(glEnum(GL_PIXEL_PACK_BUFFER))
        try GPURenderer.checkGLError("readback")
        return bitmap
    }

    /// Reads `width x height` pixels of `target` now, straight into a bitmap.
    static func read(_ target: GLTarget, width: Int, height: Int) throws -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        guard width > 0, height > 0 else { return bitmap }
        glBindFramebuffer(glEnum(GL_READ_FRAMEBUFFER), target.framebuffer)
        glPixelStorei(glEnum(GL_PACK_ALIGNMENT), 1)
        bitmap.pixels.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), glEnum(GL_RGBA), glEnum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        try GPURenderer.checkGLError("readback")
        return bitmap
    }

    /// Records the buffer and fence of a frame dropped unfinished.
    func abandon(buffer: GLuint, fence: GLsync?) { abandoned.append((buffer, fence)) }

    /// Deletes what abandoned frames left (the context must be current).
    func collectAbandoned() {
        for (buffer, fence) in abandoned {
            if let fence { glDeleteSync(fence) }
            var name = buffer
            glDeleteBuffers(1, &name)
            count -= 1
        }
        abandoned.removeAll()
    }

    /// Deletes every buffer (the context must be current).
    func deleteAll() {
        collectAbandoned()
        for names in idle.values {
            glDeleteBuffers(GLsizei(names.count), names)
            count -= names.count
        }
        idle.removeAll()
    }

    private func take(bytes: Int) -> GLuint {
        if let buffer = idle[bytes]?.popLast() { return buffer }
        var name: GLuint = 0
        glGenBuffers(1, &name)
        glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), name)
        glBufferData(glEnum(GL_PIXEL_PACK_BUFFER), max(1, bytes), nil, glEnum(GL_STREAM_READ))
        glBindBuffer(glEnum(GL_PIXEL_PACK_BUFFER), 0)
        count += 1
        return name
    }

    private func give(_ buffer: GLuint, bytes: Int) {
        if idle[bytes, default: []].count < keepPerSize {
            idle[bytes, default: []].append(buffer)
        } else {
            var name = buffer
            glDeleteBuffers(1, &name)
            count -= 1
        }
    }
}

/// A render whose pixels are on their way back from the GPU. Ask for them with `bitmap()` on
/// the thread that rendered, once; frames may be finished in any order.
package final class GPUPendingFrame {
    private let renderer: GPURenderer
    let buffer: GLuint
    let fence: GLsync?
    /// The canvas size in pixels.
    package let width: Int, height: Int
    private var finished = false

    init(renderer: GPURenderer, buffer: GLuint, fence: GLsync?, width: Int, height: Int) {
        self.renderer = renderer; self.buffer = buffer; self.fence = fence; self.width = width; self.height = height
    }

    deinit {
        if !finished { renderer.readbacks.abandon(buffer: buffer, fence: fence) }
    }

    /// Waits for the GPU and returns the premultiplied pixels. Throws when called twice.
    package func bitmap() throws -> Bitmap {
        guard !finished else { throw RenderError("GPU: a pending frame's bitmap was already taken") }
        try renderer.makeCurrent()
        finished = true
        return try renderer.readbacks.finish(self)
    }
}
