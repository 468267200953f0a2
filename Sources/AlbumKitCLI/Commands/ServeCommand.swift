import AlbumKit
import AlbumKitServer
import ArgumentParser
import Foundation

/// `albumkit serve [--listen HOST:PORT] [--token T]`: the library as a web page and a JSON
/// API until SIGINT or SIGTERM (SPEC 10).
struct ServeCommand: AsyncParsableCommand, FlatMemoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Show the library as a web page with a JSON API, live.",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise (serve.listen, ALBUMKIT_SERVE_LISTEN); \
            an address other machines reach needs a token (serve.token, ALBUMKIT_SERVE_TOKEN), which every \
            change must then carry as 'Authorization: Bearer TOKEN' (reads too when \
            ALBUMKIT_SERVE_READS_NEED_TOKEN=true). Port 0 picks a free port. The API is described at \
            /api/openapi.json. Ctrl-C (SIGINT) or SIGTERM stops it cleanly.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host:port")) var listen: String?
    @Option(help: ArgumentHelp("The token changes need (Authorization: Bearer …).", valueName: "token")) var token: String?

    func run() async throws {
        let configuration = try global.loadConfiguration()
        let settings = try ServeSettings.resolve(listen: listen, token: token, configuration: configuration)
        try settings.check()
        try await global.withLibrary { library, context in
            let server = AlbumServer(library: library, settings: settings, logger: context.logger)
            try await server.run { url in
                // Flushed at once: scripts and tests read the URL (and the chosen port) from here.
                FileHandle.standardOutput.write(Data("Serving \(library.location) at \(url) (Ctrl-C stops)\n".utf8))
            }
        }
        print("Stopped serving; the library is saved.")
    }
}
