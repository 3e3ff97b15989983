// ResourceLimits: the configurable bounds of SCENE_FORMAT.md ("Limits and
// errors") and the render's budget, checked before anything large is
// allocated, so a hostile scene is rejected instead of exhausting memory or
// time.
//
// Two kinds of bound live here. Counts of what a scene says (ops, path
// segments, nesting, dash entries, characters) are checked by the decoder as
// it reads. The budget is what rendering the scene costs, whatever the ops
// look like: the bytes of every surface alive at once (the canvas, open
// layers, shadow and blur planes, filter intermediates, decoded images and
// every frame of an animation: `maxRenderBytes`) and the geometry of the
// whole scene (points of flattened paths and stroke outlines, where dash
// pieces end up too: `maxGeometryPoints`). Both are per render, not per op:
// a thousand strokes that are each fine cannot add up to gigabytes.

/// Bounds on what one scene may ask for and what rendering it may cost; the defaults are the
/// scene format's.
public struct ResourceLimits: Hashable, Sendable {
    /// Most pixels of the canvas, of a layer and of each image (checked from the file's header
    /// before decoding).
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
    /// Most views in one scene: the views of every `drawView` tree and view snapshot image
    /// together (default 10,000). Trees are at most 64 levels deep whatever this is.
    public var maxViews: Int = 10_000
    /// The render's memory budget in bytes: every surface alive at once (canvas, open layers,
    /// shadow and blur planes, filter intermediates, decoded images and animation frames),
    /// checked from sizes before anything is allocated (default 1 GiB).
    public var maxRenderBytes: Int = 1 << 30
    /// The scene's geometry budget: points of all flattened paths and stroke outlines together,
    /// each stroke contour counting four more for its own storage (default 2^22: 64 MiB of
    /// points, a few times that while strokes are outlined and placed).
    public var maxGeometryPoints: Int = 1 << 22

    /// Limits with the scene format's defaults unless given.
    public init(maxPixels: Int = 100_000_000, maxOps: Int = 100_000, maxPathSegments: Int = 1_000_000,
                maxNesting: Int = 64, maxDashEntries: Int = 1_024, maxTextCharacters: Int = 100_000) {
        self.maxPixels = maxPixels; self.maxOps = maxOps; self.maxPathSegments = maxPathSegments
        self.maxNesting = maxNesting; self.maxDashEntries = maxDashEntries; self.maxTextCharacters = maxTextCharacters
    }

    /// The scene format's defaults: 100 megapixels, 100,000 ops, 1,000,000 path segments,
    /// nesting 64, 1,024 dash entries, and a budget of 1 GiB and 2^22 geometry points a render.
    public static let `default` = ResourceLimits()
}
