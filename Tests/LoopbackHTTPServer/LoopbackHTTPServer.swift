import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port), in-process, for tests that play a
/// service: a closure answers each request, and every request is kept (path, query,
/// headers, when it arrived) for the test to check. It answers from a thread of its own
/// (``ServerExecutor``): a test that blocks the concurrency pool while an `albumkit` child
/// talks to this server must not keep the server from answering.
public final class LoopbackHTTPServer: Sendable {
    /// One request as it arrived.
    public struct Request: Sendable {
        public let method: String
        /// The path, without the query.
        public let path: String
        /// The query's items, percent-decoded (`+` left as it is).
        public let query: [String: String]
        /// Header name in lower case → its first value.
        public let headers: [String: String]
        /// When the head arrived.
        public let arrival: ContinuousClock.Instant
        /// How many requests to this path arrived before this one, plus one.
        public let seen: Int
        /// The server's port (for the addresses an answer names).
        public let port: Int
        /// Which connection it came on: the n-th the server accepted.
        public let connection: Int

        /// The URL of `path` on the server that got this request.
        public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
    }

    /// What a body is: bytes, or a chunk sent `times` times (a body too large to hold).
    public enum Body: Sendable {
        case bytes([UInt8])
        case repeated([UInt8], times: Int)
    }

    /// An answer: status, headers, body, and how long to wait before sending it.
    public struct Answer: Sendable {
        public var status: HTTPResponseStatus
        public var headers: [String: String]
        public var body: Body
        public var delay: Duration

        public init(_ status: HTTPResponseStatus, _ headers: [String: String] = [:], _ body: [UInt8] = [], delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.body = .bytes(body)
            self.delay = delay
        }

        public init(_ status: HTTPResponseStatus, _ headers: [String: String] = [:], body: Body, delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        /// A JSON answer.
        public static func json(_ text: String, _ status: HTTPResponseStatus = .ok) -> Answer {
            Answer(status, ["Content-Type": "application/json"], Array(text.utf8))
        }
    }

    /// Answers a request.
    public typealias Responder = @Sendable (Request) async -> Answer

    public let port: Int
    private let log = Mutex<[Request]>([])
    /// Connections accepted so far, and those still open.
    private let connections = Mutex((accepted: 0, open: 0))
    private let serving = Mutex<Task<Void, Never>?>(nil)

    private init(port: Int) { self.port = port }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Every request so far, in the order they arrived.
    public var requests: [Request] { log.withLock { $0 } }

    /// How many connections are open now: a client that shut down has closed its own.
    public var openConnections: Int { connections.withLock { $0.open } }

    /// The requests to `path`.
    public func requests(to path: String) -> [Request] { requests.filter { $0.path == path } }

    /// Starts a server answering with `respond`; stop it with ``stop()``.
    public static func start(_ respond: @escaping Responder) async throws -> LoopbackHTTPServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                }
            }
        let server = LoopbackHTTPServer(port: channel.channel.localAddress!.port!)
        // A queue of its own: a server streaming a large body must not delay another's
        // answers, nor the time another's requests are seen to arrive.
        let task = Task<Void, Never>(executorPreference: ServerExecutor()) {
            _ = try? await channel.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        let number = server.connections.withLock { counts in
                            counts.accepted += 1
                            counts.open += 1
                            return counts.accepted
                        }
                        group.addTask {
                            try? await server.serve(connection, number: number, respond)
                            server.connections.withLock { $0.open -= 1 }
                        }
                    }
                }
            }
        }
        server.serving.withLock { $0 = task }
        return server
    }

    /// Stops serving and closes every connection.
    public func stop() async {
        let task = serving.withLock { $0 }
        task?.cancel()
        await task?.value
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, number: Int, _ respond: Responder) async throws {
        try await connection.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let request = record(head, connection: number)
                let answer = await respond(request)
                if answer.delay > .zero { try await Task.sleep(for: answer.delay) }
                try await send(answer, outbound)
            }
        }
    }

    private func record(_ head: HTTPRequestHead, connection: Int) -> Request {
        let parts = head.uri.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        for item in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let pair = item.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            query[pair[0]] = pair.count > 1 ? pair[1] : ""
        }
        var headers: [String: String] = [:]
        for (name, value) in head.headers where headers[name.lowercased()] == nil { headers[name.lowercased()] = value }
        let path = String(parts.first ?? "")
        return log.withLock { log in
            let request = Request(
                method: head.method.rawValue, path: path, query: query, headers: headers, arrival: .now,
                seen: log.count { $0.path == path } + 1, port: port, connection: connection)
            log.append(request)
            return request
        }
    }

    private func send(_ answer: Answer, _ out: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        var fields = HTTPHeaders(answer.headers.map { ($0.key, $0.value) })
        switch answer.body {
        case .bytes(let body):
            fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
            try await out.write(.head(HTTPResponseHead(version: .http1_1, status: answer.status, headers: fields)))
            if !body.isEmpty { try await out.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        case .repeated(let chunk, let times):
            try await out.write(.head(HTTPResponseHead(version: .http1_1, status: answer.status, headers: fields)))
            let buffer = ByteBuffer(bytes: chunk)
            for _ in 0..<times { try await out.write(.body(.byteBuffer(buffer))) }
        }
        try await out.write(.end(nil))
    }
}

/// A task executor on a serial dispatch queue. Such a queue gets a thread even when every
/// thread of the concurrency pool is busy or blocked, which the pool's own do not.
final class ServerExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "albumkit.test-server")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
