#!/usr/bin/env python3
"""The benchmark corpus, deterministic for a given seed: running it again gives the same bytes.

    Benchmarks/make-corpus.py bundle  --albums N [--cover-bytes B] [--formats tar.gz,…] [--collector] OUT
    Benchmarks/make-corpus.py itunes  --tracks N OUT
    Benchmarks/make-corpus.py discogs --rows N OUT

`bundle` writes OUT/bundle-N/ laid out as SPEC 3 (manifest.json, albums.json,
covers/<sha256>.png, checksums.sha256), with one real PNG of about B bytes per album (noise,
so it does not compress, like photographs), and the same bundle as OUT/bundle-N.<format> for
each format asked (tar.gz, tar.zst, tar.xz, tar, zip; default all). With `--collector` each
album is one as collectors have them (issue 34): 12 tracks (title, number, seconds), label,
catalogNumber, format, rating, added, released, 3 tags, 2 ids (musicbrainz, discogs) and 5
`fields`, in a version 2 bundle; `v1.tar.gz` is then the same bundle with a version 1 manifest,
for a release before the whole album (it reads the core six and skips the other keys).
Libraries are never written here: the benchmarks make them as users do, by importing a bundle.
`itunes` writes OUT/itunes-N.xml: an iTunes `Library.xml` of N tracks (about ten an album) with
iTunes's keys, written by `plistlib`. `discogs` writes OUT/discogs-N.csv: a Discogs collection
export of N releases as Discogs writes it (its 13 columns, quoted where needed by Python's `csv`;
artists with Discogs's ` (2)`, `Released` 0 for an unknown year, condition columns and notes on
some rows, and rows with fewer trailing empty fields than the header, as Tests/Fixtures/real/discogs). A file that exists is kept: OUT is a cache, so give each seed and cover size its own OUT.
"""
import argparse, csv, datetime, gzip, hashlib, io, json, lzma, os, plistlib, random, struct, subprocess, tarfile, urllib.parse, zipfile, zlib

FORMATS = ["tar.gz", "tar.zst", "tar.xz", "tar", "zip"]
CREATED = "2026-01-01T00:00:00Z"
WORDS = ["Blue", "Night", "Café", "River", "Électrique", "Sun", "Glass", "東京", "Echo", "Ünïcödé",
         "Paper", "Moon", "Stone", "Fire", "Dreams", "Ocean", "Neon", "Silver", "Garden", "Wire"]
ARTISTS = ["Björk", "The Wires", "Nina Sol", "Los Ríos", "Ōkami", "Delta Nine", "Ana Luz", "K. Moreau"]
GENRES = ["Pop", "Rock", "Jazz", "Electronic", "Folk", "Hip hop", "Classical", ""]
LABELS = ["Warp", "Blue Note", "Columbia", "Sub Pop", "ECM", "Ninja Tune", "Factory", "Motown", "Impulse!", "4AD"]
MEDIA = ["CD, Album", "LP, Album", "2xLP, Album, RE", "Cassette", "File, FLAC", "CD, Album, RM"]
TAGS = ["ambient", "idm", "modal", "post-bop", "shoegaze", "dub", "krautrock", "soul", "field recording", "minimal"]
CONDITIONS = ["Mint (M)", "Near Mint (NM or M-)", "Very Good Plus (VG+)", "Very Good (VG)"]
FOLDERS = ["Uncategorized", "Jazz", "Electronic", "Wants to sell", "Shelf A"]


