// INTERIM signatures; the libpng-backed codec replaces this file.
/// A PNG that could not be read or written.
public struct PNGError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
/// PNG row filters (libpng's PNG_FILTER_*); `adaptive` lets libpng choose per row.
public enum PNGFilter: String, Sendable, Hashable, CaseIterable { case none, sub, up, average, paeth, adaptive }
/// Reads and writes PNG through libpng, behind a C shim that keeps setjmp/longjmp in C.
public enum PNGCodec {
    /// Decodes any PNG into premultiplied RGBA8; rejects images over `maxPixels` before allocating.
    public static func decode(_ data: [UInt8], maxPixels: Int = 100_000_000) throws -> Bitmap {
        throw PNGError("not implemented in the interim")
    }
    /// Encodes un-premultiplied (RGB when opaque), with an sRGB chunk and no timestamp.
    public static func encode(_ bitmap: Bitmap, compressionLevel: Int = 6, filter: PNGFilter = .adaptive) throws -> [UInt8] {
        throw PNGError("not implemented in the interim")
    }
}
