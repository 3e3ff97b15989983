// `--assets DIR`: where a scene's images and fonts resolve, for the commands that read scene
// files (render, parity, bench, animate), as `penumbra serve --assets` does for the server.
// Without it they resolve in the scene file's folder (the current directory for `-`). Either
// way they must lie inside that folder: no absolute paths, no `..` climbing out, no symbolic
// link leading out (the scene decoder's confinement, the same as the server's).
import ArgumentParser
import Foundation

struct AssetOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The folder the scene's images and fonts resolve in, and must stay inside (default: the scene file's folder; the current directory for -).",
        valueName: "DIR"))
    var assets: String?

    func validate() throws {
        guard let assets else { return }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: assets, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--assets \(assets): no such folder")
        }
    }
}
