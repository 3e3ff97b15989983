// CPURasterizer: the CPU renderer's coverage, made on the planner's threads.
// The planner (PenumbraCore) decides regions and hands each shape to the
// renderer's rasterizer (CoverageForm.rasterized); this one gives a mask
// (CoverageMask: rows of spans) for a small shape, a shadow caster or a clip
// chain, and for a shape whose region has at least `bandsFrom` pixels its
// edges sorted by band (ShapeBands), resolved band by band on every core as
// the compositor writes them. Every form is the one accumulation of the same
// edges (Accumulator.swift), so the bytes do not depend on the choice.

import PenumbraModel
import PenumbraCore

/// Masks, or bands from `bandsFrom` pixels (nil: masks only).
package struct CPURasterizer: CoverageRasterizer {
    /// The region size from which a shape is planned as bands; nil plans masks only.
    package let bandsFrom: Int?

    package func coverage(of shape: DeviceShape, in region: PixelRect) -> any RasterizedCoverage {
        if let bandsFrom, region.area >= bandsFrom { return ShapeBands(shape: shape, region: region) }
        return Rasterizer.coverage(of: shape, in: region)
    }

    /// A mask: the caster is rendered into a plane and blurred, never composited as it resolves.
    package func casterCoverage(of shape: DeviceShape, in region: PixelRect) -> any RasterizedCoverage {
        Rasterizer.coverage(of: shape, in: region)
    }

    package func clipCoverage(ofClip index: Int, in clips: [ClipNode], offset: Point, within bounds: PixelRect) -> (any RasterizedCoverage)? {
        Self.mask(ofClip: index, in: clips, offset: offset, within: bounds)
    }

    /// The coverage of a clip chain (the node times its ancestors), translated by `offset`,
    /// within `bounds`; nil when it covers nothing there.
    package static func mask(ofClip index: Int, in clips: [ClipNode], offset: Point = .zero, within bounds: PixelRect) -> CoverageMask? {
        let node = clips[index]
        let shape = offset == .zero ? node.shape : node.shape.offsetBy(offset)
        guard let region = Rasterizer.region(of: shape, within: bounds) else { return nil }
        var mask = Rasterizer.coverage(of: shape, in: region)
        if let parent = node.parent {
            guard let p = Self.mask(ofClip: parent, in: clips, offset: offset, within: bounds) else { return nil }
            mask = mask.multiplied(by: p)
        }
        return mask
    }
}

extension CoverageMask: RasterizedCoverage {}
extension ShapeBands: RasterizedCoverage {}

extension CoverageForm {
    /// Masks for every shape.
    package static let masks = CoverageForm.rasterized(CPURasterizer(bandsFrom: nil))
    /// Bands for a shape whose region has at least `minimumPixels` pixels, masks for smaller ones:
    /// a small shape's mask is rasterized ahead on the planning threads, a large shape is resolved
    /// band by band on every core, composited as it is resolved.
    package static func bands(minimumPixels: Int) -> CoverageForm { .rasterized(CPURasterizer(bandsFrom: minimumPixels)) }
    /// The CPU renderer's form: bands from the size where its composite splits rows over cores.
    package static let cpu = CoverageForm.bands(minimumPixels: 48 * 1024)
}

extension OpPlan {
    /// The geometry's coverage as a mask (nil for bands, edges, or coverage 1 everywhere).
    package var coverage: CoverageMask? { rasterized as? CoverageMask }
    /// The geometry's coverage as bands resolved while compositing.
    package var bands: ShapeBands? { rasterized as? ShapeBands }
}

extension ShadowPlan {
    /// The caster's coverage as a mask (nil with edges, or coverage 1 over the plane).
    package var casterCoverage: CoverageMask? { casterRasterized as? CoverageMask }
}

extension ClipPlan {
    /// The chain's coverage as a mask (nil in the edges form and for the clip that keeps nothing).
    package var mask: CoverageMask? { rasterized as? CoverageMask }
}
