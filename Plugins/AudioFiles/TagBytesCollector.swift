import AlbumKit
import Foundation

/// The parts of one audio file that hold its tags, and the format they are in.
struct TagBytes {
    let format: AudioFormat
    /// What the tag reader is given: the parts below, in file order, as one buffer.
    let bytes: Data
    /// The file's last bytes, where its last MPEG frame or Ogg page is (MP3 and Ogg Vorbis,
    /// whose length TagLib takes from there); empty for the others.
    var tail = Data()
    /// The file's length in bytes (for MP3 and Ogg Vorbis; else the length of `bytes`).
    var fileLength: Int64

    init(format: AudioFormat, bytes: Data, tail: Data = Data(), fileLength: Int64? = nil) {
        self.format = format
        self.bytes = bytes
        self.tail = tail
        self.fileLength = fileLength ?? Int64(bytes.count)
    }

    /// How many last bytes of an MP3 or Ogg Vorbis file are read: the largest Ogg page (27
    /// header bytes, 255 segments of up to 255), which also holds an MP3's last frames and ID3v1.
    static let tailLength = 27 + 255 + 255 * 255
}

/// Reads only the parts of an audio file that hold its tags, within a byte limit, so that
/// a track costs a few kilobytes of memory whatever its length, and a hostile tag is
/// refused before it is read.
///
/// What is read, per format (the rest of the file is skipped: seeked over on disk, read
/// past in an archive stream, never kept):
/// - **MP3**: the ID3v2 tag at the start (its header gives its size) and 4 KiB after it,
///   where the first MPEG frames are (the tag reader checks there is audio, and finds the
///   Xing/Info header that gives the length); and the file's last 64 KiB, where ID3v1 and the
///   last frame are (the length of a file without a Xing header).
/// - **FLAC**: `fLaC` and every metadata block up to the one marked last (STREAMINFO,
///   VORBIS_COMMENT, PICTURE, …), after an ID3v2 tag if one comes first.
/// - **Ogg Vorbis**: the pages before the first audio page (granule position set): they
///   carry the identification, comment (with METADATA_BLOCK_PICTURE) and setup packets; and
///   the file's last 64 KiB, where the last page's granule position gives the length.
/// - **M4A**: the top-level `ftyp` and `moov` atoms, wherever `moov` is — at the start
///   (faststart) or after `mdat`, which is skipped.
///
/// Together these may not pass `limit` bytes; a file whose tag parts are larger is refused
/// by name, as is one that ends inside them.
struct TagBytesCollector {
    /// The most tag bytes one file may have.
    let limit: Int
    /// How messages name the file ("in.tar entry A/01.mp3").
    let subject: String

    /// The limit for `limits`: room for a front and a back picture at `limits.coverBytes`
    /// each, plus 1 MiB of text (TagLib sizes buffers in 32 bits, so never more than that).
    static func limit(for limits: Limits) -> Int {
        Int(min(2 * limits.coverBytes + 1 << 20, Int64(UInt32.max)))
    }

    /// Reads the tag parts of the file `entry` is on.
    func collect(from entry: some AudioEntryBytes) throws(AlbumKitError) -> TagBytes {
        var window = Data()
        try entry.append(upTo: 10, to: &window)
        let tagEnd = try id3v2End(window)
        if tagEnd > 0 { try fill(&window, to: tagEnd, from: entry, part: "its ID3v2 tag") }
        try entry.append(upTo: tagEnd + AudioFormat.sniffLength - window.count, to: &window)
        guard let format = AudioFormat(sniffing: window.dropFirst(tagEnd)) ?? (tagEnd > 0 ? .mp3 : nil) else {
            throw AlbumKitError(.unreadableInput, "\(subject): not audio AlbumKit reads (MP3, FLAC, Ogg Vorbis or M4A): it starts with neither a tag nor a frame of one")
        }
        switch format {
        case .mp3:
            try entry.append(upTo: tagEnd + 4096 - window.count, to: &window)
            let tail = try entry.tail(TagBytes.tailLength)
            return TagBytes(format: .mp3, bytes: window, tail: tail, fileLength: entry.offset)
        case .flac:
            return TagBytes(format: .flac, bytes: try flacMetadata(window, from: tagEnd, entry: entry))
        case .oggVorbis where tagEnd == 0:
            let pages = try oggHeaderPages(window, entry: entry)
            let tail = try entry.tail(TagBytes.tailLength)
            return TagBytes(format: .oggVorbis, bytes: pages, tail: tail, fileLength: entry.offset)
        case .mp4 where tagEnd == 0:
            return TagBytes(format: .mp4, bytes: try mp4Atoms(window, entry: entry))
        case .oggVorbis, .mp4:
            throw AlbumKitError(.unreadableInput, "\(subject): an ID3v2 tag in front of \(format.displayName) audio, which no player reads")
        }
    }

    /// Where an ID3v2 tag at the start of `head` ends (header, body and footer), or 0.
    private func id3v2End(_ head: Data) throws(AlbumKitError) -> Int {
        let bytes = [UInt8](head.prefix(10))
        guard bytes.count == 10, bytes.starts(with: Array("ID3".utf8)) else { return 0 }
        guard bytes[6...].allSatisfy({ $0 < 0x80 }) else {
            throw AlbumKitError(.unreadableInput, "\(subject): its ID3v2 header gives a size that is not synchsafe")
        }
        let size = bytes[6...].reduce(0) { $0 << 7 | Int($1) }
        let footer = bytes[5] & 0x10 != 0 ? 10 : 0
        return try within(10 + size + footer, part: "its ID3v2 tag")
    }

