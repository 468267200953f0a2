import Foundation

/// Reads an album list in ``Format``: a plain array of album objects, or an object/dictionary
/// with the array under `albums` (SPEC 2). Unknown keys are ignored; the year may be a string
/// or an integer.
public struct AlbumListSource<Format: LibraryFileFormat>: AlbumSource {
    public let format: Format

    public init(format: Format) { self.format = format }

    public var name: String { format.name }
    public var summary: String { "\(format.name) album lists: an array of albums, or one under 'albums'" }

    /// Its ending (`.json`), or no ending and a first byte that fits the format: a generic
    /// match, so a source that knows a more specific kind of the same syntax wins.
    public func match(_ input: SourceInput) -> SourceMatch {
        guard !input.isFolder else { return .none }
        if format.fileExtensions.contains(input.pathExtension) { return .generic }
        return input.pathExtension.isEmpty && format.looksLikeFormat(input.prefix) ? .generic : .none
    }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        AsyncThrowingStream { continuation in
            do {
                for item in try read(input.url, limits: context.limits) { continuation.yield(item) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    /// The whole list: album lists are small enough (`limits.listBytes`) to decode at once.
    private func read(_ input: URL, limits: Limits) throws -> [SourceItem] {
        let name = input.path
        let size = (try? FileManager.default.attributesOfItem(atPath: name)[.size] as? Int64) ?? nil
        if let size, size > limits.listBytes {
            throw AlbumKitError(.limitExceeded, "\(name): the album list is \(size) bytes; the limit is \(limits.listBytes) (limits.listBytes)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: input)
        } catch {
            throw AlbumKitError(.fileSystem, "\(name): cannot read: \(error.localizedDescription)")
        }
        var items = try albumItems(in: data, input: name, label: name)
        items.append(.progress(bytesRead: Int64(data.count), totalBytes: Int64(data.count)))
        return items
    }

    /// The albums of the list in `data`, each labelled `<label> #<n> '<title>'`; a list that
    /// does not decode is an error naming `input`. Bundles use this for their `albums.*` entry.
    public func albumItems(in data: Data, input: String, label: String) throws(AlbumKitError) -> [SourceItem] {
        let records: [AlbumRecord]
        do {
            records = try format.decodeAlbums(from: data)
        } catch {
            throw AlbumKitError.unreadable(input, "not a \(format.name) album list (\(error.decodingSummary))")
        }
        return records.enumerated().map { index, record in
            SourceItem.album(record, label: AlbumLabel(list: label, number: index + 1, title: record.title))
        }
    }
}
