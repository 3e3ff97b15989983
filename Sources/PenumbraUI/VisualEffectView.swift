// VisualEffectView: UIVisualEffectView with a blur or a vibrancy effect. A
// blur replaces what is drawn under the view's rounded bounds by it blurred
// (radius 20, saturation 1.8, the style's tint), then draws the subviews. A
// vibrancy view draws its subviews into a mask: where they have alpha, what
// is under the view is brightened and saturated (colorControls). The
// subviews go directly into the view (UIKit's `contentView` is the view).

import Synchronization
import Penumbra

/// The effect a ``VisualEffectView`` draws.
public enum VisualEffect: Hashable, Sendable {
    /// UIBlurEffect.
    case blur(VisualEffectStyle)
    /// UIVibrancyEffect over a blur of this style.
    case vibrancy(VisualEffectStyle)
}

/// A view that blurs what is behind it, or shows its subviews as vibrancy (UIVisualEffectView).
open class VisualEffectView: View, @unchecked Sendable {
    private let chosen: Mutex<VisualEffect?>

    /// A visual effect view with `effect` (nil draws only the background and subviews).
    public init(effect: VisualEffect?, frame: Rect = .zero) {
        chosen = Mutex(effect)
        super.init(frame: frame)
    }

    /// The effect drawn.
    public var effect: VisualEffect? {
        get { chosen.withLock { $0 } }
        set { chosen.withLock { $0 = newValue } }
    }

    override func content(direction: LayoutDirection) -> ViewContent? {
        switch effect {
        case .blur(let style): return .blur(style)
        case .vibrancy(let style): return .vibrancy(style)
        case nil: return ViewContent.none
        }
    }
}
