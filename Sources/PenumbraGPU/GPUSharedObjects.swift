// GPUSharedObjects: the small GL objects every render of a renderer shares,
// made once with its context: the byte-to-float lookup table (as a texture
// and as a uniform block, mask.glsl picks one), the uniform buffer of blur
// weights (rewritten only when a shadow's kernel differs from the
// one it holds), the buffers of the passes' uniform blocks and GPU
// coverage's storage buffers.
import CEGL
import PenumbraModel
import PenumbraCore

/// The lookup texture and the blur weight buffer of one context.
final class GPUSharedObjects {
    /// Byte-to-float lookup (256 x 1 R32F): `b / 255` as the CPU's `unitTexel` computes it.
    let lookup: GLuint
    /// The same table as a std140 `vec4[64]` uniform buffer, bound to block binding 1.
    let lookupBlock: GLuint
    /// The std140 block `Weights { vec4 uW[weightVec4s]; }` of blur.frag.
    let weights: GLuint
    /// The block's length in vec4s: the context's GL_MAX_UNIFORM_BLOCK_SIZE, at most 64 KiB.
    let weightVec4s: Int
    /// The largest kernel radius the weight buffer holds (2047 at the GLES minimum of 16 KiB).
    var maxRadius: Int { (weightVec4s * 4 - 1) / 2 }
    private var weightsKernel: GaussianKernel?
    /// The renderer's frame counters (uploads of weights, draw calls).
    let counters: GPUCounters
    /// The buffers of the passes' uniform blocks (UniformBlocks.swift).
    let uniforms: UniformBuffers
    /// The edge and cell buffers of coverage computed on the GPU.
    let coverage: GPUCoverage

    init(maxBlockBytes: Int, counters: GPUCounters) {
        self.counters = counters
        uniforms = UniformBuffers(counters: counters)
        coverage = GPUCoverage(counters: counters)
        weightVec4s = max(1024, min(maxBlockBytes, 65536)) / 16
        var table = [Float](repeating: 0, count: 256)
        for b in 0..<256 { table[b] = Float(b) / 255 }
        var name: GLuint = 0
        glGenTextures(1, &name)
        glBindTexture(glEnum(GL_TEXTURE_2D), name)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        table.withUnsafeBytes {
            glTexImage2D(glEnum(GL_TEXTURE_2D), 0, GL_R32F, 256, 1, 0, glEnum(GL_RED), glEnum(GL_FLOAT), $0.baseAddress)
        }
        lookup = name
        var block: GLuint = 0
        glGenBuffers(1, &block)
        glBindBuffer(glEnum(GL_UNIFORM_BUFFER), block)
        table.withUnsafeBytes { glBufferData(glEnum(GL_UNIFORM_BUFFER), $0.count, $0.baseAddress, glEnum(GL_STATIC_DRAW)) }
        glBindBufferBase(glEnum(GL_UNIFORM_BUFFER), GLuint(UniformBlock.lookup.rawValue), block)
        lookupBlock = block
        var buffer: GLuint = 0
        glGenBuffers(1, &buffer)
        glBindBuffer(glEnum(GL_UNIFORM_BUFFER), buffer)
        let bytes = weightVec4s * 16
        glBufferData(glEnum(GL_UNIFORM_BUFFER), bytes, nil, glEnum(GL_DYNAMIC_DRAW))
        weights = buffer
    }

    /// Deletes the objects (the context must be current).
    func delete() {
        var texture = lookup, buffers = [weights, lookupBlock]
        glDeleteTextures(1, &texture)
        glDeleteBuffers(2, &buffers)
        uniforms.delete()
        coverage.delete()
    }

    /// Puts the kernel's weights in the buffer (unless it holds them already) and binds it to
    /// uniform block binding 0.
    func bindWeights(_ kernel: GaussianKernel) throws {
        guard kernel.radius <= maxRadius else {
            throw BackendUnavailable("a shadow blur radius of \(kernel.radius) pixels exceeds the GPU renderer's \(maxRadius)")
        }
        glBindBuffer(glEnum(GL_UNIFORM_BUFFER), weights)
        if weightsKernel != kernel {
            kernel.weights.withUnsafeBytes { bytes in
                counters.upload(bytes.count) { glBufferSubData(glEnum(GL_UNIFORM_BUFFER), 0, bytes.count, bytes.baseAddress) }
            }
            weightsKernel = kernel
        }
        glBindBufferBase(glEnum(GL_UNIFORM_BUFFER), GLuint(UniformBlock.weights.rawValue), weights)
    }
}
