// A real difference: the message names the reference, the failed snapshot
// and the difference image, and the files are where it says, with the
// difference drawn where the pixels changed.

import Foundation
import Testing
import Penumbra
import SnapshotTesting
@testable import PenumbraSnapshotTesting

/// The quoted path on the line of `message` that starts with `label`.
func path(after label: String, in message: String) -> String? {
    guard let line = message.split(separator: "\n").first(where: { $0.hasPrefix(label) }),
          let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close
    else { return nil }
    return String(line[line.index(after: open)..<close])
}

@Suite struct FailureTests {
    @Test func aDifferenceFailsAndWritesTheDifferenceImageBesideTheFailedSnapshot() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "changed-\(UUID().uuidString)"
        let reference = Image(bitmap: solid(6, 5, SIMD4(255, 255, 255, 255)))
        _ = verifySnapshot(of: reference, as: .image, named: name, record: .missing, snapshotDirectory: folder.path)
        var changed = reference
        changed.bitmap[4, 1] = SIMD4(255, 0, 0, 255)
        changed.bitmap[0, 3] = SIMD4(254, 255, 255, 255)

        let message = try #require(
            verifySnapshot(of: changed, as: .image(perPixelTolerance: 1), named: name, record: .never, snapshotDirectory: folder.path))
        #expect(message.contains("Snapshot \"\(name)\" does not match reference."))
        #expect(message.contains("1 of 30 pixels differ"))
        #expect(message.contains("largest difference is 255 of 255, first at x 4, y 1"))

        let referencePath = try #require(path(after: "Reference:", in: message))
        let failedPath = try #require(path(after: "Failed:", in: message))
        let diffPath = try #require(path(after: "Difference:", in: message))
        #expect(referencePath == folder.appendingPathComponent("aDifferenceFailsAndWritesTheDifferenceImageBesideTheFailedSnapshot.\(name).png").path)
        #expect(URL(fileURLWithPath: failedPath).lastPathComponent == URL(fileURLWithPath: referencePath).lastPathComponent)
        #expect(URL(fileURLWithPath: failedPath).deletingLastPathComponent().lastPathComponent == "FailureTests")
        #expect(diffPath == URL(fileURLWithPath: failedPath).deletingPathExtension().path + ".diff.png")

        let failed = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: failedPath))))
        #expect(failed == changed.bitmap)
        let diff = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: diffPath))))
        #expect(diff.width == 6 && diff.height == 5)
        #expect(diff[4, 1] == SIMD4(0, 255, 255, 255))       // green and blue fell by 255
        #expect(diff[0, 3] == SIMD4(64, 0, 0, 255))          // within the tolerance, still drawn
        #expect(diff[0, 0] == SIMD4(0, 0, 0, 255))
        var others = 0
        for y in 0..<5 { for x in 0..<6 where diff[x, y] != SIMD4(0, 0, 0, 255) { others += 1 } }
        #expect(others == 2)
        try? FileManager.default.removeItem(atPath: failedPath)
        try? FileManager.default.removeItem(atPath: diffPath)
    }

    @Test func aDifferentSizeFailsWithAMagentaMargin() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "resized-\(UUID().uuidString)"
        _ = verifySnapshot(of: solid(4, 4, SIMD4(0, 0, 0, 255)), as: .image, named: name, record: .missing,
                           snapshotDirectory: folder.path)
        let message = try #require(verifySnapshot(of: solid(5, 4, SIMD4(0, 0, 0, 255)), as: .image, named: name,
                                                  record: .never, snapshotDirectory: folder.path))
        #expect(message.contains("The sizes differ: the reference is 4 × 4 px, the snapshot 5 × 4 px."))
        let diffPath = try #require(path(after: "Difference:", in: message))
        let diff = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: diffPath))))
        #expect(diff.width == 5 && diff.height == 4)
        #expect(diff[4, 2] == SIMD4(255, 0, 255, 255) && diff[3, 2] == SIMD4(0, 0, 0, 255))
        try? FileManager.default.removeItem(atPath: diffPath)
        if let failedPath = path(after: "Failed:", in: message) { try? FileManager.default.removeItem(atPath: failedPath) }
    }

    @Test func theConfiguredDiffToolStillSpeaks() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "tool-\(UUID().uuidString)"
        _ = verifySnapshot(of: solid(2, 2, SIMD4(0, 0, 0, 255)), as: .image, named: name, record: .missing,
                           snapshotDirectory: folder.path)
        let message = try #require(withSnapshotTesting(diffTool: "compare-images") {
            verifySnapshot(of: solid(2, 2, SIMD4(9, 0, 0, 255)), as: .image, named: name, record: .never,
                           snapshotDirectory: folder.path)
        })
        let referencePath = try #require(path(after: "Reference:", in: message))
        let failedPath = try #require(path(after: "Failed:", in: message))
        #expect(message.contains("compare-images \(referencePath) \(failedPath)"))
        #expect(FileManager.default.fileExists(atPath: DifferenceImageTool.path(besideFailed: failedPath)))
        try? FileManager.default.removeItem(atPath: failedPath)
        try? FileManager.default.removeItem(atPath: DifferenceImageTool.path(besideFailed: failedPath))
    }
}
