// penumbra_png_write.c: PNG encoding with parallel deflate of independent bands.
//
// libpng filters and deflates one row at a time on one core; this writer does
// the same work pigz-style, in two parallel phases, and writes the container
// itself (zlib's crc32 and adler32_combine, libdeflate's adler32; no libpng):
//
//  1. Filter. Each row is packed (RGBA, or RGB with the fourth byte dropped)
//     and filtered against the previous packed row into one buffer of
//     `height * (1 + row bytes)` bytes. A fixed filter applies to every row;
//     adaptive picks per row libpng's way: the smallest sum of the filtered
//     bytes read as signed magnitudes (min(b, 256 - b)), ties to the lower
//     filter type. Rows depend only on the pixels, so bands of rows are
//     filtered in any order, by any thread.
//  2. Deflate. The filtered stream is cut into bands of whole rows, about
//     BAND_TARGET_BYTES each. The band size depends on the image only, never
//     on the thread count, so the same pixels always give the same bytes.
//     Each band is compressed on its own by libdeflate (about half the
//     instructions of zlib's deflate at the same level, BENCHMARKS.md) as a
//     complete raw deflate stream. libdeflate has no flush, so a band that is
//     not the last is turned into a non-final, byte-aligned piece the way
//     zlib's Z_SYNC_FLUSH ends one: a walk of the band's Huffman codes
//     (deflate_blocks.c, no output produced) finds the bit where the band's
//     last block header starts and the bit where that block ends; the
//     header's BFINAL bit is cleared and an empty stored block (3 zero bits, padding, 00 00 FF FF)
//     is appended. Concatenated behind a zlib header and followed by the
//     Adler-32 of the whole stream (per-band Adler-32s joined with
//     adler32_combine), the bands form one valid zlib stream.
//
// The file is signature, IHDR, sRGB (perceptual), IDATs of at most
// IDAT_MAX_BYTES, IEND; nothing else, so no timestamp or text.
#include <pthread.h>
#include "penumbra_flag.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "penumbra_png.h"
#include "deflate_blocks.h"

/// Filtered bytes per band (rounded to whole rows, at least one row): large enough that starting
/// each band without the history before it costs little ratio, small enough to share the work.
#define BAND_TARGET_BYTES (512u * 1024u)
/// The largest IDAT payload written.
#define IDAT_MAX_BYTES (256u * 1024u)
/// The most worker threads used when the caller says 0 (automatic).
#define MAX_THREADS 16

typedef struct band_output {
    uint8_t *bytes;
    size_t size;
    uLong adler;
    int failed;
} band_output;

typedef struct encode_job {
    const uint8_t *rgba;
    uint32_t width, height;
    size_t bpp, row_bytes, stride; // stride = 1 + row_bytes (filter type byte)
    int level;
    penumbra_png_filter filter;
    int premultiplied;            // rgba is premultiplied: pack_row makes it straight
    uint8_t *filtered;            // height * stride
    uint32_t rows_per_band, band_count;
    band_output *bands;
    atomic_uint next_band;
    atomic_int failed;
    const int *cancel;            // penumbra_flag.h: set by the caller to stop between bands
    atomic_int cancelled;
} encode_job;

/// True (and the job marked failed and cancelled) once the caller's flag is set.
static int stop_requested(encode_job *job) {
    if (!penumbra_flag_is_set(job->cancel)) return 0;
    atomic_store(&job->cancelled, 1);
    atomic_store(&job->failed, 1);
    return 1;
}

// MARK: - Filtering

/// straight[a][c]: the straight colour of premultiplied colour c at alpha a, as PNGCodec's
/// `unpremultiply`: 0 when a is 0, else min(255, floor((510 c + a) / (2 a))).
static uint8_t straight[256][256];
static pthread_once_t straight_once = PTHREAD_ONCE_INIT;

