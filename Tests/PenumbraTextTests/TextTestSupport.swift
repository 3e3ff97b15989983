import Foundation
import XCTest
@testable import PenumbraText
import PenumbraModel
import PenumbraCore

enum TextTestSupport {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let engine = PenumbraTextEngine()

    static func font(_ size: Double = 20) -> Font { Font(family: "DejaVu Sans", size: size) }

    static func layout(_ text: String, size: Double = 20, placement: TextPlacement = .at(Point(0, 0), maxWidth: nil),
                       style: TextStyle = TextStyle()) throws -> TextLayout {
        try TextLayout(AttributedText(text, font: font(size)), placement: placement, style: style)
    }

    /// A scene with `ops` (JSON text) and `fonts`, decoded with the standard engine in `folder`.
    static func decode(ops: String, fonts: String? = nil, folder: String = "/nonexistent", size: String = "[200, 100]",
                       limits: ResourceLimits = .default) throws -> Scene {
        let json = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": \(size)"
            + (fonts.map { ", \"fonts\": \($0)" } ?? "") + ", \"ops\": [\(ops)]}"
        return try Scene.decode(json, baseDirectory: folder, limits: limits,
                                environment: SceneEnvironment(codecs: .standard, textEngine: engine))
    }

    /// A fresh temporary folder.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
