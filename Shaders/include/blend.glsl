// blend: the 28 blend modes on U8 premultiplied ivec4 (r, g, b, a), the twin of
// PenumbraCore's Blend.swift and Blend+NonSeparable.swift, formula for formula
// (docs/ARITHMETIC.md). Integer arithmetic only: every driver gives the same
// bytes. Modes are the BLEND_ defines generated from BlendMode (ShaderConstants.swift).

const int FULL = 255 * 255;

ivec4 validPremultiplied(ivec4 c) {
    int alpha = clamp(c.w, 0, 255);
    return clamp(c, ivec4(0), ivec4(alpha));
}
ivec4 mixCoverage(ivec4 d, ivec4 b, int t) { return div255(d * (255 - t) + b * t); }
ivec4 store(ivec4 n) { return div255(clamp(n, ivec4(0), ivec4(FULL))); }
ivec4 general(ivec4 s, ivec4 d, ivec4 term) { return store(s * (255 - d.w) + d * (255 - s.w) + term); }
ivec4 generalQ12(ivec4 s, ivec4 d, ivec4 b) {
    int both = s.w * d.w;
    ivec4 term = roundQ12(clamp(b, ivec4(0), ivec4(4096)) * both);
    term.w = both;
    return general(s, d, term);
}

int dodgeTerm(int cs, int cb, int sa, int both) {
    if (cb == 0) return 0;
    if (cs >= sa) return both;
    return min(both, (sa * sa * cb) / (sa - cs));
}
int burnTerm(int cs, int cb, int sa, int da, int both) {
    if (cb >= da) return both;
    if (cs == 0) return 0;
    return both - min(both, (sa * sa * (da - cb)) / cs);
}
int softLightQ12(int cs, int cb) {
    if (2 * cs <= 4096) return cb - roundQ12((4096 - 2 * cs) * roundQ12(cb * (4096 - cb)));
    int dOfCb;
    if (cb <= 1024) {
        int q = roundQ12((16 * cb - 12 * 4096) * cb) + 4 * 4096;
        dOfCb = roundQ12(q * cb);
    } else {
        dOfCb = int(squareRoot(uint(cb) << 12));
    }
    return cb + roundQ12((2 * cs - 4096) * (dOfCb - cb));
}

// MARK: Non-separable (Q12)

int lum(ivec4 c) { return (19661 * c.x + 38666 * c.y + 7209 * c.z + 32768) >> 16; }
int sat(ivec4 c) { return max(max(c.x, c.y), c.z) - min(min(c.x, c.y), c.z); }
ivec4 clipColor(ivec4 color) {
    ivec4 c = color;
    int l = lum(c);
    int n = min(min(c.x, c.y), c.z);
    int x = max(max(c.x, c.y), c.z);
    if (n < 0 && l - n > 0) {
        for (int i = 0; i < 3; i++) c[i] = l + divideTruncating((c[i] - l) * l, l - n);
    }
    if (x > 4096 && x - l > 0) {
        for (int i = 0; i < 3; i++) c[i] = l + divideTruncating((c[i] - l) * (4096 - l), x - l);
    }
    return c;
}
ivec4 setLum(ivec4 c, int l) { return clipColor(c + ivec4(l - lum(c))); }
ivec4 setSat(ivec4 c, int s) {
    int cMax = max(max(c.x, c.y), c.z), cMin = min(min(c.x, c.y), c.z);
    if (!(cMax > cMin)) return ivec4(0);
    int range = cMax - cMin;
    return ivec4(((c.x - cMin) * s) / range, ((c.y - cMin) * s) / range, ((c.z - cMin) * s) / range, 0);
}
ivec4 unpremultipliedQ12(ivec4 p) {
    return ivec4(unpremultipliedQ12(p.x, p.w), unpremultipliedQ12(p.y, p.w), unpremultipliedQ12(p.z, p.w), 0);
}

