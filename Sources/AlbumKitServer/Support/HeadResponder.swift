import Hummingbird

/// `HEAD` on every route: answered as `GET` of the same path is — the same status and headers,
/// its length included, errors too — with no body (RFC 9110 §9.3.2), so that `curl -I` and
/// caches that revalidate with HEAD see what GET serves. It wraps the router's whole responder:
/// the router finds a route by method before any middleware runs.
struct HeadResponder<Base: HTTPResponder>: HTTPResponder where Base.Context == ServeContext {
    let base: Base

    func respond(to request: Request, context: ServeContext) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        let answer = try await base.respond(to: Request(head: head, body: request.body), context: context)
        // A body that writes nothing, of the length GET's has (none when GET's is streamed).
        let none = ResponseBody(contentLength: answer.body.contentLength) { writer in try await writer.finish(nil) }
        return Response(status: answer.status, headers: answer.headers, body: none)
    }
}