def collected(album, rng, index):
    """`album` with what a collector's copy carries besides the core six (issue 34's corpus)."""
    year = int(album["year"])
    album.update({
        "released": "%04d-%02d-%02d" % (year, rng.randint(1, 12), rng.randint(1, 28)),
        "label": rng.choice(LABELS),
        "catalogNumber": "%s %d" % ("".join(rng.choice("ABCDEFGHKLMNPRSTVWX") for _ in range(rng.randint(2, 4))), rng.randint(1, 9999)),
        "format": rng.choice(MEDIA),
        "rating": rng.randint(1, 10) / 2,
        "added": "20%02d-%02d-%02dT%02d:%02d:%02dZ" % (rng.randint(10, 25), rng.randint(1, 12), rng.randint(1, 28),
                                                     rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)),
        "tags": rng.sample(TAGS, 3),
        "ids": {"musicbrainz": "%08x-%04x-4%03x-8%03x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                                 rng.getrandbits(12), rng.getrandbits(48)),
                "discogs": str(1_000_000 + index)},
        "tracks": [{"title": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))), "number": number,
                    "seconds": rng.randint(90, 720)} for number in range(1, 13)],
        "fields": {"discogs.folder": rng.choice(FOLDERS), "discogs.mediaCondition": rng.choice(CONDITIONS),
                   "discogs.sleeveCondition": rng.choice(CONDITIONS), "discogs.instanceId": str(50_000_000 + index),
                   "mood": rng.choice(["calm", "bright", "dark", "warm"])},
    })
    return album


def albums(count, seed, cover_url=lambda index: None, collector=False):
    """`count` album objects; `cover_url(index)` gives each one's coverUrl (None: no cover);
    `collector`: with every field a collector's album has (`collected`)."""
    rng = random.Random(seed)
    extra = random.Random(seed * 104729)  # its own stream: the core six stay those of the plain corpus
    result = []
    for index in range(count):
        album = {
            "id": "bench-%d-%06d" % (seed, index),
            "title": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))) + " %d" % index,
            "artist": rng.choice(ARTISTS),
            "genre": rng.choice(GENRES),
            "year": str(rng.randint(1950, 2025)),
        }
        url = cover_url(index)
        if url:
            album["coverUrl"] = url
        result.append(collected(album, extra, index) if collector else album)
    return result


def png(width, height, scanlines):
    """A truecolour PNG from raw RGB rows (each `3 * width` bytes)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in scanlines)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b"")


def cover(rng, size):
    """A square PNG of noise of about `size` bytes."""
    side = max(8, int((size / 3) ** 0.5))
    return png(side, side, [rng.randbytes(3 * side) for _ in range(side)])


def write(path, data):
    with open(path + ".part", "wb") as handle:
        handle.write(data)
    os.replace(path + ".part", path)


def manifest(count, version):
    document = {"format": "albumkit-bundle", "version": version, "created": CREATED,
                "generator": "albumkit make-corpus.py", "albumCount": count}
    return json.dumps(document, indent=2).encode() + b"\n"


def bundle_folder(out, count, cover_bytes, seed, collector=False):
    """OUT/bundle-N/: the unpacked bundle. Returns its entry names in writing order."""
    folder = os.path.join(out, "bundle-%d" % count)
    marker = os.path.join(folder, "checksums.sha256")
    if not os.path.exists(marker):
        os.makedirs(os.path.join(folder, "covers"), exist_ok=True)
        rng = random.Random(seed * 7919 + cover_bytes)
        names = []
        for _ in range(count):
            data = cover(rng, cover_bytes)
            name = "covers/%s.png" % hashlib.sha256(data).hexdigest()
            write(os.path.join(folder, name), data)
            names.append(name)
        listed = albums(count, seed, lambda index: names[index], collector)
        write(os.path.join(folder, "manifest.json"), manifest(count, 2 if collector else 1))
        write(os.path.join(folder, "albums.json"), json.dumps(listed, indent=2, ensure_ascii=False).encode() + b"\n")
        lines = []
        for name in ["manifest.json", "albums.json"] + names:
            with open(os.path.join(folder, name), "rb") as handle:
                lines.append("%s  %s\n" % (hashlib.sha256(handle.read()).hexdigest(), name))
        write(marker, "".join(lines).encode())
    with open(marker) as handle:
        return [line.split("  ", 1)[1].rstrip("\n") for line in handle] + ["checksums.sha256"]


def first_version(folder):
    """The bundle's entries with a version 1 manifest (and its checksum) in place of its own."""
    with open(os.path.join(folder, "manifest.json"), "rb") as handle:
        old = manifest(json.load(handle)["albumCount"], 1)
    with open(os.path.join(folder, "checksums.sha256"), "rb") as handle:
        lines = handle.read().decode().splitlines(True)
    lines[0] = "%s  manifest.json\n" % hashlib.sha256(old).hexdigest()
    return {"manifest.json": old, "checksums.sha256": "".join(lines).encode()}