    /// FLAC's `fLaC` marker and metadata blocks, from `start` (after any ID3v2 tag).
    private func flacMetadata(_ head: Data, from start: Int, entry: some AudioEntryBytes) throws(AlbumKitError) -> Data {
        var window = head
        var position = start + 4
        var block = 0
        while true {
            block += 1
            try fill(&window, to: position + 4, from: entry, part: "its FLAC metadata block \(block)")
            let header = [UInt8](window[position..<position + 4])
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            position = try within(position + 4 + length, part: "its FLAC metadata")
            try fill(&window, to: position, from: entry, part: "its FLAC metadata block \(block)")
            if header[0] & 0x80 != 0 { return window.prefix(position) }
        }
    }

    /// The Ogg pages before the first one that carries audio (and the start of that one).
    private func oggHeaderPages(_ head: Data, entry: some AudioEntryBytes) throws(AlbumKitError) -> Data {
        var window = head
        var position = 0
        var page = 0
        while true {
            page += 1
            try entry.append(upTo: position + 27 - window.count, to: &window)
            if window.count == position, page > 1 { return window }
            try fill(&window, to: position + 27, from: entry, part: "its Ogg page \(page)")
            let header = [UInt8](window[position..<position + 27])
            guard header.starts(with: Array("OggS".utf8)) else {
                throw AlbumKitError(.unreadableInput, "\(subject): damaged Ogg stream: page \(page) does not start with OggS")
            }
            let granule = header[6..<14].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            // What was read of the audio page stays: it lies before the tail, at its place.
            if page > 1, granule != 0, granule != UInt64.max { return window }
            let segments = Int(header[26])
            try fill(&window, to: position + 27 + segments, from: entry, part: "its Ogg page \(page)")
            let body = window[position + 27..<position + 27 + segments].reduce(0) { $0 + Int($1) }
            position = try within(position + 27 + segments + body, part: "its Ogg header pages")
            try fill(&window, to: position, from: entry, part: "its Ogg page \(page)")
        }
    }

    /// The top-level `ftyp` and `moov` atoms, read up to `moov`; every other atom is skipped.
    private func mp4Atoms(_ head: Data, entry: some AudioEntryBytes) throws(AlbumKitError) -> Data {
        var kept = Data()
        var window = head
        while true {
            try entry.append(upTo: 16 - window.count, to: &window)
            guard window.count >= 8 else {
                if window.isEmpty, !kept.isEmpty { break }
                throw AlbumKitError(.unreadableInput, "\(subject): damaged M4A: it ends inside an atom header")
            }
            let header = [UInt8](window.prefix(16))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            let short = header[0..<4].reduce(0) { $0 << 8 | Int64($1) }
            let size: Int64
            if short == 1 {
                guard header.count == 16 else { throw AlbumKitError(.unreadableInput, "\(subject): damaged M4A: it ends inside the header of atom \(type)") }
                size = header[8..<16].reduce(0) { $0 << 8 | Int64($1) }
            } else if short == 0 {
                // An atom that runs to the end of the file: the last one.
                guard type == "moov" else { break }
                try entry.append(upTo: limit + 1 - kept.count - window.count, to: &window)
                size = Int64(window.count)
            } else {
                size = short
            }
            guard size >= (short == 1 ? 16 : 8) else {
                throw AlbumKitError(.unreadableInput, "\(subject): damaged M4A: atom \(type) gives a size of \(size) bytes")
            }
            guard type == "moov" || type == "ftyp" else {
                let rest = size - Int64(window.count)
                if rest <= 0 {
                    window = Data(window.dropFirst(Int(size)))
                } else {
                    guard try entry.skip(rest) == rest else {
                        throw AlbumKitError(.unreadableInput, "\(subject): damaged M4A: it ends inside atom \(type)")
                    }
                    window = Data()
                }
                continue
            }
            // Capped before adding: a 64-bit size could overflow the sum.
            let length = try within(kept.count + Int(min(size, Int64(limit) + 1)), part: "its M4A atoms") - kept.count
            try fill(&window, to: length, from: entry, part: "its M4A atom \(type)")
            kept.append(window.prefix(length))
            window = Data(window.dropFirst(length))
            if type == "moov" { return kept }
        }
        throw AlbumKitError(.unreadableInput, "\(subject): damaged M4A: it has no moov atom, where its tags would be")
    }

    /// Fills `window` up to `end` bytes; the file ending before that is damage in `part`.
    private func fill(_ window: inout Data, to end: Int, from entry: some AudioEntryBytes, part: String) throws(AlbumKitError) {
        guard window.count < end else { return }
        try entry.append(upTo: end - window.count, to: &window)
        guard window.count == end else {
            throw AlbumKitError(.unreadableInput, "\(subject): truncated: the file ends inside \(part)")
        }
    }

    /// `end` when it is within the limit; otherwise the refusal naming `part`.
    private func within(_ end: Int, part: String) throws(AlbumKitError) -> Int {
        guard end <= limit else {
            throw AlbumKitError(.limitExceeded, "\(subject): \(part) takes more than \(limit) bytes, the most AlbumKit reads of a track's tags (twice limits.coverBytes, plus 1 MiB)")
        }
        return end
    }
}
