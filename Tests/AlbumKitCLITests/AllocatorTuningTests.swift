@testable import AlbumKitCLI
import CAllocator
import Testing

/// The allocator set-up every command starts with.
@Suite struct AllocatorTuningTests {
    /// On glibc both thresholds are taken (mallopt answers 1 for each); a build that lost the
    /// call (a header that does not define `__GLIBC__` before the check) answers 0.
    @Test func glibcTakesTheThresholds() {
        #if os(Linux)
        #expect(AllocatorTuning.apply())
        #expect(albumkit_fix_own_pages_threshold(AllocatorTuning.ownPagesFrom) == 1)
        #endif
    }
}