ivec4 blendRaw(int mode, ivec4 s, ivec4 d) {
    ivec4 sa = ivec4(s.w), da = ivec4(d.w);
    int both = s.w * d.w;
    if (mode == BLEND_NORMAL) return store(s * 255 + d * (255 - s.w));
    if (mode == BLEND_MULTIPLY) return general(s, d, s * d);
    if (mode == BLEND_SCREEN) return store((s + d) * 255 - s * d);
    if (mode == BLEND_OVERLAY || mode == BLEND_HARD_LIGHT) {
        ivec4 multiplied = 2 * s * d;
        ivec4 screened = ivec4(both) - 2 * (da - d) * (sa - s);
        bvec4 low = mode == BLEND_OVERLAY ? lessThanEqual(2 * d, da) : lessThanEqual(2 * s, sa);
        return general(s, d, mix(screened, multiplied, low));
    }
    if (mode == BLEND_DARKEN) return general(s, d, min(s * d.w, d * s.w));
    if (mode == BLEND_LIGHTEN) return general(s, d, max(s * d.w, d * s.w));
    if (mode == BLEND_COLOR_DODGE) {
        ivec4 term = ivec4(both);
        for (int i = 0; i < 3; i++) term[i] = dodgeTerm(s[i], d[i], s.w, both);
        return general(s, d, term);
    }
    if (mode == BLEND_COLOR_BURN) {
        ivec4 term = ivec4(both);
        for (int i = 0; i < 3; i++) term[i] = burnTerm(s[i], d[i], s.w, d.w, both);
        return general(s, d, term);
    }
    if (mode == BLEND_SOFT_LIGHT) {
        ivec4 b = ivec4(0);
        for (int i = 0; i < 3; i++) b[i] = softLightQ12(unpremultipliedQ12(s[i], s.w), unpremultipliedQ12(d[i], d.w));
        return generalQ12(s, d, b);
    }
    if (mode == BLEND_DIFFERENCE || mode == BLEND_EXCLUSION) {
        ivec4 n = (s + d) * 255 - 2 * (mode == BLEND_DIFFERENCE ? min(s * d.w, d * s.w) : s * d);
        n.w = (s.w + d.w) * 255 - both;
        return store(n);
    }
    if (mode >= BLEND_HUE && mode <= BLEND_LUMINOSITY) {
        ivec4 cs = unpremultipliedQ12(s), cb = unpremultipliedQ12(d);
        ivec4 b;
        if (mode == BLEND_HUE) b = setLum(setSat(cs, sat(cb)), lum(cb));
        else if (mode == BLEND_SATURATION) b = setLum(setSat(cb, sat(cs)), lum(cb));
        else if (mode == BLEND_COLOR) b = setLum(cs, lum(cb));
        else b = setLum(cb, lum(cs));
        return generalQ12(s, d, b);
    }
    if (mode == BLEND_CLEAR) return ivec4(0);
    if (mode == BLEND_COPY) return s;
    if (mode == BLEND_SOURCE_IN) return store(s * d.w);
    if (mode == BLEND_SOURCE_OUT) return store(s * (255 - d.w));
    if (mode == BLEND_SOURCE_ATOP) return store(s * d.w + d * (255 - s.w));
    if (mode == BLEND_DESTINATION_OVER) return store(s * (255 - d.w) + d * 255);
    if (mode == BLEND_DESTINATION_IN) return store(d * s.w);
    if (mode == BLEND_DESTINATION_OUT) return store(d * (255 - s.w));
    if (mode == BLEND_DESTINATION_ATOP) return store(s * (255 - d.w) + d * s.w);
    if (mode == BLEND_XOR) return store(s * (255 - d.w) + d * (255 - s.w));
    if (mode == BLEND_PLUS_DARKER) {
        int alpha = min(255, s.w + d.w);
        return max(ivec4(alpha) - ((sa - s) + (da - d)), ivec4(0));
    }
    return min(s + d, ivec4(255));                                                             // mode == BLEND_PLUS_LIGHTER, the last mode
}

ivec4 blendColor(int mode, ivec4 s, ivec4 d) { return validPremultiplied(blendRaw(mode, s, d)); }

// composite(source:destination:coverage:mode:): t = 0 keeps d, t = 255 is the blend.
ivec4 compositeColor(int mode, ivec4 s, ivec4 d, int t) {
    ivec4 blended = blendColor(mode, s, d);
    return t >= 255 ? blended : mixCoverage(d, blended, t);
}
