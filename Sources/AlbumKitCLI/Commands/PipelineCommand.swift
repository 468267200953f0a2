import AlbumKit
import ArgumentParser

/// `albumkit pipeline show`: the import stages in order, each with where it comes from.
struct PipelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline", abstract: "Inspect the import pipeline.", subcommands: [Show.self])

    /// `albumkit pipeline show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the stages import runs, in order, each with where it comes from.",
            discussion: "The order is import.stages in the configuration; 'validate' and 'covers' are always there.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try global.makeContext()
            defer { context.close() }
            let configuration = context.configuration
            let plan = try StagePlan(configuration: configuration, registry: context.registry)
            print("import stages (from \(configuration.origin(of: "import.stages"))):")
            let width = plan.factories.map(\.name.count).max() ?? 0
            for (number, stage) in plan.factories.enumerated() {
                let name = stage.name.padding(toLength: width, withPad: " ", startingAt: 0)
                print("  \(number + 1). \(name)  \(stage.origin)  \(stage.summary)")
            }
        }
    }
}

import Foundation
