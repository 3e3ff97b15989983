// The differential fuzzer's view trees: random UIKit-style trees (1 to 12
// views, up to 4 levels: frames, or centres with rotating and scaling
// transforms; scrolled bounds; alpha; hidden; backgrounds; clipsToBounds;
// tint colours; semantic content attributes; corner radii, borders, shadows
// with and without a shadow path; and content: `draw` ops, image views with
// template and flip traits and every content mode, labels laid out by the
// text engine as the scene decoder lays them out, blur and vibrancy effect
// views) drawn with DrawViewOp.draw(into:) under a random context state.
// They come from a random stream of their own, appended after every other op,
// so the other ops of a seed stay what they were. A tree that breaks parity
// is shrunk (subviews removed, properties reset one at a time while the
// difference stays) and described in the scene format's terms.
import Foundation
import XCTest
import Penumbra
@testable import PenumbraModel
@testable import PenumbraCore
import PenumbraCPU
import PenumbraGPU

/// The context state a view tree is drawn under (the root's frame is in this user space).
struct FuzzViewSetup {
    var rotation = 0.0, scale = 1.0, translation = Point(x: 0, y: 0)
    var alpha: Double?
    var blendMode: BlendMode?
    var shadow: (offset: Size, blur: Double, color: Color)?
    var clip: Int?

    var description: String {
        var parts: [String] = []
        if rotation != 0 || scale != 1 || translation != Point(x: 0, y: 0) {
            parts.append("translate(\(translation.x), \(translation.y)) rotate(\(rotation)) scale(\(scale))")
        }
        if let alpha { parts.append("setAlpha(\(alpha))") }
        if let blendMode { parts.append("setBlendMode(\(blendMode))") }
        if let shadow { parts.append("setShadow(offset: \(shadow.offset), blur: \(shadow.blur), color: \(shadow.color))") }
        if let clip { parts.append("clip node \(clip)") }
        return parts.isEmpty ? "default state" : parts.joined(separator: "; ")
    }
}

/// One view tree of a fuzz scene: where its commands are and what made them.
struct FuzzViewDraw {
    /// The index of its first command and the number of clip nodes before it.
    var start: Int, clipsBefore: Int
    var setup: FuzzViewSetup
    var op: DrawViewOp
    /// What each label and image view was made from, by view id (for descriptions).
    var notes: [Int: String]
}

extension FuzzSceneBuilder {
    /// Records `op` under `setup` onto the end of `list` (adding the clip nodes it makes).
    static func record(_ op: DrawViewOp, _ setup: FuzzViewSetup, onto list: inout DisplayList) {
        let context = GraphicsContext(pixelWidth: list.width, pixelHeight: list.height)
        context.list.clips = list.clips
        context.state.clip = setup.clip
        context.translateBy(x: setup.translation.x, y: setup.translation.y)
        context.rotate(by: setup.rotation)
        context.scaleBy(x: setup.scale, y: setup.scale)
        if let alpha = setup.alpha { context.setAlpha(alpha) }
        if let mode = setup.blendMode { context.setBlendMode(mode) }
        if let s = setup.shadow { context.setShadow(offset: s.offset, blur: s.blur, color: s.color) }
        op.draw(into: context)
        let recorded = context.displayList
        list.clips = recorded.clips
        list.commands += recorded.commands
    }

