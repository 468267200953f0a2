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

    /// Writes `steps` (each synced), ready for the library file that names them. When it
    /// fails, the step files it made are removed again.
    func write(_ steps: [Int64: HistoryStep]) throws -> Set<Int64> {
        guard !steps.isEmpty else { return [] }
        try AtomicFile.makeFolder(folder)
        var made = Set<Int64>()
        do {
            for (id, step) in steps {
                if !FileManager.default.fileExists(atPath: file(id).path) { made.insert(id) }
                if format is JSONFormat {
                    // A buffer at a time: a step may hold a thousand albums twice over.
                    try AtomicFile.write(to: file(id), syncingFolder: false) { try step.writeJSON(to: $0, path: file(id).path) }
                } else {
                    try AtomicFile.write(try format.encode(step), to: file(id), syncingFolder: false)
                }
            }
        } catch {
            remove(made)
            throw error
        }
        AtomicFile.syncFolder(folder.path)
        return made
    }

    /// Removes the step files of `ids` (those a failed save made).
    func remove(_ ids: some Sequence<Int64>) {
        for id in ids { unlink(file(id).path) }
    }

    /// Removes every step file of this format that `kept` does not name (dropped steps, and any
    /// a crash left). Files of another format's extension are another library's steps — a JSON
    /// and a property list library in one folder (`migrate` between them) share the folder —
    /// and stay.
    func prune(keeping kept: Set<Int64>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, format.fileExtensions.contains(String(parts[1])) else { continue }
            if Int64(parts[0]).map({ kept.contains($0) }) != true { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
    }
}
