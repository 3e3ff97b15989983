// RenderBudget: the memory a render will need, worked out from sizes before
// anything is allocated, against the budget of ResourceLimits.
//
// The walk is the one both renderers execute (DrawSequence), so the
// surfaces it counts are theirs: the canvas and the scene's decoded images
// for the whole render, each open layer from its beginLayer to its
// composite, and per draw what that draw allocates and frees again: its
// coverage and its clip's over its region (a byte a pixel), a shadow's plane
// (the caster's alpha and the blur's passes), a backdrop blur's planes, a
// backdrop mask's filter planes and coverage (BackdropMask.swift). The peak
// of their sum must fit `maxRenderBytes`; the first step that would
// not is named (`ops[1]: the layer needs 16003 x 16003 pixels ...`). A layer
// is also held to `maxPixels`, as the canvas and images are.
//
// The walk itself is the planner's (PenumbraCore's RenderBudget+Check.swift);
// this is the budget and its per-pixel figures, which scene decoding charges
// images against before the walk.
//
// The figures are per pixel and deliberately round (a premultiplied RGBA8
// surface is 4 bytes; a shadow plane 5: its alpha and the blur's 32-bit
// intermediate; a backdrop blur 12: three RGBA planes); they bound what the
// CPU renderer allocates, and the GPU's textures are the same surfaces.

/// The surfaces a display list's render keeps alive at once, checked against a byte budget.
package struct RenderBudget {
    /// Bytes of one pixel of a surface (premultiplied RGBA8).
    package static let bytesPerPixel = 4
    /// Bytes a shadow's plane costs per pixel: its caster's U8 alpha and the blur's UInt32
    /// intermediate (the CPU renderer's ShadowScratch).
    package static let shadowBytesPerPixel = 5
    /// Bytes a backdrop blur costs per pixel of its bounds: input, pass and output planes.
    package static let backdropBytesPerPixel = 12
    /// Bytes a layer ended as a backdrop mask costs per pixel of its frame: the filter's input
    /// and output planes and the coverage taken from the layer's alpha.
    package static let backdropMaskBytesPerPixel = 9

    /// The bytes of a surface of `pixels` pixels.
    package static func surfaceBytes(pixels: Int) -> Int { pixels.multipliedReportingOverflow(by: bytesPerPixel).partialValue }
    /// The bytes decoded images of `pixels` pixels hold while drawn: their pixels and the mip
    /// levels a draw at less than half their size builds (a third more at most).
    package static func imageBytes(pixels: Int) -> Int { surfaceBytes(pixels: pixels) / 3 * 4 }

    package let limits: ResourceLimits
    /// What the scene's decoded images hold.
    package let imageBytes: Int

    package init(limits: ResourceLimits, imageBytes: Int) { self.limits = limits; self.imageBytes = imageBytes }
}