    /// A random view tree under a random state, appended to `list`; drawn from `viewRandom`.
    mutating func viewTree(into list: inout DisplayList) {
        var setup = FuzzViewSetup()
        if viewRandom.chance(0.4) {
            setup.rotation = viewRandom.double(-0.8...0.8); setup.scale = viewRandom.double(0.5...2)
            setup.translation = Point(x: viewRandom.double(-8...8), y: viewRandom.double(-8...8))
        }
        if viewRandom.chance(0.3) { setup.alpha = viewRandom.double(0...1) }
        if viewRandom.chance(0.3) { setup.blendMode = BlendMode.allCases[viewRandom.int(0...(BlendMode.allCases.count - 1))] }
        if viewRandom.chance(0.2) {
            setup.shadow = (Size(width: viewRandom.double(-6...6), height: viewRandom.double(-6...6)), viewRandom.double(0...6),
                            viewRandom.color())
        }
        if !list.clips.isEmpty, viewRandom.chance(0.3) { setup.clip = viewRandom.int(0...(list.clips.count - 1)) }
        let direction: LayoutDirection = viewRandom.chance(0.3) ? .rightToLeft : .leftToRight
        var budget = viewRandom.int(1...12)
        var notes: [Int: String] = [:]
        var nextID = 1
        let root = view(level: 1, budget: &budget, direction: direction, nextID: &nextID, notes: &notes)
        let op = DrawViewOp(root: root, layoutDirection: direction)
        views.append(FuzzViewDraw(start: list.commands.count, clipsBefore: list.clips.count, setup: setup, op: op, notes: notes))
        viewCount += root.count
        Self.record(op, setup, onto: &list)
    }

    /// A random size for a view: mostly within the canvas, now and then empty.
    private mutating func viewSize() -> Size {
        func side(_ limit: Int) -> Double { viewRandom.chance(0.05) ? 0 : viewRandom.double(1...Double(limit + 8)) }
        return Size(width: side(width), height: side(height))
    }

