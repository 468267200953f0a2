import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit export PATH [--force]`: a backup bundle or an album list, as the name's ending says.
struct ExportCommand: AsyncParsableCommand, FlatMemoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the albums to a file.",
        discussion: """
            The format follows the name's ending: a backup bundle (.tar.gz, .tgz, .tar.zst, .tar.xz, .tar) \
            or a plain album list (.json, .plist); 'albumkit plugins' lists every exporter. The file is \
            written under a temporary name and renamed when complete. An existing file is replaced only \
            with --force (or after a yes on a terminal).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to write.") var path: String
    @Flag(help: "Replace the file if it exists.") var force = false

    func run() async throws {
        let destination = URL(fileURLWithPath: path)
        let exists = FileManager.default.fileExists(atPath: path)
        if exists {
            try Confirmation.require(yes: force, question: "\(path) exists. Replace it?", refusal: "\(path) already exists; add --force to replace it")
        }
        let replacing = force || exists
        let report = try await global.withLibrary(progress: true) { library, _ in
            try await library.export(to: destination, replacing: replacing)
        }
        print("Exported \(report.albums) albums to \(path) (\(report.exporter), \(report.bytes) bytes).")
    }
}
