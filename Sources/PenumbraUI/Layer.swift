// Layer: the CALayer properties a view draws with (corner radius, border,
// shadow). A view's layer is its own; it is not a separate tree, and it draws
// nothing on its own: the view lowers these with the rest of itself.

import Synchronization
import Penumbra

/// The corner radius, border and shadow of a view (CALayer's properties of those names).
public final class Layer: Sendable {
    let storage = Mutex(ViewLayerStyle())

    init() {}

    /// The radius of the bounds' corners: background, border, clipping and effects follow it
    /// (clamped to half the shorter side); 0 by default.
    public var cornerRadius: Double {
        get { storage.withLock { $0.cornerRadius } }
        set { storage.withLock { $0.cornerRadius = max(0, newValue) } }
    }
    /// The border's width, drawn inside the bounds above the content and subviews; 0 by default.
    public var borderWidth: Double {
        get { storage.withLock { $0.borderWidth } }
        set { storage.withLock { $0.borderWidth = max(0, newValue) } }
    }
    /// The border's colour; black by default.
    public var borderColor: Color {
        get { storage.withLock { $0.borderColor } }
        set { storage.withLock { $0.borderColor = newValue } }
    }
    /// The shadow's colour, its alpha multiplied by ``shadowOpacity``; black by default.
    public var shadowColor: Color {
        get { storage.withLock { $0.shadowColor } }
        set { storage.withLock { $0.shadowColor = newValue } }
    }
    /// 0...1; 0 (the default) casts no shadow.
    public var shadowOpacity: Double {
        get { storage.withLock { $0.shadowOpacity } }
        set { storage.withLock { $0.shadowOpacity = min(1, max(0, newValue)) } }
    }
    /// In base-space points, untouched by transforms; (0, -3) by default, which casts upward as on iOS.
    public var shadowOffset: Size {
        get { storage.withLock { $0.shadowOffset } }
        set { storage.withLock { $0.shadowOffset = newValue } }
    }
    /// The shadow's blur radius in points (the context's blur is twice it); 3 by default.
    public var shadowRadius: Double {
        get { storage.withLock { $0.shadowRadius } }
        set { storage.withLock { $0.shadowRadius = max(0, newValue) } }
    }
    /// The shape that casts the shadow, in bounds coordinates, instead of the composited view's
    /// alpha; nil by default.
    public var shadowPath: Path? {
        get { storage.withLock { $0.shadowPath } }
        set { storage.withLock { $0.shadowPath = newValue } }
    }

    var style: ViewLayerStyle { storage.withLock { $0 } }
}
