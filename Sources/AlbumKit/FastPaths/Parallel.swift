import Dispatch
import Foundation

/// Work on many independent items split over the machine's cores: a `list` of 100 000
/// albums judges their covers and lays out its lines on both cores of a small machine.
/// For this package's own modules, not part of the toolkit's API.
package enum Parallel {
    /// The results of `make` for consecutive ranges covering `0..<count`, joined in order. The
    /// ranges run side by side, one per active core; a count under `serialBelow` runs as one.
    @inlinable
    package static func joined<Result: Sendable>(_ count: Int, serialBelow: Int = 10_000, _ make: @Sendable (Range<Int>) -> [Result]) -> [Result] {
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
        // Whole arrays appended (a flattening iterator goes element by element).
        var joined: [Result] = []
        joined.reserveCapacity(results.reduce(0) { $0 + $1.count })
        for part in results { joined.append(contentsOf: part) }
        return joined
    }
}
