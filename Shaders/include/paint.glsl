// paint: the op's source colour at a device pixel, a port of PenumbraCPU's
// shaders (Shader.swift, ImageShader.swift, GradientShader.swift). Positions
// are affine in the device pixel: the Swift side evaluates, in Double, the
// paint coordinate at the pixel centre of uPaintOrigin (shifted by a shadow
// offset) and its steps per pixel, so the shader only adds small multiples:
//     value = uMap0 + uMapX * dx + uMapY * dy,   (dx, dy) = p - uPaintOrigin.
// Images: the value is, per axis, the image pixel position (plain axis) or
// the distance into the destination rectangle (nine-slice axis, then mapped
// through the three regions exactly as SliceAxis). Gradients: x is the
// linear parameter t; for radial gradients the value is p - c0 in user space.
// Layers: 1:1 texels of the layer, shifted by a whole-pixel shift and a
// fraction (bilinear only when the fraction is non-zero), 0 outside.
// A gradient side that draws nothing sets the coverage to 0.

// 0 solid, 1 image, 2 linear, 3 radial, 4 layer: a constant in a specialised program (the
// compiler drops the other paints), else a uniform.
#ifndef PAINT_KIND
uniform int uPaintKind;
#define PAINT_KIND uPaintKind
#endif
uniform vec4 uSolid;
uniform ivec2 uPaintOrigin;
uniform vec2 uMap0;
uniform vec2 uMapX;
uniform vec2 uMapY;

// Images
uniform usampler2D uImage;
uniform ivec2 uImagePixels;
uniform ivec2 uAxisSliced;
uniform vec4 uAxisBounds;          // x axis: (leading end, trailing start), y axis: (z, w)
uniform vec4 uAxisRegion[6];       // [axis * 3 + region]: destStart, destLength, pixelStart, pixelLength
uniform ivec4 uAxisSpan[6];        // first, last, tile, degenerate
uniform float uImageScale;
uniform int uHasTint;
uniform vec4 uTint;

// Gradients
uniform sampler2D uStops;          // row 0: premultiplied colours, row 1: offsets (r)
uniform int uStopCount;
uniform ivec2 uExtend;             // start, end
uniform vec4 uRadial;              // cd.x, cd.y, r0, dr
uniform float uRadialA;
uniform int uRadialDegenerate;

// Layers
uniform sampler2D uLayer;
uniform ivec4 uLayerRect;          // the layer's frame on the device grid
uniform ivec2 uLayerShift;
uniform vec2 uLayerFraction;

struct AxisSample { float position; int first; int last; };

AxisSample axisSample(int axis, float value) {
    int pixels = axis == 0 ? uImagePixels.x : uImagePixels.y;
    if (uAxisSliced[axis] == 0) return AxisSample(value, 0, pixels - 1);
    vec2 bounds = axis == 0 ? uAxisBounds.xy : uAxisBounds.zw;
    int region = value < bounds.x ? 0 : (value >= bounds.y ? 2 : 1);
    vec4 reg = uAxisRegion[axis * 3 + region];
    ivec4 span = uAxisSpan[axis * 3 + region];
    if (span.w != 0) return AxisSample(reg.z, span.x, span.y);
    precise float local = value - reg.x;
    if (span.z != 0) {
        precise float tileLength = reg.w / uImageScale;
        precise float within = local - floor(local / tileLength) * tileLength;
        precise float position = reg.z + within * uImageScale;
        return AxisSample(position, span.x, span.y);
    }
    precise float position = reg.z + local / reg.y * reg.w;
    return AxisSample(position, span.x, span.y);
}

vec4 imageTexel(int x, int y) { return bytesToFloat(texelFetch(uImage, ivec2(x, y), 0)); }

vec4 imageBilinear(AxisSample sx, AxisSample sy) {
    precise float fx = sx.position - 0.5;
    precise float fy = sy.position - 0.5;
    float ix = clamp(floor(fx), -1.0e9, 1.0e9), iy = clamp(floor(fy), -1.0e9, 1.0e9);
    precise float tx = fx - ix;
    precise float ty = fy - iy;
    int x0 = clamp(int(ix), sx.first, sx.last), x1 = clamp(int(ix) + 1, sx.first, sx.last);
    int y0 = clamp(int(iy), sy.first, sy.last), y1 = clamp(int(iy) + 1, sy.first, sy.last);
    precise vec4 top = imageTexel(x0, y0) * (1.0 - tx) + imageTexel(x1, y0) * tx;
    precise vec4 bottom = imageTexel(x0, y1) * (1.0 - tx) + imageTexel(x1, y1) * tx;
    precise vec4 c = top * (1.0 - ty) + bottom * ty;
    return c;
}

