// LCMSColorManager: embedded ICC profiles to sRGB through lcms2, perceptual
// intent. A profile that does not parse, or whose colour space does not fit
// the pixels (an RGB profile on RGB pixels, grey on grey-as-RGB, CMYK on
// CMYK), is ignored and the pixels are left as they are: the scene format
// says such a profile is ignored. lcms2 reports errors through a log
// handler and return values, never longjmp, so it is called from Swift
// directly. Alpha is copied through untouched (cmsFLAGS_COPY_ALPHA).
import CLCMS2
import PenumbraModel

/// lcms2 as the pipeline's colour manager.
package struct LCMSColorManager: ColorManaging {
    package init() {}

    package func convertToSRGB(_ rgba: inout [UInt8], profile: [UInt8]) -> Bool {
        guard let input = Self.openProfile(profile) else { return false }
        defer { cmsCloseProfile(input) }
        let space = cmsGetColorSpace(input)
        switch space {
        case cmsSigRgbData:
            return transform(&rgba, from: input, format: Self.typeRGBA8, outputFormat: Self.typeRGBA8)
        case cmsSigGrayData:
            // Grey files reach the pipeline as RGB with equal channels; the profile reads one.
            let n = rgba.count / 4
            let grey = (0..<n).map { rgba[$0 * 4] }
            var rgb = [UInt8](repeating: 0, count: n * 3)
            guard transform(&rgb, from: input, format: Self.typeGray8, outputFormat: Self.typeRGB8,
                            copyAlpha: false, source: grey, count: n) else { return false }
            for i in 0..<n { rgba[i * 4] = rgb[i * 3]; rgba[i * 4 + 1] = rgb[i * 3 + 1]; rgba[i * 4 + 2] = rgb[i * 3 + 2] }
            return true
        default:
            return false
        }
    }

    /// CMYK pixels (4 bytes, inverted when `inverted`) to RGBA with alpha 255.
    package func convertCMYK(_ pixels: inout [UInt8], profile: [UInt8], inverted: Bool) -> Bool {
        guard let input = Self.openProfile(profile) else { return false }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == cmsSigCmykData else { return false }
        // TYPE_CMYK_8 / TYPE_CMYK_8_REV (flavour bit: 0 is white ... inverted storage).
        let cmyk: UInt32 = (6 << 16) | (4 << 3) | 1 | (inverted ? (1 << 13) : 0)
        var out = pixels
        guard transform(&out, from: input, format: cmyk, outputFormat: Self.typeRGBA8, copyAlpha: false, source: pixels) else {
            return false
        }
        var i = 3
        while i < out.count { out[i] = 255; i += 4 }
        pixels = out
        return true
    }

    // TYPE_RGBA_8: COLORSPACE_SH(PT_RGB=4) | EXTRA_SH(1) | CHANNELS_SH(3) | BYTES_SH(1).
    static let typeRGBA8: UInt32 = (4 << 16) | (1 << 7) | (3 << 3) | 1
    static let typeGray8: UInt32 = (3 << 16) | (1 << 3) | 1
    static let typeRGB8: UInt32 = (4 << 16) | (3 << 3) | 1

    static func openProfile(_ profile: [UInt8]) -> cmsHPROFILE? {
        guard profile.count >= 132, profile.count <= 16 << 20 else { return nil }
        return profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
    }

    private func transform(_ pixels: inout [UInt8], from input: cmsHPROFILE, format: UInt32, outputFormat: UInt32,
                           copyAlpha: Bool = true, source: [UInt8]? = nil, count: Int? = nil) -> Bool {
        guard let srgb = cmsCreate_sRGBProfile() else { return false }
        defer { cmsCloseProfile(srgb) }
        let flags: UInt32 = copyAlpha ? 0x0400_0000 : 0  // cmsFLAGS_COPY_ALPHA
        guard let t = cmsCreateTransform(input, format, srgb, outputFormat, UInt32(INTENT_PERCEPTUAL), flags) else {
            return false
        }
        defer { cmsDeleteTransform(t) }
        let count = count ?? pixels.count / 4
        let src = source ?? pixels
        src.withUnsafeBytes { s in
            pixels.withUnsafeMutableBytes { d in cmsDoTransform(t, s.baseAddress, d.baseAddress, cmsUInt32Number(count)) }
        }
        return true
    }
}
