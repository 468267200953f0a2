// ThreadSanitizer and Synchronization.Mutex under contention (see tsan.supp):
//     swiftc -sanitize=thread mutex-contention.swift -o /tmp/mutex-contention && /tmp/mutex-contention
// prints "count 400000" (no increment was lost, so the lock held) and yet reports
// "Swift access race" on the counter, because the contended lock and unlock happen in the
// kernel, where ThreadSanitizer cannot see them.
import Foundation
import Synchronization

final class Counter: Sendable {
    let value = Mutex(0)
}

let counter = Counter()
for _ in 0..<2 {
    Thread {
        for _ in 0..<200_000 { counter.value.withLock { $0 += 1 } }
    }.start()
}
while counter.value.withLock({ $0 }) < 400_000 { usleep(1000) }
print("count", counter.value.withLock { $0 })
