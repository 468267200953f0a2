import AlbumKit
import ArgumentParser
import Foundation

extension DuplicatePolicy: ExpressibleByArgument {}

/// `albumkit import PATH… [--format NAME] [--on-duplicate skip|replace|keep] [--dry-run [--json]] [--fetch-covers] [--strict]`.
struct ImportCommand: AsyncParsableCommand, FlatMemoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge albums from files into the library (one undoable step).",
        discussion: """
            Reads JSON album lists (an array, or {"albums": [...]}), property lists (XML or binary), \
            bundles (.tar, .tar.gz/.tgz, .tar.xz, .tar.zst, .zip, or an unpacked bundle folder) and \
            whatever source plugins read ('albumkit plugins'); each input goes to the source that \
            recognises its content. Every album passes through the stages of import.stages \
            ('albumkit pipeline show'). A duplicate is the same id or, for an album without one, the \
            same artist, title and year ignoring case. Nothing is written if any input or stage fails. \
            A record of another tool's file (an export, a beets database, tagged audio) that cannot be \
            an album is skipped and named, and the rest imports; --strict refuses the input instead. \
            --dry-run prints the plan album by album: new, duplicate, replace, copy, dropped (stage and \
            reason), invalid (reason).
            """,
        aliases: ["imp"])

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Files or folders to import.") var paths: [String]
    @Option(help: ArgumentHelp("Read every input with this album source (see 'albumkit plugins').", valueName: "name")) var format: String?
    @Option(help: "What to do with duplicates.") var onDuplicate: DuplicatePolicy = .skip
    @Flag(help: "Print the plan album by album; write nothing.") var dryRun = false
    @Flag(help: "With --dry-run: print the plan as JSON (a stable shape, see README).") var json = false
    @Flag(help: "After the albums are committed, fetch their covers (import is offline without it).") var fetchCovers = false
    @Flag(help: "Refuse an input another tool wrote when any of its records cannot be an album (they are skipped and reported without it).") var strict = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one file to import") }
        if json && !dryRun { throw ValidationError("--json goes with --dry-run") }
    }

    func run() async throws {
        let options = ImportOptions(onDuplicate: onDuplicate, dryRun: dryRun, format: format, strict: strict)
        let (report, requests) = try await global.withLibrary(progress: !json) { library, context in
            let (report, covers) = try await library.importAlbums(from: paths.map { URL(fileURLWithPath: $0) }, options: options, fetchCovers: fetchCovers)
            await context.warn(about: covers, in: library)
            return (report, report.requests.merging(covers?.requests ?? [:], uniquingKeysWith: +))
        }
        for warning in report.summary.warnings { Console.warning(warning) }
        let summary = report.summary
        if summary.recordsSkipped > 0 {
            let count = summary.recordsSkipped
            Console.warning("\(count) record\(count == 1 ? "" : "s") could not be \(count == 1 ? "an album" : "albums") and \(count == 1 ? "was" : "were") skipped (named above; --strict refuses them)")
        }
        if dryRun {
            print(json ? try ImportPlanText.json(report.plan) : ImportPlanText.render(report.plan))
            let failing = summary.invalid - summary.recordsSkipped
            if failing > 0 {
                throw AlbumKitError(.invalidAlbum, "\(failing) album\(failing == 1 ? " is" : "s are") invalid: the import would fail")
            }
            return
        }
        var line = "Imported: \(summary.added) added, \(summary.skipped) skipped, \(summary.replaced) replaced, \(summary.kept) kept as copies"
        if summary.dropped > 0 { line += ", \(summary.dropped) dropped by stages" }
        if summary.recordsSkipped > 0 { line += ", \(summary.recordsSkipped) not albums skipped" }
        print(line + ".")
        if let requests = RequestsLine.text(requests) { print(requests) }
    }
}
