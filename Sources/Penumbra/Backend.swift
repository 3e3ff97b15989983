// Backend selection: which renderer executes a display list. `auto` takes
// the GPU when a headless EGL / OpenGL ES 3 context can be made and the CPU
// otherwise; the choice and its reason are reported to the caller so tools
// can say which one ran.
import PenumbraCPU

/// Which renderer to use.
public enum Backend: String, Sendable, Hashable, CaseIterable {
    /// The GPU when a headless EGL context can be made, else the CPU.
    case auto
    /// The CPU reference renderer.
    case cpu
    /// The GLES renderer on a headless EGL context.
    case gpu
}

/// The requested backend cannot run here (no GPU context, or a canvas it cannot hold).
public struct BackendUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A renderer chosen for a backend request, with a note on why (for `auto`).
public struct RendererChoice {
    public var renderer: Renderer
    /// Why this renderer was chosen, e.g. "GPU unavailable (...): rendering on the CPU".
    public var note: String?
}

extension Backend {
    /// Makes the renderer this backend names. `.gpu` throws `BackendUnavailable` when no GPU
    /// renderer can run; `.auto` falls back to the CPU and says why in the note.
    public func makeRenderer() throws -> RendererChoice {
        switch self {
        case .cpu:
            return RendererChoice(renderer: CPURenderer(), note: nil)
        case .gpu:
            throw BackendUnavailable("the GPU renderer is not available in this build")
        case .auto:
            return RendererChoice(renderer: CPURenderer(),
                                  note: "auto: the GPU renderer is not available in this build; rendering on the CPU")
        }
    }
}
