// blend: the 28 blend modes, a line-by-line port of PenumbraCore's
// Blend.swift and Blend+NonSeparable.swift on premultiplied vec4 (r, g, b, a),
// with the same operation order and the same final clamps. Every local is
// `precise` so that no product and sum are fused: the CPU rounds each one.
// Mode numbers are BlendMode.allCases indices (GPUBlendModes.swift).

vec4 validPremultiplied(vec4 c) {
    precise float alpha = min(max(c.w, 0.0), 1.0);
    precise vec4 r = min(max(c, vec4(0.0)), vec4(alpha));
    return r;
}

vec4 generalTerm(vec4 s, vec4 d, vec4 term) {
    precise vec4 sourceOnly = s * (1.0 - d.w);
    precise vec4 destinationOnly = d * (1.0 - s.w);
    precise vec4 r = sourceOnly + destinationOnly + term;
    return r;
}

vec4 generalBlended(vec4 s, vec4 d, vec4 b) {
    precise vec4 bb = vec4(b.xyz, 1.0);
    precise vec4 term = (s.w * d.w) * bb;
    return generalTerm(s, d, term);
}

vec4 unpremultiplied(vec4 c) {
    if (!(c.w > 0.0)) return vec4(0.0);
    precise vec4 r = min(c / c.w, vec4(1.0));
    return r;
}

// MARK: Non-separable helpers (W3C)

float lum(vec4 c) { precise float r = 0.3 * c.x + 0.59 * c.y + 0.11 * c.z; return r; }
float sat(vec4 c) { precise float r = max(max(c.x, c.y), c.z) - min(min(c.x, c.y), c.z); return r; }

vec4 clipColor(vec4 color) {
    precise vec4 c = color;
    precise float l = lum(c);
    float n = min(min(c.x, c.y), c.z);
    float x = max(max(c.x, c.y), c.z);
    precise float ln = l - n;
    if (n < 0.0 && ln > 0.0) { c = l + ((c - l) * l) / ln; }
    precise float xl = x - l;
    if (x > 1.0 && xl > 0.0) { c = l + ((c - l) * (1.0 - l)) / xl; }
    return c;
}

vec4 setLum(vec4 c, float l) { precise vec4 r = c + (l - lum(c)); return clipColor(r); }

vec4 setSat(vec4 c, float s) {
    float cMax = max(max(c.x, c.y), c.z);
    float cMin = min(min(c.x, c.y), c.z);
    if (!(cMax > cMin)) return vec4(0.0);
    precise vec4 r = ((c - cMin) * s) / (cMax - cMin);
    return r;
}

vec4 nonSeparable(vec4 s, vec4 d, vec4 b) {
    return generalBlended(s, d, min(max(b, vec4(0.0)), vec4(1.0)));
}

// MARK: The modes

