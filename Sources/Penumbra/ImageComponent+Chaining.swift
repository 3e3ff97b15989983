// The decorators as a chain, written the way the seed writes it:
//
//     photo.transformed(by: rotation).withDropShadow(offset: Size(width: -25, height: 15), blur: 20)
//         .draw(at: .zero, context: context)
//
// Each call wraps the component it is called on in one more decorator and returns it, so the
// chain reads in the order the effects nest: the shadow is that of the transformed image. Nothing
// is drawn until `draw(at:context:)` or `draw(in:context:)`; the chain can be kept and drawn into
// any number of contexts. It is exactly the nested initialisers
// (`ShadowFilter(TransformFilter(photo, transform: rotation), offset: ..., blur: ...)`): the same
// objects, the same recording, the same pixels.

extension ImageComponent {
    /// This component drawn under an extra transform, concatenated to the CTM when it draws
    /// (``TransformFilter``).
    public func transformed(by transform: AffineTransform) -> TransformFilter {
        TransformFilter(self, transform: transform)
    }

    /// This component drawn with a drop shadow (``ShadowFilter``): `offset` and `blur` in
    /// base-space points, unaffected by the transforms it draws under, as
    /// `CGContextSetShadowWithColor` is.
    public func withDropShadow(offset: Size, blur: Double, color: Color = .defaultShadow) -> ShadowFilter {
        ShadowFilter(self, offset: offset, blur: blur, color: color)
    }
}
