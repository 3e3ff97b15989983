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

    @Test func aChangedSceneDoesNotMatchTheReference() throws {
        var json = Self.json
        json = json.replacingOccurrences(of: "#E53935C0", with: "#E53935C8")
        let changed = try Scene.decode(json, baseDirectory: "/", environment: .standard)
        let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__/SceneSnapshotTests")
        let message = try #require(verifySnapshot(of: changed, as: .image, named: "1", record: .never,
                                                  snapshotDirectory: reference.path, testName: "sceneMatchesItsReference()"))
        #expect(message.contains("pixels differ"))
        if let failed = path(after: "Failed:", in: message) {
            try? FileManager.default.removeItem(atPath: failed)
            try? FileManager.default.removeItem(atPath: DifferenceImageTool.path(besideFailed: failed))
        }
    }

    @Test func drawnImageMatchesItsReference() throws {
        let image = try ImageRenderer(size: Size(width: 16, height: 16), scale: 2).image { context in
            context.setFillColor(Color(red: 0.2, green: 0.6, blue: 0.3, alpha: 1))
            context.fill(Path(rect: Rect(x: 2, y: 2, width: 12, height: 8)))
        }
        assertSnapshot(of: image, as: .image)
    }
}