vec4 blendRaw(int mode, vec4 s, vec4 d) {
    precise vec4 r;
    if (mode == 0) {                       // normal
        r = s + d * (1.0 - s.w);
    } else if (mode == 1) {                // multiply
        precise vec4 t = s * d; r = generalTerm(s, d, t);
    } else if (mode == 2) {                // screen
        r = s + d - s * d;
    } else if (mode == 3 || mode == 9) {   // overlay, hardLight
        precise vec4 multiplied = 2.0 * s * d;
        precise vec4 screened = s.w * d.w - 2.0 * (d.w - d) * (s.w - s);
        precise vec4 twice = mode == 3 ? 2.0 * d : 2.0 * s;
        float alpha = mode == 3 ? d.w : s.w;
        r = generalTerm(s, d, mix(screened, multiplied, lessThanEqual(twice, vec4(alpha))));
    } else if (mode == 4) {                // darken
        precise vec4 a = s * d.w; precise vec4 b = d * s.w; r = generalTerm(s, d, min(a, b));
    } else if (mode == 5) {                // lighten
        precise vec4 a = s * d.w; precise vec4 b = d * s.w; r = generalTerm(s, d, max(a, b));
    } else if (mode == 6) {                // colorDodge
        vec4 cs = unpremultiplied(s), cb = unpremultiplied(d);
        bvec4 sourceIsOne = equal(cs, vec4(1.0));
        precise vec4 quotient = cb / mix(vec4(1.0) - cs, vec4(1.0), sourceIsOne);
        vec4 b = min(quotient, vec4(1.0));
        b = mix(b, vec4(1.0), sourceIsOne);
        b = mix(b, vec4(0.0), equal(cb, vec4(0.0)));
        r = generalBlended(s, d, b);
    } else if (mode == 7) {                // colorBurn
        vec4 cs = unpremultiplied(s), cb = unpremultiplied(d);
        bvec4 sourceIsZero = equal(cs, vec4(0.0));
        precise vec4 quotient = (vec4(1.0) - cb) / mix(cs, vec4(1.0), sourceIsZero);
        precise vec4 b = vec4(1.0) - min(quotient, vec4(1.0));
        b = mix(b, vec4(0.0), sourceIsZero);
        b = mix(b, vec4(1.0), equal(cb, vec4(1.0)));
        r = generalBlended(s, d, b);
    } else if (mode == 8) {                // softLight
        vec4 cs = unpremultiplied(s), cb = unpremultiplied(d);
        precise vec4 polynomial = ((16.0 * cb - 12.0) * cb + 4.0) * cb;
        vec4 dOfCb = mix(sqrt(cb), polynomial, lessThanEqual(cb, vec4(0.25)));
        precise vec4 darkened = cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
        precise vec4 lightened = cb + (2.0 * cs - 1.0) * (dOfCb - cb);
        r = generalBlended(s, d, mix(lightened, darkened, lessThanEqual(cs, vec4(0.5))));
    } else if (mode == 10) {               // difference
        precise vec4 a = s * d.w; precise vec4 b = d * s.w;
        r = s + d - 2.0 * min(a, b);
        r.w = s.w + d.w - s.w * d.w;
    } else if (mode == 11) {               // exclusion
        r = s + d - 2.0 * s * d;
        r.w = s.w + d.w - s.w * d.w;
    } else if (mode >= 12 && mode <= 15) { // hue, saturation, color, luminosity
        vec4 cs = unpremultiplied(s), cb = unpremultiplied(d);
        vec4 b;
        if (mode == 12) b = setLum(setSat(cs, sat(cb)), lum(cb));
        else if (mode == 13) b = setLum(setSat(cb, sat(cs)), lum(cb));
        else if (mode == 14) b = setLum(cs, lum(cb));
        else b = setLum(cb, lum(cs));
        r = nonSeparable(s, d, b);
    } else if (mode == 16) {               // clear
        r = vec4(0.0);
    } else if (mode == 17) {               // copy
        r = s;
    } else if (mode == 18) {               // sourceIn
        r = s * d.w;
    } else if (mode == 19) {               // sourceOut
        r = s * (1.0 - d.w);
    } else if (mode == 20) {               // sourceAtop
        r = s * d.w + d * (1.0 - s.w);
    } else if (mode == 21) {               // destinationOver
        r = s * (1.0 - d.w) + d;
    } else if (mode == 22) {               // destinationIn
        r = d * s.w;
    } else if (mode == 23) {               // destinationOut
        r = d * (1.0 - s.w);
    } else if (mode == 24) {               // destinationAtop
        r = s * (1.0 - d.w) + d * s.w;
    } else if (mode == 25) {               // xor
        r = s * (1.0 - d.w) + d * (1.0 - s.w);
    } else if (mode == 26) {               // plusDarker
        precise float alpha = min(1.0, s.w + d.w);
        precise vec4 darkness = (vec4(s.w) - s) + (vec4(d.w) - d);
        r = max(vec4(alpha) - darkness, vec4(0.0));
    } else {                               // plusLighter
        r = min(s + d, vec4(1.0));
    }
    return r;
}

vec4 blendColor(int mode, vec4 s, vec4 d) { return validPremultiplied(blendRaw(mode, s, d)); }

// result = dst + coverage * (blend(src, dst) - dst), as PenumbraCore.composite.
vec4 compositeColor(int mode, vec4 s, vec4 d, float coverage) {
    if (!(coverage > 0.0)) return d;
    vec4 blended = blendColor(mode, s, d);
    if (coverage >= 1.0) return blended;
    precise vec4 r = d + coverage * (blended - d);
    return validPremultiplied(r);
}
