#include "CAllocator.h"

#include <limits.h>
#include <stdlib.h>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int albumkit_tune_allocator(int own_pages_from, int arenas) {
#if defined(__GLIBC__)
    if (own_pages_from <= 0 || own_pages_from > INT_MAX / 16 || arenas <= 0) return 0;
    return mallopt(M_MMAP_THRESHOLD, own_pages_from) == 1 && mallopt(M_TRIM_THRESHOLD, 16 * own_pages_from) == 1
        && mallopt(M_ARENA_MAX, arenas) == 1;
#else
    (void)own_pages_from;
    (void)arenas;
    return 0;
#endif
}
