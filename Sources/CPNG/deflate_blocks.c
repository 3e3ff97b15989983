// deflate_blocks.c: finds where a raw deflate stream's last block starts and
// ends (RFC 1951) by walking its Huffman codes without producing output: no
// window, no match copies, only each symbol's code and extra bits. The PNG
// writer clears that block's BFINAL bit so that independently compressed
// bands join into one stream (penumbra_png_write.c); zlib's inflate found the
// same two bits by decompressing the whole band, several times the work.
//
// Decoding: a canonical code of at most 15 bits is a table of 2^maxlen
// entries indexed by the next maxlen bits (LSB first, so codes are stored
// bit-reversed), each entry symbol << 4 | length, 0 for bit patterns no code
// starts with. Every read is bounds-checked against the stream's size; any
// malformation (over-subscribed code, invalid symbol, reading past the end)
// returns 1, and the writer then falls back to zlib's inflate.

#include "deflate_blocks.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *bytes;
    size_t size;
    size_t bit;   // the next bit to read
    int failed;
} reader;

/// The next up to 57 bits from `r->bit` (zeros past the end).
static inline uint64_t peek(const reader *r) {
    size_t byte = r->bit >> 3;
    uint64_t v = 0;
    if (byte + 8 <= r->size) {
        for (int i = 7; i >= 0; i--) v = (v << 8) | r->bytes[byte + (size_t)i];
    } else {
        for (size_t i = 0; byte + i < r->size && i < 8; i++) v |= (uint64_t)r->bytes[byte + i] << (8 * i);
    }
    return v >> (r->bit & 7);
}

static inline void skip(reader *r, unsigned n) {
    r->bit += n;
    if (r->bit > r->size * 8) r->failed = 1;
}

static inline unsigned bits(reader *r, unsigned n) {
    unsigned v = (unsigned)(peek(r) & ((1u << n) - 1));
    skip(r, n);
    return v;
}

typedef struct {
    uint16_t entries[1 << 15];
    unsigned length;  // index bits: the longest code
} code_table;

/// Builds the table of the canonical code with `lengths[0..<count]`; 1 when over-subscribed or
/// empty.
static int build(code_table *t, const uint8_t *lengths, unsigned count) {
    unsigned counts[16] = {0}, next[16];
    for (unsigned s = 0; s < count; s++) counts[lengths[s]]++;
    counts[0] = 0;
    unsigned longest = 0;
    int left = 1;
    for (unsigned l = 1; l <= 15; l++) {
        left = left * 2 - (int)counts[l];
        if (left < 0) return 1;
        if (counts[l]) longest = l;
    }
    if (longest == 0) return 1;
    unsigned code = 0;
    next[1] = 0;
    for (unsigned l = 1; l < 15; l++) { code = (code + counts[l]) << 1; next[l + 1] = code; }
    t->length = longest;
    memset(t->entries, 0, sizeof(uint16_t) << longest);
    for (unsigned s = 0; s < count; s++) {
        unsigned l = lengths[s];
        if (l == 0) continue;
        unsigned c = next[l]++, reversed = 0;
        for (unsigned i = 0; i < l; i++) { reversed = (reversed << 1) | (c & 1); c >>= 1; }
        for (unsigned k = reversed; k < (1u << longest); k += 1u << l) t->entries[k] = (uint16_t)(s << 4 | l);
    }
    return 0;
}

/// The next symbol of `t`, or -1.
static inline int decode(reader *r, const code_table *t) {
    uint16_t e = t->entries[peek(r) & ((1u << t->length) - 1)];
    if (e == 0) { r->failed = 1; return -1; }
    skip(r, e & 15);
    return e >> 4;
}

/// The fixed codes of BTYPE 01.
static int fixed_codes(code_table *litlen, code_table *dist) {
    uint8_t lengths[288];
    for (unsigned s = 0; s < 144; s++) lengths[s] = 8;
    for (unsigned s = 144; s < 256; s++) lengths[s] = 9;
    for (unsigned s = 256; s < 280; s++) lengths[s] = 7;
    for (unsigned s = 280; s < 288; s++) lengths[s] = 8;
    if (build(litlen, lengths, 288)) return 1;
    for (unsigned s = 0; s < 30; s++) lengths[s] = 5;
    return build(dist, lengths, 30);
}

