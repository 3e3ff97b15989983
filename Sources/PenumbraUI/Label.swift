// Label: UILabel. Its text (a string in `font` and `textColor`, or attributed
// runs whose missing colours are `textColor`) is laid out in the bounds with
// its alignment (`natural` is left, or right in a right-to-left view), line
// limit and line break mode, its lines centred vertically as UILabel centres
// them. Layouts are kept until what they depend on changes, so re-rendering a
// tree lays out only the labels that changed.

import Synchronization
import Penumbra
import PenumbraText

/// A view that shows one or more lines of text (UILabel).
open class Label: View, @unchecked Sendable {
    private struct Text: Hashable {
        var text: String?
        var attributedText: AttributedText?
        var font = Font()
        var textColor = Color.black
        var textAlignment = TextAlignment.natural
        var numberOfLines = 1
        var lineBreakMode = LineBreakMode.truncateTail
    }
    private struct LayoutKey: Hashable {
        var text: Text
        var direction: LayoutDirection
        var placement: TextPlacement
    }
    private let textState = Mutex(Text())
    private let cache = Mutex<(key: LayoutKey, layout: TextLayout, text: LabelText)?>(nil)

    /// An empty label at `frame`.
    public override init(frame: Rect = .zero) { super.init(frame: frame) }

    /// The text, in ``font`` and ``textColor``; setting it clears ``attributedText`` (whose
    /// characters it returns when that is set).
    public var text: String? {
        get { textState.withLock { $0.text ?? $0.attributedText.map { $0.runs.map(\.text).joined() } } }
        set { textState.withLock { $0.text = newValue; $0.attributedText = nil } }
    }

    /// Styled runs (a run without a colour takes ``textColor``); setting it clears ``text``.
    public var attributedText: AttributedText? {
        get { textState.withLock { $0.attributedText } }
        set { textState.withLock { $0.attributedText = newValue; $0.text = nil } }
    }

    /// The font of ``text``; the system font (sans-serif) at 17 points by default.
    public var font: Font {
        get { textState.withLock { $0.font } }
        set { textState.withLock { $0.font = newValue } }
    }

    /// The colour of ``text`` and of runs without their own; black by default.
    public var textColor: Color {
        get { textState.withLock { $0.textColor } }
        set { textState.withLock { $0.textColor = newValue } }
    }

    /// How lines align; `TextAlignment.natural` (by the view's layout direction) by default.
    public var textAlignment: TextAlignment {
        get { textState.withLock { $0.textAlignment } }
        set { textState.withLock { $0.textAlignment = newValue } }
    }

    /// At most this many lines; 0 is no limit; 1 by default.
    public var numberOfLines: Int {
        get { textState.withLock { $0.numberOfLines } }
        set { textState.withLock { $0.numberOfLines = max(0, newValue) } }
    }

    /// How lines break and how text that does not fit is cut; `LineBreakMode.truncateTail` by default.
    public var lineBreakMode: LineBreakMode {
        get { textState.withLock { $0.lineBreakMode } }
        set { textState.withLock { $0.lineBreakMode = newValue } }
    }

    /// The text's size laid out at `size.width` (no limit when it is 0 or less), within the
    /// line limit (UILabel.sizeThatFits).
    open override func sizeThatFits(_ size: Size) -> Size {
        let width = size.width > 0 ? size.width : nil
        return layout(placement: .at(Point(x: 0, y: 0), maxWidth: width), direction: effectiveUserInterfaceLayoutDirection)?.size
            ?? .zero
    }

    /// The text's size on one unbounded line per paragraph, within the line limit.
    open override var intrinsicContentSize: Size { sizeThatFits(Size(width: 0, height: 0)) }

    override func content(direction: LayoutDirection) -> ViewContent? {
        guard layout(placement: .rect(bounds), direction: direction) != nil,
              let text = cache.withLock({ $0?.text }) else { return ViewContent.none }
        return .label(text)
    }

    /// The layout of the text for a placement, cached; nil without text or when a font cannot be used.
    private func layout(placement: TextPlacement, direction: LayoutDirection) -> TextLayout? {
        let key = LayoutKey(text: textState.withLock { $0 }, direction: direction, placement: placement)
        if let cached = cache.withLock({ $0 }), cached.key == key { return cached.layout }
        var runs: [AttributedText.Run]
        if let attributed = key.text.attributedText {
            runs = attributed.runs.map { run in var r = run; r.color = r.color ?? key.text.textColor; return r }
        } else if let string = key.text.text {
            runs = [AttributedText.Run(string, font: key.text.font, color: key.text.textColor)]
        } else {
            return nil
        }
        guard !runs.isEmpty else { return nil }
        var style = TextStyle(lineBreakMode: key.text.lineBreakMode, numberOfLines: key.text.numberOfLines,
                              verticalAlignment: .center)
        style.alignment = key.text.textAlignment == .natural ? (direction == .rightToLeft ? .right : .left) : key.text.textAlignment
        guard let layout = try? TextLayout(AttributedText(runs: runs), placement: placement, style: style) else { return nil }
        if case .rect = placement { cache.withLock { $0 = (key, layout, LabelText(layout.drawing)) } }
        return layout
    }
}
