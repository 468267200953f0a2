@testable import AlbumKitCLI
import CAllocator
import Testing

/// The allocator set-up every command starts with.
@Suite struct AllocatorTuningTests {
    /// On glibc both thresholds are taken (mallopt answers 1 for each); a build that lost the
    /// call (a header that does not define `__GLIBC__` before the check) answers 0. The
    /// sanitizers' allocators ignore mallopt: `make sanitizers` skips this test.
    @Test func glibcTakesTheThresholds() {
        #if canImport(Glibc)
        #expect(AllocatorTuning.apply(environment: [:]))
        #expect(albumkit_fix_allocator_thresholds(AllocatorTuning.ownPagesFrom) == 1)
        #endif
        #expect(albumkit_fix_allocator_thresholds(0) == 0 && albumkit_fix_allocator_thresholds(.max) == 0)
    }

    /// A user's own glibc settings win: the command then leaves the thresholds alone.
    @Test func theUsersOwnSettingsWin() {
        for environment in [["MALLOC_MMAP_THRESHOLD_": "65536"], ["MALLOC_TRIM_THRESHOLD_": "0"],
                            ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"]] {
            #expect(!AllocatorTuning.apply(environment: environment), "\(environment)")
        }
        #expect(!AllocatorTuning.setsOwnThresholds(["GLIBC_TUNABLES": "glibc.rtld.nns=2", "PATH": "/bin"]))
    }
}
