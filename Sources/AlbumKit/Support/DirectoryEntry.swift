import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The name `readdir` gave `entry`, as its bytes where they lie. `d_name` is declared 256 bytes
/// long, but a record holds only the name and its NUL: copying the whole field (as
/// `withUnsafeBytes(of: entry.pointee.d_name)` does) can read past the buffer `readdir` filled.
func directoryEntryName(_ entry: UnsafeMutablePointer<dirent>) -> UnsafeBufferPointer<UInt8> {
    let name = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \.d_name)!
    return UnsafeBufferPointer(start: name.assumingMemoryBound(to: UInt8.self), count: strlen(name.assumingMemoryBound(to: CChar.self)))
}
