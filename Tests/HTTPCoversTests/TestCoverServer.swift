import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP server on 127.0.0.1 (an ephemeral port), in-process, serving the cases the
/// covers issue lists. It counts requests per path and remembers the User-Agent and Host
/// headers it saw. It answers from a thread of its own (``ServerExecutor``): a test that
/// blocks the concurrency pool while an `albumkit` child fetches from this server must not
/// keep the server from answering.
final class TestCoverServer: Sendable {
    /// A tiny but real PNG (1×1, RGB).
    static let png: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")!)
    /// JPEG bytes: SOI, a JFIF APP0 segment, and filler.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0] + Array(repeating: 0x42, count: 300) + [0xFF, 0xD9]

    let port: Int
    private let counts = Mutex<[String: Int]>([:])
    private let agents = Mutex<Set<String>>([])
    private let hostHeaders = Mutex<Set<String>>([])
    private let serving = Mutex<Task<Void, Never>?>(nil)

    private init(port: Int) { self.port = port }

    /// The URL of `path` on this server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// How many requests reached `path`.
    func requests(to path: String) -> Int { counts.withLock { $0[path] ?? 0 } }

    /// Every request, all paths together.
    var totalRequests: Int { counts.withLock { $0.values.reduce(0, +) } }

    /// The User-Agent headers seen.
    var userAgents: Set<String> { agents.withLock { $0 } }

    /// The Host headers seen.
    var hosts: Set<String> { hostHeaders.withLock { $0 } }

    /// Starts a server; stop it with ``stop()``.
    static func start() async throws -> TestCoverServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                }
            }
        let server = TestCoverServer(port: channel.channel.localAddress!.port!)
        let task = Task<Void, Never>(executorPreference: ServerExecutor.shared) {
            _ = try? await channel.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask { try? await server.serve(connection) }
                    }
                }
            }
        }
        server.serving.withLock { $0 = task }
        return server
    }

    /// Stops serving and closes every connection.
    func stop() async {
        let task = serving.withLock { $0 }
        task?.cancel()
        await task?.value
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let path = String(head.uri.split(separator: "?").first ?? "")
                let seen = counts.withLock { counts in
                    counts[path, default: 0] += 1
                    return counts[path]!
                }
                if let agent = head.headers.first(name: "User-Agent") { _ = agents.withLock { $0.insert(agent) } }
                if let host = head.headers.first(name: "Host") { _ = hostHeaders.withLock { $0.insert(host) } }
                try await respond(to: path, seen: seen, outbound)
            }
        }
    }

    private func respond(to path: String, seen: Int, _ out: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        switch path {
        case _ where path.hasSuffix(".png") && !path.hasPrefix("/html"):
            try await send(.ok, ["Content-Type": "image/png"], Self.png, out)
        case "/good.jpg":
            try await send(.ok, ["Content-Type": "image/jpeg"], Self.jpeg, out)
        case "/slow":
            // Late for a 1-second timeout, in time for the 15-second default: a client that
            // ignored covers.timeoutSeconds would get the cover.
            try await Task.sleep(for: .seconds(4))
            try await send(.ok, ["Content-Type": "image/png"], Self.png, out)
        case "/flaky":
            if seen == 1 {
                try await send(.internalServerError, [:], Array("try again".utf8), out)
            } else {
                try await send(.ok, ["Content-Type": "image/png"], Self.png, out)
            }
        case "/endless":
            try await out.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Type": "image/png"])))
            let chunk = ByteBuffer(bytes: Self.png + Array(repeating: 0, count: 65_536))
            for _ in 0..<20_000 {  // bounded: ~1.3 GB at most, stopped far earlier by the client
                try await out.write(.body(.byteBuffer(chunk)))
            }
            try await out.write(.end(nil))
        case "/html-as-png":
            try await send(.ok, ["Content-Type": "image/png"], Array("<!doctype html><html><body>Not found</body></html>".utf8), out)
        case "/loop":
            try await send(.found, ["Location": url("/loop")], [], out)
        case "/to-metadata":
            try await send(.found, ["Location": "http://169.254.169.254/latest/meta-data/"], [], out)
        case _ where path.hasPrefix("/redirect-to/"):
            try await send(.found, ["Location": "http://\(path.dropFirst("/redirect-to/".count)):\(port)/good.png"], [], out)
        case "/to-good":
            try await send(.movedPermanently, ["Location": "/good.png"], [], out)
        default:
            try await send(.notFound, ["Content-Type": "text/plain"], Array("no such cover".utf8), out)
        }
    }

    private func send(
        _ status: HTTPResponseStatus, _ headers: [String: String], _ body: [UInt8],
        _ out: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        var fields = HTTPHeaders(headers.map { ($0.key, $0.value) })
        fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
        try await out.write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields)))
        if !body.isEmpty { try await out.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        try await out.write(.end(nil))
    }
}

/// A task executor on a serial dispatch queue. Such a queue gets a thread even when every
/// thread of the concurrency pool is busy or blocked, which the pool's own do not.
final class ServerExecutor: TaskExecutor {
    /// The one the test servers share.
    static let shared = ServerExecutor()

    private let queue = DispatchQueue(label: "albumkit.test-server")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
