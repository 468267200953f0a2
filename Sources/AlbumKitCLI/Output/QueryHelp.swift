import AlbumKit

/// `albumkit help queries`: the query language, sort keys and templates in one page;
/// `albumkit help fields`: the album's fields, from the one table.
enum QueryHelp {
    static var fields: String {
        let rows = AlbumField.all.map { "  \($0.name.padding(toLength: 15, withPad: " ", startingAt: 0)) \($0.summary)" }
        return (["FIELDS of an album (SPEC 1): every query, sort key, template, --set and --unset names them.", ""] + rows + [
            "",
            "  ids.NAME        one identity: ids.musicbrainz, ids.discogs, ids.itunes",
            "  NAME            a field of your own or a source's (mood, discogs.folder), kept in fields;",
            "                  fields.NAME names one whose name is close to a field above",
            "",
            "Examples:",
            "  albumkit update 3 --set label=Warp --set rating=4.5 --set released=1994-03-07",
            "  albumkit update 3 --set tags='ambient, idm' --set discogs.folder=Electronic --unset notes",
            "  albumkit list label:warp rating:4.. has:barcode --sort released",
        ]).joined(separator: "\n")
    }

    static let text = """
        QUERIES choose albums for list, stats, show, update, remove, select and move.

          artist:bowie        the field holds the text, ignoring case and accents
          title:"low"         quotes keep spaces and colons together: 'title:"station to station"'
          genre:              the field is empty (albums without a genre)
          year:1977           the year; also ranges: year:1970..1979, year:1970.., year:..1979
          position:1..10      positions, with the same ranges
          cover:missing       the cover's state: stored, missing, failed or none
          label:warp          any field of 'albumkit help fields': label, format:vinyl, country:uk
          rating:4..          numbers: rating, year, position, tracks (by count: tracks:10..)
          released:1970..1979 dates compare as far as the bound goes: added:2024-01..
          discogs.folder:jazz a field of your own or a source's; ids.discogs:123
          has:barcode         the album has the field (^has:rating: unrated albums)
          low                 a bare word: found in the title, artist, genre or year
          ^live               ^ before any term negates it
          artist:bowie ^live  several terms: all must hold

        Fields: position, cover, and every field of 'albumkit help fields'. A word that holds a
        ':' is read as field:value; to look for it as text, quote it: '"Live: 1975"'.

        NAMING ONE ALBUM (show, select, move, update, remove): a position (3), an id, a unique
        id prefix of at least 6 characters (3f2a9c), or a query that matches exactly one album.
        When several match, the error lists them with positions and id prefixes. update and
        remove take several positions and ids, or one query; a query that picks more than one
        album shows them and asks first (--yes answers for you).

        SORTING: list --sort year- --sort title   (a field, '-' for descending, '+' or nothing
        for ascending; ties keep library order; text ignores case; empty values come first).

        TEMPLATES: list --format '$year $artist - $title'   ($field or ${field} for every field
        above, ${discogs.folder} for a dotted name; $$ is a dollar sign). Quote templates with single quotes so the shell leaves
        the dollars alone.

        Examples:
          albumkit list artist:bowie year:1970..1979 --sort year
          albumkit stats genre:rock
          albumkit update artist:"david bowie" genre: --set genre=Rock
          albumkit remove cover:failed --yes
          albumkit ls --format '$position. $title ($year)' ^cover:stored
        """
}
