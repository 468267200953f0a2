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
            // The album as it was, at the position it had: pinned by id, so the removal takes
            // exactly the album answered even if another change moves it meanwhile.
            let before = try await gateway.album(try reference(context))
            _ = try await gateway.remove(.id(before.listed.album.id))
            return JSONBody.response(json: SingleAlbumBody(album: AlbumBody(before)).json)
        }
        router.post("/api/albums/:id/move") { request, context in
            let reference = try reference(context)
            let to = try await JSONBody.decode(MoveBody.self, from: request).to
            let id = try await gateway.album(reference).listed.album.id
            try await gateway.move(.id(id), to: to)
            return try await single(.id(id))
        }
        router.get("/api/current") { _, _ in
            JSONBody.response(json: SingleAlbumBody(album: try await gateway.currentEntry().map(AlbumBody.init)).json)
        }
        router.put("/api/current") { request, _ in
            let id = try await JSONBody.decode(CurrentBody.self, from: request).id
            let album = try await gateway.select(AlbumReference(id))
            return try await single(.id(album.id))
        }
        router.post("/api/undo") { _, _ in
            let step = try await gateway.walkHistory(forward: false)
            return JSONBody.response(HistoryStepBody(undone: step.label, redone: nil, albums: step.albums.map(\.rawValue)))
        }
        router.post("/api/redo") { _, _ in
            let step = try await gateway.walkHistory(forward: true)
            return JSONBody.response(HistoryStepBody(undone: nil, redone: step.label, albums: step.albums.map(\.rawValue)))
        }
    }

    /// `GET /api/albums?q=QUERY&sort=FIELD[+|-],…&offset=O&limit=L`: the query language and
    /// sort keys of `albumkit list`.
    private func page(_ request: Request) async throws -> Response {
        let offset = try Self.number("offset", in: request, default: 0, range: 0...Int.max)
        let limit = try Self.number("limit", in: request, default: 100, range: 1...Self.maxPage)
        let query = try AlbumQuery(parsing: Self.formText("q", in: request) ?? "")
        let order = try AlbumSort(parsing: Self.formText("sort", in: request).map { [$0] } ?? [])
        let page = try await gateway.page(matching: query, order: order, offset: offset, limit: limit)
        let history = await gateway.history
        return JSONBody.response(json: AlbumPageBody(page: page, offset: offset, limit: limit, undo: history.undo, redo: history.redo).json)
    }

    /// The album `reference` names, as `{"album": …}`.
    private func single(_ reference: AlbumReference, status: HTTPResponse.Status = .ok) async throws -> Response {
        JSONBody.response(json: SingleAlbumBody(album: AlbumBody(try await gateway.album(reference))).json, status: status)
    }

    /// The `{id}` of the path, percent-decoded: an id, or a bare number for a position (as
    /// on the command line; ids always hold a non-digit).
    private func reference(_ context: ServeContext) throws -> AlbumReference {
        guard let text = context.parameters.get("id")?.removingPercentEncoding, !text.isEmpty else {
            throw APIError(.notFound, "no album: the path does not name one")
        }
        return AlbumReference(text)
    }

    /// The query parameter `name` as a form encodes it (`+` for a space, as HTML forms,
    /// `URLSearchParams` and Python's `urlencode` write it; a plus sign itself is `%2B`).
    private static func formText(_ name: String, in request: Request) -> String? {
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == name else { continue }
            return String(parts.count > 1 ? parts[1] : "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
        }
        return nil
    }

    private static func number(_ name: String, in request: Request, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError(.unprocessableContent, "query parameter \(name)=\(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
