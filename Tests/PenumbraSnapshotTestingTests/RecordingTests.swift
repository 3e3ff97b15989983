// Recording and matching through swift-snapshot-testing's verifySnapshot (our
// Image overload), in a fresh temporary reference folder per test, in each
// record mode.

import Foundation
import Testing
import Penumbra
import SnapshotTesting
@testable import PenumbraSnapshotTesting

/// A fresh empty folder under the temporary directory.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-snapshot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct RecordingTests {
    let image = Image(bitmap: solid(5, 4, SIMD4(10, 200, 30, 255)))

    @Test func theFirstRunRecordsAndFailsThenTheSecondMatches() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = verifySnapshot(of: image, as: .image, named: "solid", record: .missing, snapshotDirectory: folder.path)
        let message = try #require(first)
        #expect(message.contains("No reference was found on disk. Automatically recorded snapshot"))
        let file = folder.appendingPathComponent("theFirstRunRecordsAndFailsThenTheSecondMatches.solid.png")
        #expect(message.contains(file.path))
        let recorded = try PNGCodec.decode([UInt8](try Data(contentsOf: file)))
        #expect(recorded == image.bitmap)
        #expect(verifySnapshot(of: image, as: .image, named: "solid", record: .missing, snapshotDirectory: folder.path) == nil)
        #expect(verifySnapshot(of: image.bitmap, as: .image, named: "solid", record: .never, snapshotDirectory: folder.path) == nil)
    }

    @Test func neverRecordsNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = try #require(verifySnapshot(of: image, as: .image, named: "x", record: .never, snapshotDirectory: folder.path))
        #expect(message.contains("New snapshot was not recorded"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func allRecordsOverAMatchingReferenceAndFailedReplacesAMismatch() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = Image(bitmap: solid(5, 4, SIMD4(0, 0, 0, 255)))
        _ = verifySnapshot(of: image, as: .image, named: "x", record: .missing, snapshotDirectory: folder.path)
        let all = try #require(verifySnapshot(of: image, as: .image, named: "x", record: .all, snapshotDirectory: folder.path))
        #expect(all.contains("Record mode is on"))
        let failed = try #require(verifySnapshot(of: other, as: .image, named: "x", record: .failed, snapshotDirectory: folder.path))
        #expect(failed.contains("A new snapshot was automatically recorded."))
        #expect(verifySnapshot(of: other, as: .image, named: "x", record: .never, snapshotDirectory: folder.path) == nil)
    }

    @Test func toleranceAndPrecisionApplyToTheStoredReference() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = verifySnapshot(of: image, as: .image, named: "x", record: .missing, snapshotDirectory: folder.path)
        var near = image
        near.bitmap[1, 1] = SIMD4(12, 199, 30, 255)
        #expect(verifySnapshot(of: near, as: .image(perPixelTolerance: 2), named: "x", record: .never,
                               snapshotDirectory: folder.path) == nil)
        #expect(verifySnapshot(of: near, as: .image(precision: 0.95), named: "x", record: .never,
                               snapshotDirectory: folder.path) == nil)
        #expect(verifySnapshot(of: near, as: .image(perPixelTolerance: 1), named: "x", record: .never,
                               snapshotDirectory: folder.path) != nil)
    }
}
