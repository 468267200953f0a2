import Foundation

extension LibraryDocument {
    /// Writes the document as an XML property list to `output`, the albums one at a time (an
    /// appended run read from its scratch file) — no whole-library tree or text in memory —
    /// and the rest (format, memento, version) as `PropertyListEncoder` writes it. The bytes are
    /// those the encoder writes for the whole document (a test holds the two to it): keys sorted,
    /// a tab a level.
    func writeXMLPropertyList(to output: inout XMLPropertyListOutput) throws {
        let around = try PropertyListFormat(binary: false).encode(LibraryDocument(LibrarySnapshot(state: state)))
        guard let list = around.firstRange(of: Data(Self.emptyAlbumList.utf8)) else {
            throw AlbumKitError(.libraryState, "the property list encoder wrote no album list where it was expected")
        }
        try output.raw(bytes: around[..<list.lowerBound])
        try output.raw("\t<key>albums</key>\n")
        var any = false
        var appended = appended?.reader()
        for album in albums {
            try output.album(album, opening: &any)
        }
        while let album = try appended?.next() { try output.album(album, opening: &any) }
        try output.raw(any ? "\t</array>\n" : "\t<array/>\n")
        try output.raw(bytes: around[list.upperBound...])
        try output.flush()
    }

    /// What the encoder writes for a document without albums, where the albums go.
    private static let emptyAlbumList = "\t<key>albums</key>\n\t<array/>\n"
}

/// XML property-list text handed to a sink through a fixed buffer (``BufferedSink``). Texts are
/// escaped as `PropertyListEncoder` escapes them: `&`, `<` and `>`.
struct XMLPropertyListOutput {
    private var sink: BufferedSink

    /// Output written to the file `descriptor`; `path` names it in errors.
    init(descriptor: Int32, path: String) {
        sink = BufferedSink(descriptor: descriptor, path: path)
    }

    /// Markup and other text that needs no escaping.
    mutating func raw(_ text: StaticString) throws { try sink.raw(text) }

    /// Bytes written as they are.
    mutating func raw(bytes: Data) throws { try sink.write { $0.append(contentsOf: bytes) } }

    /// An album as the list's next element — after `<array>` when it is the first (`opened`
    /// still false, which it sets) — as the encoder writes it: a dict of its fields, keys sorted.
    mutating func album(_ album: Album, opening opened: inout Bool) throws {
        if !opened { try raw("\t<array>\n") }
        opened = true
        guard album.details.isEmpty else { return try encoded(album) }
        try raw("\t\t<dict>\n")
        try field("artist", album.artist)
        if let cover = album.cover {
            try raw("\t\t\t<key>coverUrl</key>\n\t\t\t<string>")
            try sink.write { buffer in cover.withUTF8 { buffer.appendXMLText($0) } }
            try raw("</string>\n")
        }
        try field("genre", album.genre)
        try field("id", album.id.rawValue)
        try field("title", album.title)
        try field("year", album.year)
        try raw("\t\t</dict>\n")
    }

    /// An album with fields beyond the core six, as the encoder writes it: its dict cut from
    /// an encoded one-album document, where it stands at the same depth (such albums are few
    /// enough not to need a writer of their own, and the encoder's bytes are then the encoder's).
    private mutating func encoded(_ album: Album) throws {
        let document = try PropertyListFormat(binary: false).encode(LibraryDocument(LibrarySnapshot(albums: [album])))
        guard let open = document.firstRange(of: Data("\t<key>albums</key>\n\t<array>\n".utf8)),
            let close = document[open.upperBound...].firstRange(of: Data("\n\t</array>\n".utf8))
        else {
            throw AlbumKitError(.libraryState, "the property list encoder wrote no album list where it was expected")
        }
        try raw(bytes: document[open.upperBound...close.lowerBound])
    }

    /// Hands on what is buffered.
    mutating func flush() throws { try sink.flush() }

    /// `<key>` and `<string>` lines of an album's field.
    private mutating func field(_ key: StaticString, _ value: String) throws {
        try raw("\t\t\t<key>")
        try raw(key)
        try raw("</key>\n\t\t\t<string>")
        var value = value
        try sink.write { buffer in value.withUTF8 { buffer.appendXMLText($0) } }
        try raw("</string>\n")
    }
}

extension [UInt8] {
    /// Appends the UTF-8 text `utf8`, `&`, `<` and `>` escaped.
    fileprivate mutating func appendXMLText(_ utf8: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for (index, byte) in utf8.enumerated() {
            let entity: StaticString
            switch byte {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            default: continue
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            start = index + 1
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
}
