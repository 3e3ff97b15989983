// ImageView: UIImageView. Its image is drawn into the bounds as the content
// mode places it; a template image (`withRenderingMode(.template)`) takes the
// view's tint colour, and an image made with
// `imageFlippedForRightToLeftLayoutDirection()` is mirrored in a
// right-to-left view. An animated image shows its frame at `time`.

import Synchronization
import Penumbra

/// A view that shows an image (UIImageView).
open class ImageView: View, @unchecked Sendable {
    private struct Content {
        var image: Image?
        var animation: AnimatedImage?
        var time = 0.0
        var contentMode = ContentMode.scaleToFill
    }
    private let shown = Mutex(Content())

    /// An image view the image's size at the origin (UIImageView(image:)).
    public init(image: Image?) {
        super.init(frame: Rect(origin: Point(x: 0, y: 0), size: image?.size ?? .zero))
        self.image = image
    }

    /// An image view showing an animated image at `time` seconds, the first frame's size.
    public init(animation: AnimatedImage, time: Double = 0) {
        super.init(frame: Rect(origin: Point(x: 0, y: 0), size: animation.frame(at: 0).size))
        shown.withLock { $0.animation = animation; $0.time = time }
    }

    /// An empty image view at `frame`.
    public override init(frame: Rect = .zero) { super.init(frame: frame) }

    /// The image shown (an animation's frame at ``time`` when one is set).
    public var image: Image? {
        get { shown.withLock { c in c.animation.map { $0.frame(at: c.time) } ?? c.image } }
        set { shown.withLock { $0.image = newValue; $0.animation = nil } }
    }

    /// An animated image, shown at ``time``; setting ``image`` replaces it.
    public var animation: AnimatedImage? {
        get { shown.withLock { $0.animation } }
        set { shown.withLock { $0.animation = newValue } }
    }

    /// Seconds into ``animation``: which frame is shown.
    public var time: Double {
        get { shown.withLock { $0.time } }
        set { shown.withLock { $0.time = newValue } }
    }

    /// Where the image goes in the bounds; `ContentMode.scaleToFill` by default.
    public var contentMode: ContentMode {
        get { shown.withLock { $0.contentMode } }
        set { shown.withLock { $0.contentMode = newValue } }
    }

    /// The image's size.
    open override func sizeThatFits(_ size: Size) -> Size { image?.size ?? .zero }
    /// The image's size, or no intrinsic size without an image.
    open override var intrinsicContentSize: Size { image?.size ?? Size(width: -1, height: -1) }

    override func content(direction: LayoutDirection) -> ViewContent? {
        guard var image else { return ViewContent.none }
        let template = image.renderingMode == .template
        let flips = image.flipsForRightToLeftLayoutDirection
        image = image.withRenderingMode(.original)
        return .image(ViewImage(image: image, contentMode: contentMode, isTemplate: template, flipsForRightToLeft: flips))
    }
}
