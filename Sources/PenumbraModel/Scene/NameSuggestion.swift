// NameSuggestion: "did you mean" for unknown names. An unknown op or key is
// most often a typo ("filll", "colour") or a name from another API
// ("fillRect", "blurRadius"), so the error names the nearest known name and
// lists the known ones: `unknown key "blurRadius" (did you mean "blur"?
// known keys: blur, color, offset, op)`.
//
// Nearness is the optimal-string-alignment distance (Levenshtein plus the
// swap of two neighbours) between the names lowercased. The nearest name is
// suggested when it is within about a third of the typed name's length, or
// when one name starts with the other ("fillRect" and "fill"); otherwise
// only the list is given, since a far-fetched guess misleads more than it
// helps. Ties go to the alphabetically first name, so messages are stable.

/// Suggestions for unknown names in scenes.
package enum NameSuggestion {
    /// The optimal-string-alignment edit distance between `a` and `b`, compared by Unicode scalars,
    /// case-insensitively: insertions, deletions, substitutions and swaps of adjacent scalars each cost 1.
    package static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a.lowercased().unicodeScalars), t = Array(b.lowercased().unicodeScalars)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        // Three rows of the dynamic programme: i - 2, i - 1 and i.
        var before = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[t.count]
    }

    /// The known name nearest to `name`, when it is near enough to be a likely meaning; nil otherwise.
    package static func nearest<S: Sequence<String>>(to name: String, among known: S) -> String? {
        let typed = name.lowercased()
        guard !typed.isEmpty else { return nil }
        let threshold = max(1, min(4, (typed.unicodeScalars.count + 2) / 3))
        var best: (name: String, distance: Int)?
        for candidate in known {
            let d = distance(name, candidate)
            guard d > 0 || candidate != name else { continue }
            let lower = candidate.lowercased()
            let related = lower.count >= 2 && (typed.hasPrefix(lower) || lower.hasPrefix(typed))
            guard d <= threshold || related else { continue }
            if let b = best, b.distance < d || (b.distance == d && b.name < candidate) { continue }
            best = (candidate, d)
        }
        return best?.name
    }

    /// `unknown KIND "name" (did you mean "near"? known KINDs: a, b, c)`; `plural` names the list.
    /// `exclude` are names not worth suggesting (keys the object already has).
    package static func unknownNameMessage<S: Sequence<String>>(_ kind: String, plural: String, name: String, known: S,
                                                                exclude: Set<String> = []) -> String {
        let sorted = Set(known).sorted()
        let candidates = sorted.filter { !exclude.contains($0) }
        var detail = ""
        if let near = nearest(to: name, among: candidates) { detail = "did you mean \(SceneText.quote(near))? " }
        detail += "known \(plural): " + (sorted.isEmpty ? "none" : sorted.joined(separator: ", "))
        return "unknown \(kind) \(SceneText.quote(name)) (\(detail))"
    }
}
