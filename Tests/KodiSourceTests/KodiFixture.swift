import Foundation

/// `album.nfo` files as Kodi writes them (Settings › Media › Library › Export, "separate
/// files per item"), with the tag names in Kodi's own mixed case.
enum KodiFixture {
    /// An `album.nfo` of Kodi 19 and later; nil fields are left out.
    static func nfo(
        title: String, artistDescription: String?, credits: [String] = [], genres: [String] = [], year: String? = nil,
        releaseDate: String? = nil, thumb: String? = nil, musicBrainzID: String? = nil
    ) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\" ?>", "<album>", "    <title>\(escaped(title))</title>"]
        if let musicBrainzID { lines.append("    <musicbrainzalbumid>\(musicBrainzID)</musicbrainzalbumid>") }
        lines.append("    <musicbrainzreleasegroupid></musicbrainzreleasegroupid>")
        if let artistDescription { lines.append("    <artistdesc>\(escaped(artistDescription))</artistdesc>") }
        lines += genres.map { "    <genre>\(escaped($0))</genre>" }
        lines.append("    <style>Indie</style>")
        lines.append("    <review>A review with &lt;markup&gt; &amp; &#8220;quotes&#8221;.</review>")
        if let year { lines.append("    <year>\(year)</year>") }
        if let releaseDate { lines.append("    <releasedate>\(releaseDate)</releasedate>") }
        if let thumb { lines.append("    <thumb spoof=\"\" cache=\"\" aspect=\"thumb\" preview=\"\(thumb)/preview\">\(thumb)</thumb>") }
        lines.append("    <path>/storage/music/</path>")
        for credit in credits {
            lines += ["    <albumArtistCredits>", "        <artist>\(escaped(credit))</artist>",
                      "        <musicBrainzArtistID>a74b1b7f-71a5-4011-9441-d0b5e4122711</musicBrainzArtistID>", "    </albumArtistCredits>"]
        }
        lines += ["    <releasetype>album</releasetype>", "</album>", ""]
        return lines.joined(separator: "\n")
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// Writes `text` to `relative` inside `root`, making the folders.
    static func write(_ text: String, to relative: String, in root: URL) throws {
        let file = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// A small tree: two albums in Kodi's layout, an `artist.nfo`, music files.
    static func library(in root: URL) throws {
        try write(nfo(title: "OK Computer", artistDescription: "Radiohead", credits: ["Radiohead"], genres: ["Alternative", "Rock"],
                      year: "1997", thumb: "https://assets.fanart.tv/okc.jpg", musicBrainzID: "0b6b4ba0-d36f-47bd-b4ea-6a5b91842d29"),
                  to: "Radiohead/OK Computer/album.nfo", in: root)
        try write("<artist><name>Radiohead</name></artist>", to: "Radiohead/artist.nfo", in: root)
        try write("not audio", to: "Radiohead/OK Computer/01 Airbag.mp3", in: root)
        let upper = nfo(title: "Collab & Co", artistDescription: nil, credits: ["Artist One", "Artist Two"], genres: ["Jazz"], releaseDate: "2001-02-03")
            .replacingOccurrences(of: "<title>", with: "<TITLE>").replacingOccurrences(of: "</title>", with: "</TITLE>")
        try write(upper, to: "Various/Collab/Album.NFO", in: root)
    }
}
