import AlbumKit
import Foundation

/// `http`: `http(s)://` covers through the ``GuardedHTTPClient`` (address checks, redirects
/// only to allowed addresses, timeouts, size limit and retries are its). Any answer but a
/// `2xx` fails the fetch naming the status. Whether the bytes are an image is the cover
/// service's call, from their magic bytes.
public final class HTTPCoverFetcher: CoverFetcher {
    private let client: GuardedHTTPClient

    /// A fetcher for `covers` settings; `userAgent` is sent with every request.
    public init(covers: Configuration.Covers, policy: AddressPolicy = AddressPolicy(), userAgent: String) {
        client = GuardedHTTPClient(
            allowedSchemes: covers.allowedSchemes, timeoutSeconds: covers.timeoutSeconds, connectionsPerHost: covers.concurrency, policy: policy,
            userAgent: userAgent)
    }

    /// Closes its connections.
    public func shutdown() async { await client.shutdown() }

    public var name: String { "http" }

    public func fetch(_ request: CoverFetchRequest) async throws -> Data? {
        guard let scheme = URL(string: request.reference)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return nil
        }
        let response = try await client.get(request.reference, headers: [("Accept", "image/*")], maxBytes: request.maxBytes, reference: request.reference)
        guard (200..<300).contains(response.status) else {
            throw AlbumKitError(.unreadableInput, "\(request.reference): the server answered \(response.statusLine)")
        }
        return response.body
    }
}

extension CoverFetcherFactory {
    /// `http`: `http(s)://` covers over the network.
    public static let httpCovers = CoverFetcherFactory(name: "http", summary: "http(s):// covers through async-http-client") { context in
        HTTPCoverFetcher(covers: context.configuration.covers, userAgent: context.configuration.lookups.userAgent)
    }
}
