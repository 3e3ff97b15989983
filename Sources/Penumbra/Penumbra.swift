// Penumbra: the public face of the package. It re-exports the core (geometry,
// paths, the graphics context, images, scenes) and adds what needs a
// renderer: ImageRenderer, eager image filters and renderer selection.
@_exported import PenumbraCore
