import Foundation

/// The library `Tests/Fixtures/old-release-library.py` makes — as albumkit 0.1 left it: schema
/// version 1, four albums, six steps to undo and one to redo inside the memento — and what a
/// newer albumkit must do with it, through the real binary: open it, keep every step of its
/// history, walk that history, and leave it at the current schema version.
public enum OldReleaseLibrary {
    /// What the stored library says about itself: its schema version and how many history
    /// steps it stores as rows of their own (0 before they have a table).
    public struct Inspection: Equatable, Sendable {
        public var schemaVersion: Int
        public var storedSteps: Int

        public init(schemaVersion: Int, storedSteps: Int) {
            self.schemaVersion = schemaVersion
            self.storedSteps = storedSteps
        }
    }

    /// Runs `list`, an `add` of a duplicate (refused), `redo`, `undo` ×3, `current` and an `add` of a 12 KB title with `cli` on the old library that
    /// `environment` selects, checking each result and, through `inspect`, the stored schema
    /// before and after. Throws a ``CompatFailure`` naming what differed.
    public static func expectUpgradedWithItsHistory(
        _ cli: CLIRunner, environment: [String: String], currentVersion: Int, inspect: () throws -> Inspection
    ) throws {
        try expect(try inspect() == Inspection(schemaVersion: 1, storedSteps: 0), "the old library must start at schema version 1: \(try inspect())")
        try expect(try list(cli, environment) == (["Delta", "Alpha", "Beta", "Gamma"], "a1b2c3d4-alpha"), "the old library must open as it was")
        try expect(
            try inspect() == Inspection(schemaVersion: currentVersion, storedSteps: 7),
            "after its first use the library must be at version \(currentVersion) with its 7 steps stored apart: \(try inspect())")
        let duplicate = try cli.run(["add", "--title", " BETA ", "--artist", "old release"], environment: environment)
        try expect(
            duplicate.status != 0 && duplicate.error.contains("'Beta' by Old Release is already in the library at position 3"),
            "the upgraded library must know its albums' duplicate keys: add of Beta again gave \(duplicate.status): \(duplicate.error)")
        try walk(cli, environment, "redo", expecting: ["Delta", "Alpha", "Gamma"])
        try walk(cli, environment, "undo", expecting: ["Delta", "Alpha", "Beta", "Gamma"])
        try walk(cli, environment, "undo", expecting: ["Delta", "Alpha", "Beta", "Gamma"])
        try expect(try years(cli, environment)["Gamma"] == "", "undo of 'update Gamma' must bring its year back to none")
        try walk(cli, environment, "undo", expecting: ["Alpha", "Beta", "Gamma", "Delta"])
        try expect(try list(cli, environment).current == "a1b2c3d4-alpha", "the current album must stay Alpha")
        try expect(try inspect() == Inspection(schemaVersion: currentVersion, storedSteps: 7), "walking the history keeps 7 stored steps: \(try inspect())")
        // A title at the field limit's scale, in letters no compression shrinks: its duplicate
        // key fits no index entry, its digest does.
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let long = String((0..<12_000).map { _ in letters.randomElement()! })
        let added = try cli.run(["add", "--title", long, "--artist", "old release"], environment: environment)
        try expect(added.status == 0, "the upgraded library must take an album with a 12 KB title: \(added.error.prefix(400))")
        try expect(try list(cli, environment).titles.last == long, "the album with a 12 KB title must be listed last")
    }

    private static func walk(_ cli: CLIRunner, _ environment: [String: String], _ command: String, expecting titles: [String]) throws {
        let result = try cli.run([command], environment: environment)
        try expect(result.status == 0, "\(command) failed: \(result.error)")
        try expect(try list(cli, environment).titles == titles, "after \(command) the albums must be \(titles), not \(try list(cli, environment).titles)")
    }

    private static func list(_ cli: CLIRunner, _ environment: [String: String]) throws -> (titles: [String], current: String?) {
        let list = try json(cli, environment)
        return ((list["albums"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }, list["current"] as? String)
    }

    private static func years(_ cli: CLIRunner, _ environment: [String: String]) throws -> [String: String] {
        let albums = try json(cli, environment)["albums"] as? [[String: Any]] ?? []
        return Dictionary(albums.map { ($0["title"] as? String ?? "", $0["year"] as? String ?? "?") }, uniquingKeysWith: { $1 })
    }

    private static func json(_ cli: CLIRunner, _ environment: [String: String]) throws -> [String: Any] {
        let result = try cli.run(["list", "--json"], environment: environment)
        try expect(result.status == 0, "list failed: \(result.error)")
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] ?? [:]
    }

    private static func expect(_ condition: Bool, _ message: @autoclosure () throws -> String) throws {
        if !condition { throw CompatFailure(try message()) }
    }
}
