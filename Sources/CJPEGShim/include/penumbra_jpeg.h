// penumbra_jpeg: a small C shim over libjpeg(-turbo) for Penumbra's JPEG codec.
//
// libjpeg reports errors by calling error_exit, which must not return; the
// shim's handler longjmps back to a setjmp in the same shim function, so no
// longjmp ever crosses a Swift frame (the rule libpng's shim follows too).
// Every function returns 0 (or a non-NULL decoder) on success, and otherwise
// writes libjpeg's message into the caller's buffer.
//
// Decoding is split so that the caller checks the size against its limits
// and allocates the pixels itself between reading the header and the pixels:
//   open (header, saved APP1 / APP2 markers), read, close.
// The `data` given to open must stay valid until close.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PENUMBRA_JPEG_MESSAGE_CAPACITY 256

/// The pixel layout `read` writes.
typedef enum penumbra_jpeg_layout {
    /// Straight RGBA8 (grey and YCbCr/RGB files), alpha 255.
    PENUMBRA_JPEG_RGBA = 0,
    /// CMYK as libjpeg gives it (4 bytes a pixel; YCCK is converted to CMYK).
    PENUMBRA_JPEG_CMYK = 1,
} penumbra_jpeg_layout;

typedef struct penumbra_jpeg_info {
    uint32_t width, height;
    penumbra_jpeg_layout layout;
    /// 1 when an Adobe APP14 marker was seen: CMYK values are stored inverted.
    int adobe;
    int progressive;
} penumbra_jpeg_info;

typedef struct penumbra_jpeg_decoder penumbra_jpeg_decoder;

/// Reads the header (and the markers before the first scan).
penumbra_jpeg_decoder *penumbra_jpeg_decoder_open(const uint8_t *data, size_t size, penumbra_jpeg_info *info,
                                                  char *message, size_t capacity);

/// The ICC profile reassembled from APP2 chunks (malloc'd; free with free()), or 0 when none.
int penumbra_jpeg_decoder_icc(penumbra_jpeg_decoder *decoder, uint8_t **profile, size_t *length);

/// The first APP1 "Exif\0\0" payload (after those 6 bytes), pointing into the decoder; 0 when none.
int penumbra_jpeg_decoder_exif(penumbra_jpeg_decoder *decoder, const uint8_t **exif, size_t *length);

/// Asks for libjpeg's DCT-scaled output at 1/`denominator` (1, 2, 4 or 8: scale_num 1,
/// scale_denom `denominator`, everything else the defaults, as `djpeg -scale 1/N`). The info's
/// width and height become the output's, ceil(size / denominator); `read` then fills that size.
int penumbra_jpeg_decoder_scale(penumbra_jpeg_decoder *decoder, unsigned denominator, penumbra_jpeg_info *info,
                                char *message, size_t capacity);

/// Decodes the pixels: `width * height * 4` bytes in the layout of the info. Truncated or
/// corrupt entropy data is an error (libjpeg's warnings stop the decoder), except extraneous
/// bytes before a marker.
int penumbra_jpeg_decoder_read(penumbra_jpeg_decoder *decoder, uint8_t *pixels, size_t size,
                               char *message, size_t capacity);

void penumbra_jpeg_decoder_close(penumbra_jpeg_decoder *decoder);

/// An encoded JPEG, allocated by libjpeg's memory destination; free with free().
typedef struct penumbra_jpeg_buffer {
    unsigned char *bytes;
    unsigned long size;
} penumbra_jpeg_buffer;

/// Encodes RGB8 rows (width * 3 bytes each) with libjpeg's defaults, quality 1...100,
/// 4:2:0 chroma (4:4:4 when `full_chroma`), optionally progressive.
int penumbra_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, int full_chroma,
                         int progressive, penumbra_jpeg_buffer *out, char *message, size_t capacity);

#ifdef __cplusplus
}
#endif
