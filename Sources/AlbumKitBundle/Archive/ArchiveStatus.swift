import AlbumKit
import CArchive

/// The one place where libarchive's return codes become ``AlbumKitError``s.
///
/// libarchive answers `ARCHIVE_OK`, `ARCHIVE_EOF` and `ARCHIVE_WARN` for calls that did their
/// work (a warning is a lossy name conversion, which the entry-name checks catch), and
/// `ARCHIVE_RETRY`, `ARCHIVE_FAILED` or `ARCHIVE_FATAL` for calls that did not; byte counts
/// are negative codes of the same kind.
enum ArchiveStatus {
    /// Returns `code` when the call did its work; otherwise throws an error of `kind` that
    /// names `subject` and gives libarchive's own explanation.
    @discardableResult
    static func check(
        _ code: Int32, _ handle: OpaquePointer, _ kind: AlbumKitError.Kind, _ subject: @autoclosure () -> String
    ) throws(AlbumKitError) -> Int32 {
        guard code == ARCHIVE_OK || code == ARCHIVE_EOF || code == ARCHIVE_WARN else {
            throw failure(handle, kind, subject())
        }
        return code
    }

    /// Returns a byte count, or throws when it is negative (a libarchive failure code).
    static func count(
        _ result: Int, _ handle: OpaquePointer, _ kind: AlbumKitError.Kind, _ subject: @autoclosure () -> String
    ) throws(AlbumKitError) -> Int {
        guard result >= 0 else { throw failure(handle, kind, subject()) }
        return result
    }

    private static func failure(_ handle: OpaquePointer, _ kind: AlbumKitError.Kind, _ subject: String) -> AlbumKitError {
        AlbumKitError(kind, "\(subject): \(message(handle))")
    }

    /// libarchive's explanation of the last failure on `handle`.
    static func message(_ handle: OpaquePointer) -> String {
        if let text = archive_error_string(handle) { return String(cString: text) }
        let code = archive_errno(handle)
        return code == 0 ? "the archive is damaged or not an archive" : String(cString: strerror(code))
    }
}

#if canImport(Glibc)
import Glibc
#endif
