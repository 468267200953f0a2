import AlbumKit
import Foundation

/// A cover fetcher that draws, rather than downloads: for
/// `https://placeholder.albumkit.example/<RRGGBB>` it returns a one-pixel GIF of that colour,
/// and declines every other reference.
struct PlaceholderCoverFetcher: CoverFetcher {
    var name: String { "placeholder" }
    static let prefix = "https://placeholder.albumkit.example/"

    func fetch(_ request: CoverFetchRequest) async throws -> Data? {
        guard request.reference.hasPrefix(Self.prefix) else { return nil }
        let hex = request.reference.dropFirst(Self.prefix.count)
        guard hex.count == 6, let rgb = UInt32(hex, radix: 16) else {
            throw AlbumKitError(.unsupported, "\(request.reference): a placeholder is named by six hex digits (RRGGBB)")
        }
        let colour = [UInt8(rgb >> 16 & 0xFF), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF)]
        // GIF89a, 1×1, a two-colour table (the colour, then black), one pixel of colour 0.
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + colour + [0, 0, 0]
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        return Data(gif)
    }
}

extension CoverFetcherFactory {
    /// `placeholder`.
    static var placeholder: CoverFetcherFactory {
        CoverFetcherFactory(name: "placeholder", summary: "one-pixel GIFs for https://placeholder.albumkit.example/RRGGBB", version: "1.0.0") { _ in
            PlaceholderCoverFetcher()
        }
    }
}
