import AlbumKit
import ArgumentParser

/// `albumkit list [QUERY…] [--sort FIELD[+|-]…] [--format TEMPLATE] [--json]` (alias `ls`).
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the albums in order, or those a query matches.",
        discussion: """
            Columns: current (*), position, title, artist, year, genre, cover state (stored, missing, failed, \
            none). Examples: 'list artist:bowie year:1970..1979', 'list ^cover:stored --sort year-', \
            "list --format '$year $artist - $title'". See 'albumkit help queries'.
            """,
        aliases: ["ls"])

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Query terms, all of which must hold (see 'albumkit help queries').", valueName: "query"))
    var terms: [String] = []

    @Option(help: ArgumentHelp("Order by a field, descending with a trailing '-' (repeatable: --sort year- --sort title).", valueName: "field[+|-]"))
    var sort: [String] = []

    @Option(help: ArgumentHelp("Print one line per album from a template: '$year $artist - $title'.", valueName: "template"))
    var format: String?

    @Flag(help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        if json && format != nil { throw ValidationError("give --json or --format, not both") }
    }

    func run() async throws {
        let query = try AlbumQuery(terms: terms)
        let order = try AlbumSort(parsing: sort)
        let template = try format.map { template throws(AlbumKitError) in try AlbumTemplate(parsing: template) }
        try await global.withLibrary { library, _ in
            // In library order, the table is laid out a run at a time while the store reads on.
            let streamsTable = !json && template == nil && order.keys.isEmpty
            var table = AlbumListTable()
            var listed: [ListedAlbum] = []
            // The table shows the core six: of the details, only what the output names is read.
            let details = json ? Set(AlbumField.all) : order.details.union(template?.details ?? [])
            for try await page in library.listedPages(matching: query, details: details) {
                if streamsTable { table.append(page) } else { listed += page }
            }
            listed = order.sorted(listed)
            let current = await library.memento.current
            if json {
                Console.out(renderedRuns: AlbumJSON.list(listed, current: current))
            } else if let template {
                // Fields may hold tabs, which a script reading the lines wants as they are.
                Console.out(rendered: listed.map { TerminalText.escaped(template.render($0), keepingTabs: true) })
            } else {
                if !streamsTable { table.append(listed) }
                guard !table.isEmpty else { return Console.out(query.isEmpty ? "(no albums)" : "(no albums match '\(query)')") }
                Console.out(renderedRuns: table.render(current: current, width: Console.width(.output), colour: Console.usesColour(.output)))
            }
        }
    }
}
