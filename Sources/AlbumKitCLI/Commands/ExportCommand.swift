import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit export PATH [--format NAME] [--fields LIST] [--force]`: a backup bundle, an album
/// list or a table, as the name's ending (or `--format`) says.
struct ExportCommand: AsyncParsableCommand, FlatMemoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the albums to a file.",
        discussion: """
            The format follows the name's ending, or --format: a backup bundle (.tar.gz, .tgz, .tar.zst, \
            .tar.xz, .tar), a plain album list (.json, .plist) or a table (.csv, .jsonl: the core fields, or \
            those --fields names); 'albumkit plugins' lists every exporter. The file is \
            written under a temporary name and renamed when complete. An existing file is replaced only \
            with --force (or after a yes on a terminal).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to write.") var path: String
    @Option(help: ArgumentHelp("Write with this exporter (see 'albumkit plugins') whatever the name's ending.", valueName: "name")) var format: String?
    @Option(help: ArgumentHelp("The fields a table writes, comma-separated (default: the core fields).", valueName: "list")) var fields: String?
    @Flag(help: "Replace the file if it exists.") var force = false

    func run() async throws {
        let destination = URL(fileURLWithPath: path)
        let exists = FileManager.default.fileExists(atPath: path)
        if exists {
            try Confirmation.require(yes: force, question: "\(path) exists. Replace it?", refusal: "\(path) already exists; add --force to replace it")
        }
        let replacing = force || exists
        let report = try await global.withLibrary(progress: true) { library, _ in
            try await library.export(
                to: destination, replacing: replacing, format: format,
                fields: fields.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } })
        }
        print("Exported \(report.albums) albums to \(path) (\(report.exporter), \(report.bytes) bytes).")
    }
}