def contents(folder, name, replaced):
    if name in replaced:
        return replaced[name]
    with open(os.path.join(folder, name), "rb") as handle:
        return handle.read()


def archive(folder, entries, path, kind, replaced={}):
    """Writes the bundle folder's `entries` (in order) as `path`, of `kind`, with fixed dates;
    `replaced` gives the bytes of entries written otherwise than the folder holds them."""
    if kind == "v1.tar.gz":
        return archive(folder, entries, path, "tar.gz", first_version(folder))
    if kind == "zip":
        with zipfile.ZipFile(path + ".part", "w", zipfile.ZIP_DEFLATED) as out:
            for name in entries:
                out.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), contents(folder, name, replaced))
    elif kind == "tar.zst":
        plain = path[:-len(".zst")]
        if not os.path.exists(plain):
            archive(folder, entries, plain, "tar", replaced)
        subprocess.run(["zstd", "-q", "-f", "-3", plain, "-o", path + ".part"], check=True)
    else:
        with open(path + ".part", "wb") as file:
            stream = {"tar": lambda: file, "tar.gz": lambda: gzip.GzipFile("", "wb", 6, file, mtime=0),
                      "tar.xz": lambda: lzma.LZMAFile(file, "wb", preset=0)}[kind]()
            with stream, tarfile.open(fileobj=stream, mode="w", format=tarfile.PAX_FORMAT) as out:
                for name in entries:
                    data = contents(folder, name, replaced)
                    info = out.gettarinfo(os.path.join(folder, name), name)
                    info.size, info.mtime, info.uid, info.gid, info.uname, info.gname = len(data), 1767225600, 0, 0, "", ""
                    out.addfile(info, io.BytesIO(data))
    os.replace(path + ".part", path)


def itunes(out, count, seed):
    """OUT/itunes-N.xml: an iTunes library of N tracks, about ten an album, every track with the
    keys iTunes writes, and the master playlist listing them all."""
    path = os.path.join(out, "itunes-%d.xml" % count)
    if os.path.exists(path):
        return
    rng = random.Random(seed)
    added = datetime.datetime(2020, 1, 1, 12, 0, 0)
    tracks = {}
    album = None
    for index in range(count):
        if album is None or rng.random() < 0.1:
            album = (" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))) + " %d" % index, rng.choice(ARTISTS),
                     rng.random() < 0.1, rng.randint(1950, 2025))
        title, artist, compilation, year = album
        track_id = 1000 + 2 * index
        track = {"Track ID": track_id, "Size": rng.randint(2_000_000, 12_000_000), "Total Time": rng.randint(60_000, 600_000),
                 "Disc Number": 1, "Disc Count": 1, "Track Number": index % 12 + 1, "Track Count": 12, "Year": year,
                 "Date Modified": added, "Date Added": added, "Bit Rate": 256, "Sample Rate": 44100, "Play Count": rng.randint(0, 50),
                 "Persistent ID": "%016X" % rng.getrandbits(64), "Track Type": "File", "Kind": "MPEG audio file",
                 "Name": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))),
                 "Artist": rng.choice(ARTISTS) if compilation else artist, "Album": title, "Genre": rng.choice(GENRES) or "Pop",
                 "Location": "file://localhost/Users/me/Music/iTunes/iTunes%%20Media/Music/%s/%s/%02d%%20Track.mp3"
                             % (urllib.parse.quote(artist), urllib.parse.quote(title), index % 12 + 1)}
        if compilation:
            track["Compilation"] = True
        else:
            track["Album Artist"] = artist
        tracks[str(track_id)] = track
    library = {"Major Version": 1, "Minor Version": 1, "Date": added, "Application Version": "12.13.2.3", "Features": 5,
               "Show Content Ratings": True, "Music Folder": "file://localhost/Users/me/Music/iTunes/iTunes%20Media/",
               "Library Persistent ID": "0123456789ABCDEF", "Tracks": tracks,
               "Playlists": [{"Name": "Library", "Master": True, "Playlist ID": 1, "Playlist Persistent ID": "FEDCBA9876543210",
                              "Visible": False, "All Items": True, "Playlist Items": [{"Track ID": int(key)} for key in tracks]}]}
    write(path, plistlib.dumps(library, fmt=plistlib.FMT_XML, sort_keys=False))


