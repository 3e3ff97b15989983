// penumbra_jpeg.c: libjpeg behind functions that never longjmp out.
//
// The decoder struct owns the jpeg_decompress_struct and its jmp_buf. Each
// public function arms the jmp_buf with its own setjmp before calling
// libjpeg; error_exit formats libjpeg's message and longjmps back there.
// Warnings (emit_message level -1) stop decoding too, so a truncated or
// corrupt file is rejected instead of drawn grey, except "extraneous bytes
// before marker", which real cameras write and which loses no pixels.
// libjpeg's memory is bounded (max_memory_to_use) by the header's size, and
// with no backing store a request above it is an error, not a swap file.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "penumbra_jpeg.h"

typedef struct penumbra_jpeg_error {
    struct jpeg_error_mgr base;
    jmp_buf landing;
    char message[PENUMBRA_JPEG_MESSAGE_CAPACITY];
} penumbra_jpeg_error;

struct penumbra_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    penumbra_jpeg_error error;
    penumbra_jpeg_info info;
};

static void copy_message(char *destination, size_t capacity, const char *text) {
    if (destination == NULL || capacity == 0) return;
    snprintf(destination, capacity, "%s", text);
}

static void on_error_exit(j_common_ptr cinfo) {
    penumbra_jpeg_error *error = (penumbra_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    copy_message(error->message, sizeof error->message, text);
    longjmp(error->landing, 1);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    if (cinfo->err->msg_code == JWRN_EXTRANEOUS_DATA) return;
    on_error_exit(cinfo);
}

static void install_errors(penumbra_jpeg_error *error) {
    jpeg_std_error(&error->base);
    error->base.error_exit = on_error_exit;
    error->base.emit_message = on_emit_message;
    error->message[0] = '\0';
}

penumbra_jpeg_decoder *penumbra_jpeg_decoder_open(const uint8_t *data, size_t size, penumbra_jpeg_info *info,
                                                  char *message, size_t capacity) {
    penumbra_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) { copy_message(message, capacity, "out of memory"); return NULL; }
    install_errors(&decoder->error);
    decoder->cinfo.err = &decoder->error.base;
    if (setjmp(decoder->error.landing)) {
        copy_message(message, capacity, decoder->error.message);
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    if (size == 0 || size > (size_t)0xFFFFFFFFu) ERREXIT(&decoder->cinfo, JERR_INPUT_EMPTY);
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&decoder->cinfo, TRUE);

    struct jpeg_decompress_struct *c = &decoder->cinfo;
    penumbra_jpeg_info *out = &decoder->info;
    out->width = c->image_width;
    out->height = c->image_height;
    out->adobe = c->saw_Adobe_marker ? 1 : 0;
    out->progressive = c->progressive_mode ? 1 : 0;
    switch (c->jpeg_color_space) {
    case JCS_CMYK: case JCS_YCCK:
        out->layout = PENUMBRA_JPEG_CMYK;
        c->out_color_space = JCS_CMYK;
        break;
    case JCS_GRAYSCALE: case JCS_YCbCr: case JCS_RGB:
        out->layout = PENUMBRA_JPEG_RGBA;
        c->out_color_space = JCS_EXT_RGBA;
        break;
    default:
        ERREXIT(c, JERR_CONVERSION_NOTIMPL);
    }
    // Everything libjpeg may allocate: a full coefficient buffer (progressive), row buffers.
    size_t pixels = (size_t)out->width * (size_t)out->height;
    c->mem->max_memory_to_use = (long)(pixels > ((size_t)1 << 40) ? ((size_t)1 << 40) : pixels * 16 + ((size_t)64 << 20));
    if (info != NULL) *info = *out;
    return decoder;
}

int penumbra_jpeg_decoder_icc(penumbra_jpeg_decoder *decoder, uint8_t **profile, size_t *length) {
    *profile = NULL; *length = 0;
    if (setjmp(decoder->error.landing)) return 0;  // a malformed profile is ignored
    JOCTET *bytes = NULL;
    unsigned int count = 0;
    if (!jpeg_read_icc_profile(&decoder->cinfo, &bytes, &count) || bytes == NULL) return 0;
    *profile = bytes; *length = count;
    return 1;
}

int penumbra_jpeg_decoder_exif(penumbra_jpeg_decoder *decoder, const uint8_t **exif, size_t *length) {
    for (jpeg_saved_marker_ptr m = decoder->cinfo.marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            *exif = m->data + 6; *length = m->data_length - 6;
            return 1;
        }
    }
    *exif = NULL; *length = 0;
    return 0;
}

int penumbra_jpeg_decoder_scale(penumbra_jpeg_decoder *decoder, unsigned denominator, penumbra_jpeg_info *info,
                                char *message, size_t capacity) {
    struct jpeg_decompress_struct *c = &decoder->cinfo;
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) {
        copy_message(message, capacity, "unsupported scale");
        return 1;
    }
    if (setjmp(decoder->error.landing)) {
        copy_message(message, capacity, decoder->error.message);
        return 1;
    }
    c->scale_num = 1;
    c->scale_denom = denominator;
    jpeg_calc_output_dimensions(c);
    decoder->info.width = c->output_width;
    decoder->info.height = c->output_height;
    if (info != NULL) *info = decoder->info;
    return 0;
}

int penumbra_jpeg_decoder_read(penumbra_jpeg_decoder *decoder, uint8_t *pixels, size_t size,
                               char *message, size_t capacity) {
    struct jpeg_decompress_struct *c = &decoder->cinfo;
    if (setjmp(decoder->error.landing)) {
        copy_message(message, capacity, decoder->error.message);
        return 1;
    }
    if (size != (size_t)decoder->info.width * decoder->info.height * 4) {
        copy_message(message, capacity, "pixel buffer has the wrong size");
        return 1;
    }
    jpeg_start_decompress(c);
    if (c->output_components != 4 || c->output_width != decoder->info.width || c->output_height != decoder->info.height) {
        copy_message(message, capacity, "unexpected output layout");
        return 1;
    }
    size_t stride = (size_t)c->output_width * 4;
    while (c->output_scanline < c->output_height) {
        JSAMPROW row = pixels + (size_t)c->output_scanline * stride;
        if (jpeg_read_scanlines(c, &row, 1) != 1) ERREXIT(c, JERR_INPUT_EOF);
    }
    jpeg_finish_decompress(c);
    return 0;
}

void penumbra_jpeg_decoder_close(penumbra_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

int penumbra_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, int full_chroma,
                         int progressive, penumbra_jpeg_buffer *out, char *message, size_t capacity) {
    struct jpeg_compress_struct c;
    penumbra_jpeg_error error;
    install_errors(&error);
    c.err = &error.base;
    out->bytes = NULL; out->size = 0;
    if (setjmp(error.landing)) {
        copy_message(message, capacity, error.message);
        jpeg_destroy_compress(&c);
        free(out->bytes); out->bytes = NULL; out->size = 0;
        return 1;
    }
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, &out->bytes, &out->size);
    c.image_width = width;
    c.image_height = height;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality, TRUE);
    if (full_chroma) { c.comp_info[0].h_samp_factor = 1; c.comp_info[0].v_samp_factor = 1; }
    if (progressive) jpeg_simple_progression(&c);
    jpeg_start_compress(&c, TRUE);
    size_t stride = (size_t)width * 3;
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)c.next_scanline * stride);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    return 0;
}
