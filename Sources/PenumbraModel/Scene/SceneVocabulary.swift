// SceneVocabulary: every name the scene decoder knows, in one table: the
// document's keys, each op's keys, the shape objects of paths, each form of
// an `images` entry, each generator and filter, and the objects of text.
// The sets are the decoder's own (the `allowing:` sets its JSONReader.object
// calls check against), not copies, so the table cannot drift from what the
// decoder accepts. Tests compare it with docs/scene.schema.json, so the
// published schema cannot drift either.
//
// Every set holds all the keys an object may have, its discriminating key
// included ("op", "filter", "generator").

/// The names the scene decoder accepts, by kind of object.
package enum SceneVocabulary {
    /// The top-level document's keys.
    package static var document: Set<String> { SceneDecoder.documentKeys }

    /// Each op by name, with its keys ("op" included).
    package static var ops: [String: Set<String>] { SceneDecoder.opFields.mapValues { $0.union(["op"]) } }

    /// The shape kinds of a path object (each object holds exactly one of them).
    package static var shapeKinds: Set<String> { Set(SceneDecoder.shapeKeys) }

    /// The keys a path's shape object may have (the shape kinds and `roundedRect`'s `radius`).
    package static var shapeObject: Set<String> { Set(SceneDecoder.shapeKeys + ["radius"]) }

    /// The keys of `{ "arc": { ... } }`.
    package static var arc: Set<String> { SceneDecoder.arcKeys }

    /// Each object form of an `images` entry (besides the plain string), with its keys;
    /// generators are in `generators`.
    package static var imageForms: [String: Set<String>] {
        ["file": SceneDecoder.fileKeys, "named": SceneDecoder.namedKeys, "offscreen": SceneDecoder.offscreenKeys,
         "animation": SceneDecoder.animationKeys, "filterChain": SceneDecoder.filterChainKeys,
         "view": SceneDecoder.viewSnapshotKeys]
    }

    /// The traits any object form of an `images` entry may carry besides its own keys.
    package static var imageTraits: Set<String> { SceneDecoder.imageTraitKeys }

    /// A view's keys, every type's together (`drawView`'s `view`, `subviews`).
    package static var view: Set<String> {
        SceneDecoder.viewTypeKeys.values.reduce(SceneDecoder.viewCommonKeys) { $0.union($1) }
    }

    /// The view types (`type`).
    package static var viewTypes: Set<String> { Set(SceneDecoder.viewTypeKeys.keys) }

    /// A view's `layer` object.
    package static var viewLayer: Set<String> { SceneDecoder.viewLayerKeys }

    /// Each generator by name, with its keys ("generator" included).
    package static var generators: [String: Set<String>] { SceneDecoder.generatorKeys }

    /// Each filter by name, with its keys ("filter" included).
    package static var filters: [String: Set<String>] { SceneDecoder.filterParameters.mapValues { $0.union(["filter"]) } }

    /// drawText's objects: `run` (an element of `runs`), `font`, `frame`.
    package static var text: [String: Set<String>] {
        ["run": SceneDecoder.runFields, "font": SceneDecoder.fontFields, "frame": SceneDecoder.frameFields]
    }

    /// The object form of a `fonts` entry.
    package static var fontFile: Set<String> { SceneDecoder.fontFileKeys }
}
