// INTERIM signatures; the SVG path-data parser replaces this file.
/// A malformed SVG path-data string; `offset` is the character offset of the problem.
public struct PathDataError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var message: String
    public init(offset: Int, message: String) { self.offset = offset; self.message = message }
    public var description: String { "at character \(offset): \(message)" }
}
extension Path {
    /// Parses SVG 1.1 path data (every command, relative forms, elliptical arcs as exact conics).
    public init(svgPathData: String) throws {
        throw PathDataError(offset: 0, message: "not implemented in the interim")
    }
}
