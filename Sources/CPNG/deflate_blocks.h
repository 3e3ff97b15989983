// deflate_blocks.h: the block boundaries of a raw deflate stream, for the PNG
// writer (penumbra_png_write.c). Internal to CPNG.
#ifndef PENUMBRA_DEFLATE_BLOCKS_H
#define PENUMBRA_DEFLATE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

/// In a complete raw deflate stream, the bit where its last block's header starts and the bit
/// just past that block's end (bits counted LSB first from byte 0). Walks the blocks' codes
/// without producing output. Returns 0, or 1 when the stream is not valid deflate.
int penumbra_deflate_last_block(const uint8_t *bytes, size_t size, size_t *header_bit, size_t *end_bit);

#endif
