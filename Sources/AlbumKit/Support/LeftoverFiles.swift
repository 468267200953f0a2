import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a process killed mid-write leaves behind — temporary files (`.<name>.tmp-<pid>-<n>`,
/// ``TemporaryFile``) and cover staging folders (`.albumkit-staging-<pid>-<n>`, import and
/// restore) — and how they are told apart from work in progress.
///
/// Each owner holds an exclusive `flock` on its file or folder for as long as it exists under
/// that name, and the kernel drops the lock when the owner dies, however it dies. So one that
/// can be locked has no owner left and ``sweep(_:only:)`` removes it, while one in use — by any
/// process, a process id reused since, or another machine on a shared folder — is never touched.
public enum LeftoverFiles {
    /// How a staging folder's name starts.
    static let stagingPrefix = ".albumkit-staging-"

    /// Removes the leftovers directly inside `folder`; with `destination`, only the temporary
    /// files of that one file name. Best effort: what cannot be read or removed stays.
    public static func sweep(_ folder: URL, only destination: String? = nil) {
        guard let directory = opendir(folder.path) else { return }
        var leftovers: [String] = []
        while let entry = readdir(directory) {
            // Every leftover name starts with a dot: the rest are skipped before becoming Strings.
            let bytes = directoryEntryName(entry)
            guard bytes.first == 0x2E else { continue }
            let name = String(decoding: bytes, as: UTF8.self)
            if isLeftover(name, of: destination) { leftovers.append(name) }
        }
        closedir(directory)
        for name in leftovers { removeIfUnowned(folder.appendingPathComponent(name).path) }
    }

    /// Removes the temporary cover files a killed cover write left in `store`'s folder of cover
    /// files, if it keeps one. Import, restore, migrate, `covers fetch` and `covers prune` call it
    /// before they write or drop covers (`init`'s starter covers go into a new folder): reading
    /// a large covers folder would cost a save of one album more than the save itself, and a
    /// leftover there only takes space (no key names it).
    public static func sweepCovers(of store: any CoverStore) {
        if let folder = store.filesFolder { sweep(folder) }
    }

    /// Makes the file or folder just created and open as `descriptor` its creator's: takes the
    /// lock (waiting out a sweep that is looking at it). False when a sweep removed it before the
    /// lock was taken: the caller makes another.
    static func claim(_ descriptor: Int32) -> Bool {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { return false }
        }
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_nlink > 0
    }

    /// Whether `name` is a temporary file (of `destination`, when given) or a staging folder.
    static func isLeftover(_ name: String, of destination: String?) -> Bool {
        if let destination {
            let prefix = ".\(destination).tmp-"
            return name.hasPrefix(prefix) && isOwnerSuffix(name.dropFirst(prefix.count))
        }
        if name.hasPrefix(stagingPrefix) { return isOwnerSuffix(name.dropFirst(stagingPrefix.count)) }
        guard let marker = name.range(of: ".tmp-", options: .backwards) else { return false }
        return isOwnerSuffix(name[marker.upperBound...])
    }

    /// `<pid>-<n>`, as ``TemporaryFile`` and staging folders end their names.
    private static func isOwnerSuffix(_ suffix: Substring) -> Bool {
        let parts = suffix.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    private static func removeIfUnowned(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &status) == 0 else { return }
        if status.st_mode & 0o170000 == 0o040000 {
            try? FileManager.default.removeItem(atPath: path)
        } else {
            unlink(path)
        }
    }
}
