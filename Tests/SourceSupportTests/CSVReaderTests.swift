import AlbumKit
import AlbumKitTesting
import Foundation
import SourceSupport
import Testing

/// The CSV reader on files Python's `csv` module writes, and on broken ones.
@Suite struct CSVReaderTests {
    private func records(_ bytes: Data, maxRecordBytes: Int = 1 << 20) throws -> [CSVReader.Record] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("in.csv")
        try bytes.write(to: file)
        var reader = try CSVReader(file, maxRecordBytes: maxRecordBytes)
        var all: [CSVReader.Record] = []
        while let record = try reader.next() { all.append(record) }
        return all
    }

    @Test func readsWhatPythonsCSVWritesWithBOMAndCRLF() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("py.csv")
        let script = """
            import csv, sys
            with open(sys.argv[1], 'w', newline='', encoding='utf-8-sig') as f:
                w = csv.writer(f)  # the default dialect ends lines with CRLF
                w.writerow(['a', 'b', 'c'])
                w.writerow(['comma, inside', 'quote " inside', 'new\\nline'])
                w.writerow(['', 'Ünïcødé ✓', ''])
            """
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", script, file.path]).status == 0)
        let data = try Data(contentsOf: file)
        #expect(data.starts(with: [0xEF, 0xBB, 0xBF]) && data.contains(0x0D))
        var reader = try CSVReader(file)
        var rows: [CSVReader.Record] = []
        while let record = try reader.next() { rows.append(record) }
        #expect(rows.map(\.fields) == [["a", "b", "c"], ["comma, inside", "quote \" inside", "new\nline"], ["", "Ünïcødé ✓", ""]])
        #expect(rows.map(\.line) == [1, 2, 4], "the third record starts after the quoted line break")
        #expect(rows.map(\.number) == [1, 2, 3])
    }

    @Test func lineEndsOfEveryKindAndBlankLinesAndNoFinalNewline() throws {
        let rows = try records(Data("a,b\n\nc,d\re,f\r\ng,\"h\"".utf8))
        #expect(rows.map(\.fields) == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]])
    }

    @Test(arguments: [
        ("a,\"never closed\n", "never closed"),
        ("a,\"x\"y\n", "after a closing quote"),
    ])
    func malformedQuotingIsAnErrorNamingTheLine(text: String, expected: String) throws {
        do {
            _ = try records(Data("h1,h2\n".utf8) + Data(text.utf8))
            Issue.record("no error")
        } catch let error as AlbumKitError {
            #expect(error.description.contains("line 2") && error.description.contains(expected), "\(error)")
        }
    }

    @Test func aRecordOverTheLimitIsRefusedWithoutReadingItWhole() throws {
        let long = Data("h\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 5_000_000) + Data("\n".utf8)
        do {
            _ = try records(long, maxRecordBytes: 64 * 1024)
            Issue.record("no error")
        } catch let error as AlbumKitError {
            #expect(error.kind == .limitExceeded)
            #expect(error.description.contains("line 2") && error.description.contains("65536"), "\(error)")
        }
    }

    @Test func textThatIsNotUTF8IsAnErrorNamingLineAndField() throws {
        do {
            _ = try records(Data("a,b\nok,".utf8) + Data([0xFF, 0xFE, 0x00]) + Data("\n".utf8))
            Issue.record("no error")
        } catch let error as AlbumKitError {
            #expect(error.description.contains("line 2, field 2") && error.description.contains("UTF-8"), "\(error)")
        }
    }
}
