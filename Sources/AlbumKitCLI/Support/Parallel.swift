import Dispatch
import Foundation

/// Work on many independent items split over the machine's cores: a `list` of 100 000
/// albums lays out its lines on both cores of a small machine.
enum Parallel {
    /// The results of `make` for consecutive ranges covering `0..<count`, joined in order. The
    /// ranges run side by side, one per active core; a count under `serialBelow` runs as one.
    static func joined<Result: Sendable>(_ count: Int, serialBelow: Int = 10_000, _ make: @Sendable (Range<Int>) -> [Result]) -> [Result] {
        let parts = count < serialBelow ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard parts > 1 else { return make(0..<count) }
        var results = [[Result]](repeating: [], count: parts)
        results.withUnsafeMutableBufferPointer { buffer in
            // Each run writes its own slot and no other.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                slots[part] = make((count * part / parts)..<(count * (part + 1) / parts))
            }
        }
        return Array(results.joined())
    }
}
