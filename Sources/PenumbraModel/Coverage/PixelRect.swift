// PixelRect: an integer rectangle of pixels, the unit of work of the CPU
// renderer (an op touches the pixels of its bounds within the canvas).


/// A rectangle of whole pixels: columns x..<x+width, rows y..<y+height.
@usableFromInline package struct PixelRect: Hashable, Sendable {
    @usableFromInline package var x: Int, y: Int, width: Int, height: Int
    @usableFromInline package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = max(0, width); self.height = max(0, height)
    }
    @usableFromInline package var isEmpty: Bool { width == 0 || height == 0 }
    @usableFromInline package var maxX: Int { x + width }
    @usableFromInline package var maxY: Int { y + height }
    @usableFromInline package var area: Int { width * height }

    /// The pixels both rectangles contain (empty when they do not overlap).
    @usableFromInline package func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y)
        return PixelRect(x: x0, y: y0, width: min(maxX, o.maxX) - x0, height: min(maxY, o.maxY) - y0)
    }
    /// The rectangle grown by `n` pixels on every side.
    @usableFromInline package func grown(by n: Int) -> PixelRect { PixelRect(x: x - n, y: y - n, width: width + 2 * n, height: height + 2 * n) }

    /// The pixels that a real rectangle touches (rounded out), saturated to a sane range.
    @usableFromInline package init(enclosing r: Rect) {
        let limit = Double(1 << 30)
        let x0 = max(-limit, min(limit, r.minX.rounded(.down))), y0 = max(-limit, min(limit, r.minY.rounded(.down)))
        let x1 = max(-limit, min(limit, r.maxX.rounded(.up))), y1 = max(-limit, min(limit, r.maxY.rounded(.up)))
        self.init(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}
