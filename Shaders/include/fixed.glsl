// fixed: the integer primitives of docs/ARITHMETIC.md, the twins of
// PenumbraCore's Fixed.swift (same names, same formulas). highp int is 32-bit
// two's complement; `>>` on a signed int extends the sign (GLSL ES 3, 5.9).

int div255(int x) { int t = x + 128; return (t + (t >> 8)) >> 8; }
ivec4 div255(ivec4 x) { ivec4 t = x + 128; return (t + (t >> 8)) >> 8; }
int roundQ12(int x) { return (x + 2048) >> 12; }
// Fixed.luminanceAlpha (LuminanceMask.swift): a premultiplied U8 pixel's Rec. 709 luminance.
int luminanceAlpha(ivec4 c) { return div255(54 * c.x + 183 * c.y + 18 * c.z); }
ivec4 roundQ12(ivec4 x) { return (x + 2048) >> 12; }

// a / b truncated towards zero for b > 0, on magnitudes.
int divideTruncating(int a, int b) { return a >= 0 ? a / b : -((-a) / b); }

// floor(sqrt(n)), bit by bit (Fixed.squareRoot), skipping the leading steps where the bit
// exceeds n (they leave root 0 and n as they are); a loop the compiler cannot unroll.
uint squareRoot(uint n) {
    uint remainder = n, root = 0u, bit = 1u << 30;
    while (bit > n) bit >>= 2;
    while (bit != 0u) {
        if (remainder >= root + bit) { remainder -= root + bit; root = (root >> 1) + bit; }
        else { root >>= 1; }
        bit >>= 2;
    }
    return root;
}

int unpremultipliedQ12(int c, int a) { return a > 0 ? min(4096, (c * 4096 + (a >> 1)) / a) : 0; }
