// Styles: presentation attributes, `<style>` sheets (type, class, id, universal and attribute
// selectors, `:first-child`, descendant and child combinators, specificity, `!important`) and
// `style` attributes, cascaded into each element's `declared` table.

/// The properties that presentation attributes and CSS may set.
let svgProperties: Set<String> = [
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "color",
    "display", "visibility", "clip-path", "clip-rule", "stop-color", "stop-opacity", "mix-blend-mode",
    "isolation", "font-size", "overflow", "mask", "filter", "paint-order", "marker-start", "marker-mid",
    "marker-end", "marker", "transform", "transform-origin", "image-rendering", "shape-rendering",
]

/// The properties only CSS may set (`style` and sheets): they have no presentation attribute.
let cssOnlyProperties: Set<String> = ["mix-blend-mode", "isolation", "marker"]

struct CSSDeclaration { var name: String; var value: String; var important: Bool }

/// One compound selector: type (nil: any), id, classes, attributes, `:first-child`.
struct CSSCompound {
    var type: String?
    var id: String?
    var classes: [String] = []
    var attributes: [(name: String, value: String?)] = []
    var firstChild = false
    var unsupported = false

    func matches(_ n: SVGNode) -> Bool {
        if unsupported { return false }
        if let type, type != n.name { return false }
        if let id, n.attributes["id"] != id { return false }
        for c in classes where !n.classes.contains(Substring(c)) { return false }
        for a in attributes {
            guard let v = n.attributes[a.name] else { return false }
            if let want = a.value, want != v { return false }
        }
        if firstChild && n.index != 0 { return false }
        return true
    }
    var specificity: Int {
        (id != nil ? 10000 : 0) + (classes.count + attributes.count + (firstChild ? 1 : 0)) * 100 + (type != nil ? 1 : 0)
    }
}

/// A complex selector: compounds joined by descendant (" ") or child (">") combinators.
struct CSSSelector {
    var parts: [(compound: CSSCompound, combinator: Character)] // combinator to the previous part
    var specificity: Int { parts.reduce(0) { $0 + $1.compound.specificity } }

    func matches(_ n: SVGNode) -> Bool { match(n, parts.count - 1) }
    private func match(_ n: SVGNode, _ i: Int) -> Bool {
        guard parts[i].compound.matches(n) else { return false }
        if i == 0 { return true }
        if parts[i].combinator == ">" {
            guard let p = n.parent else { return false }
            return match(p, i - 1)
        }
        var p = n.parent
        while let q = p { if match(q, i - 1) { return true }; p = q.parent }
        return false
    }
}

struct CSSRule { var selector: CSSSelector; var declarations: [CSSDeclaration]; var order: Int }

