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
            Reads JSON album lists (an array, or {"albums": [...]}) and property lists (XML or binary). \
            A duplicate is the same id or, for an album without one, the same artist, title and year \
            ignoring case. Nothing is written if any input fails.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Files to import.") var paths: [String]
    @Option(help: "What to do with duplicates.") var onDuplicate: DuplicatePolicy = .skip
    @Flag(help: "Report what would happen; write nothing.") var dryRun = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one file to import") }
    }

    func run() async throws {
        let summary = try await global.withLibrary(progress: true) { library, context in
            let pipeline = ImportPipeline(
                registry: context.registry, limits: context.configuration.limits, policy: onDuplicate, dryRun: dryRun)
            return try await pipeline.run(paths.map { URL(fileURLWithPath: $0) }, into: library)
        }
        for warning in summary.warnings { Console.warning(warning) }
        let verb = dryRun ? "Would import" : "Imported"
        print("\(verb): \(summary.added) added, \(summary.skipped) skipped, \(summary.replaced) replaced, \(summary.kept) kept as copies.")
    }
}
