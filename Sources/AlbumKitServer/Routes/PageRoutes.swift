import Foundation
import Hummingbird

/// The page (plain HTML, CSS and JavaScript from `Page/`, carried in the binary) and the
/// API document `/api/openapi.json`, served by their path in that folder.
struct PageRoutes: Sendable {
    /// Path in `Page/` → bytes.
    private let files: [String: Data]

    init() {
        files = PageFiles.base64.compactMapValues { Data(base64Encoded: $0) }
    }

    func register(on router: Router<ServeContext>) {
        router.get("/") { _, _ in try serve("index.html") }
        router.get("/:file") { _, context in try serve(context.parameters.get("file") ?? "") }
        router.get("/api/openapi.json") { _, _ in try serve("api/openapi.json") }
    }

    private func serve(_ path: String) throws -> Response {
        guard let bytes = files[path] else { throw APIError(.notFound, "no page file '\(path)'") }
        return Response(
            status: .ok,
            headers: [
                .contentType: Self.mediaType(path), .cacheControl: "no-cache",
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
                .init("X-Content-Type-Options")!: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func mediaType(_ path: String) -> String {
        switch path.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }
}
