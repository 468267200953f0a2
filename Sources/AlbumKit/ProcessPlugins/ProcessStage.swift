import Foundation

/// An import stage that is a program (`plugins.commands` with `kind: stage`): started once
/// per import, it is sent each album in turn and answers each with `pass` (the album
/// unchanged, or changed), `drop` with a reason, or `fail` with a reason.
///
/// A changed album decodes as an album object of a JSON list does; the commit validates it
/// again, so a stage cannot slip an invalid album into the library. The program is stopped
/// when the import ends, whichever way it ends.
public struct ProcessStage: ImportStage {
    /// Starts the program.
    public let launcher: ProcessPluginLauncher
    private var session: PluginSession?

    /// A stage run by `launcher`.
    public init(launcher: ProcessPluginLauncher) { self.launcher = launcher }

    public var name: String { launcher.command.name }

    public mutating func begin(_ batch: StageBatch) async throws {
        session = try await launcher.start()
    }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        guard let session else { throw AlbumKitError(.pluginFailed, "plugin '\(name)' was asked about \(item.label) before the import began") }
        let expected = "an answer ('pass', 'drop' or 'fail')"
        let version = session.hello.protocolVersion
        switch try await session.exchange(.album(item.record, label: item.label, input: item.input, protocolVersion: version)) {
        case .pass(let changed):
            var next = item
            if var changed {
                // A version 1 plugin sees and sends the core six: the rest stays as it was.
                if version < 2 { changed.details = item.record.details }
                next.record = changed
            }
            return .pass(next)
        case .drop(let reason):
            return .drop(reason: PluginText.shown(reason))
        case .fail(let reason):
            return .fail(reason: PluginText.shown(reason))
        case let other:
            throw await session.outOfTurn(other, expected: expected)
        }
    }

    public mutating func end(_ batch: StageBatch) async throws {
        try await session?.finish()
        session = nil
    }
}

extension ProcessPluginLauncher {
    /// The factory that makes a ``ProcessStage`` for each import.
    var stageFactory: ImportStageFactory {
        ImportStageFactory(name: command.name, summary: "a program speaking the plugin protocol", origin: origin) { _ in
            ProcessStage(launcher: self)
        }
    }
}
