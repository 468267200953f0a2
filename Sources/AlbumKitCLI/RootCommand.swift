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
            (~/.local/share/albumkit). An album is named by its position (1-based), its id, a unique id \
            prefix, or a query ('albumkit help queries'). Aliases: ls (list), rm (remove), mv (move), \
            imp (import).

            Shell completion: albumkit --generate-completion-script bash|zsh|fish prints a script \
            ('make install' installs them, with the man page).
            """,
        version: AlbumKitVersion.current,
        subcommands: [
            InitCommand.self, ListCommand.self, ShowCommand.self, AddCommand.self, UpdateCommand.self,
            RemoveCommand.self, MoveCommand.self, UndoCommand.self, RedoCommand.self, SelectCommand.self,
            CurrentCommand.self, ImportCommand.self, ExportCommand.self, RestoreCommand.self, VerifyCommand.self,
            CoversCommand.self, EnrichCommand.self, ConfigCommand.self, PluginsCommand.self,
            MigrateCommand.self, PipelineCommand.self, ServeCommand.self,
            StatsCommand.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// Runs the command. Every failure is one `error:` line: exit 1 for a failed command,
    /// 2 for a usage error (with the help to read).
    static func run(arguments: [String]?) async {
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        let command = CommandLineWords(arguments)
        if let unknown = command.unknownCommand(under: RootCommand.self) {
            usageError(
                "unknown command '\(unknown.path)\(unknown.word)'\(Spelling.suggestion(for: unknown.word, among: unknown.names))",
                command: unknown.path.isEmpty ? nil : String(unknown.path.dropLast()))
        }
        if command.asksForQueryHelp {
            Console.out(QueryHelp.text)
            return
        }
        if command.asksForFieldHelp {
            Console.out(QueryHelp.fields)
            return
        }
        do {
            var parsed = try parseAsRoot(arguments)
            // Fixes glibc's allocator thresholds (unless the environment sets them) for a
            // command that keeps its memory flat: it then gives its big buffers back.
            if parsed is any FlatMemoryCommand { AllocatorTuning.apply() }
            if var asyncCommand = parsed as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try parsed.run()
            }
        } catch let error as AlbumKitError {
            if error.kind == .invalidQuery { usageError(error.description, command: command.name) }
            fail(error.description)
        } catch let error as CocoaError {
            fail(error.localizedDescription)
        } catch let refusal as Refusal {
            fail(refusal.description)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            guard exitCode(for: error) != .success else {
                // --help, --version, --generate-completion-script: not errors at all.
                Swift.print(fullMessage(for: error))
                Foundation.exit(0)
            }
            usageError(message(for: error), command: command.name)
        }
    }

    private static func fail(_ message: String) -> Never {
        Console.error(message)
        Foundation.exit(1)
    }

    /// A usage error: one line with where to read how the command is used; exit 2.
    private static func usageError(_ message: String, command: String?) -> Never {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        // ArgumentParser's "Unknown option '--jsn'. Did you mean '--json'?" in our form.
        var text = (lines.first.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "bad usage")
            .replacingOccurrences(of: #"\. Did you mean (.*)\?$"#, with: " (did you mean $1?)", options: .regularExpression)
        if lines.count > 1 { text += " (\(lines.dropFirst().joined(separator: "; ")))" }
        Console.error("\(text); see 'albumkit \(command.map { $0 + " " } ?? "")--help'")
        Foundation.exit(2)
    }
}

/// The words of a command line as far as the root needs them before parsing: which
/// commands are named, so a misspelt one is reported as such rather than as a stray
/// option or argument.
struct CommandLineWords {
    /// The words that are not options or the values of global options, in order.
    private let words: [String]

    init(_ arguments: [String]) {
        var words: [String] = []
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let word = arguments[index]
            if word.hasPrefix("-") {
                index += GlobalOptions.optionsTakingValues.contains(word) ? 2 : 1
            } else {
                words.append(word)
                index += 1
            }
        }
        self.words = words
    }

    /// The command word, if any.
    var name: String? { words.first }

    /// The first word where a command or subcommand is expected that names none: the word,
    /// the commands before it (`covers `), and the names it could have been.
    func unknownCommand(under root: any ParsableCommand.Type) -> (word: String, path: String, names: [String])? {
        var command = root
        var path = ""
        for word in words {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            let names = subcommands.flatMap { [$0._commandName] + $0.configuration.aliases } + (path.isEmpty ? ["help"] : [])
            guard let next = subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) }) else {
                return names.contains(word) ? nil : (word, path, names)
            }
            command = next
            path += next._commandName + " "
        }
        return nil
    }

    /// Whether this is `albumkit help fields` (or `help field`).
    var asksForFieldHelp: Bool {
        words.count >= 2 && words[0] == "help" && ["fields", "field"].contains(words[1])
    }

    /// Whether this is `albumkit help queries` (or `help query`).
    var asksForQueryHelp: Bool {
        words.count >= 2 && words[0] == "help" && ["queries", "query"].contains(words[1])
    }
}
