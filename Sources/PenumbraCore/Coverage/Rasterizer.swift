// Rasterizer: what the planner needs to know of a shape's coverage without
// computing it: the pixels it can touch, and its edges clipped to them and
// rounded to 24.8 fixed point (CoverageEdges.swift), the one input of every
// coverage form. Accumulating those edges into coverage (masks, bands,
// rows) is the CPU renderer's work (PenumbraCPU/Coverage), and the GPU's
// (accumulate.comp.glsl); the planner asks for it through CoverageForm.

import PenumbraModel

/// The geometry of coverage: regions and edges of device shapes (package access).
package enum Rasterizer {

    /// The pixel region a shape can touch, within `bounds` (nil when it touches none).
    package static func region(of shape: DeviceShape, within bounds: PixelRect) -> PixelRect? {
        guard let b = shape.bounds else { return nil }
        let r = PixelRect(enclosing: b).intersection(bounds)
        return r.isEmpty ? nil : r
    }
}
