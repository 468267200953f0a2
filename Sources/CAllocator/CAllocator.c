#include "CAllocator.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int albumkit_fix_own_pages_threshold(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, (int)bytes) && mallopt(M_TRIM_THRESHOLD, (int)(16 * bytes));
#else
    (void)bytes;
    return 0;
#endif
}
