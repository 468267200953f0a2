import Foundation

extension CoverStore {
    /// The size in bytes of the cover stored under `key`, or nil when it is not stored:
    /// the file's size where the store keeps covers as files, else the length of its bytes.
    public func byteCount(of key: CoverKey) async throws -> Int? {
        if let path = location(of: key), path.hasPrefix("/") {
            guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber else { return nil }
            return size.intValue
        }
        return try await data(for: key)?.count
    }
}
