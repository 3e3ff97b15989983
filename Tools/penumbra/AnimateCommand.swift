// `penumbra animate SCENE.json -o OUT.png|OUT.webp|DIR --fps N [--duration D]`:
// renders the frames at t = i / N for i = 0 ..< ceil(D N) (D defaults to the
// longest animated image's duration) and writes an APNG, an animated WebP or
// one PNG per frame (frame0001.png, ...) into a folder. The scene and its
// images are decoded once; each frame swaps in the animated images' frames
// at its time (Scene.at(time:)). On a terminal, a progress line counts the
// frames (Progress.swift).
import ArgumentParser
import Foundation
import Penumbra

struct AnimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate", abstract: "Render a scene's animation to an APNG, an animated WebP or a folder of PNGs.")

    @Argument(help: "The scene file (JSON), or - for standard input.")
    var scene: String
    @Option(name: .shortAndLong, help: "OUT.png (APNG), OUT.webp (animated WebP) or a folder for one PNG per frame.")
    var output: String
    @Option(help: "Frames per second.")
    var fps: Int
    @Option(help: "Seconds to render (default: the longest animated image's duration).")
    var duration: Double?
    @Option(help: ArgumentHelp(Backend.optionHelp))
    var backend: Backend = .auto
    @Option(help: "Pixels per point, overriding the scene's scale.")
    var scale: Double?
    @Option(help: "Lossy WebP quality, 1...100.")
    var quality: Int = 90
    @Flag(help: "Lossless WebP.")
    var lossless = false
    @OptionGroup var limits: LimitOptions
    @OptionGroup var assets: AssetOptions

    func validate() throws {
        if !(1...1000).contains(fps) { throw ValidationError("--fps must be in 1...1000") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number") }
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100") }
    }

    func run() throws {
        let decoded = try SceneLoading.load(scene, limits: limits.limits, scale: scale, assets: assets.assets)
        let seconds = duration ?? decoded.animationDuration
        guard seconds > 0 else {
            throw ToolError(.rejected, "\(scene): the scene has no animated image; give --duration")
        }
        let count = Int((seconds * Double(fps)).rounded(.up))
        guard count <= 100_000 else { throw ToolError(.rejected, "\(scene): \(count) frames is more than 100000") }
        let choice: RendererChoice
        do { choice = try backend.makeRenderer() } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "backend \(backend.rawValue) unavailable: \(e.message)")
        }
        if let note = choice.note { Diagnostics.print("penumbra: \(note)") }
        let progress = Progress()
        defer { progress.done() }
        var frames: [Bitmap] = []
        for i in 0..<count {
            progress.say("frame \(i + 1)/\(count)")
            let list = try SceneLoading.record(decoded.at(time: Double(i) / Double(fps)), from: scene)
            do { frames.append(try choice.renderer.render(list)) } catch {
                throw ToolError(.failure, "rendering frame \(i) failed: \(error)")
            }
        }
        progress.say("encoding \(count) frames")
        let lower = output.lowercased()
        do {
            if lower.hasSuffix(".png") || lower.hasSuffix(".apng") {
                try OutputFile.write(APNGEncoder().encode(frames, fps: fps), to: output)
            } else if lower.hasSuffix(".webp") {
                try OutputFile.write(AnimatedWebPEncoder(quality: quality, lossless: lossless).encode(frames, fps: fps), to: output)
            } else {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                for (i, frame) in frames.enumerated() {
                    let name = (output as NSString).appendingPathComponent(String(format: "frame%04d.png", i + 1))
                    try OutputFile.write(PNGCodec.encode(frame), to: name)
                }
            }
        } catch let e as ToolError {
            throw e
        } catch {
            throw ToolError(.failure, "\(output): cannot write the animation (\(error))")
        }
    }
}
