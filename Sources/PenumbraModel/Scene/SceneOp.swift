// SceneOp: one validated scene operation, one case per op of SCENE_FORMAT.md
// ("Ops"), carrying typed values (Path, Color, AffineTransform, Image) rather
// than JSON. Decoding checks every field; replaying maps each case to exactly
// one GraphicsContext call (Scene+Replay.swift). Defaults the format gives
// (fill rule nonzero, shadow colour black at 1/3, gradient extend both true)
// are filled in by the decoder, so an op says everything it does.

/// One validated scene operation.
package enum SceneOp: Hashable, Sendable {
    /// `save`: CGContextSaveGState.
    case save
    /// `restore`: CGContextRestoreGState.
    case restore
    /// `concat`: CGContextConcatCTM; the matrix applies first, in user space.
    case concat(AffineTransform)
    /// `translate`: CGContextTranslateCTM.
    case translate(x: Double, y: Double)
    /// `scale`: CGContextScaleCTM.
    case scale(x: Double, y: Double)
    /// `rotate`: CGContextRotateCTM, radians.
    case rotate(angle: Double)
    /// `setAlpha`: 0...1.
    case setAlpha(Double)
    /// `setBlendMode`.
    case setBlendMode(BlendMode)
    /// `setShadow`: offset and blur in base-space points (blur 0...256); the colour defaults to black at 1/3.
    case setShadow(offset: Size, blur: Double, color: Color)
    /// `clearShadow`.
    case clearShadow
    /// `setFillColor`.
    case setFillColor(Color)
    /// `setStrokeColor`.
    case setStrokeColor(Color)
    /// `setLineWidth`: >= 0.
    case setLineWidth(Double)
    /// `setLineCap`.
    case setLineCap(LineCap)
    /// `setLineJoin`.
    case setLineJoin(LineJoin)
    /// `setMiterLimit`: >= 0.
    case setMiterLimit(Double)
    /// `setLineDash`: empty lengths is a solid line.
    case setLineDash(phase: Double, lengths: [Double])
    /// `clip`: intersects the clip with the path under the rule.
    case clip(Path, FillRule)
    /// `fill`.
    case fill(Path, FillRule)
    /// `stroke`.
    case stroke(Path)
    /// `drawImage`.
    case drawImage(DrawImageOp)
    /// `linearGradient`: fills the clip.
    case linearGradient(start: Point, end: Point, stops: [GradientStop], extendStart: Bool, extendEnd: Bool)
    /// `radialGradient`: fills the clip (the canvas two-circle rule).
    case radialGradient(startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double,
                        stops: [GradientStop], extendStart: Bool, extendEnd: Bool)
    /// `beginLayer`: CGContextBeginTransparencyLayer (an implicit save).
    case beginLayer
    /// `endLayer`: CGContextEndTransparencyLayer.
    case endLayer
    /// `drawText`: laid out when decoded; its frame (if any) then the text.
    case drawText(DrawTextOp)
    /// `blurBackdrop`: radius in points 0...256, saturation, optional tint.
    case blurBackdrop(Path, radius: Double, saturation: Double, tint: Color?)
    /// `drawView`: a view tree drawn as drawHierarchy(in:) (ViewNode+Drawing.swift).
    case drawView(DrawViewOp)
}

/// A `drawImage` op: the image as the scene loaded it, plus the op's own attributes.
package struct DrawImageOp: Hashable, Sendable {
    /// Where the image goes: a rectangle, or its natural size at a point (user space).
    package enum Placement: Hashable, Sendable {
        /// `rect: [x, y, w, h]` (UIImage drawInRect:).
        case rect(Rect)
        /// `at: [x, y]` (UIImage drawAtPoint:).
        case at(Point)
    }

    /// The key in the scene's `images`.
    package var imageName: String
    /// The image as loaded (pixels and scale), before this op's crop, slicing, template and flip.
    package var image: Image
    /// The destination: a rectangle, or the natural size at a point.
    package var placement: Placement
    /// Blend mode for this call only (nil: the context's).
    package var blendMode: BlendMode?
    /// Alpha for this call only, 0...1, multiplied with the context's.
    package var alpha: Double
    /// Sub-rectangle of the image in image points (CGImageCreateWithImageInRect).
    package var crop: Rect?
    /// Nine-slice cap insets (image points) and resizing mode.
    package var slicing: NineSlice?
    /// `.template` draws the tint with the image's alpha.
    package var renderingMode: RenderingMode
    /// Template colour (only with `.template`); nil is black.
    package var tint: Color?
    /// Mirror the finished drawing within its rectangle (`flipped: "horizontal"`).
    package var flippedHorizontally: Bool
    /// Where the image goes in `rect` (only with `.rect`; `.scaleToFill` is the rect itself).
    package var contentMode: ContentMode = .scaleToFill
    /// Clip the draw (and its shadow) to the rect, or to the natural rect with `.at`.
    package var clipsToBounds: Bool = false
    /// The requested sampling; carried for the renderers, which do not read it yet.
    package var interpolation: ImageInterpolation = .default

    /// A drawImage op; attributes default to a plain draw.
    package init(imageName: String, image: Image, placement: Placement, blendMode: BlendMode? = nil, alpha: Double = 1,
                crop: Rect? = nil, slicing: NineSlice? = nil, renderingMode: RenderingMode = .original,
                tint: Color? = nil, flippedHorizontally: Bool = false) {
        self.imageName = imageName; self.image = image; self.placement = placement
        self.blendMode = blendMode; self.alpha = alpha; self.crop = crop; self.slicing = slicing
        self.renderingMode = renderingMode; self.tint = tint; self.flippedHorizontally = flippedHorizontally
    }

    /// The image this op draws, built in the order of the scene format: crop, then slice, then
    /// template, then flip. Nil when the crop leaves nothing, in which case the op draws nothing:
    /// CGImageCreateWithImageInRect returns NULL for a rectangle that misses the image or is
    /// empty (zero width or height), and drawing a NULL image draws nothing.
    package func finishedImage() -> Image? {
        var result = image
        if let crop {
            guard !crop.isEmpty, let cropped = result.cropped(to: crop) else { return nil }
            result = cropped
        }
        if let slicing { result = result.resizable(capInsets: slicing.capInsets, mode: slicing.mode) }
        if renderingMode == .template { result = result.withRenderingMode(.template, tint: tint) }
        if flippedHorizontally { result = result.flippedHorizontally() }
        return result
    }

    /// The bounds of the draw: the rect, or the natural rect of `image` at the point.
    package func bounds(of image: Image) -> Rect {
        switch placement {
        case .rect(let rect): return rect
        case .at(let p): return Rect(x: p.x, y: p.y, width: image.size.width, height: image.size.height)
        }
    }

    /// Where `image` (the finished image) is drawn: the bounds placed by the content mode.
    package func placedRect(of image: Image) -> Rect {
        contentMode.placedRect(imageSize: image.size, in: bounds(of: image))
    }
}
