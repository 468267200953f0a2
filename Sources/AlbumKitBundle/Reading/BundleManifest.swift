import AlbumKit
import Foundation

/// `manifest.json`: `{"format":"albumkit-bundle","version":1,"created":"<RFC 3339>",
/// "generator":"albumkit <version>","albumCount":N}` (SPEC 3).
struct BundleManifest: Codable, Equatable {
    static let formatName = "albumkit-bundle"
    static let currentVersion = 1

    var format: String
    var version: Int
    var created: String?
    var generator: String?
    var albumCount: Int?

    /// The manifest of a bundle written now by `generator`, holding `albumCount` albums.
    init(albumCount: Int, generator: String, created: Date = Date()) {
        format = Self.formatName
        version = Self.currentVersion
        self.created = created.formatted(.iso8601)
        self.generator = generator
        self.albumCount = albumCount
    }

    /// Reads and checks a manifest; `subject` names the entry in errors.
    static func parse(_ data: Data, subject: String) throws(AlbumKitError) -> BundleManifest {
        let manifest: BundleManifest
        do {
            manifest = try JSONDecoder().decode(BundleManifest.self, from: data)
        } catch {
            throw AlbumKitError(.unreadableInput, "\(subject): not a valid manifest (\(error))")
        }
        guard manifest.format == formatName else {
            throw AlbumKitError(.unreadableInput, "\(subject): format is '\(manifest.format)', not '\(formatName)'")
        }
        guard manifest.version == currentVersion else {
            throw AlbumKitError(.unsupported, "\(subject): bundle version \(manifest.version) is not supported (this albumkit reads version \(currentVersion))")
        }
        if let count = manifest.albumCount, count < 0 {
            throw AlbumKitError(.unreadableInput, "\(subject): albumCount \(count) is negative")
        }
        return manifest
    }
}
