// ImageOrientation: UIImage.Orientation and the EXIF orientation tag. The
// pixels of an image are always stored upright: a file's orientation (or
// the scene's override) is applied once, on load, by `Bitmap.oriented(_:)`,
// exactly as UIKit draws an image with that orientation: `right` is stored
// turned 90 degrees anticlockwise and drawn turned clockwise, and so on.

/// How the stored pixels are turned to be upright, as `UIImage.Orientation` and the EXIF
/// Orientation tag; raw values are the scene format's names.
///
/// Decoding applies it once, on load (``Bitmap/oriented(_:)``): an image's pixels are always
/// stored upright and its size is the upright size, as UIKit draws it.
public enum ImageOrientation: String, Hashable, Sendable, CaseIterable {
    /// The stored pixels are upright (`UIImage.Orientation.up`, EXIF 1).
    case up
    /// The stored pixels are turned 180° to be upright (`UIImage.Orientation.down`, EXIF 3).
    case down
    /// The stored pixels are turned 90° anticlockwise to be upright (`UIImage.Orientation.left`, EXIF 8).
    case left
    /// The stored pixels are turned 90° clockwise to be upright (`UIImage.Orientation.right`, EXIF 6).
    case right
    /// The stored pixels are mirrored horizontally to be upright (`UIImage.Orientation.upMirrored`, EXIF 2).
    case upMirrored
    /// The stored pixels are mirrored vertically to be upright (`UIImage.Orientation.downMirrored`, EXIF 4).
    case downMirrored
    /// The stored pixels are mirrored horizontally, then turned 90° anticlockwise, to be upright
    /// (`UIImage.Orientation.leftMirrored`, EXIF 5).
    case leftMirrored
    /// The stored pixels are mirrored horizontally, then turned 90° clockwise, to be upright
    /// (`UIImage.Orientation.rightMirrored`, EXIF 7).
    case rightMirrored

    /// The orientation of an EXIF Orientation value 1...8 (nil for anything else).
    public init?(exif value: Int) {
        let table: [ImageOrientation] = [.up, .upMirrored, .down, .downMirrored, .leftMirrored, .right, .rightMirrored, .left]
        guard (1...8).contains(value) else { return nil }
        self = table[value - 1]
    }

    /// True when the upright image's width is the stored height.
    public var swapsAxes: Bool { [.left, .right, .leftMirrored, .rightMirrored].contains(self) }
}

extension Bitmap {
    /// The pixels turned upright for `orientation` (UIKit's drawing of an image with it).
    public func oriented(_ orientation: ImageOrientation) -> Bitmap {
        if orientation == .up { return self }
        let w = width, h = height
        let (ow, oh) = orientation.swapsAxes ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                // Where stored pixel (x, y) lands upright.
                for y in 0..<h {
                    for x in 0..<w {
                        let (dx, dy): (Int, Int)
                        switch orientation {
                        case .up: (dx, dy) = (x, y)
                        case .upMirrored: (dx, dy) = (w - 1 - x, y)
                        case .down: (dx, dy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (dx, dy) = (x, h - 1 - y)
                        case .right: (dx, dy) = (h - 1 - y, x)
                        case .left: (dx, dy) = (y, w - 1 - x)
                        case .leftMirrored: (dx, dy) = (y, x)
                        case .rightMirrored: (dx, dy) = (h - 1 - y, w - 1 - x)
                        }
                        let s = (y * w + x) * 4, d = (dy * ow + dx) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return Bitmap(width: ow, height: oh, pixels: out)
    }
}

/// Reading the one EXIF tag the decoders need.
public enum EXIF {
    /// The Orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF block (starting "II*\0" or
    /// "MM\0*"); an "Exif\0\0" prefix is skipped. Nil when absent or malformed.
    public static func orientation(tiff block: [UInt8]) -> ImageOrientation? {
        var b = block[...]
        if b.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) { b = b.dropFirst(6) }
        let t = Array(b)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for i in 0..<min(count, 1000) {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
                return ImageOrientation(exif: value)
            }
        }
        return nil
    }
}
