// FontCache: every face opened once per process, and the outlines and
// shapings of faces kept across renders. Faces are keyed by what they are
// made of: an installed file's path and index, or a scene font's bytes and
// index (so two scenes embedding the same font share it; these are kept
// within a byte budget, as a server sees new ones with every scene). Outlines (by face
// and glyph, in font units, so every size shares them) and shaping results
// (by face, text, direction and features, in font units) live in one store
// with a byte budget; when it is exceeded the least recently used half goes.
// Everything is behind Mutexes; a face's own work is behind its own lock.
import Foundation
import PenumbraModel
import Synchronization

/// A shaped glyph in font units.
struct ShapedGlyph: Hashable, Sendable {
    var glyph: UInt32
    /// Index of the first scalar of its cluster, within the shaped text.
    var cluster: Int
    var advance: Double
    var offsetX: Double
    var offsetY: Double
}

/// A cache with a byte budget that drops its least recently used half when full.
struct BudgetCache<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, cost: Int, used: Int)] = [:]
    private var clock = 0
    private(set) var bytes = 0
    let budget: Int

    init(budget: Int) { self.budget = budget }

    mutating func value(_ key: Key) -> Value? {
        guard let e = entries[key] else { return nil }
        clock += 1
        entries[key] = (e.value, e.cost, clock)
        return e.value
    }

    mutating func insert(_ value: Value, cost: Int, for key: Key) {
        clock += 1
        if let old = entries[key] { bytes -= old.cost }
        entries[key] = (value, cost, clock)
        bytes += cost
        if bytes > budget {
            let keep = entries.sorted { $0.value.used > $1.value.used }.prefix(entries.count / 2)
            entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            bytes = entries.values.reduce(0) { $0 + $1.cost }
        }
    }

    var count: Int { entries.count }
}

/// The process-wide font store.
final class FontCache: Sendable {
    static let shared = FontCache()

    private enum FaceKey: Hashable { case file(FontLocation) }

    struct ShapingKey: Hashable { var face: Int; var text: [Unicode.Scalar]; var rtl: Bool; var script: UInt32?; var features: [FontFeature] }
    struct OutlineKey: Hashable { var face: Int; var glyph: UInt32 }

    private let faces = Mutex<[FaceKey: FontFace]>([:])
    /// Scene fonts, by their bytes: bounded, since a server sees new ones with every scene.
    private let dataFaces = Mutex(BudgetCache<FontSource, FontFace>(budget: 256 << 20))
    private let outlines = Mutex(BudgetCache<OutlineKey, Path>(budget: 64 << 20))
    private let colorGlyphs = Mutex(BudgetCache<OutlineKey, ColorGlyph?>(budget: 64 << 20))
    private let shapings = Mutex(BudgetCache<ShapingKey, [ShapedGlyph]>(budget: 32 << 20))

    /// The face of a scene's font file (opened and checked on first use).
    func face(_ source: FontSource) throws(TextEngineError) -> FontFace {
        if let known = dataFaces.withLock({ $0.value(source) }) { return known }
        let face = try FontFace(data: source.bytes, index: source.index)
        dataFaces.withLock { $0.insert(face, cost: source.bytes.count * 2 + 4096, for: source) }
        return face
    }

    /// The face of an installed font file.
    func face(_ location: FontLocation) throws(TextEngineError) -> FontFace {
        if let known = faces.withLock({ $0[.file(location)] }) { return known }
        guard let data = FileManager.default.contents(atPath: location.file) else {
            throw TextEngineError("cannot read the installed font \(location.file)")
        }
        let face: FontFace
        do { face = try FontFace(data: [UInt8](data), index: location.index) } catch {
            throw TextEngineError("the installed font \(location.file) is unusable: \(error.message)")
        }
        return faces.withLock { $0[.file(location)] ?? { $0[.file(location)] = face; return face }(&$0) }
    }

    /// A glyph's outline in font units, cached.
    func outline(_ face: FontFace, _ glyph: UInt32) -> Path {
        let key = OutlineKey(face: face.id, glyph: glyph)
        if let path = outlines.withLock({ $0.value(key) }) { return path }
        let path = face.loadOutline(glyph)
        outlines.withLock { $0.insert(path, cost: 64 + path.elements.count * 56, for: key) }
        return path
    }

    /// A colour glyph, cached.
    func colorGlyph(_ face: FontFace, _ glyph: UInt32) -> ColorGlyph? {
        let key = OutlineKey(face: face.id, glyph: glyph)
        if let known = colorGlyphs.withLock({ $0.value(key) }) { return known }
        let g = face.loadColorGlyph(glyph)
        colorGlyphs.withLock { $0.insert(g, cost: 64 + (g.map { $0.image.bitmap.pixels.count } ?? 0), for: key) }
        return g
    }

    /// The longest text (in scalars) whose shaping is kept.
    static let longestCachedShaping = 4096

    /// HarfBuzz's shaping of `text`, cached (texts up to `longestCachedShaping` scalars).
    func shape(_ face: FontFace, _ text: [Unicode.Scalar], rtl: Bool, script: UInt32? = nil, features: [FontFeature]) -> [ShapedGlyph] {
        let key = ShapingKey(face: face.id, text: text, rtl: rtl, script: script, features: features)
        if let glyphs = shapings.withLock({ $0.value(key) }) { return glyphs }
        let glyphs = Shaper.shape(face, text, rtl: rtl, script: script, features: features)
        // A cancelled shaping may be partial: it is not kept for the next request; nor is a long
        // text's (one request's 100,000 characters would hold megabytes that no other asks for).
        if RenderCancellation.currentIsCancelled || text.count > FontCache.longestCachedShaping { return glyphs }
        shapings.withLock { $0.insert(glyphs, cost: 64 + text.count * 4 + glyphs.count * 40, for: key) }
        return glyphs
    }
}
