import AlbumKit
@testable import AlbumKitCLI
import Foundation
import Testing

/// The pieces terminal output is made of, checked directly: display width against Python's
/// `wcwidth`, escaping, byte units, and the progress line at every width.
@Suite struct TerminalTextTests {
    static let samples = [
        "plain ASCII", "Début", "Björk", "e\u{301}te\u{301}", "東京事変", "椎名林檎", "한국어", "ｆｕｌｌ",
        "🎸 Guitar 🎸", "👍🏽", "👨‍👩‍👧", "🇯🇵 Japan", "☕", "♥", "❤️", "Ĥ̲", "a\u{200B}b", "ᄀ", "〜",
    ]

    @Test func displayWidthAgreesWithWcwidth() throws {
        let reference = try ReferenceWidth.of(Self.samples)
        for (sample, expected) in zip(Self.samples, reference) {
            #expect(DisplayWidth.of(sample) == expected, "\(sample.debugDescription)")
        }
    }

    /// Kana, CJK ideographs and Hangul syllables are measured scalar by scalar too: for each,
    /// alone, among Latin letters and before a combining mark (a voicing mark, a final jamo),
    /// that must give what the rule per character gives.
    @Test func wideLettersAreMeasuredAsCharacterByCharacter() {
        for range: ClosedRange<UInt32> in [0x3030...0x30FF, 0x4DF0...0xA00F, 0xABF0...0xD7AF] {
            for value in range {
                guard let scalar = Unicode.Scalar(value).map(Character.init) else { continue }
                for text in ["\(scalar)", "a\(scalar)é", "\(scalar)\u{3099}", "\(scalar)\u{11A8}"] {
                    #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "U+\(String(value, radix: 16)) in \(text.debugDescription)")
                }
            }
        }
    }

    /// Latin text is measured scalar by scalar: for every scalar below U+0300, alone, between
    /// letters and after an accented one, that must give what the rule per character gives.
    @Test func latinTextIsMeasuredAsCharacterByCharacter() {
        for value in UInt32(0)..<0x300 {
            let scalar = Character(Unicode.Scalar(value)!)
            for text in ["\(scalar)", "a\(scalar)b", "é\(scalar)", "\r\n\(scalar)ÿ"] {
                #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "U+\(String(value, radix: 16)) in \(text.debugDescription)")
            }
        }
    }

    @Test func truncationCutsByColumnsNeverSplittingAWideCharacter() {
        #expect(DisplayWidth.truncated("東京事変", to: 5) == "東京…")
        #expect(DisplayWidth.truncated("東京事変", to: 4) == "東…")
        #expect(DisplayWidth.truncated("東京事変", to: 8) == "東京事変")
        #expect(DisplayWidth.truncated("Début album", to: 6) == "Début…")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(TerminalText.escaped("a\u{1B}]0;x\u{07}b") == #"a\e]0;x\u{7}b"#)
        #expect(TerminalText.escaped("tab\there\nnew\r\u{7F}\u{9B}") == #"tab\there\nnew\r\u{7F}\u{9B}"#)
        #expect(TerminalText.escaped("tab\tkept", keepingTabs: true) == "tab\tkept")
        #expect(TerminalText.escaped("evil\u{202E}txt.exe") == #"evil\u{202E}txt.exe"#)
        #expect(TerminalText.escaped("Björk 東京 🎸") == "Björk 東京 🎸")
    }