static void fill_straight(void) {
    for (int a = 1; a < 256; a++)
        for (int c = 0; c < 256; c++) {
            int v = (c * 510 + a) / (2 * a);
            straight[a][c] = (uint8_t)(v > 255 ? 255 : v);
        }
}

/// Row y as the PNG stores it: RGBA, or RGB with the fourth byte dropped; premultiplied rows
/// are made straight here, on the filtering threads, rather than copied and converted first.
static void pack_row(const encode_job *job, uint32_t y, uint8_t *row) {
    const uint8_t *source = job->rgba + (size_t)y * job->width * 4;
    if (job->bpp == 4 && job->premultiplied) {
        for (uint32_t x = 0; x < job->width; x++, source += 4, row += 4) {
            uint8_t a = source[3];
            if (a == 255) { memcpy(row, source, 4); continue; }
            const uint8_t *table = straight[a];
            row[0] = table[source[0]]; row[1] = table[source[1]]; row[2] = table[source[2]]; row[3] = a;
        }
        return;
    }
    if (job->bpp == 4) { memcpy(row, source, job->row_bytes); return; }
    for (uint32_t x = 0; x < job->width; x++) {
        row[0] = source[0]; row[1] = source[1]; row[2] = source[2];
        row += 3; source += 4;
    }
}

// The loops below read only the unfiltered rows and write only `out`
// (restrict), so the compiler vectorizes them; Paeth is written branch-free.
// Each is compiled twice, for baseline x86-64 and for AVX2 (256-bit vectors),
// and the loader picks the one the CPU runs (an ifunc); integer loops give
// the same bytes either way.
#if defined(__x86_64__) && defined(__ELF__)
#define VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VECTOR_CLONES
#endif

static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c); // |p - a|, |p - b|, |p - c|
    int bc = pb <= pc ? b : c;
    return (uint8_t)(pa <= pb && pa <= pc ? a : bc);
}

/// Writes filter `type` of `cur` (above: `prev`, zeros on the first row) into `out`.
VECTOR_CLONES static void filter_row(int type, const uint8_t *restrict cur, const uint8_t *restrict prev, size_t n, size_t bpp,
                       uint8_t *restrict out) {
    switch (type) {
    case 0: memcpy(out, cur, n); break;
    case 1:
        for (size_t i = 0; i < bpp; i++) out[i] = cur[i];
        for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - cur[i - bpp]);
        break;
    case 2:
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
        break;
    case 3:
        for (size_t i = 0; i < bpp; i++) out[i] = (uint8_t)(cur[i] - (prev[i] >> 1));
        for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - ((cur[i - bpp] + prev[i]) >> 1));
        break;
    default:
        for (size_t i = 0; i < bpp; i++) out[i] = (uint8_t)(cur[i] - prev[i]); // paeth(0, b, 0) = b
        for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
}

/// libpng's heuristic: the sum of the bytes as signed magnitudes (min(b, 256 - b)).
VECTOR_CLONES static uint64_t signed_sum(const uint8_t *restrict bytes, size_t n) {
    uint64_t sum = 0;
    for (size_t start = 0; start < n; start += 65536) { // 65536 * 128 fits 32 bits
        size_t end = n - start < 65536 ? n : start + 65536;
        uint32_t part = 0;
        for (size_t i = start; i < end; i++) {
            int v = (int8_t)bytes[i];
            part += (uint32_t)(v < 0 ? -v : v);
        }
        sum += part;
    }
    return sum;
}

