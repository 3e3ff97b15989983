// The committed references: a small scene and an image drawn with
// ImageRenderer, asserted the way a user writes it. Their PNGs are in
// __Snapshots__/SceneSnapshotTests/.

import Foundation
import Testing
import Penumbra
import SnapshotTesting
import PenumbraSnapshotTesting

@Suite struct SceneSnapshotTests {
    static let json = """
        {
         "format": "penumbra-scene", "version": 1, "size": [32, 24], "scale": 2, "background": "#FFFFFF",
         "ops": [
          {"op": "setFillColor", "color": "#1E88E5"},
          {"op": "fill", "path": {"ellipse": [2, 2, 20, 20]}},
          {"op": "setFillColor", "color": "#E53935C0"},
          {"op": "fill", "path": {"rect": [14, 8, 16, 12]}}
         ]
        }
        """

    static func scene() throws -> Scene {
        try Scene.decode(json, baseDirectory: "/", environment: .standard)
    }

    @Test func sceneMatchesItsReference() throws {
        assertSnapshot(of: try Self.scene(), as: .image)
    }

    @Test func sceneMatchesWithinATolerance() throws {
        assertSnapshot(of: try Self.scene(), as: .image(precision: 0.99, perPixelTolerance: 2))
    }

    @Test func aChangedSceneFailsAssertSnapshotNamingTheDifferenceImage() throws {
        let changed = try Scene.decode(Self.json.replacingOccurrences(of: "#E53935C0", with: "#E53935C8"),
                                       baseDirectory: "/", environment: .standard)
        let artifacts = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"] ?? NSTemporaryDirectory())
        let failed = artifacts.appendingPathComponent("SceneSnapshotTests/sceneMatchesItsReference.1.png").path
        let diff = DifferenceImageTool.path(besideFailed: failed)
        try? FileManager.default.removeItem(atPath: diff)
        withKnownIssue {
            // The committed reference of sceneMatchesItsReference(), never re-recorded here.
            assertSnapshot(of: changed, as: .image, named: "1", record: .never, testName: "sceneMatchesItsReference()")
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined(separator: "\n")
            return message.contains("pixels differ") && message.contains("Failed:     \"\(failed)\"")
                && message.contains("Difference: \"\(diff)\"")
        }
        #expect(diff.hasSuffix("/SceneSnapshotTests/sceneMatchesItsReference.1.diff.png"))
        let difference = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: diff))))
        #expect(difference.width == 64 && difference.height == 48)
        #expect(difference[2, 2] == SIMD4(0, 0, 0, 255))                  // white background: unchanged
        #expect(difference[54, 30] != SIMD4(0, 0, 0, 255))               // inside the red rectangle
        try? FileManager.default.removeItem(atPath: failed)
        try? FileManager.default.removeItem(atPath: diff)
    }

    @Test func aSceneThatCannotRenderIsReportedAndNeverRecorded() throws {
        var scene = try Self.scene()
        scene.limits.maxGeometryPoints = 1
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        withKnownIssue {
            let message = verifySnapshot(of: scene, as: .image, named: "x", record: .missing, snapshotDirectory: folder.path,
                                         timeout: 0.5)
            #expect(message?.contains("Exceeded timeout") == true)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("rendering the scene on cpu failed") }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func drawnImageMatchesItsReference() throws {
        let image = try ImageRenderer(size: Size(width: 16, height: 16), scale: 2).image { context in
            context.setFillColor(Color(red: 0.2, green: 0.6, blue: 0.3, alpha: 1))
            context.fill(Path(rect: Rect(x: 2, y: 2, width: 12, height: 8)))
        }
        assertSnapshot(of: image, as: .image)
    }
}