/// A dynamic block's header (RFC 1951, 3.2.7) into its two codes.
static int dynamic_codes(reader *r, code_table *litlen, code_table *dist, code_table *scratch) {
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    unsigned hlit = bits(r, 5) + 257, hdist = bits(r, 5) + 1, hclen = bits(r, 4) + 4;
    if (hlit > 286 || hdist > 30) return 1;
    uint8_t lengths[286 + 30] = {0}, code_lengths[19] = {0};
    for (unsigned i = 0; i < hclen; i++) code_lengths[order[i]] = (uint8_t)bits(r, 3);
    if (r->failed || build(scratch, code_lengths, 19)) return 1;
    for (unsigned n = 0; n < hlit + hdist;) {
        int s = decode(r, scratch);
        if (s < 0 || r->failed) return 1;
        if (s < 16) { lengths[n++] = (uint8_t)s; continue; }
        unsigned repeat, value = 0;
        if (s == 16) {
            if (n == 0) return 1;
            value = lengths[n - 1]; repeat = 3 + bits(r, 2);
        } else if (s == 17) {
            repeat = 3 + bits(r, 3);
        } else {
            repeat = 11 + bits(r, 7);
        }
        if (n + repeat > hlit + hdist) return 1;
        while (repeat--) lengths[n++] = (uint8_t)value;
    }
    if (lengths[256] == 0) return 1;  // no end-of-block code
    if (build(litlen, lengths, hlit)) return 1;
    // A distance code may be empty (a block of literals only) or a single code.
    unsigned used = 0;
    for (unsigned s = 0; s < hdist; s++) used += lengths[hlit + s] != 0;
    if (used == 0) { dist->length = 1; dist->entries[0] = dist->entries[1] = 0; return 0; }
    return build(dist, lengths + hlit, hdist);
}

/// Walks a Huffman block's symbols up to its end-of-block code.
static int walk_symbols(reader *r, const code_table *litlen, const code_table *dist) {
    for (;;) {
        int s = decode(r, litlen);
        if (s < 0 || r->failed) return 1;
        if (s < 256) continue;
        if (s == 256) return 0;
        if (s > 285) return 1;
        // Length extra bits: 0 for 257-264 and 285, else (s - 261) / 4.
        unsigned extra = (s < 265 || s == 285) ? 0 : (unsigned)(s - 261) / 4;
        skip(r, extra);
        int d = decode(r, dist);
        if (d < 0 || d > 29 || r->failed) return 1;
        skip(r, d < 4 ? 0 : (unsigned)(d >> 1) - 1);
    }
}

static int walk(const uint8_t *bytes, size_t size, size_t *header_bit, size_t *end_bit, code_table *tables) {
    code_table *litlen = &tables[0], *dist = &tables[1], *scratch = &tables[2];
    reader r = {bytes, size, 0, 0};
    for (;;) {
        size_t header = r.bit;
        unsigned final = bits(&r, 1), type = bits(&r, 2);
        if (r.failed) return 1;
        if (type == 0) {
            r.bit = (r.bit + 7) & ~(size_t)7;
            unsigned length = bits(&r, 16), inverse = bits(&r, 16);
            if (r.failed || (length ^ inverse) != 0xFFFF) return 1;
            skip(&r, length * 8);
        } else if (type == 1) {
            if (fixed_codes(litlen, dist) || walk_symbols(&r, litlen, dist)) return 1;
        } else if (type == 2) {
            if (dynamic_codes(&r, litlen, dist, scratch) || walk_symbols(&r, litlen, dist)) return 1;
        } else {
            return 1;
        }
        if (r.failed) return 1;
        if (final) { *header_bit = header; *end_bit = r.bit; return 0; }
    }
}

int penumbra_deflate_last_block(const uint8_t *bytes, size_t size, size_t *header_bit, size_t *end_bit) {
    code_table *tables = (code_table *)malloc(3 * sizeof(code_table));  // 192 KiB: not on the stack
    if (tables == NULL) return 1;
    int status = walk(bytes, size, header_bit, end_bit, tables);
    free(tables);
    return status;
}
