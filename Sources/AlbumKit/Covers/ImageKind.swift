import Foundation

/// The image types a cover may be, decided by the first bytes — never by a file name or a
/// `Content-Type` header, which an HTML error page can carry as easily as an image.
public enum ImageKind: String, Sendable, CaseIterable {
    case jpeg = "jpg"
    case png
    case gif
    case webp

    /// The kind `bytes` start like, or nil when they are not a cover image.
    public init?(sniffing bytes: Data) {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// Why `bytes` are not a cover image, as an error says it (their size and first bytes).
    public static func notAnImage(_ bytes: Data) -> String {
        "not a JPEG, PNG, GIF or WebP image (\(bytes.count) bytes starting \(bytes.prefix(8).map { String(format: "%02x", $0) }.joined()))"
    }

    /// The file extension stored covers of this kind get.
    public var fileExtension: String { rawValue }
}
