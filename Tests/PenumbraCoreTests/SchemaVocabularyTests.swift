// SchemaVocabularyTests: docs/scene.schema.json and the scene decoder know the
// same names. The decoder's key sets (SceneVocabulary, the very sets its
// `allowing:` checks use) are compared with the schema's `$defs`: the
// document's properties, each op (`op-NAME`), each path shape (`shape-NAME`,
// `arc`), each image form (`image-FORM`), generator (`generator-NAME`) and
// filter (`filter-NAME`), the text objects (`text-run`, `text-font`,
// `text-frame`) and a `fonts` entry (`fontFile-object`), and the enums that
// list op, generator and filter names. A failure names every difference.
// Further tests prove the comparison can fail (a schema missing one op key,
// an op, or holding an extra key is reported), and that the decoder rejects
// every deliberately invalid scene the schema rejects (Tools/schema/invalid).

import Foundation
import XCTest
import PenumbraModel
import PenumbraCore

/// The comparison, usable on any parsed schema.
enum SchemaVocabulary {
    typealias Object = [String: Any]

    /// Every difference between `schema` and the decoder's vocabulary, as sentences; empty when they agree.
    static func differences(schema: Object) -> [String] {
        var out: [String] = []
        guard let defs = schema["$defs"] as? Object else { return ["the schema has no $defs"] }

        func properties(_ def: String) -> Set<String>? {
            guard let object = defs[def] as? Object else { return nil }
            return Set((object["properties"] as? Object)?.keys.map { $0 } ?? [])
        }
        func compareKeys(_ what: String, def: String, decoder: Set<String>) {
            guard let schemaKeys = properties(def) else {
                out.append("\(what): the schema has no $defs/\(def)")
                return
            }
            for key in decoder.subtracting(schemaKeys).sorted() {
                out.append("\(what): the schema lacks key \"\(key)\", which the decoder accepts")
            }
            for key in schemaKeys.subtracting(decoder).sorted() {
                out.append("\(what): the schema has key \"\(key)\", which the decoder rejects")
            }
        }
        func compareNames(_ what: String, prefix: String, decoder: Set<String>, except: Set<String> = []) {
            let schemaNames = Set(defs.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
                .subtracting(except)
            for name in decoder.subtracting(schemaNames).sorted() {
                out.append("\(what) \"\(name)\": the decoder knows it, the schema has no $defs/\(prefix)\(name)")
            }
            for name in schemaNames.subtracting(decoder).sorted() {
                out.append("\(what) \"\(name)\": the schema has $defs/\(prefix)\(name), the decoder does not know it")
            }
        }
        /// The `enum` of `$defs/def/properties/key`, which lists the names a dispatch accepts.
        func compareEnum(_ what: String, def: String, key: String, decoder: Set<String>) {
            let values = ((defs[def] as? Object)?["properties"] as? Object)?[key] as? Object
            guard let names = values?["enum"] as? [String] else {
                out.append("\(what): the schema has no enum at $defs/\(def)/properties/\(key)")
                return
            }
            for name in decoder.subtracting(names).sorted() { out.append("\(what): the schema's enum lacks \"\(name)\"") }
            for name in Set(names).subtracting(decoder).sorted() { out.append("\(what): the schema's enum has \"\(name)\", unknown to the decoder") }
        }

        compareKeys("document", def: "document", decoder: SceneVocabulary.document)

        let ops = SceneVocabulary.ops
        compareNames("op", prefix: "op-", decoder: Set(ops.keys))
        compareEnum("op names", def: "op", key: "op", decoder: Set(ops.keys))
        for (name, keys) in ops.sorted(by: { $0.key < $1.key }) where defs["op-\(name)"] != nil {
            compareKeys("op \"\(name)\"", def: "op-\(name)", decoder: keys)
        }

        compareNames("shape", prefix: "shape-", decoder: SceneVocabulary.shapeKinds)
        let shapeKeys = defs.keys.filter { $0.hasPrefix("shape-") }.reduce(into: Set<String>()) { keys, def in
            keys.formUnion(properties(def) ?? [])
        }
        for key in SceneVocabulary.shapeObject.subtracting(shapeKeys).sorted() {
            out.append("path shapes: no shape of the schema has key \"\(key)\", which the decoder accepts")
        }
        for key in shapeKeys.subtracting(SceneVocabulary.shapeObject).sorted() {
            out.append("path shapes: the schema has key \"\(key)\", which the decoder rejects")
        }
        compareKeys("arc", def: "arc", decoder: SceneVocabulary.arc)

        let forms = SceneVocabulary.imageForms
        compareNames("image form", prefix: "image-", decoder: Set(forms.keys), except: ["generator"])
        for (form, keys) in forms.sorted(by: { $0.key < $1.key }) where defs["image-\(form)"] != nil {
            compareKeys("image form \"\(form)\"", def: "image-\(form)", decoder: keys)
        }

        let generators = SceneVocabulary.generators
        compareNames("generator", prefix: "generator-", decoder: Set(generators.keys))
        compareEnum("generator names", def: "image-generator", key: "generator", decoder: Set(generators.keys))
        for (name, keys) in generators.sorted(by: { $0.key < $1.key }) where defs["generator-\(name)"] != nil {
            compareKeys("generator \"\(name)\"", def: "generator-\(name)", decoder: keys)
        }

        let filters = SceneVocabulary.filters
        compareNames("filter", prefix: "filter-", decoder: Set(filters.keys))
        compareEnum("filter names", def: "filter", key: "filter", decoder: Set(filters.keys))
        for (name, keys) in filters.sorted(by: { $0.key < $1.key }) where defs["filter-\(name)"] != nil {
            compareKeys("filter \"\(name)\"", def: "filter-\(name)", decoder: keys)
        }

        compareNames("text object", prefix: "text-", decoder: Set(SceneVocabulary.text.keys))
        for (name, keys) in SceneVocabulary.text.sorted(by: { $0.key < $1.key }) where defs["text-\(name)"] != nil {
            compareKeys("text object \"\(name)\"", def: "text-\(name)", decoder: keys)
        }
        compareKeys("fonts entry", def: "fontFile-object", decoder: SceneVocabulary.fontFile)
        compareKeys("view", def: "view", decoder: SceneVocabulary.view)
        compareEnum("view types", def: "view", key: "type", decoder: SceneVocabulary.viewTypes)
        compareKeys("view layer", def: "viewLayer", decoder: SceneVocabulary.viewLayer)
        return out
    }

    /// The repository's root (this file is Tests/PenumbraCoreTests/SchemaVocabularyTests.swift).
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// docs/scene.schema.json, parsed.
    static func schema() throws -> Object {
        let data = try Data(contentsOf: root.appendingPathComponent("docs/scene.schema.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? Object else {
            throw SceneError(location: "", message: "docs/scene.schema.json is not a JSON object")
        }
        return object
    }
}

final class SchemaVocabularyTests: XCTestCase {
    func testTheSchemaKnowsExactlyTheDecodersNames() throws {
        let differences = SchemaVocabulary.differences(schema: try SchemaVocabulary.schema())
        XCTAssertTrue(differences.isEmpty, "docs/scene.schema.json and the decoder differ:\n" + differences.joined(separator: "\n"))
    }

    func testTheVocabularyCoversEveryOpTheDecoderReads() {
        // A sanity check of the table itself: it is not empty and holds the names a scene uses.
        XCTAssertEqual(SceneVocabulary.ops.count, 28)
        XCTAssertEqual(SceneVocabulary.ops["setShadow"], ["op", "offset", "blur", "color"])
        XCTAssertEqual(SceneVocabulary.filters.count, 16)
        XCTAssertTrue(SceneVocabulary.document.isSuperset(of: ["format", "version", "size", "ops"]))
    }

    // MARK: The comparison can fail

    private func mutated(_ change: (inout [String: Any]) -> Void) throws -> [String: Any] {
        var schema = try SchemaVocabulary.schema()
        var defs = schema["$defs"] as! [String: Any]
        change(&defs)
        schema["$defs"] = defs
        return schema
    }

    private func removeProperty(_ key: String, from def: String, in defs: inout [String: Any]) {
        var object = defs[def] as! [String: Any]
        var properties = object["properties"] as! [String: Any]
        XCTAssertNotNil(properties.removeValue(forKey: key), "$defs/\(def) has no property \(key)")
        object["properties"] = properties
        defs[def] = object
    }

    func testAMissingOpKeyIsReported() throws {
        let schema = try mutated { removeProperty("color", from: "op-setShadow", in: &$0) }
        XCTAssertEqual(SchemaVocabulary.differences(schema: schema),
                       ["op \"setShadow\": the schema lacks key \"color\", which the decoder accepts"])
    }

    func testAnExtraKeyIsReported() throws {
        let schema = try mutated { defs in
            var object = defs["filter-gaussianBlur"] as! [String: Any]
            var properties = object["properties"] as! [String: Any]
            properties["sigma"] = ["type": "number"]
            object["properties"] = properties
            defs["filter-gaussianBlur"] = object
        }
        XCTAssertEqual(SchemaVocabulary.differences(schema: schema),
                       ["filter \"gaussianBlur\": the schema has key \"sigma\", which the decoder rejects"])
    }

    func testAMissingOpIsReported() throws {
        let schema = try mutated { defs in defs.removeValue(forKey: "op-blurBackdrop") }
        XCTAssertEqual(SchemaVocabulary.differences(schema: schema),
                       ["op \"blurBackdrop\": the decoder knows it, the schema has no $defs/op-blurBackdrop"])
    }

    func testMissingKeysOfOtherObjectsAreReported() throws {
        let schema = try mutated { defs in
            removeProperty("time", from: "document", in: &defs)
            removeProperty("clockwise", from: "arc", in: &defs)
            removeProperty("pattern", from: "image-animation", in: &defs)
            removeProperty("extent", from: "generator-constantColor", in: &defs)
            removeProperty("kerning", from: "text-run", in: &defs)
            removeProperty("index", from: "fontFile-object", in: &defs)
        }
        XCTAssertEqual(Set(SchemaVocabulary.differences(schema: schema)), [
            "document: the schema lacks key \"time\", which the decoder accepts",
            "arc: the schema lacks key \"clockwise\", which the decoder accepts",
            "image form \"animation\": the schema lacks key \"pattern\", which the decoder accepts",
            "generator \"constantColor\": the schema lacks key \"extent\", which the decoder accepts",
            "text object \"run\": the schema lacks key \"kerning\", which the decoder accepts",
            "fonts entry: the schema lacks key \"index\", which the decoder accepts",
        ])
    }

    // MARK: The decoder rejects what the schema rejects

    func testTheDecoderRejectsEveryInvalidFixture() throws {
        let folder = SchemaVocabulary.root.appendingPathComponent("Tools/schema/invalid")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 5)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
            XCTAssertThrowsError(try Scene.decode(bytes, baseDirectory: folder.path), file) { error in
                XCTAssertTrue(error is SceneError, "\(file): \(error)")
            }
        }
    }
}
