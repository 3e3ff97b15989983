// RenderPipeline: many display lists through one renderer with several
// frames in flight, results delivered in order, exactly as rendering them
// one after another would give.
//
// Three stages overlap. On the calling thread, scene N is recorded and
// submitted (on the GPU: its commands are issued and its readback queued
// into a pixel-pack buffer behind a fence, GPURenderer.submit); then the
// oldest submitted frame, once `framesInFlight` are out, is read back (the
// fence has usually passed by then). Its bitmap goes to a background thread
// for PNG encoding while the calling thread submits the next scene. So the
// GPU renders N+1 while the CPU reads back N and encodes N-1. On the CPU
// backend, rendering is synchronous and only the encoding overlaps.
//
// All GL calls stay on the calling thread (the renderer's context is
// current there); only PNGCodec.encode, which is thread-safe and takes a
// value, runs elsewhere. Results are delivered in scene order on the calling
// thread. An error (rendering, reading back, encoding, or thrown by the
// delivery) stops the pipeline: every scene before the failing one is
// delivered first, background work is waited for, and the error is thrown,
// as a sequential loop would.
import Dispatch
import Foundation
import PenumbraCPU
import PenumbraGPU

/// Renders and encodes many display lists with several frames in flight.
/// Not thread-safe: use it from one thread (the renderer's).
public final class RenderPipeline {
    /// The renderer every scene goes through.
    public let renderer: Renderer
    /// How many scenes may be submitted but not yet read back, and how many may be encoding in
    /// the background, at once (at least 1; with 1, a scene is read back right after it is
    /// submitted, and only its encoding overlaps the next scene's rendering).
    public let framesInFlight: Int

    /// A pipeline over an existing renderer (a GPURenderer, or `auto`'s, gets pipelined
    /// readback; any other renderer renders synchronously and overlaps only the encoding).
    public init(renderer: Renderer, framesInFlight: Int = 2) {
        self.renderer = renderer
        self.framesInFlight = max(1, framesInFlight)
    }

    /// A pipeline over a new renderer for `backend` (see Backend.makeRenderer).
    public convenience init(backend: Backend, framesInFlight: Int = 2) throws {
        self.init(renderer: try backend.makeRenderer().renderer, framesInFlight: framesInFlight)
    }

    /// Renders every list; the bitmaps in order.
    public func bitmaps<S: Sequence>(_ lists: S) throws -> [Bitmap] where S.Element == DisplayList {
        var out: [Bitmap] = []
        try run(lists, transform: nil) { _, bitmap in out.append(bitmap) }
        return out
    }

    /// Renders and PNG-encodes every list; the files' bytes in order.
    public func pngs<S: Sequence>(_ lists: S, compressionLevel: Int = 6, filter: PNGFilter = .adaptive) throws -> [[UInt8]]
        where S.Element == DisplayList {
        var out: [[UInt8]] = []
        try encode(lists, compressionLevel: compressionLevel, filter: filter) { _, png in out.append(png) }
        return out
    }

    /// Renders and PNG-encodes every list, handing each file to `deliver` with its index, in
    /// order, on the calling thread, as soon as it and every one before it are done (so that
    /// a server can write files while later scenes render, holding only a few in memory).
    public func encode<S: Sequence>(_ lists: S, compressionLevel: Int = 6, filter: PNGFilter = .adaptive,
                                    deliver: (Int, [UInt8]) throws -> Void) throws where S.Element == DisplayList {
        try run(lists, transform: { try PNGCodec.encode($0, compressionLevel: compressionLevel, filter: filter) }, deliver: deliver)
    }

    // MARK: The stages

    /// A submitted scene: its pixels, or a GPU frame whose readback is under way.
    private enum Submitted {
        case ready(Bitmap)
        case pending(GPUPendingFrame)

        func bitmap() throws -> Bitmap {
            switch self {
            case .ready(let bitmap): return bitmap
            case .pending(let frame): return try frame.bitmap()
            }
        }
    }

    /// One scene's result, computed in the background or set at once (a failure, a bitmap).
    private final class Job<T>: @unchecked Sendable {
        let index: Int
        private let lock = NSLock()
        private var result: Result<T, Error>?
        private let done = DispatchSemaphore(value: 0)
        init(index: Int) { self.index = index }

        func finish(_ result: Result<T, Error>) {
            lock.lock(); self.result = result; lock.unlock()
            done.signal()
        }
        var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return result != nil }
        /// Waits for the result.
        func wait() -> Result<T, Error> {
            done.wait(); done.signal()
            lock.lock(); defer { lock.unlock() }
            return result!
        }
    }

    private func submit(_ list: DisplayList) throws -> Submitted {
        if let gpu = renderer as? GPURenderer { return .pending(try gpu.submit(list)) }
        if let auto = renderer as? AutoRenderer {
            do { return .pending(try auto.gpu.submit(list)) } catch is BackendUnavailable {
                return .ready(try auto.render(list))
            }
        }
        return .ready(try renderer.render(list))
    }

    /// The pipeline: submit; once `framesInFlight` are out, read back the oldest and start
    /// `transform` on it in the background (nil: the bitmap is the result); deliver in order.
    /// A failure is kept at its scene's place: the scenes before it are delivered, then it is
    /// thrown.
    private func run<S: Sequence, T>(_ lists: S, transform: (@Sendable (Bitmap) throws -> T)?,
                                     deliver: (Int, T) throws -> Void) throws where S.Element == DisplayList {
        var submitted: [(index: Int, frame: Submitted)] = []
        var jobs: [Job<T>] = []
        let queue = DispatchQueue.global(qos: .userInitiated)
        defer { for job in jobs { _ = job.wait() } } // leave no background work behind

        func deliverOldest() throws {
            let job = jobs.removeFirst()
            try deliver(job.index, try job.wait().get())
        }
        func readBackOldest() throws {
            let (index, frame) = submitted.removeFirst()
            let job = Job<T>(index: index)
            jobs.append(job)
            do {
                let bitmap = try frame.bitmap()
                if let transform {
                    queue.async { job.finish(Result { try transform(bitmap) }) }
                } else {
                    job.finish(.success(bitmap as! T))
                }
            } catch {
                job.finish(.failure(error))
            }
            while jobs.count > framesInFlight { try deliverOldest() }
        }
        func drain() throws {
            while !submitted.isEmpty { try readBackOldest() }
            while !jobs.isEmpty { try deliverOldest() }
        }

        for (index, list) in lists.enumerated() {
            let frame: Submitted
            do { frame = try submit(list) } catch {
                try drain() // the scenes before this one come first, as in a sequential loop
                throw error
            }
            submitted.append((index, frame))
            while submitted.count >= framesInFlight { try readBackOldest() }
            while let job = jobs.first, job.isFinished { try deliverOldest() }
        }
        try drain()
    }
}
