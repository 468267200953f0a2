import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory lock (`flock`) on a lock file, held until ``release()`` or deinit.
/// Works across processes and across tasks of one process (each lock opens its own file).
public final class FileLock: Sendable {
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    /// Takes the lock on `path`, creating the file, waiting up to `timeout` seconds.
    public static func acquire(_ path: String, timeout: Double) async throws -> FileLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AlbumKitError.fileSystem(path, "open the lock file", errno: errno) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        var pause = Duration.milliseconds(2)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw AlbumKitError.fileSystem(path, "lock", errno: code)
            }
            guard ContinuousClock.now < deadline else {
                close(fd)
                throw AlbumKitError(.lockTimeout, "\(path): another albumkit is writing this library; gave up after \(timeout) seconds (storage.lockTimeoutSeconds)")
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                close(fd)
                throw error
            }
            pause = min(pause * 2, .milliseconds(50))
        }
        return FileLock(descriptor: fd)
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
