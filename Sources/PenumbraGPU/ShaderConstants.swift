// ShaderConstants: the Swift enums and sizes the GLSL programs depend on,
// handed to every program as `#define`s generated from the Swift side
// (`BLEND_NORMAL 0` ... from BlendMode, `PAINT_SOLID 0` ... from
// GPUPaint.Kind, `BLOCK_PAINT` ... from UniformBlock, `UNIT_COVERAGE` ... from
// GPURenderer.Unit, `COVERAGE_GPU_MASK` ... from GPUFrame.CoverageKind, the tile side and the work-group sizes from GPUCoverage),
// so that no number in a shader stands for a case, a binding or a size by
// convention: every sampler, image and buffer is bound with
// `layout(binding = ...)` to one of these, nothing is looked up by name, and
// adding a case cannot shift one silently (ShaderConstantsTests checks that
// every case is handled by name).
import PenumbraModel
import PenumbraCore

enum ShaderConstants {
    /// `BLEND_<MODE>` for each blend mode, `PAINT_<KIND>` for each paint kind and `BLOCK_<NAME>`
    /// for each uniform block's binding point, `STORAGE_<NAME>` for each shader storage buffer's,
    /// `IMAGE_<NAME>` for each image unit, `UNIT_<NAME>` for each texture unit and `COVERAGE_<KIND>`
    /// for each kind of composite coverage (GPUFrame.CoverageKind); `TILE_SIZE`,
    /// `ACCUMULATE_GROUP` and `RESOLVE_GROUP` for the coverage passes' tile and work groups.
    static let defines: [(String, Int)] =
        BlendMode.allCases.map { ("BLEND_" + macroName(String(describing: $0)), $0.shaderValue) }
        + GPUPaint.Kind.allCases.map { ("PAINT_" + macroName(String(describing: $0)), $0.rawValue) }
        + UniformBlock.allCases.map { ("BLOCK_" + macroName(String(describing: $0)), $0.rawValue) }
        + StorageBinding.allCases.map { ("STORAGE_" + macroName(String(describing: $0)), $0.rawValue) }
        + ImageUnit.allCases.map { ("IMAGE_" + macroName(String(describing: $0)), $0.rawValue) }
        + GPURenderer.Unit.allCases.map { ("UNIT_" + macroName(String(describing: $0)), Int($0.rawValue)) }
        + GPUFrame.CoverageKind.allCases.map { ("COVERAGE_" + macroName(String(describing: $0)), $0.rawValue) }
        + [("TILE_SIZE", GPUCoverage.tileSize), ("ACCUMULATE_GROUP", GPUCoverage.accumulateGroup),
           ("RESOLVE_GROUP", GPUCoverage.resolveGroup)]

    /// `colorDodge` → `COLOR_DODGE`.
    static func macroName(_ caseName: String) -> String {
        var out = ""
        for character in caseName {
            if character.isUppercase, !out.isEmpty { out.append("_") }
            out.append(contentsOf: character.uppercased())
        }
        return out
    }
}

extension BlendMode {
    /// The mode's value in the shaders (its `BLEND_` define): its index among all cases.
    var shaderValue: Int { BlendMode.allCases.firstIndex(of: self)! }
}

/// The shader storage buffer binding points (`STORAGE_<NAME>` in GLSL).
enum StorageBinding: Int, CaseIterable {
    /// accumulate.comp's edges (GPUCoverage).
    case edges = 0
    /// The coverage cells both coverage programs share (GPUCoverage).
    case cells
    /// Per tile of a coverage region, the stamp of the op that last listed it (tilelist.glsl).
    case tileFlags
    /// The occupied tiles resolve.comp lists for composite.comp, and their dispatch headers.
    case tileList
    /// The descriptors of a batch of ops whose coverage is computed together.
    case ops
}

/// The image units (`IMAGE_<NAME>` in GLSL).
enum ImageUnit: Int, CaseIterable {
    /// resolve.comp's output: an R32UI coverage mask (GPUCoverage).
    case coverage = 0
    /// composite.comp's target, read (RGBA8, read-only).
    case target
    /// composite.comp's target, written (the same texture, write-only).
    case targetOut
}
