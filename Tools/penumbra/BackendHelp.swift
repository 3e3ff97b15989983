// What `--backend` does, said once for every command that takes it.
import Penumbra

extension Backend {
    /// The help of `--backend`: what `auto` picks, and that `gpu` takes any EGL context.
    static let optionHelp = "auto, cpu or gpu. auto renders on a hardware GPU when EGL offers one, and on the CPU "
        + "when there is none, when the only GL is a software rasterizer (llvmpipe, softpipe, SwiftShader; slower "
        + "than the CPU renderer) or when the canvas exceeds the GPU's texture size; it says which and why on "
        + "stderr. gpu takes any EGL context, a software one included, and exits 3 without one."
}
