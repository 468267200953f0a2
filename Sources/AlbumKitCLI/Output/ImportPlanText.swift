import AlbumKit
import Foundation

/// The forms of an import plan: a line per album, and the stable JSON of ``ImportPlan``.
enum ImportPlanText {
    /// `new        albums.json #1 'Low' by David Bowie (1977)`, a line per album, then the counts.
    static func render(_ plan: ImportPlan) -> String {
        let width = ImportPlan.Entry.Outcome.allCases.map(\.rawValue.count).max() ?? 0
        var lines = plan.entries.map { entry in
            var line = entry.outcome.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.label
            if entry.album.artist.isEmpty == false { line += " by \(entry.album.artist)" }
            if !entry.album.year.isEmpty { line += " (\(entry.album.year))" }
            if let stage = entry.stage, entry.outcome != .duplicate { line += ": stage '\(stage)'" }
            if let reason = entry.reason { line += ": \(reason)" }
            return line
        }
        let counts = ImportPlan.Entry.Outcome.allCases.map { "\(plan.count($0)) \($0.rawValue)" }
        lines.append("Would import: " + counts.joined(separator: ", ") + ".")
        return lines.joined(separator: "\n")
    }

    /// The plan as stable JSON (keys sorted).
    static func json(_ plan: ImportPlan) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(plan), as: UTF8.self)
    }
}
