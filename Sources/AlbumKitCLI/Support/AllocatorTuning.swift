import CAllocator
import Foundation

/// A command whose peak memory stays flat however large the library or its input (import,
/// export, migrate, restore, verify, fetching covers, the server): it runs with the allocator's
/// thresholds fixed and its heaps few (``AllocatorTuning``), so its big short-lived buffers go
/// back to the system as they are freed, and what its threads free is reused by the next. Other commands read or change the library once and exit; they
/// keep glibc's own thresholds, which reuse freed blocks instead of asking for fresh pages,
/// and so run faster (BENCHMARKS.md).
protocol FlatMemoryCommand {}

/// How the process's memory allocator is set up before a command runs.
enum AllocatorTuning {
    /// The size from which an allocation gets pages of its own, given back when it is freed:
    /// glibc's starting value, kept fixed. The free top of the heap is given back once it
    /// reaches 16 times that (2 MiB). glibc's own thresholds move up to follow the biggest
    /// block freed (up to 32 MiB), and an import's large buffers would then stay with the
    /// process, raising its peak.
    static let ownPagesFrom: Int32 = 128 * 1024

    /// How many heaps the threads share: one a core. glibc's own limit, 8 a core, lets each of
    /// the server's many short-lived dispatch threads take a heap, and the blocks freed across
    /// them stay with the process: under `make soak` its memory grew without end (BENCHMARKS.md).
    static var arenas: Int32 { Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Fixes the allocator's thresholds and its number of heaps, unless the environment sets
    /// glibc's own (`MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`, `MALLOC_ARENA_MAX`, a
    /// `glibc.malloc.` tunable), which then win. Returns whether they were fixed: false where
    /// the C library has none to fix.
    @discardableResult
    static func apply(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard !setsOwnSettings(environment) else { return false }
        return albumkit_tune_allocator(ownPagesFrom, arenas) == 1
    }

    /// Whether `environment` gives glibc's allocator settings of its own.
    static func setsOwnSettings(_ environment: [String: String]) -> Bool {
        ["MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_ARENA_MAX"].contains { environment[$0] != nil }
            || environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true
    }
}
