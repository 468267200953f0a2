import AlbumKit
import ArgumentParser

/// `albumkit update ALBUMS… [--title …] [--artist …] [--genre …] [--year …] [--cover …]
/// [--set NAME=VALUE…] [--unset NAME…] [--yes]`: one undoable step, however many albums it changes.
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Change the fields of one album or many (one undoable step).",
        discussion: """
            Albums are positions, ids or unique id prefixes, or else a query ('update artist:bowie --set \
            genre=Rock'); a query that picks more than one album shows the changes and asks first (--yes \
            answers for you). --cover '' removes the cover.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: AlbumWords.helpForSeveral) var albums: [String] = []
    @Option(help: "A new title.") var title: String?
    @Option(help: "A new artist.") var artist: String?
    @Option(help: "A new genre.") var genre: String?
    @Option(parsing: .unconditional, help: "A new year.") var year: String?
    @Option(help: ArgumentHelp("A new cover reference ('' for none).", valueName: "url")) var cover: String?
    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: FieldAssignment.setHelp)
    var assignments: [String] = []
    @Option(name: .customLong("unset"), help: FieldAssignment.unsetHelp) var removals: [String] = []
    @Flag(help: "Change every album a query picks without asking.") var yes = false

    func validate() throws {
        guard !albums.isEmpty else { throw ValidationError("name the albums to change (positions, ids or a query)") }
        _ = try patch()
    }

    /// The fields to change, from the options and `--set`.
    private func patch() throws -> AlbumPatch {
        var patch = AlbumPatch(title: title, artist: artist, genre: genre, year: year, coverUrl: cover)
        try FieldAssignment.apply(sets: assignments, unsets: removals, to: &patch)
        guard !patch.isEmpty else {
            throw ValidationError("name at least one field to change (--set name=value, --unset name, or --title, --artist, --genre, --year, --cover)")
        }
        return patch
    }

    func run() async throws {
        let patch = try patch()
        try await global.withLibrary { library, context in
            let selection = try await library.choose(albums)
            var planned: [(Album, Album)] = []
            for listed in selection.albums {
                let after = try patch.applied(to: listed.album)
                if after != listed.album { planned.append((listed.album, after)) }
            }
            guard !planned.isEmpty else {
                return Console.out("Nothing to change: \(selection.albums.count == 1 ? "the album already has" : "the albums already have") these values.")
            }
            if selection.byQuery && planned.count > 1 {
                Console.out(
                    (["This changes \(planned.count) albums:"] + planned.map { "  " + ChangeDescription.update($0.0, $0.1) })
                        .joined(separator: "\n"))
                try Confirmation.require(
                    yes: yes, question: "Change these \(planned.count) albums?",
                    refusal: "the query picks \(planned.count) albums; add --yes to change them all")
            }
            let ids = planned.map(\.0.id)
            guard let cover = patch.coverUrl, !cover.isEmpty, !CoverReference.isInFolder(cover) else {
                return report(try await library.update(ids, patch), byQuery: selection.byQuery)
            }
            let summary = try await library.fetchingCovers {
                report(try await library.update(ids, patch), byQuery: selection.byQuery)
            }.covers
            await context.warn(about: summary, in: library)
        }
    }

    private func report(_ changes: [(before: Album, after: Album)], byQuery: Bool) {
        if byQuery && changes.count > 1 {
            Console.out("Updated \(changes.count) albums in one step ('albumkit undo' takes it back).")
        } else {
            for change in changes { Console.out(ChangeDescription.sentence(ChangeDescription.update(change.before, change.after))) }
        }
    }
}
