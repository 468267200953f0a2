import Foundation
import Synchronization

/// A cover fetcher that is a program (`plugins.commands` with `kind: fetcher`): started on
/// the first cover it is asked for, it answers each `fetch` with the cover (a file or base64),
/// `decline` (not a reference it handles: the next fetcher tries), or `fail` with a reason.
///
/// Requests are answered one at a time, in order. The bytes must be an image within the
/// request's `maxBytes`; a file is read only under `covers.fileRoots`.
public struct ProcessCoverFetcher: CoverFetcher {
    /// Starts the program.
    public let launcher: ProcessPluginLauncher
    private let roots: FileRoots
    private let running = RunningSession()

    /// A fetcher run by `launcher`, reading cover files only under `roots`.
    public init(launcher: ProcessPluginLauncher, roots: FileRoots) {
        self.launcher = launcher
        self.roots = roots
    }

    public var name: String { launcher.command.name }

    public func fetch(_ request: CoverFetchRequest) async throws -> Data? {
        let session = try await running.session(launcher)
        let expected = "an answer ('cover', 'decline' or 'fail')"
        switch try await session.exchange(.fetch(reference: request.reference, maxBytes: request.maxBytes)) {
        case .cover(let cover):
            return try cover.bytes(maxBytes: request.maxBytes, limitName: "covers.maxBytes", roots: roots, reference: request.reference).0
        case .decline:
            return nil
        case .fail(let reason):
            throw AlbumKitError(.unsupported, "\(request.reference): \(PluginText.shown(reason)) (plugin '\(name)')")
        case let other:
            throw await session.outOfTurn(other, expected: expected)
        }
    }

    /// Ends the program, if it was started.
    public func shutdown() async {
        try? await running.started?.finish()
    }
}

/// The fetcher's program, started once by whichever request comes first.
private final class RunningSession: Sendable {
    private let start = Mutex<Task<PluginSession, any Error>?>(nil)

    func session(_ launcher: ProcessPluginLauncher) async throws -> PluginSession {
        let task = start.withLock { task in
            if let task { return task }
            let started = Task { try await launcher.start() }
            task = started
            return started
        }
        return try await task.value
    }

    /// The session, when one was started and is running.
    var started: PluginSession? {
        get async { try? await start.withLock { $0 }?.value }
    }
}

extension ProcessPluginLauncher {
    /// The factory that makes a ``ProcessCoverFetcher`` for each round of cover fetching.
    var fetcherFactory: CoverFetcherFactory {
        CoverFetcherFactory(name: command.name, summary: "a program speaking the plugin protocol", origin: origin) { context in
            ProcessCoverFetcher(launcher: self, roots: FileRoots(context.configuration.covers.fileRoots))
        }
    }
}
