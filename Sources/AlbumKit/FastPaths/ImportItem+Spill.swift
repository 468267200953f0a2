import Foundation

/// Items as an import's scratch files keep them, from the reading to the stages and from the
/// stages to the commit: the record, whether the input gave its id and whether it is checked
/// (one byte), the label (a list's by its number, its title when the record's is the same), the
/// input, the cover payload and the disposition. The input, a list's
/// name and the folder covers wait in are the same for most items, and go into slots.
extension ImportItem: Spillable {
    /// The slots of the texts most items repeat.
    private enum Slot {
        static let input = 0
        static let list = 1
        static let folder = 2
    }

    func spill(into encoder: inout SpillEncoder) {
        encoder.record(record)
        encoder.byte((hadID ? 1 : 0) | (isChecked ? 2 : 0))
        encoder.text(input, slot: Slot.input)
        if let (list, number, title) = labelled.numbered {
            encoder.byte(title == record.title ? 1 : 2)
            encoder.text(list, slot: Slot.list)
            encoder.integer(number)
            if title != record.title { encoder.text(title) }
        } else {
            encoder.byte(0)
            encoder.text(labelled.description)
        }
        spill(cover, into: &encoder)
        switch disposition {
        case .add: encoder.byte(0)
        case .replace(let id):
            encoder.byte(1)
            encoder.text(id.rawValue)
        case .copy: encoder.byte(2)
        }
    }

    init(unspilling decoder: inout SpillDecoder) throws {
        let record = try decoder.record()
        let flags = try decoder.byte()
        let input = try decoder.text(slot: Slot.input)
        let labelled: AlbumLabel
        switch try decoder.byte() {
        case 0:
            labelled = AlbumLabel(try decoder.text())
        case let form:
            let list = try decoder.text(slot: Slot.list)
            let number = try decoder.integer()
            labelled = AlbumLabel(list: list, number: number, title: form == 1 ? record.title : try decoder.text())
        }
        let cover = try Self.unspillCover(from: &decoder)
        let disposition: Disposition = switch try decoder.byte() {
        case 0: .add
        case 1: .replace(AlbumID(try decoder.text()))
        default: .copy
        }
        self.init(
            record: record, labelled: labelled, input: input, hadID: flags & 1 != 0, cover: cover, disposition: disposition,
            isChecked: flags & 2 != 0)
    }

    /// A payload: 0 for none, else where its bytes wait (1 nowhere, 2 a file, 3 a folder), its
    /// key and the place.
    private func spill(_ payload: CoverPayload?, into encoder: inout SpillEncoder) {
        guard let payload else { return encoder.byte(0) }
        let (file, folder) = payload.waiting
        encoder.byte(folder != nil ? 3 : file != nil ? 2 : 1)
        if let words = payload.key.digestWords {
            encoder.byte(1)
            let (first, second, third, fourth) = words.words
            for word in [first, second, third, fourth] { encoder.word(word) }
        } else {
            encoder.byte(2)
            encoder.text(payload.key.sha256)
        }
        encoder.text(payload.key.fileExtension)
        if let folder {
            encoder.text(folder.absoluteString, slot: Slot.folder)
        } else if let file {
            encoder.text(file.absoluteString)
        }
    }

    private static func unspillCover(from decoder: inout SpillDecoder) throws -> CoverPayload? {
        let place = try decoder.byte()
        guard place != 0 else { return nil }
        let key = if try decoder.byte() == 1 {
            CoverKey(SHA256Words(words: (try decoder.word(), try decoder.word(), try decoder.word(), try decoder.word())), fileExtension: try decoder.text())
        } else {
            CoverKey(sha256: try decoder.text(), fileExtension: try decoder.text())
        }
        switch place {
        case 3: return CoverPayload(key: key, inFolder: URL(string: try decoder.text(slot: Slot.folder)))
        case 2: return CoverPayload(key: key, file: URL(string: try decoder.text()))
        default: return CoverPayload(key: key, file: nil)
        }
    }
}
