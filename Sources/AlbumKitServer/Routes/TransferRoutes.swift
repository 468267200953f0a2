import AlbumKit
import Foundation
import Hummingbird

/// Bundles and album lists in and out: `POST /api/import` takes a file as the request
/// body (streamed to a file of its own in the library folder, at most `limits.archiveBytes`),
/// imports it through the same pipeline as `albumkit import` — one undoable step, every
/// check of an untrusted file — and removes it; `GET /api/export` sends a backup bundle.
struct TransferRoutes: Sendable {
    let gateway: LibraryGateway

    func register(on router: Router<ServeContext>) {
        router.post("/api/import") { request, _ in try await importUpload(request) }
        router.get("/api/export") { _, _ in
            let file = try TransferFile(in: gateway.folder, purpose: "export", ending: "tar.gz")
            defer { file.remove() }
            _ = try await gateway.exportBundle(to: file.url)
            let stamp = Date().formatted(.iso8601.year().month().day()).replacingOccurrences(of: "-", with: "")
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/gzip", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"albumkit-backup-\(stamp).tar.gz\"",
                ],
                body: try file.streamedBody())
        }
    }

    private func importUpload(_ request: Request) async throws -> Response {
        let name = request.uri.queryParameters.get("name").map { String($0) } ?? "upload"
        var policy = DuplicatePolicy.skip
        if let text = request.uri.queryParameters.get("onDuplicate") {
            guard let chosen = DuplicatePolicy(rawValue: String(text)) else {
                throw APIError(.unprocessableContent, "query parameter onDuplicate=\(text) is not skip, replace or keep")
            }
            policy = chosen
        }
        let limit = gateway.limits.archiveBytes
        if let length = request.headers[.contentLength].flatMap({ Int64($0, radix: 10) }), length > limit {
            throw APIError(.contentTooLarge, "upload '\(name)': \(length) bytes is over limits.archiveBytes (\(limit)); nothing was imported", kind: "limitExceeded")
        }
        let file = try TransferFile(in: gateway.folder, purpose: "upload", ending: Self.ending(of: name))
        defer { file.remove() }
        var received: Int64 = 0
        for try await chunk in request.body {
            received += Int64(chunk.readableBytes)
            guard received <= limit else {
                throw APIError(.contentTooLarge, "upload '\(name)': more than limits.archiveBytes (\(limit)) bytes; nothing was imported", kind: "limitExceeded")
            }
            try file.write(chunk)
        }
        do {
            return JSONBody.response(ImportBody(try await gateway.importFile(file.url, policy: policy)))
        } catch let error as AlbumKitError {
            // Name the upload, not the transfer file, in what the client reads.
            throw AlbumKitError(error.kind, error.description.replacingOccurrences(of: file.url.path, with: "upload '\(name)'"))
        }
    }

    /// The ending of an uploaded file's name (`tar.gz`, `json`, …), kept so the scratch
    /// file reads as the original would; only letters and digits, else `upload`.
    static func ending(of name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.firstIndex(of: "."), dot != base.startIndex else { return "upload" }
        let ending = base[base.index(after: dot)...].lowercased()
        guard !ending.isEmpty, ending.count <= 16, ending.allSatisfy({ ($0.isLetter && $0.isASCII) || $0.isNumber || $0 == "." }),
            !ending.hasPrefix("."), !ending.hasSuffix("."), !ending.contains("..")
        else { return "upload" }
        return ending
    }
}
