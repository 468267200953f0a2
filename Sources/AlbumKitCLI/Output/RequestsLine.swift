/// The line `covers fetch` and `enrich` end with: how many requests went to each service.
enum RequestsLine {
    /// `Requests: discogs 1, musicbrainz 3.`, services by name; nil when none was asked.
    static func text(_ requests: [String: Int]) -> String? {
        guard !requests.isEmpty else { return nil }
        return "Requests: " + requests.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "."
    }
}