def discogs(out, count, seed):
    """OUT/discogs-N.csv: a Discogs collection export of N releases (see the module's text)."""
    path = os.path.join(out, "discogs-%d.csv" % count)
    if os.path.exists(path):
        return
    rng = random.Random(seed)
    added = datetime.datetime(2019, 3, 1, 8, 0, 0)
    with open(path + ".part", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id", "CollectionFolder",
                         "Date Added", "Collection Media Condition", "Collection Sleeve Condition", "Collection Notes"])
        for index in range(count):
            artist = rng.choice(ARTISTS) + (" (%d)" % rng.randint(2, 9) if rng.random() < 0.1 else "")
            title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
            labels = ", ".join(rng.sample(LABELS, rng.choice([1, 1, 1, 2])))
            catalog = "%s %d" % ("".join(rng.choice("ABCDEFGHKLMPRSTVWX") for _ in range(rng.randint(2, 5))), rng.randint(1, 9999))
            conditioned = rng.random() < 0.4
            row = [catalog, artist, title, labels, rng.choice(MEDIA), rng.choice(["", "", "", "3", "4", "5"]),
                   "0" if rng.random() < 0.05 else str(rng.randint(1950, 2025)), str(1_000_000 + index * 7), rng.choice(FOLDERS),
                   (added + datetime.timedelta(minutes=37 * index)).strftime("%Y-%m-%d %H:%M:%S"),
                   rng.choice(CONDITIONS) if conditioned else "", rng.choice(CONDITIONS) if conditioned else "",
                   rng.choice(["Signed copy, \"first press\"", "Gift from Ana", "Play copy"]) if rng.random() < 0.05 else ""]
            # Discogs writes some rows without their trailing empty fields.
            while rng.random() < 0.1 and row[-1] == "":
                row.pop()
            writer.writerow(row)
    os.replace(path + ".part", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["bundle", "itunes", "discogs"])
    parser.add_argument("out")
    parser.add_argument("--albums", type=int)
    parser.add_argument("--tracks", type=int)
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cover-bytes", type=int, default=30_000)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--collector", action="store_true", help="albums with every field a collector's has, in a version 2 bundle")
    options = parser.parse_args()
    os.makedirs(options.out, exist_ok=True)
    if options.kind == "itunes":
        itunes(options.out, options.tracks, options.seed)
        return
    if options.kind == "discogs":
        discogs(options.out, options.rows, options.seed)
        return
    if options.albums is None:
        parser.error("--albums is required for %s" % options.kind)
    entries = bundle_folder(options.out, options.albums, options.cover_bytes, options.seed, options.collector)
    folder = os.path.join(options.out, "bundle-%d" % options.albums)
    for kind in filter(None, options.formats.split(",")):
        if kind not in FORMATS + ["v1.tar.gz"] or (kind == "v1.tar.gz" and not options.collector):
            parser.error("unknown format %r (known: %s; v1.tar.gz with --collector)" % (kind, ", ".join(FORMATS)))
        path = "%s.%s" % (folder, kind)
        if not os.path.exists(path):
            archive(folder, entries, path, kind)


if __name__ == "__main__":
    main()
