import AlbumKit
import Foundation

/// Reads `.albums` files: one album a line, `Artist | Title | Year | Genre | Cover URL`
/// (the last three optional); blank lines and lines starting with `#` are skipped.
struct PipeListSource: AlbumSource {
    var name: String { "pipe-list" }
    var summary: String { ".albums files: Artist | Title | Year | Genre | Cover URL, one album a line" }

    /// The ending is this format's own.
    func match(_ input: SourceInput) -> SourceMatch {
        !input.isFolder && input.pathExtension == "albums" ? .specific : .none
    }

    func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        AsyncThrowingStream { continuation in
            do {
                let size = try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int64 ?? 0
                guard size <= context.limits.listBytes else {
                    throw AlbumKitError(.limitExceeded, "\(input.path): \(size) bytes; the limit is \(context.limits.listBytes) (limits.listBytes)")
                }
                let text = try String(contentsOf: input.url, encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                    let fields = trimmed.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard fields.count >= 2 else {
                        throw AlbumKitError(.unreadableInput, "\(input.path) line \(index + 1): expected 'Artist | Title', found '\(trimmed.prefix(80))'")
                    }
                    func field(_ number: Int) -> String { fields.count > number ? fields[number] : "" }
                    let record = AlbumRecord(
                        title: fields[1], artist: fields[0], genre: field(3), year: field(2),
                        coverUrl: field(4).isEmpty ? nil : field(4))
                    continuation.yield(.album(record, label: "\(input.path) line \(index + 1) '\(fields[1].prefix(80))'"))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }
}
