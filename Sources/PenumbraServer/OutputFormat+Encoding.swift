// OutputFormat+Encoding: the one place where the server turns a rendered
// bitmap into the bytes a client receives, on PenumbraIO's encoders: PNG,
// JPEG (4:2:0, transparency flattened on white) and WebP (lossy, or lossless
// when asked).
import Penumbra
import PenumbraRequests

extension OutputFormat {
    /// Encodes the bitmap; `quality` (1...100) applies to JPEG and lossy WebP, `lossless` to WebP.
    func encode(_ bitmap: Bitmap, quality: Int, lossless: Bool = false) throws -> [UInt8] {
        switch self {
        case .png: return try PNGEncoder().encode(bitmap)
        case .jpeg: return try JPEGEncoder(quality: quality).encode(bitmap)
        case .webp: return try WebPEncoder(quality: quality, lossless: lossless).encode(bitmap)
        }
    }
}
