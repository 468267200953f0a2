import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit verify [PATH]`: check a bundle or album list (whatever its source can check), or
/// without one, the library (ids, cover references, stored cover hashes). Prints each problem
/// naming its entry and exits non-zero when there is any; notes do not fail it.
struct VerifyCommand: AsyncParsableCommand, FlatMemoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a bundle or album list, or the library: checksums, covers, ids, fields.",
        discussion: """
            A bundle is checked entry by entry (checksums, cover hashes, manifest, albums, the current \
            album); an album list is parsed and every album checked against the field rules; the \
            library is checked for unique ids, present and intact covers, and its current album.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The bundle or album list to check; without one, the library is checked.") var path: String?
    @Option(help: ArgumentHelp("Read PATH with this album source (see 'albumkit plugins').", valueName: "name")) var format: String?

    func run() async throws {
        let checked: String
        let report: VerificationReport
        if let path {
            let context = try global.makeContext()
            defer { context.close() }
            checked = path
            report = try await Library.verify(
                input: URL(fileURLWithPath: path), configuration: context.configuration, registry: context.registry, format: format)
        } else {
            (checked, report) = try await global.withLibrary { library, _ in (library.location, try await library.verify()) }
        }
        for problem in report.problems { print("problem: \(problem)") }
        for note in report.notes { print("note: \(note)") }
        guard report.problems.isEmpty else {
            throw AlbumKitError(.unreadableInput, "\(checked): \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") found")
        }
        print("\(checked): no problems found.")
    }
}
