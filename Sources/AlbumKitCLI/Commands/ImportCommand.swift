import AlbumKit
import ArgumentParser
import Foundation

extension DuplicatePolicy: ExpressibleByArgument {}

/// `albumkit import PATH… [--on-duplicate skip|replace|keep] [--dry-run]`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge albums from files into the library (one undoable step).",
        discussion: """
            Reads JSON album lists (an array, or {"albums": [...]}), property lists (XML or binary), and \
            bundles (.tar, .tar.gz/.tgz, .tar.xz, .tar.zst, .zip, or an unpacked bundle folder). \
            A duplicate is the same id or, for an album without one, the same artist, title and year \
            ignoring case. Nothing is written if any input fails.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Files or bundle folders to import.") var paths: [String]
    @Option(help: "What to do with duplicates.") var onDuplicate: DuplicatePolicy = .skip
    @Flag(help: "Report what would happen; write nothing.") var dryRun = false
    @Flag(help: "After the albums are committed, fetch their covers (import is offline without it).") var fetchCovers = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one file to import") }
    }

    func run() async throws {
        let summary = try await global.withLibrary(progress: true) { library, context in
            var pipeline = ImportPipeline(
                registry: context.registry, limits: context.configuration.limits, policy: onDuplicate, dryRun: dryRun,
                stagingParent: context.configuration.libraryDirectory)
            pipeline.fileRoots = FileRoots(context.configuration.covers.fileRoots)
            let inputs = paths.map { URL(fileURLWithPath: $0) }
            guard fetchCovers && !dryRun else { return try await pipeline.run(inputs, into: library) }
            var summary = ImportSummary()
            let covers = try await context.fetchingCovers(for: library) { _ in summary = try await pipeline.run(inputs, into: library) }
            context.warn(about: covers)
            return summary
        }
        for warning in summary.warnings { Console.warning(warning) }
        let verb = dryRun ? "Would import" : "Imported"
        print("\(verb): \(summary.added) added, \(summary.skipped) skipped, \(summary.replaced) replaced, \(summary.kept) kept as copies.")
    }
}