/// Filters rows [first, end) into job->filtered. `scratch` holds 7 rows.
static void filter_band(const encode_job *job, uint32_t first, uint32_t end, uint8_t *scratch) {
    size_t n = job->row_bytes;
    uint8_t *prev = scratch, *cur = scratch + n, *trial = scratch + 2 * n; // trial: 5 rows
    if (first > 0) pack_row(job, first - 1, prev); else memset(prev, 0, n);
    for (uint32_t y = first; y < end; y++) {
        pack_row(job, y, cur);
        uint8_t *out = job->filtered + (size_t)y * job->stride;
        if (job->filter != PENUMBRA_PNG_FILTER_ADAPTIVE) {
            out[0] = (uint8_t)job->filter;
            filter_row((int)job->filter, cur, prev, n, job->bpp, out + 1);
        } else {
            int best = 0;
            uint64_t best_sum = UINT64_MAX;
            for (int type = 0; type < 5; type++) {
                filter_row(type, cur, prev, n, job->bpp, trial + (size_t)type * n);
                uint64_t sum = signed_sum(trial + (size_t)type * n, n);
                if (sum < best_sum) { best_sum = sum; best = type; }
            }
            out[0] = (uint8_t)best;
            memcpy(out + 1, trial + (size_t)best * n, n);
        }
        uint8_t *swap = prev; prev = cur; cur = swap;
    }
}

// MARK: - Deflate

static int deflate_band(encode_job *job, struct libdeflate_compressor *compressor, uint32_t band) {
    uint32_t first = band * job->rows_per_band;
    uint32_t end = first + job->rows_per_band < job->height ? first + job->rows_per_band : job->height;
    size_t start = (size_t)first * job->stride, length = (size_t)(end - first) * job->stride;
    band_output *output = &job->bands[band];
    output->adler = libdeflate_adler32(1, job->filtered + start, length);
    size_t capacity = libdeflate_deflate_compress_bound(compressor, length) + 8;
    output->bytes = (uint8_t *)malloc(capacity);
    if (output->bytes == NULL) return 1;
    output->size = libdeflate_deflate_compress(compressor, job->filtered + start, length, output->bytes, capacity - 8);
    if (output->size == 0) return 1;
    if (band + 1 == job->band_count) return 0;  // the last band ends the stream as it is
    size_t header_bit, end_bit;
    if (penumbra_deflate_last_block(output->bytes, output->size, &header_bit, &end_bit) != 0) return 1;
    output->bytes[header_bit >> 3] &= (uint8_t)~(1u << (header_bit & 7));    // BFINAL = 0
    size_t used = (end_bit + 7) >> 3;
    if (end_bit & 7) output->bytes[end_bit >> 3] &= (uint8_t)((1u << (end_bit & 7)) - 1);
    // An empty stored block: header 000 at end_bit, padding to the byte, LEN 0, NLEN 0xFFFF.
    size_t stored = (end_bit + 3 + 7) >> 3;
    for (size_t i = used; i < stored; i++) output->bytes[i] = 0;
    output->bytes[stored] = 0x00; output->bytes[stored + 1] = 0x00;
    output->bytes[stored + 2] = 0xFF; output->bytes[stored + 3] = 0xFF;
    output->size = stored + 4;
    return 0;
}

// MARK: - Workers

static void *filter_worker(void *argument) {
    encode_job *job = (encode_job *)argument;
    uint8_t *scratch = (uint8_t *)malloc(job->row_bytes * 7);
    if (scratch == NULL) { atomic_store(&job->failed, 1); return NULL; }
    for (;;) {
        uint32_t band = atomic_fetch_add(&job->next_band, 1);
        if (band >= job->band_count || atomic_load(&job->failed) || stop_requested(job)) break;
        uint32_t first = band * job->rows_per_band;
        uint32_t end = first + job->rows_per_band < job->height ? first + job->rows_per_band : job->height;
        filter_band(job, first, end, scratch);
    }
    free(scratch);
    return NULL;
}

static void *deflate_worker(void *argument) {
    encode_job *job = (encode_job *)argument;
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(job->level);
    if (compressor == NULL) {
        atomic_store(&job->failed, 1);
        return NULL;
    }
    for (;;) {
        uint32_t band = atomic_fetch_add(&job->next_band, 1);
        if (band >= job->band_count || atomic_load(&job->failed) || stop_requested(job)) break;
        if (deflate_band(job, compressor, band) != 0) atomic_store(&job->failed, 1);
    }
    libdeflate_free_compressor(compressor);
    return NULL;
}