    /// A random path in `bounds` (a polygon, an ellipse or a rounded rectangle, reaching a little past it).
    private mutating func path(in bounds: Rect) -> Path {
        let r = Rect(x: bounds.minX - 4, y: bounds.minY - 4, width: bounds.width + 8, height: bounds.height + 8)
        func point() -> Point { Point(x: viewRandom.double(r.minX...r.maxX), y: viewRandom.double(r.minY...r.maxY)) }
        switch viewRandom.int(0...2) {
        case 0:
            var path = Path()
            path.move(to: point())
            for _ in 0..<viewRandom.int(2...5) { path.addLine(to: point()) }
            if viewRandom.chance(0.7) { path.closeSubpath() }
            return path
        case 1:
            let a = point(), b = point()
            return Path(ellipseIn: Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y)))
        default:
            let a = point(), b = point()
            return Path(roundedRect: Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y)),
                        cornerRadius: viewRandom.double(0...8))
        }
    }

    /// A view's `draw`: a few fills and strokes, now and then under a state change, a
    /// rotation or an unclosed layer (the view closes what its `draw` leaves open).
    private mutating func drawOps(in bounds: Rect) -> [SceneOp] {
        var ops: [SceneOp] = []
        var saves = 0
        for _ in 0..<viewRandom.int(1...4) {
            switch viewRandom.int(0...7) {
            case 0...2:
                ops.append(.setFillColor(viewRandom.color()))
                ops.append(.fill(path(in: bounds), viewRandom.chance(0.5) ? .nonzero : .evenOdd))
            case 3, 4:
                ops.append(.setStrokeColor(viewRandom.color()))
                ops.append(.setLineWidth(viewRandom.double(0...5)))
                if viewRandom.chance(0.3) { ops.append(.setLineDash(phase: viewRandom.double(0...3), lengths: [viewRandom.double(0.5...4), viewRandom.double(0.5...4)])) }
                if viewRandom.chance(0.3) { ops.append(.setLineCap(LineCap.allCases[viewRandom.int(0...(LineCap.allCases.count - 1))])) }
                ops.append(.stroke(path(in: bounds)))
            case 5:
                if viewRandom.chance(0.5) { ops.append(.setAlpha(viewRandom.double(0...1))) }
                if viewRandom.chance(0.5) { ops.append(.setBlendMode(BlendMode.allCases[viewRandom.int(0...(BlendMode.allCases.count - 1))])) }
                if viewRandom.chance(0.4) {
                    ops.append(.setShadow(offset: Size(width: viewRandom.double(-4...4), height: viewRandom.double(-4...4)),
                                          blur: viewRandom.double(0...4), color: viewRandom.color()))
                }
            case 6:
                ops.append(.save); saves += 1
                ops.append(.rotate(angle: viewRandom.double(-1...1)))
                if viewRandom.chance(0.4) { ops.append(.clip(path(in: bounds), .nonzero)) }
            default:
                ops.append(.beginLayer)
            }
        }
        if viewRandom.chance(0.5) { for _ in 0..<saves { ops.append(.restore) } }
        return ops
    }

    /// A random view and its subviews; `budget` is how many views the tree may still have.
    private mutating func view(level: Int, budget: inout Int, direction inherited: LayoutDirection, nextID: inout Int,
                               notes: inout [Int: String]) -> ViewNode {
        budget -= 1
        let size = viewSize()
        var node: ViewNode
        if viewRandom.chance(0.5) {
            node = ViewNode(frame: Rect(origin: Point(x: viewRandom.double(-8...Double(width)), y: viewRandom.double(-8...Double(height))),
                                        size: size))
        } else {
            var t = PenumbraModel.AffineTransform.identity
            switch viewRandom.int(0...4) {
            case 0: break
            case 1: t = PenumbraModel.AffineTransform(rotationAngle: viewRandom.double(-3.2...3.2))
            case 2: t = PenumbraModel.AffineTransform(scaleX: viewRandom.double(-2...2), y: viewRandom.double(-2...2))
            case 3:
                t = PenumbraModel.AffineTransform(scaleX: viewRandom.double(0.3...2), y: viewRandom.double(0.3...2))
                    .concatenating(PenumbraModel.AffineTransform(rotationAngle: viewRandom.double(-3.2...3.2)))
            default:
                t = PenumbraModel.AffineTransform(a: 1, b: viewRandom.double(-0.5...0.5), c: viewRandom.double(-0.5...0.5), d: 1,
                                                 tx: viewRandom.double(-4...4), ty: viewRandom.double(-4...4))
            }
            node = ViewNode(placement: .center(Point(x: viewRandom.double(-4...Double(width + 4)), y: viewRandom.double(-4...Double(height + 4))),
                                               transform: t),
                            bounds: Rect(origin: Point(x: 0, y: 0), size: size))
        }
        node.id = nextID; nextID += 1
        if viewRandom.chance(0.25) { node.bounds.origin = Point(x: viewRandom.double(-10...10), y: viewRandom.double(-10...10)) }
        if viewRandom.chance(0.3) { node.alpha = viewRandom.chance(0.1) ? 0 : viewRandom.double(0...1) }
        node.isHidden = viewRandom.chance(0.06)
        if viewRandom.chance(0.6) { node.backgroundColor = viewRandom.color() }
        node.clipsToBounds = viewRandom.chance(0.3)
        if viewRandom.chance(0.25) { node.tintColor = viewRandom.color() }
        if viewRandom.chance(0.3) {
            node.semanticContentAttribute = SemanticContentAttribute.allCases[viewRandom.int(0...(SemanticContentAttribute.allCases.count - 1))]
        }
        if viewRandom.chance(0.35) { node.layer.cornerRadius = viewRandom.double(0...(max(size.width, size.height) / 2 + 4)) }
        if viewRandom.chance(0.3) {
            node.layer.borderWidth = viewRandom.double(0...5)
            if viewRandom.chance(0.7) { node.layer.borderColor = viewRandom.color() }
        }
        if viewRandom.chance(0.3) {
            node.layer.shadowOpacity = viewRandom.double(0...1)
            if viewRandom.chance(0.6) { node.layer.shadowColor = viewRandom.color() }
            if viewRandom.chance(0.6) { node.layer.shadowOffset = Size(width: viewRandom.double(-6...6), height: viewRandom.double(-6...6)) }
            if viewRandom.chance(0.6) { node.layer.shadowRadius = viewRandom.double(0...6) }
            if viewRandom.chance(0.4) { node.layer.shadowPath = path(in: node.bounds) }
        }
        let direction = node.direction(inheriting: inherited)

        switch viewRandom.int(0...9) {
        case 0, 1: break
        case 2, 3: node.content = .ops(drawOps(in: node.bounds))
        case 4, 5:
            let image = Image(bitmap: Self.randomBitmap(&viewRandom, 1...9), scale: viewRandom.chance(0.5) ? 1 : 2)
            let shown = ViewImage(image: image, contentMode: ContentMode.allCases[viewRandom.int(0...(ContentMode.allCases.count - 1))],
                                  isTemplate: viewRandom.chance(0.3), flipsForRightToLeft: viewRandom.chance(0.4))
            node.content = .image(shown)
            notes[node.id] = "imageView \(image.bitmap.width) x \(image.bitmap.height) @\(image.scale)x contentMode \(shown.contentMode)"
                + (shown.isTemplate ? " alwaysTemplate" : "") + (shown.flipsForRightToLeft ? " flipsForRightToLeftLayoutDirection" : "")
        case 6, 7:
            let (drawing, note) = label(in: node.bounds, direction: direction)
            if let drawing { node.content = .label(LabelText(drawing)) }
            notes[node.id] = note
        case 8:
            node.content = .blur(VisualEffectStyle.allCases[viewRandom.int(0...(VisualEffectStyle.allCases.count - 1))])
        default:
            node.content = .vibrancy(VisualEffectStyle.allCases[viewRandom.int(0...(VisualEffectStyle.allCases.count - 1))])
        }

        if level < 4 {
            // A vibrancy view always gets something to mask with when the budget allows.
            let wanted = viewRandom.int(0...3) + (node.content.isVibrancy ? 1 : 0)
            for _ in 0..<wanted where budget > 0 {
                node.subviews.append(view(level: level + 1, budget: &budget, direction: direction, nextID: &nextID, notes: &notes))
            }
        }
        return node
    }

    /// A label's text, laid out as the scene decoder lays out a label: the engine's layout in
    /// the bounds (placement .rect), centred vertically, natural alignment resolved by the
    /// view's direction, UILabel's defaults (one line, truncating the tail) half the time.
    private mutating func label(in bounds: Rect, direction: LayoutDirection) -> (TextDrawing?, String) {
        let textColor = viewRandom.chance(0.3) ? Color.black : viewRandom.color()
        var runs: [AttributedText.Run] = []
        var described: [String] = []
        for _ in 0..<viewRandom.int(1...2) {
            let string = Self.texts[viewRandom.int(0...(Self.texts.count - 1))]
            let size = viewRandom.double(4...24), weight = viewRandom.chance(0.3) ? 700 : 400
            let run = AttributedText.Run(string, font: Font(family: "DejaVu Sans", size: size, weight: weight),
                                         color: viewRandom.chance(0.3) ? viewRandom.color() : textColor,
                                         underline: viewRandom.chance(0.2), strikethrough: viewRandom.chance(0.1))
            runs.append(run)
            described.append("\"\(string)\" DejaVu Sans \(size) weight \(weight) \(run.color.map { "\($0)" } ?? "-")"
                + (run.underline ? " underline" : "") + (run.strikethrough ? " strikethrough" : ""))
        }
        var style = TextStyle(lineBreakMode: .truncateTail, numberOfLines: 1, verticalAlignment: .center)
        let alignment = TextAlignment.allCases[viewRandom.int(0...(TextAlignment.allCases.count - 1))]
        style.alignment = alignment == .natural ? (direction == .rightToLeft ? .right : .left) : alignment
        if viewRandom.chance(0.5) {
            style.numberOfLines = viewRandom.int(0...3)
            style.lineBreakMode = LineBreakMode.allCases[viewRandom.int(0...(LineBreakMode.allCases.count - 1))]
        }
        let note = "label " + described.joined(separator: " + ") + " textAlignment \(style.alignment) numberOfLines \(style.numberOfLines) lineBreakMode \(style.lineBreakMode)"
        let layout = try? TextLayout(AttributedText(runs: runs), placement: .rect(bounds), style: style)
        return (layout?.drawing, note)
    }
}

