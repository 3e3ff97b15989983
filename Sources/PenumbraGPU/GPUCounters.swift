// GPUCounters: what one GPU frame costs, counted where the renderer talks to
// the driver (SCENE_FORMAT.md, `penumbra bench --json`'s "gpu" object).
// Uploads are the bytes handed to glTexImage2D/glTexSubImage2D and to buffer
// data calls (masks, stop tables, image textures on first use, tile corners,
// blur weights, edges of GPU coverage); readback is the finished canvas
// (and a kept image the frame needs as pixels: GLKeptImages.swift). A
// pass is one draw or one dispatch (every draw call and every dispatch
// today is its own pass). Host time is the frame's wall-clock time on the
// rendering thread up to the readback, minus the time spent inside the
// counted driver calls (uploads, draws, dispatches, barriers, framebuffer
// binds and clears: where a driver may run queued work): the renderer's own
// work (planning waits, clip masks, uniform setup), the driver excluded as
// far as these calls can show it.
import CEGL
import Foundation

/// The counters of one GPU frame, as ``GPURenderer/lastFrameCounters`` reports them for the last
/// render; they encode as the `"gpu"` object of `penumbra bench --json` (`upload_bytes`,
/// `readback_bytes`, `draw_calls`, `dispatches`, `passes`, `host_ms`).
public struct GPUFrameCounters: Hashable, Sendable, Encodable {
    /// Bytes handed to the driver for textures and buffers during the frame (such as masks,
    /// gradient stop tables, image textures on first use, blur weights, coverage edges).
    public var uploadBytes = 0
    /// Bytes read back from the GPU: the finished canvas, and the images the renderer keeps on
    /// the GPU (a scene's offscreen images and filter chains) that the frame needed as pixels.
    public var readbackBytes = 0
    /// Draw calls issued.
    public var drawCalls = 0
    /// Compute dispatches issued.
    public var dispatches = 0
    /// Render or compute passes (today every draw call and every dispatch is its own pass).
    public var passes = 0
    /// Time the renderer's own code spent on the CPU for the frame, in milliseconds: the frame's
    /// wall-clock time on the rendering thread up to the readback, minus the time inside the
    /// counted driver calls (so the driver's work is excluded as far as those calls show it).
    public var hostMilliseconds = 0.0

    /// Counters all at zero.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case uploadBytes = "upload_bytes", readbackBytes = "readback_bytes"
        case drawCalls = "draw_calls", dispatches, passes, hostMilliseconds = "host_ms"
    }
}

/// The running counts of the frame being drawn; one per renderer (and so per thread).
final class GPUCounters {
    var frame = GPUFrameCounters()
    private var driverNanoseconds: UInt64 = 0
    private var frameStart: UInt64 = 0

    /// Starts counting a new frame.
    func begin() {
        frame = GPUFrameCounters()
        driverNanoseconds = 0
        frameStart = DispatchTime.now().uptimeNanoseconds
    }

    /// Ends the frame's host time (called when the readback starts).
    func endHostTime() {
        let wall = DispatchTime.now().uptimeNanoseconds &- frameStart
        frame.hostMilliseconds = Double(wall &- min(wall, driverNanoseconds)) / 1e6
    }

    /// Runs a driver call that uploads `bytes`, timing it as driver time.
    func upload<T>(_ bytes: Int, _ call: () throws -> T) rethrows -> T {
        frame.uploadBytes += bytes
        return try driver(call)
    }

    /// Orders compute passes' image and buffer accesses against every other access to the same
    /// memory, both ways: shader stores issued after it wait for the memory accesses issued
    /// before it (texture fetches and framebuffer writes of fragment passes included), and what
    /// is read after it sees the stores before it (samplers, framebuffers, readback). Called
    /// before and after each pass that stores through an image. A driver call: a software
    /// rasterizer finishes the pending work in it.
    func barrier() {
        driver {
            glMemoryBarrier(GLbitfield(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT
                                       | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT
                                       | GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT
                                       | GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT))
        }
    }

    /// Runs a driver call, its time counted as the driver's.
    func driver<T>(_ call: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { driverNanoseconds &+= DispatchTime.now().uptimeNanoseconds &- start }
        return try call()
    }
}
