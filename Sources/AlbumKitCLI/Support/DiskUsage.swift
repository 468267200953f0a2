import Foundation

/// How much disk a library takes: the files in its folder (library file, covers, backups),
/// plus its library file when that lives elsewhere. A database backend's rows are not
/// counted (they live in the database's own files).
enum DiskUsage {
    /// The bytes of the regular files under `folder` and of `file` when it lies outside it.
    static func bytes(folder: URL, file: String) -> Int64 {
        var total: Int64 = 0
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        if let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) {
            for case let url as URL in walker {
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                total += Int64(values.fileSize ?? 0)
            }
        }
        let inside = file.hasPrefix(folder.standardizedFileURL.path + "/")
        if file.hasPrefix("/"), !inside, let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber {
            total += size.int64Value
        }
        return total
    }
}
