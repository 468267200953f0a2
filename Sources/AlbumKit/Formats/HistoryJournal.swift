import Foundation

/// The history steps of a file library, one file each (`<id>.<ext>`) in a folder beside the
/// library file (`library.history/` for `library.json`). The library file names the steps that
/// count: a step file is written (synced) before the library file that names it is renamed
/// into place, and removed only after one that no longer names it is — so a crash leaves at
/// worst step files nothing names, which the next save clears away.
struct HistoryJournal<Format: LibraryFileFormat>: Sendable {
    /// The folder.
    let folder: URL
    let format: Format

    /// The journal of the library file `file`.
    init(beside file: URL, format: Format) {
        folder = file.deletingLastPathComponent().appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".history")
        self.format = format
    }

    private func file(_ id: Int64) -> URL { folder.appendingPathComponent("\(id).\(format.fileExtensions[0])") }

    /// The steps `ids` names that are stored; a step file that cannot be read is an error
    /// naming it.
    func read(_ ids: [Int64]) throws -> [Int64: HistoryStep] {
        var steps: [Int64: HistoryStep] = [:]
        for id in ids {
            let url = file(id)
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            do {
                steps[id] = try format.decode(HistoryStep.self, from: data)
            } catch {
                throw AlbumKitError.unreadable(url.path, "not a readable history step (\(error.decodingSummary)); the file was left as it is")
            }
        }
        return steps
    }

    /// Writes `steps` (each synced), ready for the library file that names them.
    func write(_ steps: [Int64: HistoryStep]) throws {
        guard !steps.isEmpty else { return }
        try AtomicFile.makeFolder(folder)
        for (id, step) in steps { try AtomicFile.write(try format.encode(step), to: file(id), syncingFolder: false) }
        AtomicFile.syncFolder(folder.path)
    }

    /// Removes every step file that `kept` does not name (dropped steps, and any a crash left).
    func prune(keeping kept: Set<Int64>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            let id = Int64(name.split(separator: ".").first ?? "")
            if id.map({ kept.contains($0) }) != true { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
    }
}
