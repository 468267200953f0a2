import AlbumKit
import Foundation
import Hummingbird
import Testing

@testable import AlbumKitServer

/// The API document `/api/openapi.json` describes exactly the routes the router has: a route
/// added without documenting it, or a documented one that went away, fails here.
@Suite struct OpenAPIDocumentTests {
    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileStorage(file: folder.appendingPathComponent("library.json"), format: JSONFormat(), coversFolder: folder.appendingPathComponent("covers"))
        try await storage.create()
        let library = try await Library.open(storage, hub: NotificationHub())
        let gateway = try await LibraryGateway(library: library)
        let router = AlbumServer.router(gateway: gateway, feed: EventFeed(hub: gateway.hub), settings: try ServeSettings())

        let routed = Set(router.routes.map { "\($0.method) \(Self.normalised($0.path.description))" }.filter { $0.contains(" /api/") })
        let data = try #require(PageFiles.base64["api/openapi.json"].flatMap { Data(base64Encoded: $0) })
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented = Set<String>()
        for (path, operations) in paths {
            for method in operations.keys where method != "parameters" {
                documented.insert("\(method.uppercased()) \(Self.normalised(path))")
            }
        }
        #expect(routed.subtracting(documented).isEmpty, "routes missing from the document: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed).sorted())")
        #expect(routed.count >= 15)
    }

    /// The album bodies are described with every field of the table (SPEC 1), in the album,
    /// the new album and the changes.
    @Test func theAlbumSchemasDescribeEveryField() throws {
        let data = try #require(PageFiles.base64["api/openapi.json"].flatMap { Data(base64Encoded: $0) })
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        for name in ["Album", "NewAlbum", "AlbumChanges"] {
            let properties = Set((schemas[name]?["properties"] as? [String: Any] ?? [:]).keys)
            let missing = AlbumField.names.filter { !properties.contains($0) && !(name == "AlbumChanges" && $0 == "id") }
            #expect(missing.isEmpty, "\(name) lacks \(missing)")
        }
    }

    /// `/api/albums/{id}` and `/api/albums/:id` alike become `/api/albums/{}`.
    private static func normalised(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") || part.hasPrefix("{") ? "{}" : String(part)
        }.joined(separator: "/")
    }
}

/// `serve.listen` and the loopback rule.
@Suite struct ServeSettingsTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("localhost:0", "localhost", 0, true), ("[::1]:9000", "::1", 9000, true),
        ("0.0.0.0:80", "0.0.0.0", 80, false), ("192.168.1.4:8080", "192.168.1.4", 8080, false),
    ])
    func parsesListenAddresses(text: String, host: String, port: Int, loopback: Bool) throws {
        let settings = try ServeSettings(listen: text)
        #expect(settings.host == host && settings.port == port && settings.isLoopback == loopback)
    }

    @Test(arguments: ["8080", "127.0.0.1", "127.0.0.1:99999", ":8080", "host name:80", "::1:80", "127.0.0.1:-1"])
    func refusesWhatIsNotHostAndPort(text: String) {
        #expect(throws: AlbumKitError.self) { try ServeSettings(listen: text) }
    }

    @Test func beyondLoopbackNeedsAToken() throws {
        #expect(throws: AlbumKitError.self) { try ServeSettings(listen: "0.0.0.0:8080").check() }
        try ServeSettings(listen: "0.0.0.0:8080", token: "t").check()
        try ServeSettings(listen: "127.0.0.1:8080").check()
    }

    /// The `serve.*` keys are declared like any plugin's: checked, overridable from the
    /// environment, then by the flags.
    @Test func configurationThenEnvironmentThenFlags() throws {
        var registry = AdapterRegistry.builtIn
        registry.declare(section: "serve", ServeSettings.declarations)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("albumkit.yaml")
        try Data("serve:\n  listen: 127.0.0.1:8\n  token: file\n".utf8).write(to: file)
        func load(_ environment: [String: String]) throws -> Configuration {
            try ConfigurationLoader(explicitFile: file.path, environment: environment, registry: registry).load()
        }
        let fromFile = try ServeSettings.resolve(listen: nil, token: nil, configuration: try load([:]))
        #expect(fromFile.port == 8 && fromFile.token == "file" && !fromFile.readsNeedToken)
        let environment = ["ALBUMKIT_SERVE_LISTEN": "127.0.0.1:9", "ALBUMKIT_SERVE_TOKEN": "e", "ALBUMKIT_SERVE_READS_NEED_TOKEN": "true"]
        let fromEnvironment = try ServeSettings.resolve(listen: nil, token: nil, configuration: try load(environment))
        #expect(fromEnvironment.port == 9 && fromEnvironment.token == "e" && fromEnvironment.readsNeedToken)
        let fromFlags = try ServeSettings.resolve(listen: "127.0.0.1:10", token: "f", configuration: try load(environment))
        #expect(fromFlags.port == 10 && fromFlags.token == "f")
        #expect(throws: AlbumKitError.self) { _ = try load(["ALBUMKIT_SERVE_READS_NEED_TOKEN": "perhaps"]) }
        try Data("serve:\n  lisen: 127.0.0.1:8\n".utf8).write(to: file)
        #expect { _ = try load([:]) } throws: { "\($0)".contains("did you mean 'serve.listen'") }
    }
}

/// Names that reach the store or the file system only when they are safe.
@Suite struct ServeNameTests {
    @Test(arguments: [
        (String(repeating: "a", count: 64), true), (String(repeating: "A", count: 64), true), (String(repeating: "a", count: 63), false),
        (String(repeating: "g", count: 64), false), ("../" + String(repeating: "a", count: 61), false), ("", false),
    ])
    func coverNames(name: String, accepted: Bool) {
        #expect(CoverRoutes.hash(name) == (accepted ? name.lowercased() : nil))
    }

    @Test(arguments: [
        ("starter.tar.gz", "tar.gz"), ("albums.JSON", "json"), ("noext", "upload"), (".hidden", "upload"),
        ("a/../../b.tar", "tar"), ("x.t a r", "upload"), ("x.tar..gz", "upload"), ("x.\u{00E9}", "upload"),
    ])
    func uploadEndings(name: String, ending: String) {
        #expect(TransferRoutes.ending(of: name) == ending)
    }
}
