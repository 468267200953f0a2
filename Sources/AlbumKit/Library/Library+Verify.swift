import Foundation

/// What `verify` found: problems (the library or input is damaged: exit non-zero) and notes
/// (worth knowing, harmless: stored covers nothing uses, which `covers prune` drops).
public struct VerificationReport: Sendable, Hashable {
    /// Each problem, one sentence naming the album or entry.
    public var problems: [String] = []
    /// Each note, one sentence.
    public var notes: [String] = []

    /// A report of these problems and notes.
    public init(problems: [String] = [], notes: [String] = []) {
        self.problems = problems
        self.notes = notes
    }
}

extension Library {
    /// Checks the library: unique ids, every `covers/…` reference stored, every linked stored
    /// cover hashing to its name, a current album that is in the library; notes stored covers
    /// that no album, history step or memento entry links (whatever their bytes).
    public func verify() async throws -> VerificationReport {
        let snapshot = try await self.snapshot()
        let covers = storage.covers
        let stepsByID = try await storage.steps(snapshot.state.stepIDs)
        let steps = Array(stepsByID.values)
        let stored = try await covers.keys()
        let unlinked = Set(LibraryVerifier.unlinked(in: snapshot, steps: steps, stored: stored))
        var report = VerificationReport(
            problems: try await LibraryVerifier.problems(in: snapshot, covers: covers, location: location, unlinked: unlinked))
        for ref in snapshot.state.undo + snapshot.state.redo where stepsByID[ref.id] == nil {
            report.problems.append("\(location): history step \(ref.id) ('\(ref.label)') is named but not stored")
        }
        report.notes = LibraryVerifier.unlinkedCovers(in: snapshot, steps: steps, stored: stored)
        return report
    }

    /// Checks an input without a library: a bundle (checksums, cover hashes, manifest, ids),
    /// an album list (it parses and every album obeys the field rules), or whatever the source
    /// that recognises it can check. Nothing is written.
    public static func verify(
        input: URL, configuration: Configuration, registry: AdapterRegistry, format: String? = nil
    ) async throws -> VerificationReport {
        let described = try SourceInput(at: input)
        let source = try InputReader(registry: registry, configuration: configuration, hub: NotificationHub(), forcedSource: format)
            .source(for: described)
        let context = InputReader.context(for: source, configuration)
        return VerificationReport(problems: try await source.problems(in: described, context: context))
    }
}
