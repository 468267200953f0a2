import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit stats [QUERY…] [--json]`: figures about the library or the albums a query matches.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count albums, artists, genres, years and covers, and the collection by label, format, decade and rating (of all albums, or a query's).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Query terms, all of which must hold (see 'albumkit help queries').", valueName: "query"))
    var terms: [String] = []

    @Flag(help: "Print the figures as JSON.")
    var json = false

    /// The `--json` shape: the album figures and the library's size on disk (null for a
    /// library in a database server).
    private struct Report: Encodable {
        let statistics: AlbumStatistics
        let library: String
        let libraryBytes: Int64?

        enum CodingKeys: String, CodingKey { case statistics, library, libraryBytes }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(statistics, forKey: .statistics)
            try container.encode(library, forKey: .library)
            try container.encode(libraryBytes, forKey: .libraryBytes)
        }
    }

    func run() async throws {
        let query = try AlbumQuery(terms: terms)
        try await global.withLibrary { library, context in
            let figures = try await library.statistics(matching: query)
            let location = library.location
            // A file backend's library lives in files; a database server's size is its own.
            let onDisk = location.hasPrefix("/") ? DiskUsage.bytes(folder: context.configuration.libraryDirectory, file: location) : nil
            guard !json else {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let report = Report(statistics: figures, library: location, libraryBytes: onDisk)
                return Console.out(rendered: [String(decoding: try encoder.encode(report), as: UTF8.self)])
            }
            let years = figures.firstYear.map { first in "\(first)–\(figures.lastYear ?? first)" } ?? "none"
            let covers = "covers:   \(figures.stored) stored (\(ByteCount.format(figures.storedCoverBytes))), \(figures.missing) missing, "
                + "\(figures.failed) failed, \(figures.noCover) none"
            let place = "library:  \(location)" + (onDisk.map { ", \(ByteCount.format($0)) on disk" } ?? " (in the database)")
            var lines: [String] = [
                "albums:   \(figures.albums)" + (query.isEmpty ? "" : " matching '\(query)'"),
                "artists:  \(figures.artists)",
                "genres:   \(figures.genres)",
                "years:    \(years) (\(figures.withoutYear) without a year)",
                covers,
                place,
            ]
            lines += Self.shares("by label", figures.byLabel, none: "no label")
            lines += Self.shares("by format", figures.byFormat, none: "no format")
            lines += Self.shares("by decade", figures.byDecade, none: "no year")
            lines += Self.shares("by rating", figures.byRating, none: "unrated")
            Console.out(lines.joined(separator: "\n"))
        }
    }

    /// A heading and a line a value (the first 10, then how many more), or nothing when no
    /// album has any value.
    private static func shares(_ heading: String, _ shares: [AlbumStatistics.Share], none: String) -> [String] {
        guard shares.contains(where: { !$0.value.isEmpty }) else { return [] }
        let shown = shares.prefix(10).map { "  \(String($0.albums).leftPadded(to: 6))  \($0.value.isEmpty ? "(\(none))" : $0.value)" }
        let more = shares.count > 10 ? ["  … and \(shares.count - 10) more"] : []
        return ["\(heading):"] + shown + more
    }
}

extension String {
    /// The text with spaces before it, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
