import CArchive

#if canImport(Glibc)
import Glibc
#endif

/// What an entry header says, copied out of libarchive.
struct ArchiveEntry {
    /// What kind of thing the entry is.
    enum Kind: Equatable {
        case file
        case directory
        /// A symbolic or hard link, device, FIFO or socket, described in words.
        case refused(String)
    }

    /// The 1-based position in the archive.
    let number: Int
    /// The name's bytes as stored; nil when libarchive could not give them.
    let rawName: [UInt8]?
    let kind: Kind
    /// The size the header declares, if it declares one.
    let declaredSize: Int64?

    /// Describes `entry`; a folder walk names entries by their full path, which `folder`
    /// (the walked folder) is taken off.
    init(_ entry: OpaquePointer, number: Int, below folder: String?) {
        self.number = number
        let name = archive_entry_pathname(entry) ?? archive_entry_pathname_utf8(entry)
        let bytes = name.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
        if let bytes, let folder, bytes.starts(with: folder.utf8) {
            rawName = Array(bytes.dropFirst(folder.utf8.count).drop { $0 == UInt8(ascii: "/") })
        } else {
            rawName = bytes
        }
        declaredSize = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
        let type = archive_entry_filetype(entry)
        if archive_entry_hardlink(entry) != nil {
            kind = .refused("a hard link")
        } else if folder != nil, type & 0o170000 == 0o100000, archive_entry_nlink(entry) > 1 {
            // In a folder, a file's other names may lie outside it: reading it would read
            // whatever it is linked to.
            kind = .refused("a file with \(archive_entry_nlink(entry)) hard links")
        } else if archive_entry_symlink(entry) != nil {
            kind = .refused("a symbolic link")
        } else {
            switch type & 0o170000 {
            case 0o100000: kind = .file
            case 0o040000: kind = .directory
            case 0o120000: kind = .refused("a symbolic link")
            case 0o020000, 0o060000: kind = .refused("a device file")
            case 0o010000: kind = .refused("a FIFO")
            case 0o140000: kind = .refused("a socket")
            default: kind = .refused("of unknown type \(String(type, radix: 8))")
            }
        }
    }
}
