import AlbumKitTesting
import Foundation
import LoopbackHTTPServer
import NIOHTTP1

/// What the four local services answer when nothing goes wrong, as each documents it.
enum StandardAnswers {
    /// The answer to `request`, by its path.
    static func answer(_ request: LoopbackHTTPServer.Request) async -> LoopbackHTTPServer.Answer {
        let path = request.path
        switch path {
        // MusicBrainz
        case "/ws/2/release/\(Answers.release)":
            return .json(Answers.real("musicbrainz/release.json"))
        case "/ws/2/release-group/\(Answers.releaseGroup)":
            return .json(Answers.real("musicbrainz/release-group.json"))
        case "/ws/2/release":
            // The search finds the release of the fixtures, and nothing for any other album.
            guard request.query["query"]?.hasPrefix(#"release:"The Dark Side of the Moon" AND artist:"Pink Floyd""#) == true else {
                return .json(#"{"created": "2024-05-03T10:15:02.417Z", "count": 0, "offset": 0, "releases": []}"#)
            }
            return .json(Answers.fixture("musicbrainz-search.json"))
        case _ where path.hasPrefix("/ws/2/"):
            return .json(Answers.musicBrainzNotFound, .notFound)
        // Cover Art Archive: the front answers 307 to where the file lies, as on archive.org.
        case "/caa/release/\(Answers.release)/front-1200", "/caa/release-group/\(Answers.releaseGroup)/front-1200":
            return .init(.temporaryRedirect, ["Location": request.url("/archive/mbid-\(Answers.release)-4664946720_thumb1200.jpg")])
        case "/caa/release/\(Answers.release)":
            return .local(Answers.fixture("coverartarchive-listing.json"), request)
        case _ where path.hasPrefix("/archive/"):
            return .image(try! await TestImages.make(1200, 1200, "jpg"))
        case _ where path.hasPrefix("/caa/"):
            return .init(.notFound, ["Content-Type": "text/plain"], Array("Not Found".utf8))
        // iTunes Search
        case "/itunes/search":
            return .local(Answers.fixture("itunes-search.json"), request)
        case _ where path.hasPrefix("/mzstatic/") && path.hasSuffix("/600x600bb.jpg"):
            // The live album's artwork is only ever a thumbnail, as a store's can be.
            return .image(try! await TestImages.make(path.contains("886445635850") ? 100 : 600, path.contains("886445635850") ? 100 : 600, "jpg"))
        // Discogs: a token, or 401 as the API answers.
        case "/discogs/releases/249504":
            guard request.headers["authorization"] == "Discogs token=\(LocalServices.token)" else {
                return .json(#"{"message": "You must authenticate to access this resource."}"#, .unauthorized)
            }
            return .local(Answers.fixture("discogs-release.json"), request)
        case _ where path.hasPrefix("/discogs/releases/"):
            return .json(#"{"message": "Release not found."}"#, .notFound)
        case _ where path.hasPrefix("/discogs-img/"):
            return .image(try! await TestImages.make(600, 600, "jpg"))
        default:
            return .init(.notFound)
        }
    }
}