bool gradientDraws(float t) { return t < 0.0 ? uExtend.x != 0 : (t > 1.0 ? uExtend.y != 0 : true); }

float stopOffset(int i) { return texelFetch(uStops, ivec2(i, 1), 0).r; }
vec4 stopColor(int i) { return texelFetch(uStops, ivec2(i, 0), 0); }

vec4 gradientColor(float t) {
    if (uStopCount == 0) return vec4(0.0);
    if (t < stopOffset(0)) return stopColor(0);
    if (t >= stopOffset(uStopCount - 1)) return stopColor(uStopCount - 1);
    int i = 0;
    while (i + 1 < uStopCount && stopOffset(i + 1) <= t) i++;
    precise float span = stopOffset(i + 1) - stopOffset(i);
    if (!(span > 0.0)) return stopColor(i + 1);
    precise float f = (t - stopOffset(i)) / span;
    precise vec4 c = stopColor(i) + (stopColor(i + 1) - stopColor(i)) * f;
    return c;
}

// The radial parameter (GradientShader.parameter); false where nothing is drawn.
bool radialParameter(vec2 pd, out float t) {
    vec2 cd = uRadial.xy; float r0 = uRadial.z, dr = uRadial.w;
    precise float b = dot(pd, cd) + r0 * dr;
    precise float c = dot(pd, pd) - r0 * r0;
    if (uRadialDegenerate != 0) {
        if (b == 0.0) return false;
        t = c / (2.0 * b);
        return r0 + t * dr >= 0.0 && gradientDraws(t);
    }
    precise float disc = b * b - uRadialA * c;
    if (!(disc >= 0.0)) return false;
    precise float root = sqrt(disc);
    precise float t1 = (b + root) / uRadialA;
    precise float t2 = (b - root) / uRadialA;
    float hi = t1 > t2 ? t1 : t2, lo = t1 > t2 ? t2 : t1;
    if (r0 + hi * dr >= 0.0 && gradientDraws(hi)) { t = hi; return true; }
    if (r0 + lo * dr >= 0.0 && gradientDraws(lo)) { t = lo; return true; }
    return false;
}

vec4 layerTexel(ivec2 q) {
    if (q.x < 0 || q.y < 0 || q.x >= uLayerRect.z || q.y >= uLayerRect.w) return vec4(0.0);
    return bytesToFloat(unormBytes(texelFetch(uLayer, q, 0)));
}

// The paint at device pixel p; may set coverage to 0 where a gradient draws nothing.
vec4 paintColor(ivec2 p, inout float coverage) {
    if (PAINT_KIND == 0) return uSolid;
    vec2 rel = vec2(p - uPaintOrigin);
    precise vec2 value = uMap0 + uMapX * rel.x + uMapY * rel.y;
    if (PAINT_KIND == 1) {
        vec4 c = imageBilinear(axisSample(0, value.x), axisSample(1, value.y));
        if (uHasTint != 0) { precise vec4 tinted = uTint * c.w; return tinted; }
        return c;
    }
    if (PAINT_KIND == 2) {
        float t = value.x;
        if (!gradientDraws(t)) { coverage = 0.0; return vec4(0.0); }
        return gradientColor(min(1.0, max(0.0, t)));
    }
    if (PAINT_KIND == 3) {
        float t;
        if (!radialParameter(value, t)) { coverage = 0.0; return vec4(0.0); }
        return gradientColor(min(1.0, max(0.0, t)));
    }
    ivec2 q = p - uLayerRect.xy + uLayerShift;
    if (uLayerFraction == vec2(0.0)) return layerTexel(q);
    float tx = uLayerFraction.x, ty = uLayerFraction.y;
    precise vec4 top = layerTexel(q) * (1.0 - tx) + layerTexel(q + ivec2(1, 0)) * tx;
    precise vec4 bottom = layerTexel(q + ivec2(0, 1)) * (1.0 - tx) + layerTexel(q + ivec2(1, 1)) * tx;
    precise vec4 c = top * (1.0 - ty) + bottom * ty;
    return c;
}
