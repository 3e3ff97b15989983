// PenumbraUI: UIKit's view layer over Penumbra's drawing. It re-exports
// Penumbra (the context, images, renderers) and PenumbraText (fonts and
// attributed text, which labels take), so `import PenumbraUI` is enough to
// build, style and render a view tree. The model the views snapshot into,
// its lowering and its damage live in the model (Sources/PenumbraModel/Views),
// where scenes reach them too.
@_exported import Penumbra
@_exported import PenumbraText
