// Penumbra: the public face of the package. It re-exports the model (geometry,
// paths, the graphics context, images, scenes) and the core (the planner both
// renderers execute; `Scene.displayList()`) and adds what needs a
// renderer: ImageRenderer, eager image filters and renderer selection.
@_exported import PenumbraModel
@_exported import PenumbraCore
