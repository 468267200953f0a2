import AlbumKit
import AlbumKitServer
import ArgumentParser
import Foundation

/// The `albumkit` commands as a library, so that an outside package builds its own
/// `albumkit` with its adapters added to the installed ones:
///
/// ```swift
/// var registry = AdapterRegistry.installed
/// registry.register(MySource())
/// await AlbumKitCLI.main(registry: registry)
/// ```
public enum AlbumKitCLI {
    /// The adapters the running command uses: set once by ``main(registry:arguments:)`` for
    /// the whole run (a task-local value, scoped to it, not a global).
    @TaskLocal static var registry = AdapterRegistry.builtIn

    /// Parses `arguments` (default: the process's), runs the command with `registry`, and
    /// exits the process: 0 on success, 1 with one `error:` line for a failed command, 2 for
    /// a usage error.
    public static func main(registry: AdapterRegistry, arguments: [String]? = nil) async -> Never {
        var registry = registry
        registry.declare(section: "serve", ServeSettings.declarations)
        await $registry.withValue(registry) {
            await RootCommand.run(arguments: arguments)
        }
        Foundation.exit(0)
    }
}
