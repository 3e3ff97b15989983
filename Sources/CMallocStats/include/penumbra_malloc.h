// The C allocator's own accounting (glibc's mallinfo2 and malloc_trim), which Swift cannot
// reach through the Glibc module: <malloc.h> is not part of it. The server reports the heap's
// bytes in use beside its resident size, so retained memory and fragmentation can be told apart.
#ifndef PENUMBRA_MALLOC_H
#define PENUMBRA_MALLOC_H

#include <stddef.h>

/// Bytes the allocator has handed out and not had back (small blocks and mmapped ones).
size_t penumbra_heap_in_use(void);
/// Bytes the allocator holds from the system (arenas and mmapped blocks).
size_t penumbra_heap_system(void);
/// Returns free memory at the top and inside the arenas to the system; 1 when some was returned.
int penumbra_heap_trim(void);
/// Fixes malloc's mmap threshold (blocks this large or larger are mapped on their own and given
/// back when freed; setting it stops glibc from raising it) and caps the number of arenas.
void penumbra_heap_configure(size_t mmap_threshold, int arena_max);

#endif
