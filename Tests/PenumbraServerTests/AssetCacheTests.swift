// Files read from --assets take part in the cache key and the ETag: a replaced image is a new
// ETag and new pixels, never a stale hit; and a file that appears where a named image probed
// for one counts as a change too.
import Foundation
import Glibc
import HTTPTypes
import HummingbirdTesting
import Penumbra
import PenumbraServer
import XCTest

final class AssetCacheTests: XCTestCase {
    private static func png(_ rgba: [UInt8], size: Int = 4) throws -> [UInt8] {
        try PNGCodec.encode(Bitmap(width: size, height: size, pixels: Array((0..<size * size).map { _ in rgba }.joined())))
    }

    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-asset-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testAChangedAssetFileIsANewETagAndNewPixels() async throws {
        let assets = try Self.folder()
        defer { try? FileManager.default.removeItem(at: assets) }
        let logo = assets.appendingPathComponent("logo.png")
        let red = try Self.png([255, 0, 0, 255])
        // Another colour whose PNG has the same length: the edit below keeps the file's size, so
        // only its bytes and times differ.
        let candidates: [[UInt8]] = [[0, 255, 0, 255], [254, 0, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255], [255, 0, 1, 255]]
        let colour = try candidates.first { try Self.png($0).count == red.count } ?? []
        let green = colour.isEmpty ? [] : try Self.png(colour)
        XCTAssertEqual(green.count, red.count, "no colour of the same PNG length")
        try Data(red).write(to: logo)
        let scene = Array(#"""
            {"format":"penumbra-scene","version":1,"size":[8,8],"images":{"l":"logo.png"},
             "ops":[{"op":"drawImage","image":"l","rect":[0,0,8,8]}]}
            """#.utf8)

        let server = try await ServerFixtures.server { $0.assets = assets.path }
        try await server.application().test(.router) { client in
            let first = try await client.post("/v1/render", scene)
            XCTAssertEqual(first.status, .ok, first.text)
            XCTAssertEqual(try PNGCodec.decode(first.bytes)[4, 4], SIMD4<UInt8>(255, 0, 0, 255))
            let etag = try XCTUnwrap(first.headers[.eTag])
            let again = try await client.post("/v1/render", scene, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(again.status, .notModified, "an unchanged file keeps its ETag")
            let hit = try await client.post("/v1/render", scene)
            XCTAssertEqual(hit.headers[HTTPField.Name("Server-Timing")!].map { $0.contains("cache;desc=hit") }, true)

            // Edited in place: same path, inode and size; new bytes and modification time.
            let handle = try FileHandle(forWritingTo: logo)
            try handle.write(contentsOf: Data(green))
            try handle.close()
            let edited = try await client.post("/v1/render", scene, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(edited.status, .ok, "a client holding the old ETag gets the new image")
            XCTAssertNotEqual(edited.headers[.eTag], etag)
            XCTAssertEqual(try PNGCodec.decode(edited.bytes)[4, 4], SIMD4<UInt8>(colour[0], colour[1], colour[2], colour[3]))
            XCTAssertEqual(edited.headers[HTTPField.Name("Server-Timing")!].map { $0.contains("cache;desc=hit") }, false)

            // Replaced by another file (a new inode), red again: red pixels, a third ETag.
            let replacement = assets.appendingPathComponent("logo.tmp")
            try Data(red).write(to: replacement)
            XCTAssertEqual(rename(replacement.path, logo.path), 0)
            let replaced = try await client.post("/v1/render", scene)
            XCTAssertEqual(try PNGCodec.decode(replaced.bytes)[4, 4], SIMD4<UInt8>(255, 0, 0, 255))
            XCTAssertNotEqual(replaced.headers[.eTag], etag)
            XCTAssertNotEqual(replaced.headers[.eTag], edited.headers[.eTag])

            // Removed: the cached response is not served; the scene now fails, naming its place.
            try FileManager.default.removeItem(at: logo)
            let gone = try await client.post("/v1/render", scene)
            XCTAssertEqual(gone.status, .badRequest)
            XCTAssertEqual(try gone.errorJSON().place, "images.l")
        }
        server.service.shutdown()
    }

    func testAFileAppearingWhereANamedImageProbedIsAChange() async throws {
        let assets = try Self.folder()
        defer { try? FileManager.default.removeItem(at: assets) }
        try Data(try Self.png([255, 0, 0, 255])).write(to: assets.appendingPathComponent("icon.png"))
        let scene = Array(#"""
            {"format":"penumbra-scene","version":1,"size":[4,4],"images":{"i":{"named":"icon"}},
             "ops":[{"op":"drawImage","image":"i","rect":[0,0,4,4]}]}
            """#.utf8)
        let server = try await ServerFixtures.server { $0.assets = assets.path }
        try await server.application().test(.router) { client in
            // At scale 2 the @2x variant is looked for first; there is none, so icon.png is drawn.
            let before = try await client.post("/v1/render?scale=2", scene)
            XCTAssertEqual(before.status, .ok, before.text)
            XCTAssertEqual(try PNGCodec.decode(before.bytes)[2, 2], SIMD4<UInt8>(255, 0, 0, 255))
            try Data(try Self.png([0, 0, 255, 255], size: 8)).write(to: assets.appendingPathComponent("icon@2x.png"))
            let after = try await client.post("/v1/render?scale=2", scene)
            XCTAssertEqual(try PNGCodec.decode(after.bytes)[2, 2], SIMD4<UInt8>(0, 0, 255, 255), "a stale cached response was served")
            XCTAssertNotEqual(after.headers[.eTag], before.headers[.eTag])
        }
        server.service.shutdown()
    }

    func testWithoutAssetsTheETagIsKnownBeforeAnyWork() async throws {
        let server = try await ServerFixtures.server { $0.cacheBytes = 0 }
        try await server.application().test(.router) { client in
            let first = try await client.post("/v1/render", ServerFixtures.small)
            let etag = try XCTUnwrap(first.headers[.eTag])
            let again = try await client.post("/v1/render", ServerFixtures.small, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(again.status, .notModified)
            XCTAssertEqual(again.headers[HTTPField.Name("Server-Timing")!], "cache;desc=etag", "no render for a known ETag, even with the cache off")
        }
        server.service.shutdown()
    }
}
