// penumbra_png.c: libpng behind functions that never longjmp out.
//
// Each public function creates (or takes) a png_struct whose error handler
// records libpng's message and longjmps back to a setjmp in that same
// function; the landing site frees everything and hands the message to the
// caller. Warnings never stop anything: they are collected and appended to
// an error's message when one follows (libpng explains "Invalid IHDR data"
// only in warnings). Reading is from memory with bounds checks: running off
// the end is a libpng error ("truncated data"), not a read past the buffer.
//
// Decoding uses libpng's regular API, not the simplified png_image API (which
// applies gamma to 16-bit data): expand palettes, low-bit grey and tRNS to
// RGBA, scale 16-bit channels to 8 bits with rounding, grey to RGB, add an
// opaque alpha where there is none, and let libpng de-interlace. Gamma,
// text, time and the other ancillary chunks the decoder has no use for are
// skipped unread; iCCP and eXIf are kept for penumbra_png_decoder_metadata.
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "penumbra_png.h"

// MARK: - Errors and warnings

/// What libpng said: the error that stopped it and the warnings before it.
typedef struct penumbra_png_errors {
    char error[PENUMBRA_PNG_MESSAGE_CAPACITY];
    char warnings[PENUMBRA_PNG_MESSAGE_CAPACITY];
} penumbra_png_errors;

static void copy_text(char *destination, size_t capacity, const char *text) {
    if (destination == NULL || capacity == 0) return;
    snprintf(destination, capacity, "%s", text != NULL ? text : "");
}

static void on_error(png_structp png, png_const_charp message) {
    penumbra_png_errors *errors = (penumbra_png_errors *)png_get_error_ptr(png);
    copy_text(errors->error, sizeof errors->error,
              message != NULL && message[0] != '\0' ? message : "unknown libpng error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    penumbra_png_errors *errors = (penumbra_png_errors *)png_get_error_ptr(png);
    if (message == NULL || message[0] == '\0') return;
    size_t used = strlen(errors->warnings);
    if (used + 1 >= sizeof errors->warnings) return;
    snprintf(errors->warnings + used, sizeof errors->warnings - used, "%s%s", used > 0 ? "; " : "", message);
}

/// "error (warning; warning)" into the caller's buffer.
static void report(const penumbra_png_errors *errors, char *message, size_t capacity) {
    if (message == NULL || capacity == 0) return;
    if (errors->warnings[0] != '\0')
        snprintf(message, capacity, "%s (%s)", errors->error, errors->warnings);
    else
        copy_text(message, capacity, errors->error);
}

// MARK: - Decoding

struct penumbra_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t position;
    int has_read;
    penumbra_png_errors errors;
};

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    penumbra_png_decoder *decoder = (penumbra_png_decoder *)png_get_io_ptr(png);
    if (length > decoder->size - decoder->position) {
        char text[128];
        snprintf(text, sizeof text, "truncated data (the file ends after %zu bytes)", decoder->size);
        png_error(png, text);
    }
    memcpy(out, decoder->data + decoder->position, length);
    decoder->position += length;
}

/// Chunks the decoder never looks at, skipped as unknown (CRC-checked, not parsed).
static const png_byte ignored_chunks[] =
    "bKGD\0cHRM\0gAMA\0hIST\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

