import Hummingbird

/// Who may do what (SPEC 10, safety):
/// - On a loopback address only requests for a loopback host name are answered, so a page
///   of another site cannot reach the library through a name it points at 127.0.0.1.
/// - A change (any method but GET/HEAD/OPTIONS) is refused when the browser says it comes
///   from another site (`Sec-Fetch-Site`) or another origin (`Origin`). Changes take no
///   cookie at all: with a token they need `Authorization: Bearer`, which a browser never
///   adds by itself.
/// - With a token, every change needs it; reads too when `readsNeedToken` (the event stream
///   and covers, which a page loads without headers, may pass it as `?token=`). The page
///   itself and the API document carry no library data and are always readable.
struct RequestGuard: RouterMiddleware {
    typealias Context = ServeContext

    let settings: ServeSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if settings.isLoopback, let authority = request.head.authority, !Self.isLoopback(Self.hostName(authority)) {
            throw APIError(.forbidden, "this server answers only to loopback host names, not '\(authority)'")
        }
        let isChange = ![.get, .head, .options].contains(request.method)
        if isChange {
            if let site = request.headers.first(where: { $0.name.canonicalName == "sec-fetch-site" })?.value, site != "same-origin", site != "none" {
                throw APIError(.forbidden, "\(request.method) \(path) from another site (Sec-Fetch-Site: \(site)) is refused")
            }
            if let origin = request.headers[.origin], origin != "http://\(request.head.authority ?? "")" {
                throw APIError(.forbidden, "\(request.method) \(path) from origin \(origin) is refused; changes come from this server's own page")
            }
        }
        if let token = settings.token, path.hasPrefix("/api/"), path != "/api/openapi.json", isChange || settings.readsNeedToken {
            guard Self.presented(in: request, allowQuery: !isChange).map({ Self.equal($0, token) }) == true else {
                throw APIError(.unauthorized, "\(request.method) \(path) needs the server's token (Authorization: Bearer …)")
            }
        }
        return try await next(request, context)
    }


    private static func isLoopback(_ host: Substring) -> Bool {
        host == "localhost" || host == "[::1]" || host.hasPrefix("127.") && host.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// The host of `authority` without its port.
    private static func hostName(_ authority: String) -> Substring {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return authority[...close] }
        return authority.split(separator: ":", maxSplits: 1).first ?? Substring(authority)
    }

    private static func presented(in request: Request, allowQuery: Bool) -> String? {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") { return String(header.dropFirst(7)) }
        return allowQuery ? request.uri.queryParameters.get("token").map { String($0) } : nil
    }

    /// Compares in time that does not depend on where the strings differ.
    private static func equal(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in b.indices { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return difference == 0
    }
}
