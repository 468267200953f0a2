import AlbumKit
import AlbumKitTesting
import Foundation
import LoopbackHTTPServer
import Lookups
import NIOHTTP1
import Testing

/// The Cover Art Archive, iTunes Search and Discogs clients against local servers answering
/// as each service documents.
@Suite struct CoverServicesTests {
    @Test func theArchiveFrontFollowsIts307ToTheImage() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let services = try local.services()
        let release = try await services.coverArtArchive.front(of: .release, Answers.release)
        let group = try await services.coverArtArchive.front(of: .releaseGroup, Answers.releaseGroup)
        let none = try await services.coverArtArchive.front(of: .release, "00000000-0000-0000-0000-000000000000")
        await local.stop()
        let image = try await TestImages.make(1200, 1200, "jpg")
        #expect(release == image && group == image)
        #expect(none == nil, "404: the archive has no front")
        #expect(local.server.requests(to: "/caa/release/\(Answers.release)/front-1200").count == 1)
        #expect(local.server.requests.filter { $0.path.hasPrefix("/archive/") }.count == 2)
        #expect(Set(local.server.requests.compactMap { $0.headers["user-agent"] }) == [LocalServices.userAgent])
        #expect(services.tally.byService == ["coverartarchive": 5])
    }

    @Test func theArchiveListingNamesTheFrontAndItsThumbnails() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let listing = try #require(try await local.services().coverArtArchive.listing(of: .release, Answers.release))
        await local.stop()
        #expect(listing.images.count == 2)
        #expect(listing.images.map(\.id) == ["4664948127", "4664946720"], "ids written as numbers or as text")
        let front = try #require(listing.front)
        #expect(front.types == ["Front"] && front.approved == true)
        #expect(front.thumbnails?["1200"] == local.server.url("/caa/release/\(Answers.release)/4664946720-1200.jpg"))
    }

    @Test func anArchiveImageThatIsAZipIsRefused() async throws {
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 60)
        let local = try await LocalServices.start { _ in .init(.ok, ["Content-Type": "image/jpeg"], zip) }
        let services = try local.services()
        let error = await #expect(throws: AlbumKitError.self) { try await services.coverArtArchive.front(of: .release, Answers.release) }
        await local.stop()
        #expect(error?.description.hasSuffix("not a JPEG, PNG, GIF or WebP image (64 bytes starting 504b030400000000)") == true, "\(String(describing: error))")
    }

    @Test func iTunesFindsTheAlbumByArtistAndTitleAndAsksForItsArtworkAt600() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let services = try local.services()
        let album = try #require(try await services.iTunes.bestAlbum(for: LookupQuery(artist: "pink floyd", title: "The Dark Side Of The Moon")))
        let artwork = try await services.iTunes.artwork(of: album)
        let missing = try await services.iTunes.bestAlbum(for: LookupQuery(artist: "Pink Floyd", title: "Animals"))
        await local.stop()
        #expect(album.collectionId == 1065975633, "the exact title, not the live album listed first")
        #expect(album.artworkURL(pixels: 600)?.hasSuffix("/dj.mggvbaou.jpg/600x600bb.jpg") == true)
        #expect(artwork == (try await TestImages.make(600, 600, "jpg")))
        #expect(missing == nil)
        let search = try #require(local.server.requests(to: "/itunes/search").first)
        #expect(search.query == ["term": "pink floyd The Dark Side Of The Moon", "media": "music", "entity": "album", "country": "us", "limit": "25"])
    }

    @Test func aStoresSuffixStillMatchesButALongerWordDoesNot() async throws {
        let local = try await LocalServices.start { _ in
            .json("""
                {"resultCount": 3, "results": [
                {"wrapperType": "collection", "collectionId": 1, "artistName": "Nirvana", "collectionName": "Nevermindful", "artworkUrl100": "x/100x100bb.jpg"},
                {"wrapperType": "collection", "collectionId": 2, "artistName": "Nirvana (UK)", "collectionName": "Nevermind"},
                {"wrapperType": "collection", "collectionId": 3, "artistName": "Nirvana", "collectionName": "Nevermind (Remastered)"}]}
                """)
        }
        let album = try await local.services().iTunes.bestAlbum(for: LookupQuery(artist: "Nirvana", title: "Nevermind"))
        await local.stop()
        #expect(album?.collectionId == 3)
        #expect(album?.artworkURL(pixels: 600) == nil, "no artwork URL, no artwork")
    }

    @Test func discogsSendsTheTokenAndGivesTheReleaseAndItsPrimaryImage() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let services = try local.services()
        let discogs = try #require(services.discogs)
        let release = try #require(try await discogs.release("249504"))
        let image = try await discogs.primaryImage(of: release)
        let unknown = try await discogs.release("1")
        await local.stop()
        #expect(release.title == "Never Gonna Give You Up" && release.artists?.first?.name == "Rick Astley")
        #expect(release.genres == ["Electronic", "Pop"] && release.styles == ["Synth-pop"])
        #expect(release.labels?.first?.name == "RCA" && release.labels?.first?.catno == "PB 41447")
        #expect(release.formats?.first?.name == "Vinyl" && release.formats?.first?.quantity == 1 && release.formats?.first?.descriptions == ["7\"", "Single", "45 RPM"])
        #expect(release.tracklist?.map(\.position) == ["A", "B"] && release.tracklist?.first?.duration == "3:32")
        #expect(release.country == "UK" && release.released == "1987" && release.year == 1987)
        #expect(release.identifiers?.first?.value == "5012394144777")
        #expect(release.primaryImage?.uri?.contains("R-249504-1334592228") == true, "the primary image, not the first")
        #expect(image == (try await TestImages.make(600, 600, "jpg")))
        #expect(unknown == nil)
        let api = local.server.requests.filter { $0.path.hasPrefix("/discogs/") }
        #expect(api.allSatisfy { $0.headers["authorization"] == "Discogs token=\(LocalServices.token)" })
        #expect(local.server.requests.filter { $0.path.hasPrefix("/discogs-img/") }.allSatisfy { $0.headers["authorization"] == nil }, "images get no token")
    }

    @Test func discogsWithoutATokenIsSkippedAndAMalformedIdIsNeverSent() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        #expect(try local.services(token: nil).discogs == nil)
        let discogs = try #require(try local.services().discogs)
        let error = await #expect(throws: AlbumKitError.self) { try await discogs.release("249504/../../users") }
        await local.stop()
        #expect(error?.description == "discogs: '249504/../../users' is not a Discogs release number")
        #expect(local.server.requests.isEmpty)
    }

    @Test func theTokenIsNotSentOnToAnotherHost() async throws {
        let local = try await LocalServices.start { request in
            request.path == "/discogs/releases/249504"
                ? .init(.found, ["Location": "http://localhost:\(request.port)/elsewhere/releases/249504"])
                : .local(Answers.fixture("discogs-release.json"), request)
        }
        let release = try await local.services().discogs?.release("249504")
        await local.stop()
        #expect(release?.id == 249504)
        let elsewhere = try #require(local.server.requests(to: "/elsewhere/releases/249504").first)
        #expect(elsewhere.headers["authorization"] == nil)
        #expect(local.server.requests(to: "/discogs/releases/249504").first?.headers["authorization"] != nil)
    }
}