enum CSSParser {
    /// Declarations of a `style` attribute or a rule body.
    static func declarations(_ text: Substring) -> [CSSDeclaration] {
        var out: [CSSDeclaration] = []
        for part in stripComments(String(text)).split(separator: ";") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            let name = String(part[..<colon]).trimmingCharacters().lowercased()
            var value = String(part[part.index(after: colon)...]).trimmingCharacters()
            var important = false
            if let r = value.range(of: "!important") ?? value.range(of: "! important") {
                important = true
                value = String(value[..<r.lowerBound]).trimmingCharacters()
            }
            if !name.isEmpty { out.append(CSSDeclaration(name: name, value: value, important: important)) }
        }
        return out
    }

    static func stripComments(_ s: String) -> String {
        guard s.contains("/*") else { return s }
        var out = ""
        var rest = Substring(s)
        while let start = rest.range(of: "/*") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "*/") else { return out }
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    static func sheet(_ text: String, order: inout Int) -> [CSSRule] {
        var rules: [CSSRule] = []
        // Statements without a block (@import, @charset) end at their semicolon.
        var text = stripComments(text)
        while let at = text.range(of: "@import") ?? text.range(of: "@charset") {
            let end = text[at.lowerBound...].firstIndex(where: { $0 == ";" || $0 == "\n" }) ?? text.endIndex
            text.removeSubrange(at.lowerBound..<end)
        }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let prelude = rest[..<open].trimmingCharacters(in: " \t\r\n")
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let body = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if prelude.hasPrefix("@") { continue }
            let decls = declarations(body)
            for sel in prelude.split(separator: ",") {
                guard let s = selector(String(sel).trimmingCharacters()) else { continue }
                rules.append(CSSRule(selector: s, declarations: decls, order: order)); order += 1
            }
        }
        return rules
    }

    static func selector(_ text: String) -> CSSSelector? {
        var parts: [(CSSCompound, Character)] = []
        var combinator: Character = " "
        var chars = Array(text)
        var i = 0
        chars.append(" ")
        var current = ""
        func flush() -> Bool {
            guard !current.isEmpty else { return true }
            guard let c = compound(current) else { return false }
            parts.append((c, combinator)); combinator = " "; current = ""
            return true
        }
        var inBracket = false
        while i < chars.count {
            let c = chars[i]
            if c == "[" { inBracket = true }
            if c == "]" { inBracket = false }
            if !inBracket && (c == " " || c == ">" || c == "+" || c == "~") {
                guard flush() else { return nil }
                if c != " " {
                    if c != ">" { return nil } // sibling combinators: not supported
                    combinator = ">"
                }
            } else {
                current.append(c)
            }
            i += 1
        }
        guard !parts.isEmpty else { return nil }
        return CSSSelector(parts: parts.map { (compound: $0.0, combinator: $0.1) })
    }

    static func compound(_ s: String) -> CSSCompound? {
        var c = CSSCompound()
        var chars = Substring(s)
        func ident() -> String {
            var out = ""
            while let f = chars.first, f.isLetter || f.isNumber || f == "-" || f == "_" { out.append(f); chars = chars.dropFirst() }
            return out
        }
        if chars.first == "*" { chars = chars.dropFirst() } else if let f = chars.first, f.isLetter {
            c.type = ident()
        }
        while let f = chars.first {
            chars = chars.dropFirst()
            switch f {
            case "#": c.id = ident()
            case ".": c.classes.append(ident())
            case "[":
                guard let end = chars.firstIndex(of: "]") else { return nil }
                let inner = chars[..<end]; chars = chars[chars.index(after: end)...]
                if let eq = inner.firstIndex(of: "=") {
                    var name = String(inner[..<eq]).trimmingCharacters()
                    if name.hasSuffix("~") || name.hasSuffix("|") || name.hasSuffix("^") || name.hasSuffix("$") || name.hasSuffix("*") {
                        c.unsupported = true; name.removeLast()
                    }
                    var v = String(inner[inner.index(after: eq)...]).trimmingCharacters()
                    if v.count >= 2, (v.first == "\"" && v.last == "\"") || (v.first == "'" && v.last == "'") { v = String(v.dropFirst().dropLast()) }
                    c.attributes.append((name, v))
                } else {
                    c.attributes.append((String(inner).trimmingCharacters(), nil))
                }
            case ":":
                let pseudo = ident()
                if pseudo == "first-child" { c.firstChild = true } else { c.unsupported = true }
            default: return nil
            }
        }
        return c
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}

enum SVGCascade {
    static func apply(root: SVGNode) {
        var order = 0
        var rules: [CSSRule] = []
        func collectSheets(_ n: SVGNode) {
            if n.name == "style", (n.attributes["type"] ?? "text/css").isEmpty || (n.attributes["type"] ?? "text/css") == "text/css" {
                rules += CSSParser.sheet(n.text, order: &order)
            }
            for c in n.children { collectSheets(c) }
        }
        collectSheets(root)
        func visit(_ n: SVGNode) {
            var d: [String: String] = [:]
            for (k, v) in n.attributes where svgProperties.contains(k) && !cssOnlyProperties.contains(k) { d[k] = v.trimmingCharacters() }
            var matched: [(spec: Int, order: Int, decls: [CSSDeclaration])] = []
            for r in rules where r.selector.matches(n) { matched.append((r.selector.specificity, r.order, r.declarations)) }
            matched.sort { ($0.spec, $0.order) < ($1.spec, $1.order) }
            let inline = n.attributes["style"].map { CSSParser.declarations(Substring($0)) } ?? []
            for m in matched { for x in m.decls where !x.important { d[x.name] = x.value } }
            for x in inline where !x.important { d[x.name] = x.value }
            for m in matched { for x in m.decls where x.important { d[x.name] = x.value } }
            for x in inline where x.important { d[x.name] = x.value }
            n.declared = d
            for c in n.children { visit(c) }
        }
        visit(root)
    }
}
