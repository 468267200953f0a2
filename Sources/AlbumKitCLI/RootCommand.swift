import AlbumKit
import ArgumentParser
import Foundation

/// The `albumkit` command: a root with one subcommand per file in `Commands/`.
struct RootCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albumkit",
        abstract: "Keep a portable catalog of music albums.",
        discussion: """
            With no configuration file the library is a JSON file under $XDG_DATA_HOME/albumkit \
            (~/.local/share/albumkit). Positions are 1-based; a bare number is a position, \
            anything else an album id.
            """,
        version: AlbumKitVersion.current,
        subcommands: [
            InitCommand.self, ListCommand.self, ShowCommand.self, AddCommand.self, UpdateCommand.self,
            RemoveCommand.self, MoveCommand.self, UndoCommand.self, RedoCommand.self, SelectCommand.self,
            CurrentCommand.self, ImportCommand.self, ExportCommand.self, RestoreCommand.self, VerifyCommand.self,
            CoversCommand.self, ConfigCommand.self, PluginsCommand.self,
            MigrateCommand.self, PipelineCommand.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// Runs the command; our own errors print as one `error:` line and exit 1.
    static func run(arguments: [String]?) async {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as AlbumKitError {
            Console.error(error.description)
            Foundation.exit(1)
        } catch let error as CocoaError {
            Console.error(error.localizedDescription)
            Foundation.exit(1)
        } catch {
            exit(withError: error)
        }
    }
}