penumbra_png_decoder *penumbra_png_decoder_open(const uint8_t *data, size_t size,
                                                uint32_t *width, uint32_t *height,
                                                char *message, size_t message_capacity) {
    copy_text(message, message_capacity, "");
    if (data == NULL || size == 0) {
        copy_text(message, message_capacity, "empty data: not a PNG file");
        return NULL;
    }
    if (png_sig_cmp((png_const_bytep)data, 0, size < 8 ? size : 8) != 0) {
        copy_text(message, message_capacity, "not a PNG file (wrong signature)");
        return NULL;
    }
    penumbra_png_decoder *decoder = (penumbra_png_decoder *)calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        copy_text(message, message_capacity, "out of memory");
        return NULL;
    }
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->errors, on_error, on_warning);
    if (decoder->png != NULL) decoder->info = png_create_info_struct(decoder->png);
    if (decoder->png == NULL || decoder->info == NULL) {
        copy_text(message, message_capacity, "libpng could not create a reader");
        penumbra_png_decoder_close(decoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        report(&decoder->errors, message, message_capacity);
        penumbra_png_decoder_close(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, read_from_memory);
    png_set_user_limits(decoder->png, PENUMBRA_PNG_MAX_DIMENSION, PENUMBRA_PNG_MAX_DIMENSION);
    png_set_chunk_malloc_max(decoder->png, PENUMBRA_PNG_MAX_CHUNK_BYTES);
    png_set_chunk_cache_max(decoder->png, 1000);
    png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_NEVER, ignored_chunks,
                                (int)(sizeof ignored_chunks / 5));
    png_read_info(decoder->png, decoder->info);
    *width = png_get_image_width(decoder->png, decoder->info);
    *height = png_get_image_height(decoder->png, decoder->info);
    return decoder;
}

/// Asks libpng for straight RGBA8 whatever the file holds.
static void request_rgba8(png_structp png, png_infop info) {
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, colour_type = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &colour_type, NULL, NULL, NULL);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (colour_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colour_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png); // round(v * 255 / 65535), not v >> 8
    if ((colour_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if ((colour_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
}

int penumbra_png_decoder_read_rgba(penumbra_png_decoder *decoder, uint8_t *pixels, size_t pixels_size,
                                   char *message, size_t message_capacity) {
    copy_text(message, message_capacity, "");
    if (decoder == NULL || pixels == NULL) {
        copy_text(message, message_capacity, "no decoder or no pixel buffer");
        return 1;
    }
    if (decoder->has_read) {
        copy_text(message, message_capacity, "the decoder has already read its pixels");
        return 1;
    }
    decoder->has_read = 1;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) {
        report(&decoder->errors, message, message_capacity);
        return 1;
    }
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    size_t stride = (size_t)width * 4; // width <= 2^24: no overflow
    if (height != 0 && stride > SIZE_MAX / height) png_error(png, "image too large for memory");
    if (stride * height != pixels_size) png_error(png, "pixel buffer size does not match the image");

    request_rgba8(png, info);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_bit_depth(png, info) != 8 || png_get_channels(png, info) != 4 ||
        png_get_rowbytes(png, info) != stride)
        png_error(png, "libpng did not produce 8-bit RGBA rows");

    // With interlace handling on, every pass reads over every row, and
    // libpng fills in that pass's pixels of the row it is given.
    for (int pass = 0; pass < passes; pass++)
        for (png_uint_32 y = 0; y < height; y++)
            png_read_row(png, pixels + (size_t)y * stride, NULL);
    png_read_end(png, NULL); // the rest of the stream and IEND: truncation is an error
    return 0;
}

void penumbra_png_decoder_close(penumbra_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->png != NULL)
        png_destroy_read_struct(&decoder->png, decoder->info != NULL ? &decoder->info : NULL, NULL);
    free(decoder);
}

int penumbra_png_decoder_metadata(penumbra_png_decoder *decoder, const uint8_t **icc, size_t *icc_length,
                                  const uint8_t **exif, size_t *exif_length) {
    *icc = NULL; *icc_length = 0; *exif = NULL; *exif_length = 0;
    if (decoder == NULL) return 0;
    if (setjmp(png_jmpbuf(decoder->png))) return 0;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(decoder->png, decoder->info, &name, &compression, &profile, &length) != 0 && profile != NULL) {
        *icc = profile; *icc_length = length;
    }
    png_bytep exif_bytes = NULL;
    png_uint_32 exif_count = 0;
    if (png_get_eXIf_1(decoder->png, decoder->info, &exif_count, &exif_bytes) != 0 && exif_bytes != NULL) {
        *exif = exif_bytes; *exif_length = exif_count;
    }
    return 1;
}

// Encoding (no libpng) lives in penumbra_png_write.c.