    @Test(arguments: [
        (0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (1449, "1.4 kB"), (20_480, "20 kB"), (141_337_000, "141 MB"),
        (9_960_000, "10 MB"), (2_300_000_000, "2.3 GB"),
    ] as [(Int64, String)])
    func bytesInHumanUnits(_ count: Int64, _ text: String) {
        #expect(ByteCount.format(count) == text)
    }

    @Test(arguments: [20, 40, 80, 120, 200])
    func theProgressLineFitsAnyWidth(_ columns: Int) throws {
        let reading = ProgressReading(
            verb: "importing", name: "/music/a very long archive name from the attic, 1999–2004.tar.gz", albums: 12_345,
            done: 41_000_000, total: 100_000_000, unit: .bytes)
        let line = reading.bar(seconds: 12, width: columns)
        #expect(try ReferenceWidth.of([line])[0] <= columns - 1, "\(line)")
        #expect(line.contains("41%"), "the percentage is the last reading to go: \(line)")
        if columns >= 80 { #expect(line.contains("[") && line.contains("ETA 18s"), "\(line)") }
    }

    @Test func readingsAppearOnlyOnceTheyMeanSomething() {
        let early = ProgressReading(verb: "importing", name: "a.tgz", albums: 3, done: 410, total: 1000, unit: .bytes)
        #expect(early.facts(seconds: 0.5) == ["41%", "3 albums", "410 B of 1.0 kB"], "no rate or ETA in the first moments")
        #expect(early.facts(seconds: 4) == ["41%", "3 albums", "410 B of 1.0 kB", "ETA 6s", "102 B/s"])
        let nearlyDone = ProgressReading(verb: "importing", name: "a.tgz", albums: 3, done: 999, total: 1000, unit: .bytes)
        #expect(nearlyDone.facts(seconds: 100).contains("ETA 1s"), "never ETA 0s before the end")
        let export = ProgressReading(verb: "exporting", name: "b.tgz", albums: 5, covers: 0, done: 0, total: nil, unit: .bytes)
        #expect(export.facts(seconds: 3) == ["5 albums"], "nothing written yet is no reading at all")
    }
}

/// A table line ends without spaces, but keeps every character of its text: a space after a
/// prepended mark (U+0600) is part of one character with it.
@Suite struct TextTableTests {
    @Test func trailingSpacesGoAndEveryCharacterStays() {
        var table = TextTable(columns: [TextTable.Column(header: "TITLE"), TextTable.Column(header: "NOTE")])
        table.append([[TextTable.Cell("Low"), TextTable.Cell("")], [TextTable.Cell("x\u{0600} "), TextTable.Cell("")]])
        for colour in [false, true] {
            let lines = table.render(width: 80, colour: colour)
            #expect(lines == ["TITLE  NOTE", "Low", "x\u{0600}"], "\(lines.map(\.debugDescription))")
        }
        #expect(table.render(width: nil, colour: false) == ["TITLE  NOTE", "Low", "x\u{0600}"])
        // A row of empty cells is an empty line, kept in its place.
        table.append([[TextTable.Cell(""), TextTable.Cell("")], [TextTable.Cell("End"), TextTable.Cell("")]])
        #expect(table.render(width: nil, colour: false) == ["TITLE  NOTE", "Low", "x\u{0600}", "", "End"])
        #expect(Array(table.renderedRuns(width: nil, colour: false).joined()) == [UInt8]("TITLE  NOTE\nLow\nx\u{0600}\n\nEnd\n".utf8))
    }

    /// A long table is laid out on every core: every line is still there, once, in order,
    /// padded to the widest cell of the whole table (not of its own run).
    @Test func aLongTableKeepsEveryLineInOrder() {
        var table = TextTable(columns: [TextTable.Column(header: "N", alignRight: true), TextTable.Column(header: "NOTE")])
        let count = 10_007
        table.append((0..<count).map { [TextTable.Cell(String($0)), TextTable.Cell($0 == 7 ? "longest note" : "x")] })
        let lines = table.render(width: nil, colour: false)
        #expect(lines.count == count + 1)
        #expect(lines.first == "    N  NOTE")
        let expected = (0..<count).map { String(repeating: " ", count: 5 - String($0).count) + "\($0)  " + ($0 == 7 ? "longest note" : "x") }
        #expect(Array(lines.dropFirst()) == expected)
    }

    /// `list`'s table keeps its runs of albums, not their cells, and makes each row's cells
    /// again as it lays the row out: its lines are those of a table that keeps every cell
    /// (the current album marked, wide and escaped text measured), piped and fitted to widths
    /// that cut and drop columns, coloured or not, over runs long enough to be measured and
    /// laid out on every core.
    @Test func aListingLaidOutFromItsAlbumsIsTheTableOfItsCells() throws {
        let titles = ["Low", "東京事変 ライブ", "e\u{301}te\u{301}", "🎸 Guitar", "tab\there", "Selected Ambient Works 85–92"]
        let listed = try (0..<10_500).map { index in
            ListedAlbum(
                position: index + 1,
                album: try Album(
                    id: AlbumID("album-\(index)"), title: titles[index % titles.count] + " \(index)", artist: index == 9_000 ? "Björk Guðmundsdóttir" : "Artist",
                    genre: index % 3 == 0 ? "" : "ambient", year: index % 5 == 0 ? "" : String(1960 + index % 60)),
                cover: [CoverState.stored, .missing, .failed, .none][index % 4])
        }
        for current in [AlbumID("album-5000"), nil] {
            // The table of the cells themselves, as `list` made it before.
            var kept = TextTable(columns: AlbumListTable.columns)
            kept.append(listed.map { row in
                [row.album.id == current ? "*" : "", .init(String(row.position)), .init(row.album.title), .init(row.album.artist),
                 .init(row.album.year), .init(row.album.genre), AlbumTable.coverCell(row.cover)]
            })
            var table = AlbumListTable()
            for start in stride(from: 0, to: listed.count, by: 4_096) { table.append(Array(listed[start..<min(listed.count, start + 4_096)])) }
            for width in [nil, 60, 12] {
                for colour in [false, true] {
                    let lines = String(decoding: table.render(current: current, width: width, colour: colour).joined(), as: UTF8.self).split(separator: "\n")
                    let expected = String(decoding: kept.renderedRuns(width: width, colour: colour).joined(), as: UTF8.self).split(separator: "\n")
                    // The first line that differs, not two tables of 10 000 lines.
                    let difference = zip(lines, expected).first { $0 != $1 }
                    #expect(lines.count == expected.count && difference == nil,
                        "current \(current?.rawValue ?? "none"), width \(width.map(String.init) ?? "none"), colour \(colour): \(String(describing: difference))")
                }
            }
        }
    }
}
