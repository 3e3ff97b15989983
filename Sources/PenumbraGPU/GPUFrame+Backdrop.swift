// The GPU's `blurBackdrop` (BackdropBlur.swift): the replacement over the
// bounds the draw stream gives comes lowered (FilterPlan.backdrop: the blur's
// graph over a stand-in for the target) and its passes run here
// (GPUFilterEvaluator) with the current target's texture itself as their
// input, so nothing is read back: the blur's two passes read the target, the
// saturation and tint passes follow, and the stream's draw then writes the
// result 1:1 with `copy` under the shape's coverage times the clip, as on the
// CPU, as placed pixels (a 1:1 placement samples exactly its texels, as the
// CPU's does).
//
// A layer ended as a backdrop mask (BackdropMask.swift) goes the same way:
// its filter's pass reads the target over the draw's region (the layer's
// frame within the target and the clip), and the draw writes the result 1:1
// with `copy` through the composite's coverage x clip, its coverage the
// layer texture's alpha read by composite.comp itself
// (GPUFrame.CoverageKind.layerAlpha): nothing is copied or read back.

import PenumbraModel
import PenumbraCore

extension GPUFrame {
    /// Writes the target's pixels through the mask's filter (`replacement`, over the draw's
    /// region) with the alpha of `layer` (just popped; the caller gives it back) as the
    /// coverage, times the draw's clip.
    func maskBackdrop(_ replacement: FilterPlan, layer: GLTarget, _ draw: LoweredDraw) throws {
        guard let plan = draw.op else { return }
        let pixels = try backdropReplacement(replacement, plan.region)
        defer { lease.giveBack(pixels) }
        try self.draw(draw, placed: pixels.texture.name, alphaCoverage: layer.texture)
    }

    /// A backdrop's replacement (its passes over the current target) as a target placed at
    /// `bounds` (device grid, inside the target); the caller gives it back.
    func backdropReplacement(_ replacement: FilterPlan, _ bounds: PixelRect) throws -> GLTarget {
        let frame = target.frame
        let evaluator = GPUFilterEvaluator(programs: programs, shared: shared, lease: lease, images: images)
        let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let image = try evaluator.execute(replacement, input: GPUFilterImage(surface: target.surface, rect: whole, owned: false))
        // The replacement covers the whole request (the blur of the target's extent reaches past it).
        guard let surface = image.surface, image.rect == replacement.region, image.owned else {
            evaluator.release(image)
            throw RenderError("GPU: a backdrop's replacement covers \(image.rect), not the requested \(replacement.region)")
        }
        return GLTarget(surface: surface, texture: GLTexture(name: surface.name, rect: bounds))
    }
}
