import AlbumKit

/// How `serve` listens and who may use it: the keys `serve.listen` (`HOST:PORT`, default
/// `127.0.0.1:8080`), `serve.token` (none by default) and `serve.readsNeedToken` (default
/// false), each overridable by `ALBUMKIT_SERVE_LISTEN`, `ALBUMKIT_SERVE_TOKEN` and
/// `ALBUMKIT_SERVE_READS_NEED_TOKEN`, then by the `--listen` and `--token` flags.
public struct ServeSettings: Sendable, Hashable {
    /// The address to bind: a host name or IP address (IPv6 without brackets).
    public var host: String
    /// The port; 0 lets the system choose one (the server says which when it runs).
    public var port: Int
    /// The bearer token every change needs; nil lets loopback clients change without one.
    public var token: String?
    /// Whether reads need the token too (when there is one).
    public var readsNeedToken: Bool

    /// The default listen address.
    public static let defaultListen = "127.0.0.1:8080"

    /// Settings from `listen` (`HOST:PORT` or `[IPv6]:PORT`), a token and the reads rule;
    /// a malformed address is a configuration error naming where it came from.
    public init(listen: String = defaultListen, token: String? = nil, readsNeedToken: Bool = false, origin: String = "serve.listen") throws {
        (host, port) = try Self.parse(listen, origin: origin)
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.readsNeedToken = readsNeedToken
    }

    /// The keys of the `serve` section, declared like every plugin's (`registry.declare`), so
    /// the configuration loader checks them and `config show` lists them.
    public static let declarations: [SettingDeclaration] = [
        SettingDeclaration("listen", .text, default: .text(defaultListen), "the address serve listens on (HOST:PORT; port 0 picks one)"),
        SettingDeclaration("token", .text, "the bearer token changes need; required to listen beyond loopback"),
        SettingDeclaration("readsNeedToken", .flag, default: .text("false"), "whether reads need the token too"),
    ]

    /// The settings `configuration` gives (`serve.*`, file or `ALBUMKIT_SERVE_*`), then `listen`
    /// and `token` (the flags) over them.
    public static func resolve(listen: String?, token: String?, configuration: Configuration) throws -> ServeSettings {
        let section = configuration.settings(inSection: "serve")
        return try ServeSettings(
            listen: listen ?? section.string("listen") ?? defaultListen,
            token: token ?? section.string("token"),
            readsNeedToken: section.flag("readsNeedToken") ?? false,
            origin: listen != nil ? "--listen" : "serve.listen (from \(configuration.describeOrigin(of: "serve.listen")))")
    }

    /// Whether the address only this machine reaches is bound.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.split(separator: ".").first == "127" && host.split(separator: ".").count == 4
    }

    /// `HOST:PORT` as a person types it.
    public var listenDescription: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Refuses what would expose the library: listening beyond loopback without a token.
    public func check() throws {
        guard isLoopback || token != nil else {
            throw AlbumKitError(.configuration, "serve: listening on \(listenDescription), which other machines can reach, needs a token: pass --token or set serve.token (ALBUMKIT_SERVE_TOKEN)")
        }
    }

    private static func parse(_ text: String, origin: String) throws -> (String, Int) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") {
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        } else {
            throw AlbumKitError(.configuration, "\(origin): '\(text)' is not HOST:PORT (for example 127.0.0.1:8080 or [::1]:8080)")
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:".contains($0) }),
            let number = Int(port), (0...65535).contains(number)
        else {
            throw AlbumKitError(.configuration, "\(origin): '\(text)' is not HOST:PORT with a port from 0 to 65535")
        }
        return (String(host), number)
    }
}
