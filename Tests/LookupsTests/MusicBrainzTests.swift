import AlbumKit
import Foundation
import LoopbackHTTPServer
import Lookups
import Testing

/// The MusicBrainz client against a local server answering as the web service does.
@Suite struct MusicBrainzTests {
    @Test func aReleaseLookupAsksForItsIncludesAndReadsTheAnswer() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let release = try #require(try await local.services().musicBrainz.release(Answers.release.uppercased()))
        await local.stop()
        #expect(release.title == "The Dark Side of the Moon")
        #expect(release.artist == "Pink Floyd")
        #expect(release.date == "1973-03-24" && release.country == "GB" && release.barcode == "123")
        #expect(release.labelInfo?.first?.label?.name == "Harvest" && release.labelInfo?.first?.catalogNumber == "SHVL 804")
        #expect(release.media?.first?.format == "12\" Vinyl")
        let tracks = try #require(release.media?.first?.tracks)
        #expect(tracks.count == 10)
        #expect(tracks[0].number == "A1" && tracks[0].title == "Speak to Me" && tracks[0].length == 68346)
        #expect(tracks[9].title == "Eclipse")
        #expect(release.genres?.map(\.name) == ["genre1", "genre2"])
        #expect(release.releaseGroup?.id == Answers.releaseGroup && release.releaseGroup?.primaryType == "Album")
        let request = try #require(local.server.requests.first)
        #expect(request.path == "/ws/2/release/\(Answers.release)", "the MBID is sent in lower case")
        #expect(request.query["inc"] == "labels+recordings+release-groups+genres+artist-credits")
        #expect(request.query["fmt"] == "json")
        #expect(request.headers["user-agent"] == LocalServices.userAgent)
        #expect(request.headers["accept"] == "application/json")
    }

    @Test func aReleaseGroupLookupReadsTheGroup() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let group = try #require(try await local.services().musicBrainz.releaseGroup(Answers.releaseGroup))
        await local.stop()
        #expect(group.title == "The Dark Side of the Moon" && group.firstReleaseDate == "1973-03-24" && group.primaryType == "Album")
    }

    @Test func theSearchSendsWhatIsKnownAndCountsAMatchOnlyAtTheMinimumScore() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let query = LookupQuery(artist: "Pink Floyd", title: "The Dark Side of the Moon", year: "1973", label: "Harvest", catalogNumber: "SHVL 804", barcode: "123")
        let found = try await local.services().musicBrainz.searchReleases(query)
        let match = try await local.services(minScore: 100).musicBrainz.bestMatch(query)
        await local.stop()
        #expect(found.map(\.score) == [100, 72], "best first")
        #expect(match?.id == Answers.release && match?.releaseGroup?.id == Answers.releaseGroup)
        let sent = try #require(local.server.requests(to: "/ws/2/release").first?.query["query"])
        #expect(sent == #"release:"The Dark Side of the Moon" AND artist:"Pink Floyd" date:"1973" label:"Harvest" catno:"SHVL 804" barcode:"123""#)
    }

    @Test func aMatchUnderTheMinimumScoreIsNoMatch() async throws {
        let local = try await LocalServices.start { request in
            .json(Answers.fixture("musicbrainz-search.json").replacingOccurrences(of: #""score": 100"#, with: #""score": "89""#))
        }
        let match = try await local.services(minScore: 90).musicBrainz.bestMatch(LookupQuery(artist: "Pink Floyd", title: "The Dark Side of the Moon"))
        await local.stop()
        #expect(match == nil, "a score written as text is read, and 89 is under 90")
    }

    @Test func quotesAndBackslashesInTheSearchAreEscaped() {
        let text = MusicBrainzClient.searchText(for: LookupQuery(artist: #"AC\DC"#, title: #"Say "Hi" OR *"#))
        #expect(text == #"release:"Say \"Hi\" OR *" AND artist:"AC\\DC""#)
    }

    @Test func anUnknownReleaseIsNoneAndAMalformedIdIsNeverSent() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let services = try local.services()
        let unknown = try await services.musicBrainz.release("00000000-0000-0000-0000-000000000000")
        let error = await #expect(throws: AlbumKitError.self) { try await services.musicBrainz.release("../../admin") }
        await local.stop()
        #expect(unknown == nil)
        #expect(error?.description == "musicbrainz: '../../admin' is not a MusicBrainz identifier (MBID)")
        #expect(local.server.requests.count == 1)
    }
}
