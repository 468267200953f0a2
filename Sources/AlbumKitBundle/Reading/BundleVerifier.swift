import AlbumKit
import Foundation

/// `verify BUNDLE`: reads a bundle to its end with every check of SPEC 3, gathering content
/// problems (checksums, cover hashes, the manifest) instead of stopping at the first, then
/// checks its albums (fields, ids, cover references, the current album).
public enum BundleVerifier {
    /// Every problem found in the bundle at `input`, each naming its entry; empty when it is sound.
    /// A hostile or damaged archive (one that cannot even be opened included) ends the
    /// reading and is reported as the last problem.
    public static func problems(in input: URL, limits: Limits) async throws -> [String] {
        try await problems(limits: limits) { () throws(AlbumKitError) in try ArchiveEntryReader(contentsOf: input, limits: limits) }
    }

    /// Every problem found in the bundle archive held in `bytes` (any format and compression
    /// a bundle file may have); `name` names it in the problems. For callers that already
    /// hold the bytes (an upload), and for the fuzz targets.
    public static func problems(inArchive bytes: some Collection<UInt8>, name: String, limits: Limits) async throws -> [String] {
        try await problems(limits: limits) { () throws(AlbumKitError) in try ArchiveEntryReader(bytes: bytes, name: name, limits: limits) }
    }

    private static func problems(limits: Limits, opening open: () throws(AlbumKitError) -> ArchiveEntryReader) async throws -> [String] {
        let reader: BundleReader
        do {
            reader = BundleReader(try open(), options: .init(limits: limits, collectsProblems: true))
        } catch {
            return [error.description]
        }
        let input = reader.input
        var albums: [(album: Album, label: String)] = []
        var problems: [String] = []
        var covers = Set<String>()
        var current: AlbumID?
        do {
            while let item = try reader.next() {
                switch item {
                case .source(.album(let record, let label)):
                    do {
                        albums.append((try record.validated(newID: .generate(), label: label.description), label.description))
                    } catch {
                        problems.append(error.description)
                    }
                case .source(.cover(let path, _)): covers.insert(path)
                case .source(.state(let state)): current = state.current
                default: break
                }
            }
        } catch {
            return problems + reader.problems.map(\.description) + [error.description]
        }
        problems += reader.problems.map(\.description)
        return problems + (await LibraryVerifier.problems(albums: albums, current: current, stateLabel: "\(input) entry state.json") {
            covers.contains($0)
        })
    }
}