/// Runs `worker` on `threads` threads (the calling thread is one of them).
static void run_workers(void *(*worker)(void *), encode_job *job, int threads) {
    pthread_t ids[MAX_THREADS];
    int started = 0;
    atomic_store(&job->next_band, 0);
    for (int i = 1; i < threads; i++)
        if (pthread_create(&ids[started], NULL, worker, job) == 0) started++;
    worker(job);
    for (int i = 0; i < started; i++) pthread_join(ids[i], NULL);
}

// MARK: - Container

static int append(penumbra_png_buffer *out, const void *bytes, size_t length) {
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity > 0 ? out->capacity : 8192;
        while (capacity < out->size + length) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(out->bytes, capacity);
        if (grown == NULL) return 1;
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->size, bytes, length);
    out->size += length;
    return 0;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/// Appends a chunk (length, type, data, CRC of type and data) whose data is the
/// concatenation of two pieces (either may be empty).
static int append_chunk(penumbra_png_buffer *out, const char *type, const uint8_t *a, size_t a_length,
                        const uint8_t *b, size_t b_length) {
    uint8_t head[8], tail[4];
    put32(head, (uint32_t)(a_length + b_length));
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, head + 4, 4);
    if (a_length > 0) crc = crc32(crc, a, (uInt)a_length);
    if (b_length > 0) crc = crc32(crc, b, (uInt)b_length);
    put32(tail, (uint32_t)crc);
    return append(out, head, 8) || (a_length > 0 && append(out, a, a_length)) ||
           (b_length > 0 && append(out, b, b_length)) || append(out, tail, 4);
}

/// Writes the zlib stream (header, bands, Adler-32) as IDAT chunks of at most IDAT_MAX_BYTES.
static int append_idats(penumbra_png_buffer *out, const encode_job *job) {
    int level_flags = job->level < 2 ? 0 : job->level < 6 ? 1 : job->level == 6 ? 2 : 3;
    unsigned header = (0x78u << 8) | ((unsigned)level_flags << 6);
    header += 31 - header % 31;
    uLong adler = job->bands[0].adler;
    size_t total = job->bands[0].size;
    for (uint32_t b = 1; b < job->band_count; b++) {
        uint32_t first = b * job->rows_per_band;
        uint32_t end = first + job->rows_per_band < job->height ? first + job->rows_per_band : job->height;
        adler = adler32_combine(adler, job->bands[b].adler, (z_off_t)((size_t)(end - first) * job->stride));
        total += job->bands[b].size;
    }
    uint8_t *stream = (uint8_t *)malloc(total + 6);
    if (stream == NULL) return 1;
    stream[0] = (uint8_t)(header >> 8); stream[1] = (uint8_t)header;
    size_t used = 2;
    for (uint32_t b = 0; b < job->band_count; b++) {
        memcpy(stream + used, job->bands[b].bytes, job->bands[b].size);
        used += job->bands[b].size;
    }
    put32(stream + used, (uint32_t)adler);
    used += 4;
    int failed = 0;
    for (size_t offset = 0; offset < used && !failed; offset += IDAT_MAX_BYTES) {
        size_t length = used - offset < IDAT_MAX_BYTES ? used - offset : IDAT_MAX_BYTES;
        failed = append_chunk(out, "IDAT", stream + offset, length, NULL, 0);
    }
    free(stream);
    return failed;
}

// MARK: - Entry point

static void say(char *message, size_t capacity, const char *text) {
    if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", text);
}

int penumbra_png_encode_threads(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                                int compression_level, penumbra_png_filter filter, int thread_count,
                                penumbra_png_buffer *out, char *message, size_t message_capacity) {
    return penumbra_png_encode_cancellable(rgba, width, height, has_alpha, 0, compression_level, filter, thread_count,
                                           NULL, out, message, message_capacity);
}

