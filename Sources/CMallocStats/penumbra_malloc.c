#include "penumbra_malloc.h"
#include <malloc.h>

size_t penumbra_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

size_t penumbra_heap_system(void) {
    struct mallinfo2 info = mallinfo2();
    return info.arena + info.hblkhd;
}

int penumbra_heap_trim(void) { return malloc_trim(0); }

void penumbra_heap_configure(size_t mmap_threshold, int arena_max) {
    mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
    if (arena_max > 0) mallopt(M_ARENA_MAX, arena_max);
}