extension ViewContent {
    var isVibrancy: Bool { if case .vibrancy = self { return true } else { return false } }
}

// MARK: Shrinking and describing a tree that breaks parity

extension DifferentialFuzzTests {
    /// The scene of `list`'s commands before `draw` with the tree `op` drawn under `setup`, its
    /// CPU and GPU lists (the GPU's with its own filtered images).
    func sceneWithView(_ list: DisplayList, _ gpuList: DisplayList, _ draw: FuzzViewDraw, _ op: DrawViewOp,
                       _ setup: FuzzViewSetup) -> (DisplayList, DisplayList) {
        var cpu = list, gpu = gpuList
        for i in [0, 1] {
            var l = i == 0 ? list : gpuList
            l.commands = Array(l.commands.prefix(draw.start))
            l.clips = Array(l.clips.prefix(draw.clipsBefore))
            FuzzSceneBuilder.record(op, setup, onto: &l)
            if i == 0 { cpu = l } else { gpu = l }
        }
        return (cpu, gpu)
    }

    /// The smallest tree and state (greedily) that still breaks parity: subviews removed,
    /// properties reset, the context state cleared, one at a time while the difference stays.
    func shrink(_ list: DisplayList, _ gpuList: DisplayList, _ draw: FuzzViewDraw, cpu: CPURenderer,
                gpu: GPURenderer) throws -> (DrawViewOp, FuzzViewSetup, ImageDifference)? {
        var op = draw.op, setup = draw.setup
        func differs(_ op: DrawViewOp, _ setup: FuzzViewSetup) throws -> ImageDifference? {
            let (c, g) = sceneWithView(list, gpuList, draw, op, setup)
            let diff = try XCTUnwrap(ImageDifference(try cpu.render(c), try gpu.render(g)))
            return diff.isExact ? nil : diff
        }
        guard var last = try differs(op, setup) else { return nil }
        var changed = true
        while changed {
            changed = false
            for candidate in Self.setupCandidates(setup) {
                if let d = try differs(op, candidate) { setup = candidate; last = d; changed = true }
            }
            if op.layoutDirection == .rightToLeft {
                var candidate = op; candidate.layoutDirection = .leftToRight
                if let d = try differs(candidate, setup) { op = candidate; last = d; changed = true }
            }
            for root in Self.treeCandidates(op.root) {
                var candidate = op; candidate.root = root
                if let d = try differs(candidate, setup) { op = candidate; last = d; changed = true; break }
            }
        }
        return (op, setup, last)
    }

