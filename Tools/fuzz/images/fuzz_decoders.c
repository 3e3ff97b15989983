// fuzz_decoders.c: one libFuzzer target over every image decoder Penumbra
// uses and the ICC path, through the same C entry points the Swift codecs
// call: the libpng and libjpeg shims (open, metadata, read with the
// caller-allocated buffer, exactly as PNGCodec and JPEGDecoder do), libwebp
// (demux, chunks, still and animated decoding), giflib (DGifSlurp), and
// lcms2 (the input as a profile, transformed to sRGB as LCMSColorManager
// does). Inputs are dispatched by content, like the codec registry. Pixel
// limits mirror the scene defaults so the fuzzer looks for memory errors,
// not for large allocations. Build and run with Tools/fuzz/images/run.sh.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>
#include <lcms2.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "penumbra_jpeg.h"
#include "penumbra_png.h"

#define MAX_PIXELS (1u << 22)

static void fuzz_png(const uint8_t *data, size_t size) {
    char message[PENUMBRA_PNG_MESSAGE_CAPACITY];
    uint32_t w = 0, h = 0;
    penumbra_png_decoder *d = penumbra_png_decoder_open(data, size, &w, &h, message, sizeof message);
    if (d == NULL) return;
    const uint8_t *icc, *exif;
    size_t icc_length, exif_length;
    penumbra_png_decoder_metadata(d, &icc, &icc_length, &exif, &exif_length);
    if ((uint64_t)w * h <= MAX_PIXELS && w > 0 && h > 0) {
        uint8_t *pixels = malloc((size_t)w * h * 4);
        if (pixels) { penumbra_png_decoder_read_rgba(d, pixels, (size_t)w * h * 4, message, sizeof message); free(pixels); }
    }
    penumbra_png_decoder_close(d);
}

static void fuzz_jpeg(const uint8_t *data, size_t size) {
    char message[PENUMBRA_JPEG_MESSAGE_CAPACITY];
    penumbra_jpeg_info info;
    penumbra_jpeg_decoder *d = penumbra_jpeg_decoder_open(data, size, &info, message, sizeof message);
    if (d == NULL) return;
    uint8_t *icc = NULL;
    size_t icc_length = 0;
    if (penumbra_jpeg_decoder_icc(d, &icc, &icc_length)) free(icc);
    const uint8_t *exif;
    size_t exif_length;
    penumbra_jpeg_decoder_exif(d, &exif, &exif_length);
    if ((uint64_t)info.width * info.height <= MAX_PIXELS) {
        size_t n = (size_t)info.width * info.height * 4;
        uint8_t *pixels = malloc(n ? n : 1);
        if (pixels) { penumbra_jpeg_decoder_read(d, pixels, n, message, sizeof message); free(pixels); }
    }
    penumbra_jpeg_decoder_close(d);
}

static void fuzz_webp(const uint8_t *data, size_t size) {
    WebPData webp = { data, size };
    WebPDemuxer *demux = WebPDemux(&webp);
    if (demux == NULL) return;
    uint32_t w = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH), h = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    uint32_t frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT), flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS);
    WebPChunkIterator chunk;
    if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) WebPDemuxReleaseChunkIterator(&chunk);
    if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) WebPDemuxReleaseChunkIterator(&chunk);
    WebPDemuxDelete(demux);
    if ((uint64_t)w * h * (frames ? frames : 1) > MAX_PIXELS || w == 0 || h == 0) return;
    if (!(flags & ANIMATION_FLAG)) {
        uint8_t *pixels = malloc((size_t)w * h * 4);
        if (pixels) { WebPDecodeRGBAInto(data, size, pixels, (size_t)w * h * 4, (int)w * 4); free(pixels); }
        return;
    }
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return;
    options.color_mode = MODE_RGBA;
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&webp, &options);
    if (decoder == NULL) return;
    while (WebPAnimDecoderHasMoreFrames(decoder)) {
        uint8_t *buffer; int timestamp;
        if (!WebPAnimDecoderGetNext(decoder, &buffer, &timestamp)) break;
    }
    WebPAnimDecoderDelete(decoder);
}

typedef struct { const uint8_t *data; size_t size, position; } reader;

static int gif_read(GifFileType *gif, GifByteType *out, int length) {
    reader *r = gif->UserData;
    size_t n = (size_t)length < r->size - r->position ? (size_t)length : r->size - r->position;
    memcpy(out, r->data + r->position, n);
    r->position += n;
    return (int)n;
}

static void fuzz_gif(const uint8_t *data, size_t size) {
    if (size < 13) return;
    uint32_t w = data[6] | data[7] << 8, h = data[8] | data[9] << 8;
    if ((uint64_t)w * h > MAX_PIXELS / 16) return;  // the Swift walk bounds frames; keep the fuzzer small
    reader r = { data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&r, gif_read, &error);
    if (gif == NULL) return;
    if (DGifSlurp(gif) == GIF_OK) {
        for (int i = 0; i < gif->ImageCount; i++) {
            GraphicsControlBlock gcb;
            DGifSavedExtensionToGCB(gif, i, &gcb);
        }
    }
    DGifCloseFile(gif, &error);
}

static void fuzz_icc(const uint8_t *data, size_t size) {
    cmsHPROFILE input = cmsOpenProfileFromMem(data, (cmsUInt32Number)size);
    if (input == NULL) return;
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsColorSpaceSignature space = cmsGetColorSpace(input);
    cmsUInt32Number format = space == cmsSigRgbData ? TYPE_RGBA_8 : space == cmsSigGrayData ? TYPE_GRAY_8
                           : space == cmsSigCmykData ? TYPE_CMYK_8_REV : 0;
    if (format != 0) {
        cmsHTRANSFORM t = cmsCreateTransform(input, format, srgb, space == cmsSigRgbData ? TYPE_RGBA_8 : TYPE_RGB_8,
                                             INTENT_PERCEPTUAL, space == cmsSigRgbData ? cmsFLAGS_COPY_ALPHA : 0);
        if (t != NULL) {
            uint8_t in[64 * 4], out[64 * 4];
            for (int i = 0; i < (int)sizeof in; i++) in[i] = (uint8_t)(i * 37);
            cmsDoTransform(t, in, out, 64);
            cmsDeleteTransform(t);
        }
    }
    cmsCloseProfile(srgb);
    cmsCloseProfile(input);
}

static void quiet(cmsContext c, cmsUInt32Number code, const char *text) { (void)c; (void)code; (void)text; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready = 0;
    if (!ready) { cmsSetLogErrorHandler(quiet); ready = 1; }
    if (size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0) fuzz_png(data, size);
    else if (size >= 3 && memcmp(data, "\xff\xd8\xff", 3) == 0) fuzz_jpeg(data, size);
    else if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0) fuzz_webp(data, size);
    else if (size >= 6 && (memcmp(data, "GIF87a", 6) == 0 || memcmp(data, "GIF89a", 6) == 0)) fuzz_gif(data, size);
    else fuzz_icc(data, size);
    return 0;
}
