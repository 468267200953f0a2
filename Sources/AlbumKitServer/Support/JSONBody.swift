import Foundation
import Hummingbird

/// JSON in and out of the API: sorted keys, slashes unescaped, and request bodies only as
/// `application/json` of at most 1 MiB (a browser cannot send that cross-site without
/// asking first, and no album field may pass 64 KiB).
enum JSONBody {
    /// The largest JSON request body taken.
    static let maxBytes = 1 << 20

    /// `value` as a JSON response.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return response(json: Array((try? encoder.encode(value)) ?? Data("{}".utf8)), status: status)
    }

    /// `bytes` (JSON already written) as a response.
    static func response(json bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        response(json: [ByteBuffer(bytes: bytes)], status: status)
    }

    /// JSON already written, in `buffers` one after another, as a response.
    static func response(json buffers: [ByteBuffer], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(contentsOf: buffers))
    }

    /// The request body decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw APIError(.unsupportedMediaType, "send the body as application/json")
        }
        var request = request
        let buffer = try await request.collectBody(upTo: maxBytes)
        return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
    }
}

/// JSON text gathered in buffers of at most ``size`` bytes (unless one piece is larger): a
/// page of albums is about 140 KB, and a buffer that large is mapped afresh from the system and
/// unmapped after each response (the allocator's threshold, ``AllocatorTuning``): page faults
/// and unmapping took a third of a page kept by ``AlbumJSONCache``. Buffers of this size are
/// reused from the heap.
struct ChunkedJSON {
    /// The most bytes a buffer gets.
    static let size = 64 * 1024

    private(set) var buffers: [ByteBuffer] = []

    /// Appends `bytes` (JSON text written before).
    mutating func append(_ bytes: [UInt8]) {
        if buffers.isEmpty || buffers[buffers.count - 1].writableBytes < bytes.count {
            buffers.append(ByteBufferAllocator().buffer(capacity: max(Self.size, bytes.count)))
        }
        buffers[buffers.count - 1].writeBytes(bytes)
    }
}
