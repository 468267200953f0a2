import AlbumKit
import AlbumKitBundle
import ArgumentParser
import Foundation

/// `albumkit verify [BUNDLE]`: check a bundle (checksums, cover hashes, manifest, ids, cover
/// references) or, without one, the library (ids, cover references, stored cover hashes).
/// Prints each problem naming its entry and exits non-zero when there is any.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a bundle, or the library: checksums, covers, ids.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The bundle to check; without one, the library is checked.") var path: String?

    func run() async throws {
        let checked: String
        let problems: [String]
        if let path {
            let context = try global.makeContext()
            defer { context.close() }
            checked = path
            problems = try await BundleVerifier.problems(in: URL(fileURLWithPath: path), limits: context.configuration.limits)
        } else {
            (checked, problems) = try await global.withLibrary { library, _ in
                let location = library.storage.location
                return (location, try await LibraryVerifier.problems(in: await library.snapshot, covers: library.storage.covers, location: location))
            }
        }
        for problem in problems { print("problem: \(problem)") }
        guard problems.isEmpty else {
            throw AlbumKitError(.unreadableInput, "\(checked): \(problems.count) problem\(problems.count == 1 ? "" : "s") found")
        }
        print("\(checked): no problems found.")
    }
}
