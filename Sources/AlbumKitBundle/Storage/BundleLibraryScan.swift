import AlbumKit
import Foundation

/// One reading of a bundle library file: its albums and state, and where each cover lies —
/// as a file offset in an uncompressed tar, or only readable in sequence in a compressed one.
/// Cover bytes are skipped, not read. Tied to the file's ``Identity``; an atomic save makes a
/// new file, so a changed identity means the scan is stale.
struct BundleLibraryScan: Sendable {
    /// Which file, in which version, was scanned.
    typealias Identity = FileIdentity

    /// Where a cover's bytes are.
    enum Location: Sendable {
        case offset(Int64, size: Int)
        case inSequence
    }

    let identity: Identity?
    let snapshot: LibrarySnapshot
    /// The history steps `state.json` carries, by the ids the memento gives them.
    let steps: [Int64: HistoryStep]
    let covers: [CoverKey: Location]

    /// Scans `file`; albums without an id make the library unreadable.
    init(file: URL, limits: Limits) throws(AlbumKitError) {
        identity = Identity(path: file.path)
        let reader = try BundleReader(file, options: .init(limits: limits, indexesCovers: true))
        var albums: [Album] = []
        var state = StateFile()
        var covers: [CoverKey: Location] = [:]
        while let item = try reader.next() {
            switch item {
            case .source(.album(let record, let label)):
                guard record.id != nil else {
                    throw AlbumKitError(.unreadableInput, "\(file.path): album \(label) has no id; the file was left as it is")
                }
                albums.append(try record.validated(newID: AlbumID(""), label: label.description))
            case .source(.state(let stored)):
                state = stored
            case .source(.cover(let path, _)):
                if let key = CoverKey(fileName: path) { covers[key] = .inSequence }
            case .coverLocation(let key, let offset, let size):
                covers[key] = .offset(offset, size: size)
            case .source(.invalid(_, let label, let reason)):
                throw AlbumKitError(.unreadableInput, "\(file.path): album \(label): \(reason); the file was left as it is")
            case .source(.warning), .source(.progress):
                break
            }
        }
        let (memento, steps) = state.memento()
        snapshot = LibrarySnapshot(albums: albums, state: memento)
        self.steps = steps
        self.covers = covers
    }
}
