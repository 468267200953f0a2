import Foundation
import LoopbackHTTPServer
import NIOHTTP1

/// A real HTTP server on 127.0.0.1 serving the cases the covers issue lists. It counts
/// requests per path and remembers the User-Agent and Host headers it saw.
final class TestCoverServer: Sendable {
    /// A tiny but real PNG (1×1, RGB).
    static let png: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")!)
    /// JPEG bytes: SOI, a JFIF APP0 segment, and filler.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0] + Array(repeating: 0x42, count: 300) + [0xFF, 0xD9]

    private let server: LoopbackHTTPServer

    private init(server: LoopbackHTTPServer) { self.server = server }

    var port: Int { server.port }

    /// The URL of `path` on this server.
    func url(_ path: String) -> String { server.url(path) }

    /// How many requests reached `path`.
    func requests(to path: String) -> Int { server.requests(to: path).count }

    /// Every request, all paths together.
    var totalRequests: Int { server.requests.count }

    /// The User-Agent headers seen.
    var userAgents: Set<String> { Set(server.requests.compactMap { $0.headers["user-agent"] }) }

    /// The Host headers seen.
    var hosts: Set<String> { Set(server.requests.compactMap { $0.headers["host"] }) }

    /// Starts a server; stop it with ``stop()``.
    static func start() async throws -> TestCoverServer {
        TestCoverServer(server: try await LoopbackHTTPServer.start { answer($0) })
    }

    /// Stops serving and closes every connection.
    func stop() async { await server.stop() }

    private static func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Answer {
        let path = request.path
        let port = request.port
        switch path {
        case _ where path.hasSuffix(".png") && !path.hasPrefix("/html"):
            return .init(.ok, ["Content-Type": "image/png"], png)
        case "/good.jpg":
            return .init(.ok, ["Content-Type": "image/jpeg"], jpeg)
        case "/slow":
            // Late for a 1-second timeout, in time for the 15-second default: a client that
            // ignored covers.timeoutSeconds would get the cover.
            return .init(.ok, ["Content-Type": "image/png"], png, delay: .seconds(4))
        case "/flaky":
            return request.seen == 1 ? .init(.internalServerError, [:], Array("try again".utf8)) : .init(.ok, ["Content-Type": "image/png"], png)
        case "/endless":
            // bounded: ~1.3 GB at most, stopped far earlier by the client
            return .init(.ok, ["Content-Type": "image/png"], body: .repeated(png + Array(repeating: 0, count: 65_536), times: 20_000))
        case "/html-as-png":
            return .init(.ok, ["Content-Type": "image/png"], Array("<!doctype html><html><body>Not found</body></html>".utf8))
        case "/loop":
            return .init(.found, ["Location": request.url("/loop")])
        case "/to-metadata":
            return .init(.found, ["Location": "http://169.254.169.254/latest/meta-data/"])
        case _ where path.hasPrefix("/redirect-to/"):
            return .init(.found, ["Location": "http://\(path.dropFirst("/redirect-to/".count)):\(port)/good.png"])
        case "/to-good":
            return .init(.movedPermanently, ["Location": "/good.png"])
        default:
            return .init(.notFound, ["Content-Type": "text/plain"], Array("no such cover".utf8))
        }
    }
}
