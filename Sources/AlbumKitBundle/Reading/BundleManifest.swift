import AlbumKit
import Foundation

/// `manifest.json`: `{"format":"albumkit-bundle","version":2,"created":"<RFC 3339>",
/// "generator":"albumkit <version>","albumCount":N}` (SPEC 3). Version 2 bundles carry every
/// field of an album (SPEC 1); version 1 bundles, six, and read as before.
struct BundleManifest: Codable, Equatable {
    static let formatName = "albumkit-bundle"
    static let currentVersion = 2
    /// The versions this build reads.
    static let readableVersions = 1...currentVersion

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
        guard readableVersions.contains(manifest.version) else {
            let why = manifest.version > currentVersion ? "was made by a newer albumkit" : "is of a version this albumkit does not read"
            throw AlbumKitError(
                .unsupported, "\(subject): \(why) (bundle version \(manifest.version); this albumkit reads versions 1 to \(currentVersion))")
        }
        if let count = manifest.albumCount, count < 0 {
            throw AlbumKitError(.unreadableInput, "\(subject): albumCount \(count) is negative")
        }
        return manifest
    }
}
