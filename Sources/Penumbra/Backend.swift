// Backend selection: which renderer executes a display list. `auto` takes
// a hardware GPU when a headless EGL / OpenGL ES 3 context can be made on one,
// and the CPU otherwise: a software rasterizer (llvmpipe, softpipe,
// SwiftShader) is slower than the CPU renderer, so only `gpu` uses it. The
// choice and its reason are reported to the caller so tools can say which one
// ran. Setting the environment variable
// PENUMBRA_DISABLE_GPU=1 makes the GPU unavailable (for tests of the
// fall-back and of exit status 3, and to force the CPU in production).
import Foundation
import PenumbraCPU
import PenumbraGPU

/// Which renderer to use.
public enum Backend: String, Sendable, Hashable, CaseIterable {
    /// A hardware GPU when a headless EGL context can be made on one, else the CPU; a software
    /// rasterizer (llvmpipe) is not used, and a canvas, layer or shadow larger than the GPU's
    /// texture size is rendered on the CPU. Setting `PENUMBRA_DISABLE_GPU=1` forces the CPU.
    case auto
    /// The CPU reference renderer.
    case cpu
    /// The GLES renderer on a headless EGL context, software rasterizers included; its pixels are
    /// byte-identical to the CPU renderer's.
    case gpu
}

/// A renderer chosen for a backend request, with a note on why (for `auto`).
public struct RendererChoice {
    /// The renderer to render display lists with.
    public var renderer: Renderer
    /// For `auto`, which backend runs and why, e.g. "auto: rendering on the CPU: no GPU (...)";
    /// nil for `cpu` and `gpu`.
    public var note: String?
}

extension Backend {
    /// The environment variable that, set to 1, makes the GPU backend unavailable.
    public static let disableGPUVariable = "PENUMBRA_DISABLE_GPU"

    /// Makes the renderer this backend names. `.gpu` throws `BackendUnavailable` when no GPU
    /// renderer can run (with the EGL failure); `.auto` falls back to the CPU and says why.
    public func makeRenderer() throws -> RendererChoice {
        switch self {
        case .cpu:
            return RendererChoice(renderer: CPURenderer(), note: nil)
        case .gpu:
            let renderer = try Backend.makeGPURenderer()
            return RendererChoice(renderer: renderer, note: nil)
        case .auto:
            do {
                let renderer = AutoRenderer(gpu: try Backend.makeGPURenderer(hardwareOnly: true))
                return RendererChoice(renderer: renderer,
                                      note: "auto: rendering on the GPU (\(renderer.name)); on the CPU for canvases over "
                                        + "\(renderer.gpu.maxTextureSize) px a side")
            } catch {
                return RendererChoice(renderer: CPURenderer(), note: "auto: rendering on the CPU: \(error)")
            }
        }
    }

    /// Whether the machine has a device node a hardware GL driver could open: a DRM node
    /// (/dev/dri/renderD*, /dev/dri/card*) or NVIDIA's (/dev/nvidia0...).
    package static var hasGPUDeviceNode: Bool {
        let fm = FileManager.default
        let dri = (try? fm.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        if dri.contains(where: { $0.hasPrefix("renderD") || $0.hasPrefix("card") }) { return true }
        let dev = (try? fm.contentsOfDirectory(atPath: "/dev")) ?? []
        return dev.contains { $0.hasPrefix("nvidia") && $0.dropFirst(6).allSatisfy(\.isNumber) && $0.count > 6 }
    }

    /// A GPU renderer, or `BackendUnavailable` with the reason. With `hardwareOnly` (what `auto`
    /// asks), a software rasterizer is refused too, found from the GL_RENDERER string before
    /// anything is compiled for it.
    static func makeGPURenderer(hardwareOnly: Bool = false) throws -> GPURenderer {
        if ProcessInfo.processInfo.environment[disableGPUVariable] == "1" {
            throw BackendUnavailable("the GPU is disabled by \(disableGPUVariable)=1")
        }
        if hardwareOnly {
            // A hardware GL driver opens a device node; without one there is only a software
            // rasterizer, found without the tens of milliseconds an EGL probe costs each process.
            guard hasGPUDeviceNode else {
                throw BackendUnavailable("no GPU device (no /dev/dri or /dev/nvidia* node); --backend gpu uses a software rasterizer")
            }
            let probed: String
            do { probed = try GPURenderer.probeRendererString() } catch { throw BackendUnavailable("no GPU (\(error))") }
            guard !GPURenderer.isSoftware(probed) else {
                throw BackendUnavailable("the only GL renderer is a software rasterizer (\(probed)), "
                                         + "slower than the CPU renderer; --backend gpu uses it")
            }
        }
        do { return try GPURenderer() } catch let e as BackendUnavailable { throw e } catch {
            throw BackendUnavailable("\(error)")
        }
    }
}

/// `auto`'s renderer: the GPU, and the CPU for a list the GPU cannot hold (a canvas, layer or
/// shadow plane beyond its texture size), so that `auto` never fails for size.
final class AutoRenderer: Renderer {
    let gpu: GPURenderer
    private lazy var cpu = CPURenderer()
    init(gpu: GPURenderer) { self.gpu = gpu }
    /// The GPU's renderer string.
    var name: String { gpu.name }
    func render(_ list: DisplayList) throws -> Bitmap { try render(list, cancellation: nil) }
    func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
        do { return try gpu.render(list, cancellation: cancellation) } catch is BackendUnavailable {
            return try cpu.render(list, cancellation: cancellation)
        }
    }
}