int penumbra_png_encode_cancellable(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                                    int premultiplied, int compression_level, penumbra_png_filter filter,
                                    int thread_count, const int *cancel, penumbra_png_buffer *out, char *message,
                                    size_t message_capacity) {
    say(message, message_capacity, "");
    if (out == NULL) { say(message, message_capacity, "no output buffer"); return 1; }
    out->bytes = NULL; out->size = 0; out->capacity = 0;
    if (rgba == NULL || width == 0 || height == 0 || width > 0x7FFFFFFFu || height > 0x7FFFFFFFu) {
        say(message, message_capacity, "a PNG needs a width and height from 1 to 2^31 - 1 pixels");
        return 1;
    }
    if (compression_level < 0 || compression_level > 9) {
        say(message, message_capacity, "compression level must be 0...9");
        return 1;
    }
    if ((int)filter < PENUMBRA_PNG_FILTER_NONE || (int)filter > PENUMBRA_PNG_FILTER_ADAPTIVE) {
        say(message, message_capacity, "unknown filter");
        return 1;
    }
    encode_job job;
    memset(&job, 0, sizeof job);
    job.rgba = rgba; job.width = width; job.height = height;
    job.bpp = has_alpha ? 4 : 3;
    job.row_bytes = (size_t)width * job.bpp;
    job.stride = job.row_bytes + 1;
    job.level = compression_level;
    job.filter = filter;
    job.premultiplied = has_alpha && premultiplied;
    if (job.premultiplied) pthread_once(&straight_once, fill_straight);
    size_t rows = BAND_TARGET_BYTES / job.stride;
    job.rows_per_band = rows < 1 ? 1 : rows > height ? height : (uint32_t)rows;
    job.band_count = (uint32_t)((height + (size_t)job.rows_per_band - 1) / job.rows_per_band);
    atomic_init(&job.failed, 0);
    atomic_init(&job.next_band, 0);
    atomic_init(&job.cancelled, 0);
    job.cancel = cancel;
    if (job.stride > SIZE_MAX / height) { say(message, message_capacity, "image too large for memory"); return 1; }
    job.filtered = (uint8_t *)malloc(job.stride * height);
    job.bands = (band_output *)calloc(job.band_count, sizeof *job.bands);
    int threads = thread_count > 0 ? thread_count : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if ((uint32_t)threads > job.band_count) threads = (int)job.band_count;
    int failed = job.filtered == NULL || job.bands == NULL;
    if (!failed) { run_workers(filter_worker, &job, threads); failed = atomic_load(&job.failed); }
    if (!failed) { run_workers(deflate_worker, &job, threads); failed = atomic_load(&job.failed); }
    if (!failed) {
        static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
        uint8_t ihdr[13], srgb[1] = {0}; // sRGB: perceptual intent
        put32(ihdr, width); put32(ihdr + 4, height);
        ihdr[8] = 8; ihdr[9] = has_alpha ? 6 : 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
        failed = append(out, signature, 8) || append_chunk(out, "IHDR", ihdr, 13, NULL, 0) ||
                 append_chunk(out, "sRGB", srgb, 1, NULL, 0) || append_idats(out, &job) ||
                 append_chunk(out, "IEND", NULL, 0, NULL, 0);
    }
    if (job.bands != NULL)
        for (uint32_t b = 0; b < job.band_count; b++) free(job.bands[b].bytes);
    free(job.bands);
    free(job.filtered);
    if (failed) {
        penumbra_png_buffer_free(out);
        if (atomic_load(&job.cancelled)) {
            say(message, message_capacity, "cancelled");
            return 2;
        }
        say(message, message_capacity, "out of memory or zlib failure while encoding");
        return 1;
    }
    return 0;
}

int penumbra_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                        int compression_level, penumbra_png_filter filter, penumbra_png_buffer *out,
                        char *message, size_t message_capacity) {
    return penumbra_png_encode_threads(rgba, width, height, has_alpha, compression_level, filter, 0, out,
                                       message, message_capacity);
}

void penumbra_png_buffer_free(penumbra_png_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
