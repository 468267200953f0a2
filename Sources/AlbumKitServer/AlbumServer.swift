import AlbumKit
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The request context every route gets.
typealias ServeContext = BasicRequestContext

/// `albumkit serve`: the library as a web page and a JSON API (SPEC 10) over the same core
/// operations the command uses, with the hub's events as server-sent events, a cover
/// service fetching what changes ask for, and a watcher that brings in other writers'
/// changes. Runs until SIGINT or SIGTERM, then stops taking requests, ends the event
/// streams, lets running requests finish and records what the cover service fetched.
public struct AlbumServer: Sendable {
    private let library: Library
    private let settings: ServeSettings
    private let logger: Logger

    /// A server for the opened `library` (with its configuration and adapters), as `settings` say.
    public init(library: Library, settings: ServeSettings, logger: Logger) {
        self.library = library
        self.settings = settings
        self.logger = logger
    }

    /// Serves until a signal stops it; `onRunning` gets the URL it answers at (with the port
    /// the system chose when the settings say 0). A listen address refused by
    /// ``ServeSettings/check()``, or one that cannot be bound, is an error before anything runs.
    public func run(onRunning: @escaping @Sendable (String) -> Void) async throws {
        try settings.check()
        let gateway = LibraryGateway(library: library)
        let covers = try await gateway.makeCoverService()
        let subscriptions = [covers.attach()]
        // The covers this server fetches show as being fetched on every other host's page too.
        let announcement = library.announcingCoverEventsToOtherHosts()
        let feed = EventFeed(hub: gateway.hub)
        let host = settings.host
        let app = Application(
            responder: HeadResponder(base: Self.router(gateway: gateway, feed: feed, settings: settings).buildResponder()),
            configuration: .init(address: .hostname(host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                onRunning("http://\(host.contains(":") ? "[\(host)]" : host):\(port)/")
            },
            logger: logger)
        let lifecycle = ServeLifecycle(
            watcher: LibraryWatcher(gateway: gateway, logger: logger),
            relay: CoverRequestRelay(libraryDirectory: gateway.folder, notices: gateway.notices, feed: feed, logger: logger), feed: feed)
        // Shut down in reverse: the event streams end first, then the server drains.
        let group = ServiceGroup(
            configuration: .init(services: [app, lifecycle], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let outcome: Result<Void, any Error>
        do {
            try await group.run()
            outcome = .success(())
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            outcome = .failure(AlbumKitError(.configuration, "serve: cannot listen on \(settings.listenDescription): the address is in use (is another serve running?)"))
        } catch let error as IOError {
            outcome = .failure(AlbumKitError(.configuration, "serve: cannot listen on \(settings.listenDescription): \(error)"))
        } catch {
            outcome = .failure(error)
        }
        // However serving ended: stop fetching and record what was fetched.
        for subscription in subscriptions { subscription.cancel() }
        do {
            try await covers.finish()
        } catch {
            await announcement?.end()
            throw error
        }
        await announcement?.end()
        try outcome.get()
    }

    /// Every route, behind the error mapping and the request guard.
    static func router(gateway: LibraryGateway, feed: EventFeed, settings: ServeSettings) -> Router<ServeContext> {
        let router = Router(context: ServeContext.self)
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: RequestGuard(settings: settings))
        AlbumRoutes(gateway: gateway).register(on: router)
        CoverRoutes(gateway: gateway).register(on: router)
        TransferRoutes(gateway: gateway).register(on: router)
        EventRoutes(feed: feed).register(on: router)
        FieldRoutes().register(on: router)
        PageRoutes().register(on: router)
        return router
    }
}
