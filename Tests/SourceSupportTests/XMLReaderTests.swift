import AlbumKit
import AlbumKitTesting
import Foundation
import SourceSupport
import Testing

/// The streaming XML reader: what plists and Kodi files hold, and what hostile files try.
@Suite struct XMLReaderTests {
    /// Every token, with the text of elements whose name is in `leaves`.
    private func tokens(_ xml: String, leaves: Set<String> = ["string", "key", "title"]) throws -> [String] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("in.xml")
        try Data(xml.utf8).write(to: file)
        var reader = try XMLReader(file, maxTextBytes: 4096)
        var seen: [String] = []
        while let token = try reader.next() {
            switch token {
            case .start(let name) where leaves.contains(name): seen.append("\(name)=\(try reader.elementText())")
            case .start(let name): seen.append("<\(name)>")
            case .end(let name): seen.append("</\(name)>")
            case .text: seen.append("text")
            }
        }
        return seen
    }

    private func failure(_ xml: String) throws -> String {
        do {
            _ = try tokens(xml)
        } catch let error as AlbumKitError {
            return error.description
        }
        Issue.record("no error for \(xml.prefix(60))")
        return ""
    }

    @Test func readsAPlistWithEntitiesCDATACommentsAndSelfClosedElements() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><!-- a comment -->
            <dict>
                <key>A &amp; B</key><string>&lt;x&gt; &quot;q&quot; &apos;a&apos; &#233;&#x263A;</string>
                <key>Empty</key><string/>
                <key>C</key><string><![CDATA[<raw> & ]]></string>
                <key>T</key><true/>
            </dict>
            </plist>
            """
        #expect(try tokens(xml) == [
            "<plist>", "<dict>", "key=A & B", "string=<x> \"q\" 'a' é☺", "key=Empty", "string=", "key=C", "string=<raw> & ",
            "key=T", "<true>", "</true>", "</dict>", "</plist>",
        ])
    }

    @Test func skipElementPassesWholeSubtrees() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("in.xml")
        try Data("<a><b><c>x</c><d/></b><e>kept</e></a>".utf8).write(to: file)
        var reader = try XMLReader(file)
        #expect(try reader.next() == .start("a"))
        #expect(try reader.next() == .start("b"))
        try reader.skipElement()
        #expect(try reader.next() == .start("e"))
        #expect(try reader.elementText() == "kept")
        #expect(try reader.next() == .end("a"))
        #expect(try reader.next() == nil)
    }

    @Test func anEntityBombIsRefusedBeforeAnythingIsExpanded() throws {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
             <!ENTITY lol "lol">
             <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
             <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            ]>
            <lolz>&lol3;</lolz>
            """
        let message = try failure(bomb)
        #expect(message.contains("line 2") && message.contains("internal subset"), "\(message)")
    }

    @Test func anExternalEntityIsNeverRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let secret = folder.path("secret.txt")
        try Data("TOP-SECRET".utf8).write(to: secret)
        let message = try failure("""
            <!DOCTYPE plist SYSTEM "\(secret.path)">
            <plist><string>&xxe;</string></plist>
            """)
        #expect(message.contains("unknown entity '&xxe;'") && !message.contains("TOP-SECRET"), "\(message)")
    }

    @Test(arguments: [
        ("<a><b></a>", "</a> closes <b>"),
        ("<a>", "ends inside <a>"),
        ("<a></a><b/>", "after the root"),
        ("garbage \u{1}\u{2}", "not XML"),
        ("", "no XML element"),
        ("<a>&bogus;</a>", "unknown entity"),
        ("<a>&#0;</a>", "to no character"),
        ("<a x=1></a>", "without quotes"),
    ])
    func malformedDocumentsAreErrorsNamingTheLine(xml: String, expected: String) throws {
        let message = try failure(xml)
        #expect(message.contains("line 1") && message.contains(expected), "\(message)")
    }

    @Test func aLongTextIsRefusedAtTheLimit() throws {
        let message = try failure("<a><string>" + String(repeating: "x", count: 100_000) + "</string></a>")
        #expect(message.contains("longer than 4096"), "\(message)")
    }

    @Test func deepNestingIsBounded() throws {
        let message = try failure(String(repeating: "<a>", count: 10_000))
        #expect(message.contains("deeper than 256"), "\(message)")
    }

    @Test func textThatIsNotUTF8IsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("in.xml")
        try (Data("<a><title>".utf8) + Data([0xC3, 0x28]) + Data("</title></a>".utf8)).write(to: file)
        var reader = try XMLReader(file)
        _ = try reader.next()
        _ = try reader.next()
        #expect(throws: AlbumKitError.self) { try reader.elementText() }
    }
}
