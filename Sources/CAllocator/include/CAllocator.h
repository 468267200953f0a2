// glibc's mallopt, which Swift's Glibc module does not show (malloc.h is not in it).
#ifndef CALLOCATOR_H
#define CALLOCATOR_H

/// Gives every allocation of `own_pages_from` bytes or more pages of its own, returned to the
/// system when it is freed, and keeps that threshold fixed (glibc's `M_MMAP_THRESHOLD`); gives
/// back the free top of the heap once it reaches 16 times that (`M_TRIM_THRESHOLD`); and lets
/// at most `arenas` heaps serve the process's threads (`M_ARENA_MAX`). Left alone, glibc raises
/// both thresholds to the size of every such block freed (up to 32 and 64 MiB), so the big
/// short-lived buffers of a long command come from the heap, whose pages the process keeps;
/// and it gives each thread that allocates a heap of its own, up to 8 a core, whose freed
/// blocks stay with the process. Returns 1 when glibc took all three; 0 elsewhere (another C
/// library, or a sanitizer's allocator, which ignores them) or for a value out of range.
int albumkit_tune_allocator(int own_pages_from, int arenas);

#endif
