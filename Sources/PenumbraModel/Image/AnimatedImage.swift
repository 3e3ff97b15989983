// AnimatedImage: UIImage.animatedImage(with:duration:) and an animated file.
// Frames show for their durations in order, looping; the frame at a time t
// is the one whose display interval holds t modulo the total duration
// (floored, so negative times wrap). Evenly spaced frames (a `frames` list or
// `pattern` with one duration) use the scene format's exact rule,
// floor((t mod d) x count / d), so no accumulated sum decides an edge; a
// file's own delays (whole milliseconds or centiseconds) are compared in
// integer microseconds for the same reason.

/// A sequence of equally sized frames with display durations, looping.
public struct AnimatedImage: Hashable, Sendable {
    /// The frames, all of one pixel size and scale.
    public var frames: [Image]
    /// Seconds each frame shows; nil when they share `duration` evenly.
    public var frameDurations: [Double]?
    /// The total duration in seconds (> 0).
    public var duration: Double

    /// Frames shown evenly over `duration` seconds (animatedImage(with:duration:)).
    public init(frames: [Image], duration: Double) {
        precondition(!frames.isEmpty && duration > 0)
        self.frames = frames; self.duration = duration; frameDurations = nil
    }

    /// Frames with their own durations (an animated GIF, APNG or WebP).
    public init(frames: [Image], frameDurations: [Double]) {
        precondition(!frames.isEmpty && frames.count == frameDurations.count)
        self.frames = frames; self.frameDurations = frameDurations
        let total = frameDurations.reduce(0, +)
        self.duration = total > 0 ? total : Double(frames.count) * 0.1
    }

    /// The index of the frame shown at `time` seconds.
    public func frameIndex(at time: Double) -> Int {
        guard time.isFinite, abs(time) < 1e12 else { return 0 }
        let ticks = (frameDurations ?? []).map { Int(($0 * 1_000_000).rounded()) }
        let total = ticks.reduce(0, +)
        guard total > 0 else {
            let t = time - duration * (time / duration).rounded(.down)
            return min(frames.count - 1, max(0, Int((t * Double(frames.count) / duration).rounded(.down))))
        }
        let now = Int((time * 1_000_000).rounded(.down))
        var t = now % total
        if t < 0 { t += total }
        for (i, d) in ticks.enumerated() {
            if t < d { return i }
            t -= d
        }
        return frames.count - 1
    }

    /// The frame shown at `time` seconds.
    public func frame(at time: Double) -> Image { frames[frameIndex(at: time)] }
}
