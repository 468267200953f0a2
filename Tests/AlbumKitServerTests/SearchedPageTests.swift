import AlbumKit
import AlbumKitTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresStorage
import SQLiteStorage
import Testing

@testable import AlbumKitServer

/// A search's page (`GET /api/albums?q=…`) from a live server on loopback over a real SQLite
/// file and a real PostgreSQL database: asked again at the same revision it is the JSON kept
/// the first time (one read of the revision), and a change saved by another `albumkit`
/// process shows in the next answer.
@Suite struct SearchedPageTests {
    enum Backend: String, CaseIterable, Sendable {
        case sqlite, postgres
    }

    /// A new library's storage on `backend` (in `folder` for SQLite), and the arguments and
    /// environment with which an `albumkit` process opens the same library.
    private static func storage(_ backend: Backend, in folder: URL) throws -> (any StorageBackend, [String], [String: String]) {
        switch backend {
        case .sqlite:
            return (SQLiteStorage(file: folder.appendingPathComponent("library.sqlite")), ["--library", folder.path, "--backend", "sqlite"], [:])
        case .postgres:
            let url = try PostgresTestServer.freshDatabase()
            return (try PostgresStorage(url: url), ["--library", folder.path, "--backend", "postgres"], ["ALBUMKIT_STORAGE_POSTGRES_URL": url])
        }
    }

    /// PostgreSQL when a test server is configured (``PostgresTestServer``).
    static let backends: [Backend] = PostgresTestServer.enabled ? Backend.allCases : [.sqlite]

    @Test(arguments: backends)
    func aSearchedPageIsReadOncePerRevisionAndAChangeByAnotherProcessShowsNext(_ backend: Backend) async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let (base, arguments, environment) = try Self.storage(backend, in: cli.folder)
        let (library, calls) = try await AlbumPageTests.library(on: base)
        _ = try await library.select(.position(2))
        let gateway = LibraryGateway(library: library)
        let router = AlbumServer.router(gateway: gateway, feed: EventFeed(hub: gateway.hub), settings: try ServeSettings())
        try await Application(router: router).test(.live) { client in
            for search in ["q=artist:eno&offset=5&limit=20", "q=artist:bowie%20year:1970..1989&sort=year-,title&offset=3&limit=10"] {
                let first = try await Self.body(client, search)
                let page = try #require(try JSONSerialization.jsonObject(with: first) as? [String: Any])
                let albums = try #require(page["albums"] as? [[String: Any]])
                #expect(!albums.isEmpty && albums.allSatisfy { $0["cover"] as? String == "stored" }, "\(search): \(page)")
                calls.reset()
                let again = try await Self.body(client, search)
                #expect(calls.count == 1, "\(backend) \(search): the same page at the same revision took \(calls.count) backend calls")
                #expect(again == first, "\(backend) \(search): the page kept is not the page read")

                let id = try #require(albums[1]["id"] as? String)
                let changed = "Changed by another process \(search.count)"
                let run = try cli.run(arguments + ["update", id, "--genre", changed], environment: environment)
                #expect(run.status == 0, "\(run.error)")
                calls.reset()
                let after = try #require(try JSONSerialization.jsonObject(with: try await Self.body(client, search)) as? [String: Any])
                #expect(calls.count > 1, "\(backend) \(search): the page after another process's save was not read again")
                let shown = try #require((after["albums"] as? [[String: Any]])?.first { $0["id"] as? String == id })
                #expect(shown["genre"] as? String == changed, "\(backend) \(search): the page showed the album as it was before another process's save")
            }
        }
    }

    private static func body(_ client: any TestClientProtocol, _ query: String) async throws -> Data {
        try await client.execute(uri: "/api/albums?\(query)", method: .get) { response in
            #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
            return Data(buffer: response.body)
        }
    }
}
