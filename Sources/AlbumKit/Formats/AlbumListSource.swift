import Foundation
import Synchronization

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
        let list = Mutex(PulledList(source: self, input: input.url, limits: context.limits))
        return AsyncThrowingStream { try list.withLock { try $0.next() } }
    }

    /// The albums of the list in `data`, each labelled `<label> #<n> '<title>'`, handed over one
    /// at a time; a list that does not decode is an error naming `input`.
    public func albumList(in data: Data, input: String, label: String) throws(AlbumKitError) -> AlbumListItems {
        do {
            return AlbumListItems(records: try format.albumRecords(in: data), format: format.name, input: input, label: label)
        } catch {
            throw AlbumListItems.unreadable(error, format: format.name, input: input)
        }
    }

    /// The albums of the list whose text `read` gives a piece at a time (it fills the buffer it
    /// is handed and returns how many bytes it wrote, 0 at the end), as
    /// ``albumList(in:input:label:)`` hands them over; where the format allows, the text is read
    /// as the albums are asked for. An ``AlbumKitError`` that `read` throws comes out as it was
    /// thrown. Bundles read their `albums.*` entry through it.
    public func albumList(
        reading read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int, input: String, label: String
    ) throws(AlbumKitError) -> AlbumListItems {
        do {
            return AlbumListItems(records: try format.albumRecords(reading: read), format: format.name, input: input, label: label)
        } catch let error as AlbumKitError {
            throw error
        } catch {
            throw AlbumListItems.unreadable(error, format: format.name, input: input)
        }
    }

    /// Every album of the list in `data`, as ``albumList(in:input:label:)`` hands them over.
    public func albumItems(in data: Data, input: String, label: String) throws(AlbumKitError) -> [SourceItem] {
        var list = try albumList(in: data, input: input, label: label)
        var items: [SourceItem] = []
        while let item = try list.next() { items.append(item) }
        return items
    }

    /// Opens the list file when first asked (within `limits.listBytes`), then hands over its
    /// albums one at a time, reading the file as they are asked for, and the progress of the
    /// whole file last.
    private struct PulledList: ~Copyable {
        let source: AlbumListSource
        let input: URL
        let limits: Limits
        var list: AlbumListItems?
        var size: Int64 = 0
        var ended = false

        init(source: AlbumListSource, input: URL, limits: Limits) {
            self.source = source
            self.input = input
            self.limits = limits
        }

        mutating func next() throws -> SourceItem? {
            if list == nil && !ended {
                let (handle, size) = try open()
                self.size = size
                let name = input.path
                list = try source.albumList(reading: { buffer in
                    do {
                        guard let data = try handle.read(upToCount: buffer.count) else { return 0 }
                        return data.copyBytes(to: buffer)
                    } catch {
                        throw AlbumKitError(.fileSystem, "\(name): cannot read: \(error.localizedDescription)")
                    }
                }, input: name, label: name)
            }
            if let item = try list?.next() { return item }
            guard !ended else { return nil }
            list = nil
            ended = true
            return .progress(bytesRead: size, totalBytes: size)
        }

        private func open() throws -> (FileHandle, size: Int64) {
            let name = input.path
            let size = (try? FileManager.default.attributesOfItem(atPath: name)[.size] as? Int64) ?? nil
            if let size, size > limits.listBytes {
                throw AlbumKitError(.limitExceeded, "\(name): the album list is \(size) bytes; the limit is \(limits.listBytes) (limits.listBytes)")
            }
            do {
                return (try FileHandle(forReadingFrom: input), size ?? 0)
            } catch {
                throw AlbumKitError(.fileSystem, "\(name): cannot read: \(error.localizedDescription)")
            }
        }
    }
}

/// The albums of a list file as source items, decoded one at a time as they are asked for
/// (``AlbumRecords``), each labelled `<label> #<n> '<title>'`.
public struct AlbumListItems {
    private var records: AlbumRecords
    private let format: String
    private let input: String
    private let label: String
    private var number = 0
    /// The album read with a warning about its dropped keys, handed over after the warning.
    private var held: SourceItem?

    fileprivate init(records: AlbumRecords, format: String, input: String, label: String) {
        self.records = records
        self.format = format
        self.input = input
        self.label = label
    }

    /// How many albums were handed over so far: all of them once ``next()`` gave nil.
    public var handedOver: Int { number }

    /// The next album, or nil after the last; one that does not decode is an error naming the
    /// input and its place in the list. An album whose keys were dropped (SPEC 1: a value that
    /// is not a text, number or boolean, or a key that is not a field name) comes after one
    /// warning naming them.
    public mutating func next() throws(AlbumKitError) -> SourceItem? {
        if let held {
            self.held = nil
            return held
        }
        let record: AlbumRecord?
        do {
            record = try records.next()
        } catch let error as AlbumKitError {
            // The reader's own (a file, an archive entry), not the list's.
            throw error
        } catch {
            throw Self.unreadable(error, format: format, input: input)
        }
        guard let record else { return nil }
        number += 1
        let album = SourceItem.album(record, label: AlbumLabel(list: label, number: number, title: record.title))
        guard !record.droppedKeys.isEmpty else { return album }
        held = album
        return .warning("\(label) #\(number) '\(record.title)': dropped \(record.droppedKeys.joined(separator: ", "))")
    }

    /// The error for a list, or an element of it, that does not decode.
    fileprivate static func unreadable(_ error: any Error, format: String, input: String) -> AlbumKitError {
        AlbumKitError.unreadable(input, "not a \(format) album list (\(error.decodingSummary))")
    }
}
