// PaintPlan: a draw's paint with every constant resolved, once, in Core, for
// one position of the paint (the op's own, or moved by its shadow's offset):
// the premultiplied U8 colour of a fill, the fixed-point ImageSamplingPlan
// and the mip atlas of an image, the Q16 ramp and the Q24 parameter or 64-bit
// radial solve of a gradient. Both renderers execute these plans and nothing
// else: the CPU's shaders evaluate them a row at a time, the GPU copies their
// integers into paint.glsl's uniform block. A renderer never derives a paint
// constant of its own, so the two cannot drift apart.
//
// Pixels only a renderer has (a finished layer, the blurred backdrop of a
// `blurBackdrop`) are `placed`: the renderer supplies them, 1:1 on the device
// grid at `frame`, transparent outside it.

import PenumbraModel

/// The paint of one draw at one position, every constant resolved.
@usableFromInline package enum PaintPlan: Sendable {
    /// A premultiplied U8 colour.
    case solid(SIMD4<UInt8>)
    /// A drawn image: its pixels, its mip atlas and the fixed-point sampling plan.
    case image(ImagePaint)
    /// Pixels the renderer supplies, placed 1:1 at a frame (a finished layer, a backdrop).
    case placed(PlacedPaint)
    /// A linear gradient: the ramp and the Q24 parameter.
    case linearGradient(LinearGradientPaint)
    /// A two-circle radial gradient: the ramp and the 64-bit solve.
    case radialGradient(RadialGradientPaint)

    /// The paint of a fill.
    package init(color: Color) { self = .solid(color.premultiplied8) }

    /// The paint of an image draw, moved by `offset` device pixels.
    package init(image draw: ImageDraw, offset: Point = .zero) {
        let sampling = ImageSamplingPlan(draw, offset: offset)
        self = .image(ImagePaint(pixels: draw.pixels, atlas: sampling.mipmaps.map { draw.bitmap.mipAtlas($0) },
                                 sampling: sampling, tint8: draw.tint?.premultiplied8))
    }

    /// The paint of a gradient, moved by `offset` device pixels.
    package init(gradient: GradientDraw, offset: Point = .zero) {
        let ramp = GradientRamp(gradient.stops)
        switch gradient.kind {
        case .linear:
            self = .linearGradient(LinearGradientPaint(ramp: ramp, parameter: LinearGradientPlan(gradient, offset: offset).parameter,
                                                       extendStart: gradient.extendStart, extendEnd: gradient.extendEnd))
        case .radial:
            self = .radialGradient(RadialGradientPaint(ramp: ramp, solve: RadialGradientPlan(gradient, offset: offset)))
        }
    }

    /// Renderer-supplied pixels placed 1:1 at `frame`, moved by `offset` device pixels; with
    /// `luminanceToAlpha` each sample reads as (0, 0, 0, its luminance) (LuminanceMask.swift).
    package init(placedAt frame: PixelRect, offset: Point = .zero, luminanceToAlpha: Bool = false) {
        self = .placed(PlacedPaint(frame: frame, sampling: ImageSamplingPlan(layerFrame: frame, offset: offset),
                                   luminanceToAlpha: luminanceToAlpha))
    }
}

/// An image's paint.
@usableFromInline package struct ImagePaint: Sendable {
    /// The (cropped) premultiplied pixels, held or deferred (a GPU renderer draws pixels it
    /// keeps from its texture without making them).
    @usableFromInline package let pixels: ImagePixels
    /// The pixels, made now if they are deferred.
    @usableFromInline package var bitmap: Bitmap { pixels.bitmap }
    /// The mip levels the plan samples (ImageSamplingPlan.mipmaps), nil when it samples none.
    @usableFromInline package let atlas: Bitmap?
    @usableFromInline package let sampling: ImageSamplingPlan
    /// A template image's tint, premultiplied U8: painted with the sampled alpha. Nil: the image's colours.
    @usableFromInline package let tint8: SIMD4<UInt8>?
}

/// Pixels a renderer supplies, placed 1:1 on the device grid; transparent outside `frame`.
@usableFromInline package struct PlacedPaint: Sendable {
    @usableFromInline package let frame: PixelRect
    @usableFromInline package let sampling: ImageSamplingPlan
    /// Each sample (r, g, b, a) reads as (0, 0, 0, Fixed.luminanceAlpha) (LuminanceMask.swift).
    @usableFromInline package var luminanceToAlpha = false
}

/// A linear gradient's paint.
@usableFromInline package struct LinearGradientPaint: Sendable {
    @usableFromInline package let ramp: GradientRamp
    /// t24 at each device pixel; nil when the gradient draws nothing (start == end).
    @usableFromInline package let parameter: FixedAffine?
    @usableFromInline package let extendStart: Bool, extendEnd: Bool
}

/// A radial gradient's paint.
@usableFromInline package struct RadialGradientPaint: Sendable {
    @usableFromInline package let ramp: GradientRamp
    /// The solve (with the sides' extension); nil when the gradient draws nothing.
    @usableFromInline package let solve: RadialGradientPlan?
}
