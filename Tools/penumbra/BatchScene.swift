// One batch line's scene, encoder and output file. A scene file resolves
// against the manifest's folder and its images against its own folder, as
// `render` reads it; an inline scene's images resolve against the manifest's
// folder. Errors name the place in the line: `scene: cards/a.json: ops[2]:
// ...` for a file, `scene.ops[2]: ...` inline. The output is written under
// --out only: its folders are created, and a folder that is a symbolic link
// leading out of --out is refused.
import Foundation
import Penumbra

enum BatchScene {
    /// Decodes and records the line's scene in `environment` (the worker renderer's).
    static func displayList(for item: BatchItem, settings: BatchRunner.Settings, environment: SceneEnvironment) throws -> DisplayList {
        func fail(_ place: String, _ message: String) -> BatchLineError { BatchLineError(line: item.line, place: place, message: message) }
        let scene: Scene
        let describe: (SceneError) -> BatchLineError
        switch item.scene {
        case .file(let written):
            let path = written.hasPrefix("/") ? written : (settings.manifestDirectory as NSString).appendingPathComponent(written)
            describe = { fail("scene", "\(written): \($0)") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw fail("scene", "\(written): cannot read the scene file")
            }
            let folder = (path as NSString).deletingLastPathComponent
            do {
                scene = try Scene.decode([UInt8](data), baseDirectory: folder.isEmpty ? "." : folder, limits: settings.limits,
                                         scale: item.scale, time: item.time, environment: environment)
            } catch let error as SceneError { throw describe(error) }
        case .inline(let value):
            describe = { fail($0.location.isEmpty ? "scene" : "scene.\($0.location)", $0.message) }
            do {
                scene = try Scene.decode(parsed: value, sources: ImageSources(baseDirectory: settings.manifestDirectory),
                                         limits: settings.limits, scale: item.scale, time: item.time, environment: environment)
            } catch let error as SceneError { throw describe(error) }
        }
        do { return try scene.displayList() } catch let error as SceneError { throw describe(error) }
    }

    /// The encoder the line asks for.
    static func encoder(for item: BatchItem) -> any ImageEncoder {
        switch item.format {
        case .png: return PNGEncoder()
        case .jpeg: return JPEGEncoder(quality: item.quality, fullChroma: false, progressive: false)
        case .webp: return WebPEncoder(quality: item.quality, lossless: item.lossless)
        }
    }

    /// Writes `bytes` to `target` (under --out) atomically, creating its folders.
    static func write(_ bytes: [UInt8], to target: String, item: BatchItem, settings: BatchRunner.Settings) throws {
        if target == settings.logPath {
            throw BatchLineError(line: item.line, place: "output", message: "\"\(item.output)\" is the batch log's path")
        }
        let folder = (target as NSString).deletingLastPathComponent
        if folder != settings.outDirectory {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw BatchLineError(line: item.line, place: "output", message: "cannot create the folder of \"\(item.output)\" (\(error.localizedDescription))")
            }
            let real = (folder as NSString).resolvingSymlinksInPath
            guard real.hasPrefix(settings.outDirectory + "/") else {
                throw BatchLineError(line: item.line, place: "output", message: "\"\(item.output)\" leads out of --out through a symbolic link")
            }
        }
        try OutputFile.write(bytes, to: target)
    }
}
