// Bitmap: the one pixel buffer of the project: 8-bit RGBA, premultiplied alpha,
// rows top to bottom with no padding. Renderers write it; PNG I/O reads and
// writes it (un-premultiplying only at the file boundary).

/// An 8-bit premultiplied RGBA pixel buffer, rows top to bottom, 4 bytes a pixel.
public struct Bitmap: Hashable, Sendable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels (the number of rows).
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A, premultiplied.
    public var pixels: [UInt8]
    /// Mip levels built from these pixels, shared by copies; not part of the value (MipCache).
    package let mipCache = MipCache()

    /// A transparent bitmap.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0)
        self.width = width; self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }
    /// Wraps existing premultiplied pixels; `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel count does not match the size")
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// The premultiplied pixel at (x, y).
    public subscript(x: Int, y: Int) -> SIMD4<UInt8> {
        get {
            let i = (y * width + x) * 4
            return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue[0]; pixels[i + 1] = newValue[1]; pixels[i + 2] = newValue[2]; pixels[i + 3] = newValue[3]
        }
    }

    public static func == (a: Bitmap, b: Bitmap) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels == b.pixels
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width); hasher.combine(height); hasher.combine(pixels)
    }

    /// True when every pixel's alpha is 255. ANDs the pixels together 8 bytes (2 pixels) at a
    /// time and looks at the alpha bytes every 4 KiB, so a translucent image stops early.
    public var isOpaque: Bool {
        pixels.withUnsafeBytes { raw in
            let n = raw.count, alphas: UInt64 = 0xFF00_0000_FF00_0000
            @inline(__always) func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            var i = 0
            while i + 32 <= n {
                let end = min(n & ~31, i + 4096)
                var all = UInt64.max
                while i < end { all &= word(i) & word(i + 8) & word(i + 16) & word(i + 24); i += 32 }
                if all & alphas != alphas { return false }
            }
            while i < n { if raw[i + 3] != 255 { return false }; i += 4 }
            return true
        }
    }
}

/// Rounds half up, as every rounding in the scene format does.
@inlinable package func roundHalfUp(_ x: Double) -> Double { (x + 0.5).rounded(.down) }

/// Premultiplies one straight-alpha channel value: round(c * a / 255).
@inlinable package func premultiply(_ c: UInt8, alpha a: UInt8) -> UInt8 {
    UInt8((Int(c) * Int(a) * 2 + 255) / 510)
}

/// Un-premultiplies one channel value: round(c * 255 / a), 0 when a is 0.
@inlinable package func unpremultiply(_ c: UInt8, alpha a: UInt8) -> UInt8 {
    guard a != 0 else { return 0 }
    return UInt8(min(255, (Int(c) * 255 * 2 + Int(a)) / (2 * Int(a))))
}

/// The premultiplied RGBA8 texel at byte offset `p` as floats in 0...1: each byte divided by
/// 255. The one byte-to-float rule of both renderers (destination reads, image and layer texels).
@inlinable package func unitTexel(_ pixels: UnsafeBufferPointer<UInt8>, at p: Int) -> SIMD4<Float> {
    SIMD4<Float>(Float(pixels[p]), Float(pixels[p + 1]), Float(pixels[p + 2]), Float(pixels[p + 3])) / 255
}
