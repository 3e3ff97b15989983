// ResourceLimits: the configurable bounds of SCENE_FORMAT.md ("Limits and
// errors"), checked by the decoder before anything large is allocated, so a
// hostile scene is rejected instead of exhausting memory or time.

/// Bounds on what one scene may ask for; the defaults are the scene format's.
public struct ResourceLimits: Hashable, Sendable {
    /// Most pixels of the canvas, of a layer (layers are canvas-sized, so the canvas check
    /// covers them) and of each image (checked from the PNG header before decoding).
    public var maxPixels: Int
    /// Most ops in the `ops` array.
    public var maxOps: Int
    /// Most path elements (move, line, curve, close) over all paths of the scene, after parsing.
    public var maxPathSegments: Int
    /// Deepest nesting of `save` and `beginLayer` together.
    public var maxNesting: Int
    /// Most entries of one `setLineDash` `lengths` array.
    public var maxDashEntries: Int
    /// The decoded-pixel budget: the pixels of every entry of `images` added up (an animation's
    /// frames all counted), checked from file headers before anything is allocated.
    public var maxImagePixels: Int = 400_000_000
    /// Most characters (Unicode scalars) of text in one `drawText` op.
    public var maxTextCharacters: Int

    /// Limits with the scene format's defaults unless given.
    public init(maxPixels: Int = 100_000_000, maxOps: Int = 100_000, maxPathSegments: Int = 1_000_000,
                maxNesting: Int = 64, maxDashEntries: Int = 1_024, maxTextCharacters: Int = 100_000) {
        self.maxPixels = maxPixels; self.maxOps = maxOps; self.maxPathSegments = maxPathSegments
        self.maxNesting = maxNesting; self.maxDashEntries = maxDashEntries; self.maxTextCharacters = maxTextCharacters
    }

    /// The scene format's defaults: 100 megapixels, 100,000 ops, 1,000,000 path segments,
    /// nesting 64, 1,024 dash entries.
    public static let `default` = ResourceLimits()
}
