import AlbumKit
import Foundation
import Hummingbird

/// The albums, the current album and the history: each route calls one core operation
/// through the gateway and answers with the album as it now is.
struct AlbumRoutes: Sendable {
    let gateway: LibraryGateway

    /// The most albums one page gives.
    static let maxPage = 1000

    func register(on router: Router<ServeContext>) {
        router.get("/api/albums") { request, _ in try await page(request) }
        router.post("/api/albums") { request, _ in
            let body = try await JSONBody.decode(NewAlbumBody.self, from: request)
            let album = try await gateway.add(body.record, at: body.position)
            return try await single(.id(album.id), status: .created)
        }
        router.get("/api/albums/:id") { _, context in try await single(try reference(context)) }
        router.patch("/api/albums/:id") { request, context in
            let reference = try reference(context)
            let album = try await gateway.update(reference, try await JSONBody.decode(AlbumChangesBody.self, from: request).patch)
            return try await single(.id(album.id))
        }
        router.delete("/api/albums/:id") { _, context in
            let reference = try reference(context)
            let position = try reference.index(in: gateway.snapshot) + 1
            let album = try await gateway.remove(reference)
            return JSONBody.response(json: SingleAlbumBody(album: await body(album, position: position)).json)
        }
        router.post("/api/albums/:id/move") { request, context in
            let reference = try reference(context)
            let to = try await JSONBody.decode(MoveBody.self, from: request).to
            let snapshot = gateway.snapshot  // one copy: the index must be into the array it came from
            let id = snapshot.albums[try reference.index(in: snapshot)].id
            try await gateway.move(reference, to: to)
            return try await single(.id(id))
        }
        router.get("/api/current") { _, _ in
            let snapshot = gateway.snapshot
            guard let id = snapshot.state.current else { return JSONBody.response(json: SingleAlbumBody(album: nil).json) }
            return try await single(.id(id), in: snapshot)
        }
        router.put("/api/current") { request, _ in
            let id = try await JSONBody.decode(CurrentBody.self, from: request).id
            let album = try await gateway.select(AlbumReference(id))
            return try await single(.id(album.id))
        }
        router.post("/api/undo") { _, _ in
            JSONBody.response(HistoryStepBody(undone: try await gateway.walkHistory(forward: false).label, redone: nil))
        }
        router.post("/api/redo") { _, _ in
            JSONBody.response(HistoryStepBody(undone: nil, redone: try await gateway.walkHistory(forward: true).label))
        }
    }

    /// `GET /api/albums?offset=O&limit=L`.
    private func page(_ request: Request) async throws -> Response {
        let offset = try Self.number("offset", in: request, default: 0, range: 0...Int.max)
        let limit = try Self.number("limit", in: request, default: 100, range: 1...Self.maxPage)
        let snapshot = gateway.snapshot
        let albums = snapshot.albums
        let start = min(offset, albums.count)
        var rows: [AlbumBody] = []
        rows.reserveCapacity(min(limit, albums.count - start))
        for index in start..<min(albums.count, start + limit) {
            rows.append(await body(albums[index], position: index + 1))
        }
        let current = snapshot.state.current
        return JSONBody.response(
            json: AlbumPageBody(
                albums: rows, total: albums.count, offset: offset, limit: limit, current: current,
                currentPosition: current.flatMap { snapshot.index(of: $0) }.map { $0 + 1 }
            ).json)
    }

    /// The album `reference` names in the library as it is now, as `{"album": …}`.
    private func single(
        _ reference: AlbumReference, status: HTTPResponse.Status = .ok, in snapshot: LibrarySnapshot? = nil
    ) async throws -> Response {
        let snapshot = snapshot ?? gateway.snapshot
        let index = try reference.index(in: snapshot)
        return JSONBody.response(json: SingleAlbumBody(album: await body(snapshot.albums[index], position: index + 1)).json, status: status)
    }

    private func body(_ album: Album, position: Int) async -> AlbumBody {
        let cover = await gateway.cover(of: album)
        return AlbumBody(position: position, album: album, cover: cover.state, coverSha256: cover.key?.sha256)
    }

    /// The `{id}` of the path, percent-decoded: an id, or a bare number for a position (as
    /// on the command line; ids always hold a non-digit).
    private func reference(_ context: ServeContext) throws -> AlbumReference {
        guard let text = context.parameters.get("id")?.removingPercentEncoding, !text.isEmpty else {
            throw APIError(.notFound, "no album: the path does not name one")
        }
        return AlbumReference(text)
    }

    private static func number(_ name: String, in request: Request, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError(.unprocessableContent, "query parameter \(name)=\(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
