import Dispatch
import Foundation
import Synchronization

/// One conversation with a plugin program, from its `hello` to its exit.
///
/// Every exchange runs on the session's own serial queue (the waits block, and must not
/// block Swift's cooperative threads), so requests from concurrent callers — a cover fetcher
/// asked for several covers at once — never interleave. Every wait has the deadline
/// `plugins.timeoutSeconds`; every line is at most `limits.listBytes`. The first breach —
/// a crash, a hang, a line that is not JSON or too long, a message out of turn — stops the
/// plugin's whole process group, reaps it, publishes `plugin.failed` and fails this and every
/// later call with one ``AlbumKitError`` of kind ``AlbumKitError/Kind/pluginFailed`` that
/// names the plugin.
final class PluginSession: Sendable {
    /// The name the plugin is configured under (`plugins.commands[].name`).
    let name: String
    /// What the plugin said about itself (known once ``start(_:)`` returns).
    var hello: PluginHello { said.withLock { $0! } }
    private let said = Mutex<PluginHello?>(nil)
    private let process: PluginProcess
    private let errorLog: PluginErrorLog
    private let reader: Mutex<PluginLineReader>
    private let queue: DispatchQueue
    private let timeout: Duration
    private let hub: NotificationHub?
    private let state = Mutex(State())

    private struct State {
        var failure: AlbumKitError?
        /// Stopped on purpose (the import ended early): no `plugin.failed`.
        var abandoned = false
    }

    /// Starts `launcher`'s program and reads its `hello`. Does not answer it: the caller
    /// checks the settings, then ``configure(settings:limits:)``.
    static func start(_ launcher: ProcessPluginLauncher) async throws -> PluginSession {
        let command = launcher.command
        let process: PluginProcess
        do {
            process = try PluginProcess(arguments: command.run)
        } catch {
            let reason = "cannot start '\(command.run[0])': \(Self.describe(error))"
            launcher.hub?.publish(.pluginFailed(plugin: command.name, reason: reason))
            throw AlbumKitError(.pluginFailed, "plugin '\(command.name)' \(reason)")
        }
        let session = PluginSession(process: process, launcher: launcher)
        try await session.readHello(expecting: command.kind)
        return session
    }

    private init(process: PluginProcess, launcher: ProcessPluginLauncher) {
        name = launcher.command.name
        self.process = process
        errorLog = PluginErrorLog(process, name: launcher.command.name)
        reader = Mutex(PluginLineReader(limit: Int(clamping: launcher.configuration.limits.listBytes)))
        queue = DispatchQueue(label: "albumkit.plugin.\(launcher.command.name)")
        timeout = .milliseconds(Int64(launcher.configuration.plugins.timeoutSeconds * 1000))
        hub = launcher.hub
    }

    deinit {
        // Whoever dropped the session (an import that failed in another stage) is done with
        // the plugin: nothing of it may outlive the session.
        process.stop()
        _ = process.reap()
    }

    /// Answers the plugin's `hello` with its settings and limits.
    func configure(settings: PluginSettings, limits: Limits) async throws {
        try await send(.configure(name: name, kind: hello.kind, settings: settings, limits: limits, protocolVersion: hello.protocolVersion))
    }

    /// Sends `message`, expecting no answer yet.
    func send(_ message: HostMessage) async throws {
        try await onQueue { deadline in try self.write(message, by: deadline) }
    }

    /// The plugin's next message; `awaiting` says what the plugin still owes ("before its
    /// 'end'"), for the error when it exits instead.
    func next(awaiting: String) async throws -> PluginMessage {
        try await onQueue { deadline in try self.read(awaiting: awaiting, by: deadline) }
    }

    /// Sends `message` and returns the plugin's answer, with no other request in between.
    func exchange(_ message: HostMessage) async throws -> PluginMessage {
        try await onQueue { deadline in
            try self.write(message, by: deadline)
            return try self.read(awaiting: "before answering", by: ContinuousClock.now + self.timeout)
        }
    }

    /// Ends the conversation: closes the plugin's input, expects it to send nothing more and
    /// to exit with status 0 in time, then stops whatever it left in its process group.
    func finish() async throws {
        try await onQueue { deadline in
            self.process.closeInput()
            switch try self.nextLine(by: deadline) {
            case .line(let bytes):
                throw self.fail("sent more after its last answer: '\(PluginText.shown(String(decoding: bytes, as: UTF8.self), limit: 80))'")
            case .end:
                guard self.process.waitForExit(by: deadline) else {
                    throw self.fail("did not exit within \(self.timeoutText) after its input closed; stopped it")
                }
                self.process.stop()
                let termination = self.process.reap()
                self.errorLog.drain()
                guard termination == .exited(0) else { throw self.fail("\(termination) at the end") }
            case .tooLong:
                throw self.tooLong()
            }
        }
    }

    /// Fails the session because the plugin sent `message`, which a plugin of its kind does
    /// not send (a stage sending an album, say).
    func outOfTurn(_ message: PluginMessage, expected: String) async -> AlbumKitError {
        let reason = "sent '\(message.type)' where \(expected) was expected"
        do {
            return try await onQueue { _ in self.fail(reason) }
        } catch {
            return error as? AlbumKitError ?? fail(reason)
        }
    }

