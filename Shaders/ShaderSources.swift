// ShaderSources: the GLSL programs of the GPU renderer, embedded in the
// binary at build time (SwiftPM `.embedInCode` resources: each .glsl file of
// this folder becomes a byte array in `PackageResources`), so a binary needs
// nothing beside it. GLSL ES has no #include: a program's main file names its
// snippets with `//! include NAME.glsl` lines, and `program(_:)` replaces each
// such line by the snippet's text (include/ folder), in order.
import Foundation

/// The GLSL sources of the GPU renderer's programs.
public enum ShaderSources {
    /// Every embedded file by name (`composite.comp.glsl`, `blend.glsl`, ...).
    public static let files: [String: String] = [
        "quad.vert.glsl": text(PackageResources.quad_vert_glsl),
        "composite.comp.glsl": text(PackageResources.composite_comp_glsl),
        "compositepixel.glsl": text(PackageResources.compositepixel_glsl),
        "caster.frag.glsl": text(PackageResources.caster_frag_glsl),
        "blur.frag.glsl": text(PackageResources.blur_frag_glsl),
        "filter.frag.glsl": text(PackageResources.filter_frag_glsl),
        "filterblur.frag.glsl": text(PackageResources.filterblur_frag_glsl),
        "accumulate.comp.glsl": text(PackageResources.accumulate_comp_glsl),
        "resolve.comp.glsl": text(PackageResources.resolve_comp_glsl),
        "clipproduct.comp.glsl": text(PackageResources.clipproduct_comp_glsl),
        "coveragecells.glsl": text(PackageResources.coveragecells_glsl),
        "tilelist.glsl": text(PackageResources.tilelist_glsl),
        "colorfilter.glsl": text(PackageResources.colorfilter_glsl),
        "filterblock.glsl": text(PackageResources.filterblock_glsl),
        "blurweights.glsl": text(PackageResources.blurweights_glsl),
        "header.glsl": text(PackageResources.header_glsl),
        "mask.glsl": text(PackageResources.mask_glsl),
        "paint.glsl": text(PackageResources.paint_glsl),
        "blend.glsl": text(PackageResources.blend_glsl),
        "fixed.glsl": text(PackageResources.fixed_glsl),
        "fixed64.glsl": text(PackageResources.fixed64_glsl),
    ]

    /// The names of the fragment programs (each is drawn with the quad vertex shader).
    public static let fragmentPrograms = ["caster", "blur"]

    /// The compute programs: the composite (compiled at init) and GPU coverage's passes
    /// (compiled on first use).
    public static let computePrograms = ["composite", "accumulate", "resolve", "clipproduct"]

    /// The filter graph's pass programs (GPUFilterEvaluator), compiled on first use.
    public static let filterPrograms = ["filter", "filterblur"]

    /// The vertex shader shared by every program, assembled, with `defines` as `fragment` has them.
    public static func vertex(defines: [(String, Int)] = []) -> String {
        withDefines(assemble("//! include header.glsl\n" + (files["quad.vert.glsl"] ?? "")), defines)
    }

    /// The fragment shader `name` (`caster`, `blur`, `filter`, `filterblur`) with its snippets included;
    /// nil for an unknown name. `defines` become `#define NAME VALUE` lines right after the
    /// `#version` line (a specialised program: e.g. PAINT_KIND and BLEND_MODE as constants).
    public static func fragment(_ name: String, defines: [(String, Int)] = []) -> String? {
        files["\(name).frag.glsl"].map { withDefines(assemble($0), defines) }
    }

    /// The compute shader `name` (`composite`, `accumulate`, `resolve`) with its snippets included and the
    /// defines inserted; nil for an unknown name.
    public static func compute(_ name: String, defines: [(String, Int)] = []) -> String? {
        files["\(name).comp.glsl"].map { withDefines(assemble($0), defines) }
    }

    /// Inserts the defines after the first line (the `#version` line).
    static func withDefines(_ source: String, _ defines: [(String, Int)]) -> String {
        guard !defines.isEmpty, let end = source.firstIndex(of: "\n") else { return source }
        let lines = defines.map { "#define \($0.0) \($0.1)\n" }.joined()
        return String(source[...end]) + lines + String(source[source.index(after: end)...])
    }

    /// Replaces each `//! include NAME` line by that file's text. The `#version` line must come
    /// first in GLSL, so comment lines before the first include are dropped.
    static func assemble(_ source: String) -> String {
        var out: [Substring] = []
        var seenInclude = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("//! include ") {
                let name = String(line.dropFirst("//! include ".count)).trimmingCharacters(in: .whitespaces)
                out.append(Substring(files[name] ?? "#error missing snippet \(name)"))
                seenInclude = true
            } else if seenInclude || !line.hasPrefix("//") {
                out.append(line)
            }
        }
        // The header must open the program: drop its own leading comment lines too.
        let joined = out.joined(separator: "\n")
        guard let version = joined.range(of: "#version") else { return joined }
        return String(joined[version.lowerBound...])
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
