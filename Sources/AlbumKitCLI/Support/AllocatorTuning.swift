import CAllocator
import Foundation

/// How the process's memory allocator is set up before a command runs.
enum AllocatorTuning {
    /// The size from which an allocation gets pages of its own, given back when it is freed:
    /// glibc's starting value, kept fixed. The free top of the heap is given back once it
    /// reaches 16 times that (2 MiB). A 10 000-album import peaks 3–5 MB lower than with
    /// glibc's moving thresholds, which follow the biggest block freed (up to 32 MiB).
    static let ownPagesFrom: Int32 = 128 * 1024

    /// Fixes the allocator's thresholds, unless the environment sets glibc's own
    /// (`MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`, a `glibc.malloc.` tunable), which
    /// then win. Returns whether they were fixed: false where the C library has none to fix.
    @discardableResult
    static func apply(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard !setsOwnThresholds(environment) else { return false }
        return albumkit_fix_allocator_thresholds(ownPagesFrom) == 1
    }

    /// Whether `environment` gives glibc's allocator settings of its own.
    static func setsOwnThresholds(_ environment: [String: String]) -> Bool {
        environment["MALLOC_MMAP_THRESHOLD_"] != nil || environment["MALLOC_TRIM_THRESHOLD_"] != nil
            || environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true
    }
}
