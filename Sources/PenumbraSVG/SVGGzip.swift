// `.svgz`: a document that starts with gzip's magic (1f 8b) is inflated with libdeflate before
// libxml2 sees it. libdeflate needs the output's size up front, so the buffer starts at the
// size the gzip trailer claims (never trusted beyond the cap) and doubles while libdeflate says
// it is too small, up to the document limit: a zip bomb stops at that many bytes, an error
// naming `<svg>`. Concatenated gzip members are inflated one after another into one document.
import CLibDeflate

enum SVGGzip {
    /// True when `bytes` start with gzip's magic number.
    static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b }

    /// The inflated bytes of a gzip stream, at most `maxBytes` of them.
    static func inflate(_ bytes: [UInt8], maxBytes: Int) throws -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            throw SVGError(element: "svg", message: "cannot allocate a gzip decompressor")
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var out: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            let member = try inflateMember(bytes, from: offset, decompressor: decompressor, maxBytes: maxBytes - out.count)
            out += member.output
            offset += member.consumed
            // Trailing zero padding (some writers pad to a block) ends the stream.
            if offset < bytes.count, !isGzip(Array(bytes[offset..<min(bytes.count, offset + 2)])) {
                guard bytes[offset...].allSatisfy({ $0 == 0 }) else {
                    throw SVGError(element: "svg", message: "the gzip stream has trailing bytes that are not gzip")
                }
                break
            }
        }
        return out
    }

    private static func inflateMember(_ bytes: [UInt8], from offset: Int, decompressor: OpaquePointer,
                                      maxBytes: Int) throws -> (output: [UInt8], consumed: Int) {
        let tooBig = SVGError(element: "svg", message: "the gzip-compressed document inflates to more than \(maxBytes) bytes, over the limit")
        guard maxBytes > 0 else { throw tooBig }
        // The trailer's ISIZE (the member's size mod 2^32), as a first guess only.
        var claimed = 0
        if bytes.count >= 18 {
            let n = bytes.count
            claimed = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
        }
        var capacity = min(maxBytes, max(4096, claimed))
        while true {
            var output = [UInt8](repeating: 0, count: capacity)
            var consumed = 0, produced = 0
            let result = bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    libdeflate_gzip_decompress_ex(decompressor, input.baseAddress! + offset, input.count - offset,
                                                  out.baseAddress, out.count, &consumed, &produced)
                }
            }
            switch result {
            case LIBDEFLATE_SUCCESS:
                output.removeSubrange(produced...)
                return (output, consumed)
            case LIBDEFLATE_INSUFFICIENT_SPACE:
                guard capacity < maxBytes else { throw tooBig }
                capacity = min(maxBytes, capacity * 2)
            default:
                throw SVGError(element: "svg", message: "the gzip-compressed document is corrupt")
            }
        }
    }
}
