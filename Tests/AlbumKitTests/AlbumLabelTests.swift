import AlbumKit
import Testing

/// How messages name an album an input gave.
@Suite struct AlbumLabelTests {
    /// A list's label reads `<list> #<n> '<title>'`, the title cut at 80 characters, and is
    /// the same label as that text.
    @Test func aListsLabelNamesTheListTheNumberAndTheTitle() {
        let label = AlbumLabel(list: "in.tar entry albums.json", number: 3, title: "Low")
        #expect(label.description == "in.tar entry albums.json #3 'Low'")
        #expect(label == AlbumLabel("in.tar entry albums.json #3 'Low'"))
        #expect(Set([label, "in.tar entry albums.json #3 'Low'"]).count == 1)
        let long = String(repeating: "é", count: 90)
        #expect(AlbumLabel(list: "l", number: 1, title: long).description == "l #1 '\(String(repeating: "é", count: 80))'")
    }

    /// Text and interpolations are labels as they are.
    @Test func textIsALabel() {
        let line = 7
        let label: AlbumLabel = "lib.xml line \(line)"
        #expect(label.description == "lib.xml line 7")
        #expect(ImportItem(record: AlbumRecord(title: "T", artist: "A"), label: "x #1", input: "x").label == "x #1")
    }
}
