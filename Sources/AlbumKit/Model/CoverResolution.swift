/// What became of a cover reference (`https://…`, `file://…`) the last time it was fetched:
/// the key of the stored bytes, or why it failed. Kept in ``LibraryState/covers`` so the
/// mapping travels with the library (and with `state.json` in backups).
/// Stored as `{"cover":"<sha256>.<ext>"}` or `{"failed":"reason"}`.
public struct CoverResolution: Hashable, Sendable, Codable {
    /// The stored cover, when the fetch succeeded.
    public var key: CoverKey?
    /// Why the fetch failed, when it did.
    public var failure: String?

    /// A reference whose bytes are stored under `key`.
    public static func stored(_ key: CoverKey) -> Self { Self(key: key, failure: nil) }
    /// A reference that could not be fetched.
    public static func failed(_ reason: String) -> Self { Self(key: nil, failure: reason) }

    private enum CodingKeys: String, CodingKey { case key = "cover", failure = "failed" }
}
