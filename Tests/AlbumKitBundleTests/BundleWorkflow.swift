@testable import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// The three workflows that read a bundle — `import`, `restore` and `verify` — run in process
/// on a library of its own, so one test can hold each of them to the same outcome.
enum BundleWorkflow: String, CaseIterable, Sendable, CustomStringConvertible {
    case importing = "import", restoring = "restore", verifying = "verify"

    var description: String { rawValue }

    /// The workflow refuses `archive` with a sentence that names it and holds `phrase`; the
    /// library is left byte for byte as it was.
    func expectRefused(_ archive: URL, saying phrase: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let fixture = try await LibraryFixture.make(in: workspace)
        let before = Workspace.contents(of: fixture.folder)
        let message: String
        switch self {
        case .verifying:
            let problems = try await BundleVerifier.problems(in: archive, limits: Limits())
            message = problems.last ?? "(no problem found)"
        case .importing, .restoring:
            do {
                let warnings = try await run(archive, into: fixture)
                Issue.record("\(self) accepted \(archive.lastPathComponent): \(warnings)", sourceLocation: sourceLocation)
                return
            } catch let error as AlbumKitError {
                message = error.description
            }
        }
        #expect(message.contains(archive.path), "\(self): the message must name the archive: \(message)", sourceLocation: sourceLocation)
        #expect(message.contains(phrase), "\(self): expected '\(phrase)' in: \(message)", sourceLocation: sourceLocation)
        #expect(Workspace.contents(of: fixture.folder) == before, "\(self) changed the library", sourceLocation: sourceLocation)
    }

    /// The workflow reads `archive` whole: every album of `bundle` arrives (import, restore)
    /// or no problem is found (verify).
    func expectAccepted(_ archive: URL, bundle: SampleBundle = SampleBundle(), sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let fixture = try await LibraryFixture.make(in: workspace)
        switch self {
        case .verifying:
            let problems = try await BundleVerifier.problems(in: archive, limits: Limits())
            #expect(problems.isEmpty, "verify \(archive.lastPathComponent): \(problems)", sourceLocation: sourceLocation)
        case .importing, .restoring:
            let warnings = try await run(archive, into: fixture)
            #expect(warnings.isEmpty, "\(self) \(archive.lastPathComponent): \(warnings)", sourceLocation: sourceLocation)
            let albums = try await fixture.library.albums().filter { $0.id.rawValue.hasPrefix("sample-") }
            #expect(albums.map(\.title) == bundle.albums.map { $0["title"] as? String }, "\(self) \(archive.lastPathComponent)", sourceLocation: sourceLocation)
            let stored = Set(try await fixture.library.storage.covers.keys().map(\.bundlePath))
            let referenced = bundle.albums.compactMap { $0["coverUrl"] as? String }
            #expect(!referenced.isEmpty && stored.isSuperset(of: referenced), "\(self) \(archive.lastPathComponent): covers missing", sourceLocation: sourceLocation)
        }
    }

    /// The warnings of importing or restoring (`--force`) `archive`.
    private func run(_ archive: URL, into fixture: LibraryFixture) async throws -> [String] {
        if self == .restoring {
            return try await fixture.library.restore(from: archive, force: true).warnings
        }
        return try await fixture.importing([archive]).warnings
    }
}
