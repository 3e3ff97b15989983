// FilterGraphRendering: a renderer that evaluates filter graphs itself
// rather than lending FilterServices to the CPU's FilterEvaluator: the GPU
// renderer runs them as passes on its own context. Its bytes are the
// evaluator's (the parity contract); what changes is where the work runs and
// that no other renderer or context is made for it. Scene decoding takes one
// through `SceneEnvironment.filterRenderer`, FilterContext through its
// renderer.

/// A renderer that evaluates filter graphs itself, byte-identical to FilterEvaluator.
package protocol FilterGraphRendering: AnyObject {
    /// The pixels of `node` in `region` (transparent outside its extent), every region asked of
    /// any node at most `maxPixels`.
    func renderFilter(_ node: FilterNode, in region: PixelRect, maxPixels: Int) throws -> Bitmap
}
