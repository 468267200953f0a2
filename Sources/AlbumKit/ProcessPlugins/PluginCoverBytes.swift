import Foundation

extension PluginCover {
    /// The image bytes this cover names, held to `maxBytes`: base64 `data`, or a `file` that
    /// lies under `roots` (`covers.fileRoots`, and for a source the input folder). An error
    /// names `reference` (the album or reference the cover is for) and `limitName` (the setting
    /// `maxBytes` comes from); the bytes must be a
    /// JPEG, PNG, GIF or WebP image.
    func bytes(maxBytes: Int, limitName: String, roots: FileRoots, reference: String) throws(AlbumKitError) -> (Data, ImageKind) {
        let bytes: Data
        switch (file, data) {
        case (let file?, nil):
            guard file.hasPrefix("/") else { throw AlbumKitError(.unsupported, "\(reference): the cover file '\(PluginText.shown(file))' is not an absolute path; not read") }
            guard let real = roots.permitted(URL(fileURLWithPath: file)) else {
                throw AlbumKitError(.unsupported, "\(reference): the cover file '\(PluginText.shown(file))' is not inside the input or under covers.fileRoots (\(roots.paths.isEmpty ? "none configured" : roots.paths.joined(separator: ", "))); not read")
            }
            guard let handle = FileHandle(forReadingAtPath: real) else {
                throw AlbumKitError(.fileSystem, "\(reference): the cover file '\(PluginText.shown(file))' cannot be read")
            }
            defer { try? handle.close() }
            bytes = (try? handle.read(upToCount: maxBytes + 1)) ?? Data()
        case (nil, let text?):
            // Base64 is 4 characters for 3 bytes: a longer text cannot decode to a permitted size.
            guard text.utf8.count <= (maxBytes / 3 + 1) * 4 + 4 else { throw Self.tooLarge(reference, maxBytes, limitName) }
            guard let decoded = Data(base64Encoded: text) else { throw AlbumKitError.unreadable(reference, "the cover's data is not base64") }
            bytes = decoded
        default:
            throw AlbumKitError.unreadable(reference, "a cover must have exactly one of 'file' and 'data'")
        }
        guard bytes.count <= maxBytes else { throw Self.tooLarge(reference, maxBytes, limitName) }
        guard let kind = ImageKind(sniffing: bytes) else {
            throw AlbumKitError.unreadable(reference, "the cover is not a JPEG, PNG, GIF or WebP image")
        }
        return (bytes, kind)
    }

    private static func tooLarge(_ reference: String, _ maxBytes: Int, _ limitName: String) -> AlbumKitError {
        AlbumKitError(.limitExceeded, "\(reference): the cover is larger than \(maxBytes) bytes (\(limitName))")
    }
}
