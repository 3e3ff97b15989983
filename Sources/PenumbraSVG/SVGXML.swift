// The XML layer: libxml2 reads the bytes into a small tree of elements (name, attributes, text)
// with everything that could reach outside the document switched off: no network
// (XML_PARSE_NONET), no DTD loading, no entity substitution (neither XML_PARSE_DTDLOAD nor
// XML_PARSE_NOENT), and a document whose DOCTYPE declares entities is rejected before and after
// libxml2 sees it (entity expansion bombs, external entities). Depth and element count are bounded.
import CLibXML2

/// One element of the document: its local name, attributes (namespaced ones as `prefix:name`,
/// e.g. `xlink:href`), element children and the text directly inside it.
final class SVGNode {
    let name: String
    var attributes: [String: String]
    var children: [SVGNode] = []
    var text = ""
    weak var parent: SVGNode?
    /// Position among the parent's element children (for `:first-child`).
    var index = 0
    /// Class names from the `class` attribute.
    lazy var classes: [Substring] = (attributes["class"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
    /// The cascaded declarations (presentation attributes, sheets, `style`), filled by the cascade.
    var declared: [String: String] = [:]

    init(name: String, attributes: [String: String]) { self.name = name; self.attributes = attributes }

    /// `<name id="...">` for messages.
    var label: String {
        if let id = attributes["id"] { return "<\(name) id=\"\(id)\">" }
        return "<\(name)>"
    }

    /// `href` or `xlink:href`.
    var href: String? { attributes["href"] ?? attributes["xlink:href"] }
}

enum SVGXML {
    /// Parses the document into its root element.
    static func parse(_ bytes: [UInt8], limits: SVGLimits) throws -> SVGNode {
        guard !bytes.isEmpty else { throw SVGError(element: "svg", message: "the document is empty") }
        if declaresEntities(bytes) {
            throw SVGError(element: "!DOCTYPE", message: "a DOCTYPE that declares entities is not accepted (entity expansion is off)")
        }
        guard bytes.count <= limits.maxDocumentBytes else {
            throw SVGError(element: "svg", message: "the document is \(bytes.count) bytes, over the limit of \(limits.maxDocumentBytes)")
        }
        guard let ctxt = xmlNewParserCtxt() else { throw SVGError(element: "svg", message: "cannot create an XML parser") }
        defer { xmlFreeParserCtxt(ctxt) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue)
        let doc = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlCtxtReadMemory(ctxt, $0, Int32(buffer.count), "document.svg", nil, options)
            }
        }
        guard let doc else {
            var message = "malformed XML"
            if let m = ctxt.pointee.lastError.message {
                message = String(cString: m).trimmingCharacters()
                message += " (line \(ctxt.pointee.lastError.line))"
            }
            throw SVGError(element: "svg", message: "malformed XML: \(message)")
        }
        defer { xmlFreeDoc(doc) }
        if let dtd = doc.pointee.intSubset, dtd.pointee.entities != nil || dtd.pointee.pentities != nil {
            throw SVGError(element: "!DOCTYPE", message: "a DOCTYPE that declares entities is not accepted (entity expansion is off)")
        }
        guard let rootPtr = xmlDocGetRootElement(doc) else { throw SVGError(element: "svg", message: "no root element") }
        var count = 0
        let root = try convert(rootPtr, depth: 0, count: &count, limits: limits)
        guard root.name == "svg" else { throw SVGError(element: root.name, message: "the root element must be <svg>") }
        return root
    }

    /// True when a DOCTYPE in the bytes declares an entity (`<!ENTITY`), checked before parsing.
    static func declaresEntities(_ bytes: [UInt8]) -> Bool {
        let needle = Array("<!ENTITY".utf8)
        guard bytes.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && Array(bytes[i..<i + needle.count]) == needle { return true }
            i += 1
        }
        return false
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }

    private static func convert(_ ptr: xmlNodePtr, depth: Int, count: inout Int, limits: SVGLimits) throws -> SVGNode {
        let name = string(ptr.pointee.name)
        guard depth <= limits.maxDepth else {
            throw SVGError(element: name, message: "elements nested deeper than the limit of \(limits.maxDepth)")
        }
        count += 1
        guard count <= limits.maxElements else {
            throw SVGError(element: name, message: "more elements than the limit of \(limits.maxElements)")
        }
        var attributes: [String: String] = [:]
        var attr = ptr.pointee.properties
        while let a = attr {
            var key = string(a.pointee.name)
            if let ns = a.pointee.ns, let prefix = ns.pointee.prefix {
                let p = string(prefix)
                let href = string(ns.pointee.href)
                key = (href == "http://www.w3.org/1999/xlink" ? "xlink" : p) + ":" + key
            }
            var value = ""
            var part = a.pointee.children
            while let t = part {
                if t.pointee.type == XML_TEXT_NODE { value += string(t.pointee.content) }
                part = t.pointee.next
            }
            attributes[key] = value
            attr = a.pointee.next
        }
        let node = SVGNode(name: name, attributes: attributes)
        var child = ptr.pointee.children
        var text = ""
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE:
                // An element of another namespace is not SVG: it and its content are not drawn.
                if let ns = c.pointee.ns, string(ns.pointee.href) != "http://www.w3.org/2000/svg" { break }
                let n = try convert(c, depth: depth + 1, count: &count, limits: limits)
                n.parent = node
                n.index = node.children.count
                node.children.append(n)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                text += string(c.pointee.content)
            case XML_ENTITY_REF_NODE:
                throw SVGError(element: name, message: "entity references are not expanded")
            default: break
            }
            child = c.pointee.next
        }
        node.text = text
        return node
    }
}

extension String {
    /// Without leading and trailing ASCII whitespace.
    func trimmingCharacters() -> String {
        let ws: Set<Character> = [" ", "\t", "\n", "\r", "\u{0C}"]
        var s = Substring(self)
        while let f = s.first, ws.contains(f) { s = s.dropFirst() }
        while let l = s.last, ws.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
