import AlbumKit
import Foundation
import Hummingbird

/// An error as the API answers it: a status a client expects and a sentence, sent as
/// `{"error":{"message":…,"kind":…}}`. Core errors map by kind (a missing album is 404, an
/// empty history or a library changed elsewhere 409, an invalid album or a refused file
/// 422, a passed limit 413); anything unexpected is 500, never swallowed.
struct APIError: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String
    let kind: String?

    init(_ status: HTTPResponse.Status, _ message: String, kind: String? = nil) {
        self.status = status
        self.message = message
        self.kind = kind
    }

    /// The answer for any error a handler threw.
    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as AlbumKitError:
            self.init(Self.status(of: error.kind), error.description, kind: error.kind.description)
        case let error as any HTTPResponseError:
            self.init(error.status, error.status == .contentTooLarge ? "the request body is larger than allowed" : error.status.reasonPhrase)
        case let error as DecodingError:
            self.init(.unprocessableContent, "the request body is not what this route takes: \(Self.describe(error))")
        default:
            self.init(.internalServerError, String(describing: error))
        }
    }

    private static func status(of kind: AlbumKitError.Kind) -> HTTPResponse.Status {
        switch kind {
        case .noSuchAlbum, .noSuchCover: .notFound
        case .historyEmpty, .libraryState: .conflict
        case .invalidAlbum, .invalidQuery, .unreadableInput, .unsupported: .unprocessableContent
        case .limitExceeded: .contentTooLarge
        case .lockTimeout, .connection: .serviceUnavailable
        default: .internalServerError
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "the field '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "the field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case .dataCorrupted(let context): context.codingPath.isEmpty ? "not JSON" : context.debugDescription
        @unknown default: "\(error)"
        }
    }

    /// The JSON response.
    var response: Response {
        var error: [String: String] = ["message": message]
        if let kind { error["kind"] = kind }
        var response = JSONBody.response(["error": error], status: status)
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }
}

/// Turns whatever a route throws — or the router's own "no such route" — into an
/// ``APIError`` response.
struct APIErrorMiddleware: RouterMiddleware {
    typealias Context = ServeContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return APIError(.notFound, "no route \(request.method) \(request.uri.path)").response
        } catch {
            let answer = APIError(error)
            if answer.status == .internalServerError { context.logger.error("\(request.method) \(request.uri.path): \(answer.message)") }
            return answer.response
        }
    }
}