    static func setupCandidates(_ s: FuzzViewSetup) -> [FuzzViewSetup] {
        var out: [FuzzViewSetup] = []
        var c = s
        if s.rotation != 0 || s.scale != 1 || s.translation != Point(x: 0, y: 0) {
            c = s; c.rotation = 0; c.scale = 1; c.translation = Point(x: 0, y: 0); out.append(c)
        }
        if s.alpha != nil { c = s; c.alpha = nil; out.append(c) }
        if s.blendMode != nil { c = s; c.blendMode = nil; out.append(c) }
        if s.shadow != nil { c = s; c.shadow = nil; out.append(c) }
        if s.clip != nil { c = s; c.clip = nil; out.append(c) }
        return out
    }

    /// Trees one step simpler than `node`: a subview removed, a subview in its parent's place, a
    /// property back to its default; recursively.
    static func treeCandidates(_ node: ViewNode) -> [ViewNode] {
        var out: [ViewNode] = []
        for i in node.subviews.indices {
            var c = node; c.subviews.remove(at: i); out.append(c)
        }
        for sub in node.subviews { var lifted = sub; lifted.placement = node.placement; out.append(lifted) }
        func reset(_ change: (inout ViewNode) -> Void) {
            var c = node; change(&c); if c != node { out.append(c) }
        }
        reset { $0.content = .none }
        reset { $0.alpha = 1 }
        reset { $0.isHidden = false }
        reset { $0.backgroundColor = nil }
        reset { $0.clipsToBounds = false }
        reset { $0.tintColor = nil }
        reset { $0.semanticContentAttribute = .unspecified }
        reset { $0.layer.cornerRadius = 0 }
        reset { $0.layer.borderWidth = 0 }
        reset { $0.layer.shadowOpacity = 0 }
        reset { $0.layer.shadowPath = nil }
        reset { $0.layer.shadowOffset = Size(width: 0, height: -3) }
        reset { $0.layer.shadowRadius = 3 }
        reset { $0.bounds.origin = Point(x: 0, y: 0) }
        reset { if case .center(let p, _) = $0.placement { $0.placement = .center(p, transform: .identity) } }
        if case .ops(let ops) = node.content, ops.count > 1 {
            for i in ops.indices { var c = node; var o = ops; o.remove(at: i); c.content = .ops(o); out.append(c) }
        }
        for (i, sub) in node.subviews.enumerated() {
            for simpler in treeCandidates(sub) { var c = node; c.subviews[i] = simpler; out.append(c) }
        }
        return out
    }

