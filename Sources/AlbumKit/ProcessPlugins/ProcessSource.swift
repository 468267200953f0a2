import Foundation
import Synchronization

/// An album source that is a program (`plugins.commands` with `kind: source`): for each
/// input, the program is started, told to `read` the input's path, and sends `album` lines
/// (each with its cover as a file or base64) until `end`.
///
/// Everything it sends is checked as a file import is: each album decodes as an album object
/// of a JSON list does and then meets the `validate` stage; a cover must be an image within
/// `limits.coverBytes`, read from a file only inside the input or under `covers.fileRoots`.
/// It recognises no input by itself: `import --format NAME` chooses it.
public struct ProcessSource: AlbumSource {
    /// Starts the program.
    public let launcher: ProcessPluginLauncher

    /// A source run by `launcher`.
    public init(launcher: ProcessPluginLauncher) { self.launcher = launcher }

    public var name: String { launcher.command.name }
    public var summary: String { "a program speaking the plugin protocol" }
    public var origin: AdapterOrigin { launcher.origin }

    /// Never: a program is asked to read only when `import --format` names it.
    public func match(_ input: SourceInput) -> SourceMatch { .none }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        AsyncThrowingStream { continuation in
            let running = Mutex<PluginSession?>(nil)
            let task = Task {
                do {
                    try await withTaskCancellationHandler {
                        let session = try await launcher.start()
                        running.withLock { $0 = session }
                        try await read(input, context: context, from: session) { continuation.yield($0) }
                    } onCancel: {
                        running.withLock { $0?.abandon() }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Asks `session` to read `input` and yields what it sends until `end`.
    private func read(
        _ input: SourceInput, context: SourceContext, from session: PluginSession, yield: (SourceItem) -> Void
    ) async throws {
        try await session.send(.read(path: input.path, folder: input.isFolder))
        let roots = FileRoots(context.fileRoots.paths + (input.isFolder ? [input.path] : []))
        var count = 0
        while true {
            let expected = "an 'album', 'warning', 'error' or 'end'"
            switch try await session.next(awaiting: "before its 'end'") {
            case .album(var record, let label, let cover):
                count += 1
                let name = "\(input.path) \(PluginText.shown(label ?? "#\(count)", limit: 80)) '\(PluginText.shown(record.title, limit: 80))'"
                if let cover {
                    let (bytes, kind) = try cover.bytes(maxBytes: Int(clamping: context.limits.coverBytes), limitName: "limits.coverBytes", roots: roots, reference: name)
                    let key = CoverKey(bytes: bytes, fileExtension: kind.fileExtension)
                    yield(.cover(path: key.bundlePath, bytes: bytes))
                    record.coverUrl = key.bundlePath
                }
                yield(.album(record, label: AlbumLabel(name)))
            case .warning(let message):
                yield(.warning("\(input.path): \(PluginText.shown(message)) (plugin '\(name)')"))
            case .error(let message):
                session.abandon()
                throw AlbumKitError.unreadable(input.path, "\(PluginText.shown(message)) (plugin '\(name)')")
            case .end:
                try await session.finish()
                return
            case let other:
                throw await session.outOfTurn(other, expected: expected)
            }
        }
    }
}
