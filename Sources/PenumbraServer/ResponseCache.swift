// ResponseCache: rendered responses kept in memory under a byte budget,
// keyed by content (a hash of the body, the canonical query and the
// renderer's version), so identical requests from any client share an entry
// and a changed renderer never serves stale pixels. An entry also lists the
// `--assets` files its render resolved, with their fingerprints: the caller
// serves it only while they are unchanged (RenderEndpoint). Least recently
// used entries go first when the budget is exceeded; an entry larger than
// the whole budget is not kept. Eviction scans for the oldest entry: the
// cache holds rendered images, so entries are few and large, and a scan is
// cheaper than keeping a second structure in step.
import PenumbraModel
import PenumbraCore
import Synchronization

/// A rendered response worth keeping.
struct CachedResponse: Sendable {
    var bytes: [UInt8]
    var contentType: String
    var backend: String
    /// The response's ETag (the key, and the asset files' fingerprints when it read any).
    var etag: String
    /// The asset files the render resolved and what they were.
    var assets: [AssetAccessLog.Entry]
    /// The render's warnings, served again with every hit (X-Penumbra-Warnings).
    var warnings: [RenderWarning] = []
}

/// A byte-budgeted LRU cache of responses; thread-safe.
final class ResponseCache: Sendable {
    private struct State {
        var entries: [String: (response: CachedResponse, lastUse: UInt64)] = [:]
        var bytes = 0
        var tick: UInt64 = 0
    }
    let budget: Int
    private let state = Mutex(State())

    init(budget: Int) { self.budget = max(0, budget) }

    /// The entry for `key`, now the most recently used.
    func get(_ key: String) -> CachedResponse? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.tick += 1
            state.entries[key] = (entry.response, state.tick)
            return entry.response
        }
    }

    /// Keeps `response` under `key`, evicting the least recently used entries over the budget.
    func put(_ key: String, _ response: CachedResponse) {
        guard response.bytes.count <= budget else { return }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.response.bytes.count }
            state.tick += 1
            state.entries[key] = (response, state.tick)
            state.bytes += response.bytes.count
            while state.bytes > budget, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.bytes -= oldest.value.response.bytes.count
            }
        }
    }

    /// The bytes held now.
    var bytes: Int { state.withLock { $0.bytes } }
    /// The entries held now.
    var count: Int { state.withLock { $0.entries.count } }
}
