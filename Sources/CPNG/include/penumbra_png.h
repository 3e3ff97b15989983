// penumbra_png: a small C shim over libpng for Penumbra's PNG codec.
//
// libpng reports errors with longjmp, and a longjmp across Swift frames is
// undefined behaviour. Every function here sets its own setjmp, installs its
// own error and warning handlers, frees what it allocated on every path, and
// returns 0 on success or non-zero with a NUL-terminated message (libpng's
// own text, plus any warnings that explain it) in the caller's buffer.
//
// Decoding is split in three so that the caller can check the image size
// against its pixel limit, and allocate the pixel buffer itself, between
// reading the header and reading the pixels:
//   open (signature, IHDR and the chunks before the first IDAT),
//   read_rgba (straight-alpha RGBA8 rows into the caller's buffer),
//   close (frees everything; always call it on a decoder that open returned).
// The `data` given to open must stay valid until close.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Widths and heights above this are rejected while reading the header
/// (libpng's user limits), before anything proportional to them is allocated.
#define PENUMBRA_PNG_MAX_DIMENSION (1u << 24)

/// Ancillary chunks (iCCP, zTXt, ...) larger than this are refused
/// (libpng's chunk malloc limit); they are skipped anyway.
#define PENUMBRA_PNG_MAX_CHUNK_BYTES (8u * 1024u * 1024u)

/// A buffer large enough for every message the shim writes.
#define PENUMBRA_PNG_MESSAGE_CAPACITY 512

/// An open PNG decoder (opaque).
typedef struct penumbra_png_decoder penumbra_png_decoder;

/// Checks the signature and reads the header and every chunk before the
/// first IDAT. Returns NULL with a message on failure.
penumbra_png_decoder *penumbra_png_decoder_open(const uint8_t *data, size_t size,
                                                uint32_t *width, uint32_t *height,
                                                char *message, size_t message_capacity);

/// Decodes every colour type, bit depth and interlacing into straight-alpha
/// 8-bit RGBA rows of `width * 4` bytes, top to bottom, into `pixels`, which
/// must hold exactly `width * height * 4` bytes. 16-bit channels are scaled
/// (round(v * 255 / 65535)); gamma and colour profiles are ignored. Call at
/// most once per decoder. Returns 0 on success.
int penumbra_png_decoder_read_rgba(penumbra_png_decoder *decoder, uint8_t *pixels, size_t pixels_size,
                                   char *message, size_t message_capacity);

/// The iCCP profile (decompressed) and eXIf payload read with the header, pointing into the
/// decoder (valid until close); NULL and 0 for what the file lacks.
int penumbra_png_decoder_metadata(penumbra_png_decoder *decoder, const uint8_t **icc, size_t *icc_length,
                                  const uint8_t **exif, size_t *exif_length);

/// Frees the decoder and everything libpng allocated for it. NULL is ignored.
void penumbra_png_decoder_close(penumbra_png_decoder *decoder);

/// Row filters for encoding (the PNG filter types); ADAPTIVE picks one per
/// row among all five with libpng's heuristic (smallest sum of the filtered
/// bytes as signed magnitudes, ties to the lower type).
typedef enum penumbra_png_filter {
    PENUMBRA_PNG_FILTER_NONE = 0,
    PENUMBRA_PNG_FILTER_SUB = 1,
    PENUMBRA_PNG_FILTER_UP = 2,
    PENUMBRA_PNG_FILTER_AVERAGE = 3,
    PENUMBRA_PNG_FILTER_PAETH = 4,
    PENUMBRA_PNG_FILTER_ADAPTIVE = 5,
} penumbra_png_filter;

/// An encoded PNG in memory, allocated by the shim; free it with
/// penumbra_png_buffer_free.
typedef struct penumbra_png_buffer {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
} penumbra_png_buffer;

/// Encodes straight-alpha RGBA8 rows (`width * 4` bytes each, no padding) as
/// an 8-bit PNG: RGBA (colour type 6) when `has_alpha`, else RGB (colour type
/// 2, the fourth byte of each pixel is dropped). Writes an sRGB chunk with
/// perceptual intent and nothing else beyond IHDR, IDAT and IEND, so the same
/// pixels always give the same bytes. `compression_level` is zlib's 0...9.
/// On success `*out` holds the file; on failure it is left empty.
///
/// Encoding does not use libpng: rows are filtered, then deflated in
/// independent bands of whole rows (about 128 KiB of filtered data each, a
/// size that depends on the image only) on several threads, so the bytes do
/// not depend on the thread count. Same as penumbra_png_encode_threads with
/// `thread_count` 0 (one thread per online core, at most 16).
int penumbra_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                        int compression_level, penumbra_png_filter filter, penumbra_png_buffer *out,
                        char *message, size_t message_capacity);

/// penumbra_png_encode on `thread_count` threads (0: one per online core, at
/// most 16). The output is the same for every thread count.
int penumbra_png_encode_threads(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                                int compression_level, penumbra_png_filter filter, int thread_count,
                                penumbra_png_buffer *out, char *message, size_t message_capacity);

/// penumbra_png_encode_threads that stops between bands once `*cancel` is set (penumbra_flag.h;
/// NULL: never), returning 2 with the message "cancelled" and an empty `*out`. With
/// `premultiplied` (and `has_alpha`) the rows are premultiplied RGBA8, made straight while they
/// are filtered (colour c at alpha a: 0 when a is 0, else min(255, floor((510 c + a) / (2 a)))),
/// which gives the bytes of encoding their straight copy.
int penumbra_png_encode_cancellable(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                                    int premultiplied, int compression_level, penumbra_png_filter filter,
                                    int thread_count, const int *cancel, penumbra_png_buffer *out, char *message,
                                    size_t message_capacity);

/// Frees an encoded buffer and empties it. Safe on an empty buffer.
void penumbra_png_buffer_free(penumbra_png_buffer *buffer);

#ifdef __cplusplus
}
#endif
