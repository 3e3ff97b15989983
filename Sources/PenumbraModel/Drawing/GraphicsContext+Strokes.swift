// Deferred stroke outlining. `stroke` records a placeholder command and the
// stroke's inputs (path, style, transform, tolerance); when the list is next
// read (`displayList`, `commandCount`), every pending stroke is outlined at
// once, spread over the cores (a single large stroke spreads its subpaths:
// Stroker.outline's `threads`), written into its placeholder, and strokes
// that cover nothing are dropped, so the list is exactly what outlining
// each stroke as it was recorded gives: the same function on the same
// inputs, in the same command order. Outlining is pure (path, style and
// transform are values), so threads share nothing but the output slots.
import Dispatch

/// A stroke recorded but not yet outlined.
struct PendingStroke {
    /// Index of its placeholder in the list's commands.
    let command: Int
    let path: Path
    let style: StrokeStyle
    let ctm: AffineTransform
    /// Flattening tolerance in user space (the device tolerance over the transform's stretch).
    let tolerance: Double

    /// A rough cost of outlining, in device pixels of path: the length of the control polygon
    /// (at least the path's own) in device space, plus a little per element. (The control-point
    /// box said 2,048 for W4's 26 concentric rings, whose length is 43,000.)
    var estimatedWork: Double {
        var length = 0.0, current = Point.zero, start = Point.zero
        func walk(_ points: Point...) { for p in points { length += (p - current).length; current = p } }
        for element in path.elements {
            switch element {
            case .move(let p): current = p; start = p
            case .line(let p): walk(p)
            case .quad(let c, let p), .conic(let c, let p, _): walk(c, p)
            case .cubic(let c1, let c2, let p): walk(c1, c2, p)
            case .close: walk(start)
            }
        }
        let device = length * ctm.maximumStretch
        return (device.isFinite ? min(device, 1e9) : 1e9) + Double(path.elements.count) * 4
    }

    /// The stroke outlined in user space, then transformed; nil when it covers nothing. With a
    /// budget, the flattened path and the outline take their points from it, and `overBudget`
    /// says when they did not fit (the shape is then nil).
    func outline(budget: GeometryBudget? = nil, cancellation: RenderCancellation? = nil,
                 threads: Int = 1) -> (shape: DeviceShape?, overBudget: Bool) {
        let flat: [FlatSubpath]
        if let budget {
            guard let f = budget.flatten(path, transform: .identity, tolerance: tolerance) else { return (nil, true) }
            flat = f
        } else {
            flat = path.flattened(tolerance: tolerance)
        }
        let (outline, overBudget) = Stroker.outline(flat, style: style, tolerance: tolerance, budget: budget,
                                                    cancellation: cancellation, threads: threads)
        guard !overBudget else { return (nil, true) }
        let contours = outline.map { $0.map(ctm.apply) }.filter { $0.count >= 3 }
        guard !contours.isEmpty else { return (nil, false) }
        return (DeviceShape(contours: contours, rule: .nonzero), false)
    }
}

extension GraphicsContext {
    /// Outlines every pending stroke into its placeholder (dropping those that cover nothing).
    func outlinePendingStrokes() {
        guard !pendingStrokes.isEmpty else { return }
        let strokes = pendingStrokes
        pendingStrokes = []
        let shapes = UnsafeMutableBufferPointer<(shape: DeviceShape?, overBudget: Bool)>.allocate(capacity: strokes.count)
        shapes.initialize(repeating: (nil, false))
        defer { shapes.deinitialize(); shapes.deallocate() }
        // Read here: the threads below do not see the caller's task-local token.
        let budget = geometryBudget, cancellation = RenderCancellation.current
        // Waking threads costs about what outlining a few thousand pixels of path does.
        let work = strokes.reduce(0.0) { $0 + $1.estimatedWork }
        let threads = work >= 8192 ? min(strokes.count, Parallelism.maxThreads) : 1
        if threads <= 1 {
            // One stroke worth the threads (a path of many rings): its subpaths share them.
            let inner = strokes.count == 1 && work >= 8192 ? Parallelism.maxThreads : 1
            for i in strokes.indices where cancellation?.isCancelled != true {
                shapes[i] = strokes[i].outline(budget: budget, cancellation: cancellation, threads: inner)
            }
        } else {
            // Interleaved: thread t outlines strokes t, t + threads, ... (strokes in a scene tend
            // to come in runs of similar cost).
            let output = DisjointWrites(shapes)
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                for i in stride(from: t, to: strokes.count, by: threads) where cancellation?.isCancelled != true {
                    output.value[i] = strokes[i].outline(budget: budget, cancellation: cancellation)
                }
            }
        }
        var dropped = Set<Int>()
        for (i, stroke) in strokes.enumerated() {
            guard case .fill(_, let color, let state) = list.commands[stroke.command] else {
                preconditionFailure("a pending stroke's placeholder is not a fill")
            }
            if shapes[i].overBudget, geometryOverflow.map({ $0 > origins[stroke.command] }) ?? true {
                geometryOverflow = origins[stroke.command]
            }
            if let shape = shapes[i].shape { list.commands[stroke.command] = .fill(shape, color, state) } else { dropped.insert(stroke.command) }
        }
        if !dropped.isEmpty {
            list.commands = list.commands.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
            origins = origins.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        }
    }
}
