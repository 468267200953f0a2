import AlbumKit
import Foundation
import HTTPCovers
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The fetcher connects only to the addresses it checked (issue 16: DNS rebinding), keeps the
/// name in the Host header, and gives up at once on a port where nothing listens.
@Suite struct PinnedAddressTests {
    /// A DNS server that answers `name` with `answers[i]` on its i-th lookup (the last answer
    /// from then on), and counts the lookups: how a rebinding attacker's server behaves.
    final class RebindingResolver: Sendable {
        let name: String
        let answers: [[String]]
        private let lookups = Mutex(0)

        init(name: String, answers: [[String]]) {
            self.name = name
            self.answers = answers
        }

        var lookupCount: Int { lookups.withLock { $0 } }

        var policy: AddressPolicy {
            AddressPolicy { host, port in
                guard host == self.name else { return try AddressPolicy.systemResolver(host, port) }
                let index = self.lookups.withLock { count in
                    defer { count += 1 }
                    return count
                }
                return self.answers[min(index, self.answers.count - 1)]
            }
        }
    }

    private func fetcher(_ policy: AddressPolicy = AddressPolicy(), timeout: Double = 15) -> HTTPCoverFetcher {
        var covers = Configuration(environment: [:]).covers
        covers.timeoutSeconds = timeout
        return HTTPCoverFetcher(covers: covers, policy: policy, userAgent: "albumkit/test")
    }

    private func fetch(_ url: String, with fetcher: HTTPCoverFetcher) async throws -> Data? {
        return try await fetcher.fetch(CoverFetchRequest(reference: url, maxBytes: 1_000_000))
    }

    @Test func aNameIsFetchedFromTheAddressCheckedThoughItsNextAnswerIsRefused() async throws {
        let server = try await TestCoverServer.start()
        let resolver = RebindingResolver(name: "covers.rebind.test", answers: [["127.0.0.1"], ["169.254.169.254"]])
        let bytes = try await fetch("http://covers.rebind.test:\(server.port)/good.png", with: fetcher(resolver.policy))
        await server.stop()
        #expect(bytes == Data(TestCoverServer.png))
        #expect(resolver.lookupCount == 1, "the name is resolved once, and that answer is the one used")
        #expect(server.hosts == ["covers.rebind.test:\(server.port)"], "the Host header keeps the name")
    }

    @Test func aNameWhoseFirstAnswerIsRefusedIsNeverRequested() async throws {
        let server = try await TestCoverServer.start()
        let resolver = RebindingResolver(name: "covers.rebind.test", answers: [["127.0.0.1", "169.254.169.254"], ["127.0.0.1"]])
        let url = "http://covers.rebind.test:\(server.port)/good.png"
        let error = await #expect(throws: AlbumKitError.self) { try await fetch(url, with: fetcher(resolver.policy)) }
        await server.stop()
        #expect(error?.kind == .unsupported)
        #expect(error?.description == "\(url): covers.rebind.test is the link-local or metadata address 169.254.169.254; refused")
        #expect(server.totalRequests == 0)
        #expect(resolver.lookupCount == 1)
    }

    /// Each hop of a redirect is resolved and pinned on its own.
    @Test func aRedirectToANameIsPinnedToo() async throws {
        let server = try await TestCoverServer.start()
        let resolver = RebindingResolver(name: "redirected.rebind.test", answers: [["127.0.0.1"], ["169.254.169.254"]])
        let url = server.url("/redirect-to/redirected.rebind.test")
        let bytes = try await fetch(url, with: fetcher(resolver.policy))
        await server.stop()
        #expect(bytes == Data(TestCoverServer.png))
        #expect(resolver.lookupCount == 1)
        #expect(server.hosts == ["127.0.0.1:\(server.port)", "redirected.rebind.test:\(server.port)"])
    }

    /// `localhost` through the system resolver: where it resolves to ::1 first, that address
    /// refuses (the server listens on 127.0.0.1 only) and the next checked one is used.
    @Test func theSystemResolverIsUsedByDefault() async throws {
        let server = try await TestCoverServer.start()
        let bytes = try await fetch("http://localhost:\(server.port)/good.png", with: fetcher())
        await server.stop()
        #expect(bytes == Data(TestCoverServer.png))
        #expect(server.hosts == ["localhost:\(server.port)"])
    }

    /// Nothing listens: the failure says so in a short sentence, not as a timeout, and
    /// without retrying (a retry would say "after 3 attempts").
    @Test func aClosedPortFailsAtOnceWithAShortMessage() async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress!.port!
        try await channel.close()
        let url = "http://127.0.0.1:\(port)/cover.png"
        let error = await #expect(throws: AlbumKitError.self) { try await fetch(url, with: fetcher(timeout: 30)) }
        #expect(error?.kind == .connection)
        #expect(error?.description == "\(url): connection refused by 127.0.0.1 port \(port)")
    }

    /// A refusing address is passed over at once for the next one checked: were a refusal
    /// retried until the connect timeout, the whole fetch's deadline (the same timeout, long
    /// enough for a loaded machine) would pass before the next address is tried.
    @Test func aRefusingAddressIsPassedOverForTheNextChecked() async throws {
        let server = try await TestCoverServer.start()
        let resolver = RebindingResolver(name: "two.rebind.test", answers: [["127.0.0.2", "127.0.0.1"]])
        let bytes = try await fetch("http://two.rebind.test:\(server.port)/good.png", with: fetcher(resolver.policy, timeout: 30))
        await server.stop()
        #expect(bytes == Data(TestCoverServer.png))
        #expect(server.hosts == ["two.rebind.test:\(server.port)"])
    }

    @Test func aNameThatDoesNotResolveSaysSo() async throws {
        let url = "http://no-such-host.invalid/cover.png"
        let error = await #expect(throws: AlbumKitError.self) { try await fetch(url, with: fetcher()) }
        #expect(error?.kind == .connection)
        #expect(error?.description.hasPrefix("\(url): cannot resolve no-such-host.invalid: ") == true, "\(String(describing: error))")
    }
}
