// Reading a scene from a file or standard input, with errors that name the file,
// and its warnings (RenderWarning) on standard error.
import Foundation
import Penumbra

enum SceneLoading {
    /// Reads and decodes a scene; `-` reads standard input. Images and fonts resolve in `assets`
    /// when given, else in the scene file's folder (the current directory for `-`), and must stay
    /// inside it. Rejections end with exit status 1. `environment`: `.standard`, or
    /// `.standard(renderingWith:)` to draw offscreen images and filter chains on the renderer that will draw.
    static func load(_ path: String, limits: ResourceLimits, scale: Double?, time: Double? = nil, assets: String? = nil,
                     environment: SceneEnvironment = .standard) throws -> Scene {
        let bytes: [UInt8]
        let base: String
        if path == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
            base = FileManager.default.currentDirectoryPath
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ToolError(.rejected, "\(path): cannot read the scene file")
            }
            bytes = [UInt8](data)
            base = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        }
        let scene: Scene
        do {
            scene = try Scene.decode(bytes, baseDirectory: assets ?? base, limits: limits, scale: scale, time: time, environment: environment)
        } catch let error as SceneError {
            throw ToolError(.rejected, "\(path == "-" ? "<stdin>" : path): \(error)")
        }
        report(scene.warnings, from: path)
        return scene
    }

    /// A scene's warnings on standard error, one a line: what it drew otherwise than asked
    /// (characters no installed font has, a family none has). They do not change the exit status.
    static func report(_ warnings: [RenderWarning], from path: String) {
        for warning in warnings { Diagnostics.print("penumbra: warning: \(path == "-" ? "<stdin>" : path): \(warning)") }
    }

    /// Records the scene's display list within its budget; a scene over it is rejected (exit 1)
    /// with the file's name, as decoding errors are.
    static func record(_ scene: Scene, from path: String) throws -> DisplayList {
        do { return try scene.displayList() } catch let error as SceneError {
            throw ToolError(.rejected, "\(path == "-" ? "<stdin>" : path): \(error)")
        }
    }
}
