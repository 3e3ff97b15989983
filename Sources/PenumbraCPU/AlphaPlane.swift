// AlphaPlane: a single-channel U8 plane, the surface a shadow's alpha is
// rendered into and blurred on (SCENE_FORMAT.md, Shadows: the op's coverage
// times its paint's alpha, over a plane large enough that nothing leaves it;
// docs/ARITHMETIC.md: the caster's alpha is stored as U8 before the blur).
// Row-major with no padding; values outside the plane read as 0. The caller
// sizes it: the canvas region shifted by the shadow offset and grown by the
// kernel radius on every side.

import PenumbraModel
import PenumbraCore

/// A row-major plane of U8 alpha values (255 is 1), `width * height` of them.
package struct AlphaPlane: Hashable, Sendable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// `width * height` values, rows top to bottom, no padding: `values[y * width + x]`.
    package var values: [UInt8]

    /// A plane of zeros.
    package init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative plane size")
        self.width = width; self.height = height
        values = [UInt8](repeating: 0, count: width * height)
    }

    /// Wraps existing values; `values.count` must be `width * height`.
    package init(width: Int, height: Int, values: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative plane size")
        precondition(values.count == width * height, "value count does not match the size")
        self.width = width; self.height = height; self.values = values
    }

    /// The value at (x, y); reading outside the plane gives 0 (the blur's edge rule), writing
    /// outside it is a programming error.
    package subscript(x: Int, y: Int) -> UInt8 {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            return values[y * width + x]
        }
        set {
            precondition(x >= 0 && y >= 0 && x < width && y < height, "write outside the plane")
            values[y * width + x] = newValue
        }
    }

    /// True when the plane has no pixels.
    package var isEmpty: Bool { width == 0 || height == 0 }
}