    /// Stops the plugin without a word (the import ended elsewhere, or only its `hello` was
    /// wanted): kills its process group, which an exchange waiting meanwhile sees as the end;
    /// the session reaps it at the latest when it goes. Safe from any thread.
    func abandon() {
        let first = state.withLock { state in
            defer { state.abandoned = true }
            return !state.abandoned && state.failure == nil
        }
        if first { process.stop() }
    }

    /// `error` (from failing to start) as a sentence.
    private static func describe(_ error: PluginProcess.Failure) -> String {
        switch error {
        case .system(let code): String(cString: strerror(code))
        case .timedOut: "timed out"
        case .closed: "closed"
        }
    }

    private var timeoutText: String {
        let seconds = timeout / .seconds(1)
        return "\(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) second\(seconds == 1 ? "" : "s") (plugins.timeoutSeconds)"
    }

    /// Runs `work` on the session's queue with a fresh deadline; a failed session fails at once.
    private func onQueue<T: Sendable>(_ work: @escaping @Sendable (ContinuousClock.Instant) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    if let failure = self.state.withLock({ $0.failure }) { throw failure }
                    if self.state.withLock({ $0.abandoned }) { throw CancellationError() }
                    return try work(ContinuousClock.now + self.timeout)
                })
            }
        }
    }

    private func readHello(expecting kind: ProcessPluginCommand.Kind) async throws {
        try await onQueue { deadline in
            let message = try self.read(awaiting: "before saying hello", by: deadline)
            guard case .hello(let hello) = message else {
                throw self.fail("sent '\(message.type)' before saying hello")
            }
            guard PluginProtocol.versions.contains(hello.protocolVersion) else {
                throw self.fail(
                    "speaks protocol version \(hello.protocolVersion); this albumkit speaks versions \(PluginProtocol.versions.lowerBound) to \(PluginProtocol.version)")
            }
            guard hello.kind == kind.rawValue else {
                throw self.fail("says it is a '\(PluginText.shown(hello.kind, limit: 40))', but plugins.commands declares it a \(kind.rawValue)")
            }
            self.said.withLock { $0 = hello }
        }
    }

    private func write(_ message: HostMessage, by deadline: ContinuousClock.Instant) throws {
        do {
            try process.write(try message.line(), by: deadline)
        } catch PluginProcess.Failure.timedOut {
            throw fail("did not read its input within \(timeoutText); stopped it")
        } catch PluginProcess.Failure.closed {
            throw ended("before reading its input")
        } catch {
            throw fail("could not be written to: \(error)")
        }
    }

    private func read(awaiting: String, by deadline: ContinuousClock.Instant) throws -> PluginMessage {
        switch try nextLine(by: deadline) {
        case .line(let bytes):
            do {
                return try JSONDecoder().decode(PluginMessage.self, from: bytes)
            } catch {
                let number = reader.withLock { $0.lineNumber }
                let excerpt = PluginText.shown(String(decoding: bytes.prefix(120), as: UTF8.self), limit: 80)
                throw fail("sent line \(number), which is not a message of the protocol (\(error.decodingSummary)): '\(excerpt)'")
            }
        case .end:
            throw ended(awaiting)
        case .tooLong:
            throw tooLong()
        }
    }

    private func nextLine(by deadline: ContinuousClock.Instant) throws -> PluginLineReader.Next {
        do {
            return try reader.withLock { reader throws(PluginProcess.Failure) in try reader.next(from: process, by: deadline) }
        } catch .timedOut {
            throw fail("did not answer within \(timeoutText); stopped it")
        } catch {
            throw fail("could not be read from: \(error)")
        }
    }

    private func tooLong() -> AlbumKitError {
        fail("sent a line longer than limits.listBytes (\(reader.withLock { $0.limit }) bytes); stopped it")
    }

    /// The plugin's output ended: how it ended, once it has (or is stopped).
    private func ended(_ when: String) -> AlbumKitError {
        _ = process.waitForExit(by: ContinuousClock.now + timeout)
        process.stop()
        let termination = process.reap()
        return fail(termination == .exited(0) ? "exited (status 0) \(when)" : "\(termination) \(when)")
    }

    /// Stops and reaps the plugin, publishes `plugin.failed` (unless it was abandoned), and
    /// returns the error every later call fails with.
    private func fail(_ reason: String) -> AlbumKitError {
        process.stop()
        _ = process.reap()
        errorLog.drain()
        var sentence = "plugin '\(name)' \(reason)"
        if let last = errorLog.last { sentence += "; its standard error said: \(last)" }
        let error = AlbumKitError(.pluginFailed, sentence)
        let (first, abandoned) = state.withLock { state in
            defer { if state.failure == nil { state.failure = error } }
            return (state.failure == nil, state.abandoned)
        }
        if first && !abandoned { hub?.publish(.pluginFailed(plugin: name, reason: sentence)) }
        return state.withLock { $0.failure! }
    }
}
