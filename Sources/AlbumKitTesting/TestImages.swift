import AlbumKit
import Foundation
import Synchronization

/// Real images of a given size, written by ffmpeg's encoders (PNG, JPEG, GIF, WebP), for
/// tests of what reads image headers and of services that serve covers. Made once per
/// process for each size and kind; waiting for ffmpeg suspends rather than blocks, so the
/// servers a test runs keep answering meanwhile.
public enum TestImages {
    private static let made = Mutex<[String: Data]>([:])

    /// A `width`×`height` image (even sizes: ffmpeg's colour source makes no odd ones) of a
    /// flat colour encoded as `kind` (`png`, `jpg`, `gif`, `webp`), with ffmpeg's output
    /// `options`; `source` replaces the colour source (a see-through one, say).
    public static func make(_ width: Int, _ height: Int, _ kind: String, options: [String] = [], source: String? = nil) async throws -> Data {
        let input = source ?? "color=c=0x336699:s=\(width)x\(height)"
        let key = "\(input) \(kind) \(options)"
        if let data = made.withLock({ $0[key] }) { return data }
        let folder = try TemporaryFolder("images")
        defer { folder.remove() }
        let file = folder.path("image.\(kind)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", input, "-frames:v", "1"] + options + [file.path]
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        guard status == 0 else { throw AlbumKitError(.unreadableInput, "ffmpeg could not write a \(width)×\(height) \(kind) (status \(status))") }
        let data = try Data(contentsOf: file)
        made.withLock { $0[key] = data }
        return data
    }
}