    /// The tree in the scene format's terms (labels and images by what they were made from).
    static func describe(_ node: ViewNode, notes: [Int: String], indent: String = "") -> String {
        var fields: [String] = []
        switch node.placement {
        case .frame(let f): fields.append("frame \(f)")
        case .center(let p, let t):
            fields.append("center (\(p.x), \(p.y)) transform [\(t.a), \(t.b), \(t.c), \(t.d), \(t.tx), \(t.ty)]")
        }
        fields.append("bounds \(node.bounds)")
        if node.alpha != 1 { fields.append("alpha \(node.alpha)") }
        if node.isHidden { fields.append("hidden") }
        if let c = node.backgroundColor { fields.append("backgroundColor \(c)") }
        if node.clipsToBounds { fields.append("clipsToBounds") }
        if let c = node.tintColor { fields.append("tintColor \(c)") }
        if node.semanticContentAttribute != .unspecified { fields.append("\(node.semanticContentAttribute)") }
        let l = node.layer, d = ViewLayerStyle()
        if l.cornerRadius != 0 { fields.append("cornerRadius \(l.cornerRadius)") }
        if l.borderWidth != 0 { fields.append("borderWidth \(l.borderWidth) borderColor \(l.borderColor)") }
        if l.shadowOpacity != 0 {
            fields.append("shadowOpacity \(l.shadowOpacity) shadowColor \(l.shadowColor)")
            if l.shadowOffset != d.shadowOffset { fields.append("shadowOffset \(l.shadowOffset)") }
            if l.shadowRadius != d.shadowRadius { fields.append("shadowRadius \(l.shadowRadius)") }
            if let p = l.shadowPath { fields.append("shadowPath \(p)") }
        }
        switch node.content {
        case .none, .procedure, .recording: break
        case .ops(let ops): fields.append("draw \(ops)")
        case .image, .label: fields.append(notes[node.id] ?? "\(node.content)")
        case .blur(let s): fields.append("visualEffect blur \(s)")
        case .vibrancy(let s): fields.append("visualEffect vibrancy \(s)")
        }
        var text = indent + "view#\(node.id): " + fields.joined(separator: ", ")
        for sub in node.subviews { text += "\n" + describe(sub, notes: notes, indent: indent + "  ") }
        return text
    }
}
