import AlbumKit
import Foundation
import Hummingbird

/// `GET /api/events`: the hub's events as server-sent events, one `data:` line each holding
/// the event's JSON line (`{"event":NAME,"time":…,…payload}`, as `--events` writes it).
struct EventRoutes: Sendable {
    let feed: EventFeed

    func register(on router: Router<ServeContext>) {
        router.get("/api/events") { _, _ in
            let items = feed.stream()
            let body = ResponseBody { writer in
                // Reconnect after a second; the comment makes the client see the stream open.
                try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
                for await item in items {
                    switch item {
                    case .event(let event): try await writer.write(ByteBuffer(string: "data: \(event.jsonLine(at: Date()))\n\n"))
                    case .relayed(let line): try await writer.write(ByteBuffer(string: "data: \(line)\n\n"))
                    case .heartbeat: try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                    }
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"], body: body)
        }
    }
}
