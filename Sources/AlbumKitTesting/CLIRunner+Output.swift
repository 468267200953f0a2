import Foundation

extension CLIRunner {
    /// The albums `albumkit list --json` prints, as JSON objects (`title`, `artist`, `id`,
    /// `cover`, …); empty when the command fails or prints something else.
    public func listedAlbums(environment extra: [String: String] = [:]) throws -> [[String: Any]] {
        let listed = try run(["list", "--json"], environment: extra)
        let json = try? JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any]
        return json?["albums"] as? [[String: Any]] ?? []
    }
}

extension CLIRunner.Result {
    /// The lines of standard error that start with `error:` (in any case): a failed command
    /// prints exactly one.
    public var errorLines: [String] {
        error.split(separator: "\n").filter { $0.lowercased().hasPrefix("error:") }.map(String.init)
    }
}

extension CLIRunner {
    /// Exports the library as a bundle, restores it over itself and compares every album of
    /// `list --json` before and after, key by key (every field: tracks, ids and `fields`
    /// included); returns one line per difference, or why a step failed; empty when the
    /// library came back as it was.
    public func bundleRoundTripProblems() throws -> [String] {
        let before = try listedAlbums()
        guard !before.isEmpty else { return ["the library is empty: nothing to round-trip"] }
        let bundle = folder.appendingPathComponent("round-trip-\(UUID().uuidString).tar.gz").path
        let exported = try run("export", bundle)
        guard exported.status == 0 else { return ["export failed: \(exported.error)"] }
        let restored = try run("restore", bundle, "--force")
        guard restored.status == 0 else { return ["restore failed: \(restored.error)"] }
        let after = try listedAlbums()
        guard after.count == before.count else { return ["\(after.count) albums after the restore where \(before.count) were"] }
        var problems: [String] = []
        for (index, (old, new)) in zip(before, after).enumerated() {
            for key in Set(old.keys).union(new.keys).sorted() {
                let was = old[key].map { JSONValue($0) }
                let now = new[key].map { JSONValue($0) }
                if was != now { problems.append("album \(index + 1) '\(old["title"] ?? "")': \(key) was \(was?.text ?? "absent"), is \(now?.text ?? "absent")") }
            }
        }
        return problems
    }
}

/// A value of `JSONSerialization`'s output, compared by its canonical JSON text.
private struct JSONValue: Equatable {
    let text: String

    init(_ value: Any) {
        let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
        text = data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}
