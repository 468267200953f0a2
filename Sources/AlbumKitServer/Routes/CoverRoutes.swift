import AlbumKit
import Foundation
import Hummingbird

/// `GET /api/covers/{sha256}`: stored cover bytes by their SHA-256. The hash is the strong
/// ETag and the content never changes under a name, so covers are cached as immutable and
/// a matching `If-None-Match` gets 304. A name that is not 64 hex digits is answered 404
/// here and never reaches the store.
///
/// `POST /api/covers/find` with `{"ids": [...]}`: the page's "Find covers" — the lookup
/// services of `covers.fetchers` asked for the albums named that name no cover; answered
/// when the round ends, its spinners started and stopped by the events meanwhile.
struct CoverRoutes: Sendable {
    let gateway: LibraryGateway

    /// The most albums one round is asked for: a page's worth in view.
    static let maxFind = 1_000

    func register(on router: Router<ServeContext>) {
        router.post("/api/covers/find") { request, _ in
            let ids = try await JSONBody.decode(FindCoversBody.self, from: request).ids
            guard ids.count <= Self.maxFind else {
                throw APIError(.unprocessableContent, "\(ids.count) albums asked for: at most \(Self.maxFind) a round")
            }
            return JSONBody.response(CoverRoundBody(try await gateway.findCovers(ids.map(AlbumID.init(rawValue:)))))
        }
        router.get("/api/covers/:sha256") { request, context in
            guard let name = context.parameters.get("sha256"), let sha256 = Self.hash(name) else {
                throw APIError(.notFound, "no cover '\(context.parameters.get("sha256") ?? "")': a cover is named by 64 hexadecimal digits")
            }
            guard let (key, bytes) = try await gateway.coverBytes(sha256: sha256) else {
                throw APIError(.notFound, "no cover \(sha256) in the library")
            }
            let tag = "\"\(sha256)\""
            var headers: HTTPFields = [
                .eTag: tag, .cacheControl: "public, max-age=31536000, immutable", .contentType: Self.mediaType(key.fileExtension),
                .init("X-Content-Type-Options")!: "nosniff",
            ]
            if Self.matches(request.headers[.ifNoneMatch], tag) {
                headers[.contentType] = nil
                return Response(status: .notModified, headers: headers)
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// The lower-case hash when `name` is exactly 64 hex digits.
    static func hash(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { SHA256Words(hex: $0, ignoringCase: true) }?.description
    }

    /// Whether an `If-None-Match` list names `tag` (or is `*`); weak tags compare weakly.
    private static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    private static func mediaType(_ fileExtension: String) -> String {
        switch fileExtension {
        case "jpg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        default: "application/octet-stream"
        }
    }
}
