import AlbumKit
import ArgumentParser
import Foundation
import Logging

/// The options every command takes (`albumkit [--config F] [--library DIR] [--backend NAME]
/// [--events F] [--verbose] COMMAND`); they may also follow the command name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Read configuration from this YAML file.", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Use the library in this folder.", valueName: "dir"))
    var library: String?

    @Option(name: .long, help: ArgumentHelp("Use this storage backend (json, plist, ...; see 'albumkit plugins').", valueName: "name"))
    var backend: String?

    @Option(name: .long, help: ArgumentHelp("Append every event as a JSON line to this file ('-' for standard error).", valueName: "file"))
    var events: String?

    @Flag(name: .long, help: "Print diagnostics to standard error.")
    var verbose = false

    /// The options above (and ArgumentParser's own) that take a value, for reading a
    /// command line before parsing it.
    static let optionsTakingValues: Set<String> = ["--config", "--library", "--backend", "--events", "--generate-completion-script"]

    /// The effective configuration: file, then environment, then these flags.
    func loadConfiguration() throws -> Configuration {
        var loader = ConfigurationLoader(explicitFile: config, registry: AlbumKitCLI.registry)
        if let library { loader.flags["library"] = (library, "--library") }
        if let backend { loader.flags["storage.backend"] = (backend, "--backend") }
        return try loader.load()
    }

    /// Runs `body` with the opened library; the context (and its `--events` and progress
    /// subscribers) lives until `body` returns.
    func withLibrary<T>(
        progress: Bool = false, _ body: (Library, CommandContext) async throws -> T
    ) async throws -> T {
        let context = try makeContext(progress: progress)
        defer { context.close() }
        return try await body(try await context.openLibrary(), context)
    }

    /// Everything a command needs: configuration, adapters, the hub and its subscribers.
    func makeContext(progress: Bool = false) throws -> CommandContext {
        LoggingSystem.bootstrapOnce(level: verbose ? .debug : .warning)
        let configuration = try loadConfiguration()
        return try CommandContext(configuration: configuration, eventsPath: events, showsProgress: progress)
    }
}

extension LoggingSystem {
    private static let bootstrapped = Mutex(false)

    /// Sends swift-log output to standard error at `level`, once per process.
    static func bootstrapOnce(level: Logger.Level) {
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

import Synchronization
