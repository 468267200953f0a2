#!/usr/bin/env python3
"""Writes Bundles/starter: the five starter albums with cover images drawn here (plain
geometry, no third-party artwork), laid out as SPEC 3's unpacked bundle. Deterministic:
running it again gives the same bytes."""
import hashlib, json, math, os, struct, sys, zlib

# (id, title, artist, genre, year, cover colours). Titles, artists and years as released:
# Best of Bowie (2002), No Doubt's "It's My Life" (2003), Sting's "...Nothing Like the Sun"
# (1987), U2's "Staring at the Sun" (1997), Madonna's "American Pie" (2000).
ALBUMS = [
    ("starter-best-of-bowie", "Best of Bowie", "David Bowie", "Rock", "2002", ((230, 80, 60), (40, 30, 90))),
    ("starter-its-my-life", "It's My Life", "No Doubt", "Pop", "2003", ((250, 200, 40), (200, 40, 120))),
    ("starter-nothing-like-the-sun", "...Nothing Like the Sun", "Sting", "Pop", "1987", ((60, 150, 220), (250, 240, 200))),
    ("starter-staring-at-the-sun", "Staring at the Sun", "U2", "Rock", "1997", ((250, 150, 30), (20, 20, 30))),
    ("starter-american-pie", "American Pie", "Madonna", "Pop", "2000", ((200, 30, 50), (30, 60, 160))),
]
SIZE = 256


def png(width, height, pixel):
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(pixel(x, y))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")


def cover(index, top, bottom):
    """A vertical gradient with a disc and index+1 rings: simple, distinct, ours."""
    centre = SIZE / 2
    def pixel(x, y):
        t = y / (SIZE - 1)
        colour = [round(a + (b - a) * t) for a, b in zip(top, bottom)]
        distance = math.hypot(x - centre, y - centre)
        if distance < SIZE * 0.12:
            return bytes((245, 245, 245))
        for ring in range(index + 1):
            radius = SIZE * (0.2 + 0.06 * ring)
            if abs(distance - radius) < 2.5:
                return bytes(255 - c for c in colour)
        return bytes(colour)
    return png(SIZE, SIZE, pixel)


def main(out):
    os.makedirs(os.path.join(out, "covers"), exist_ok=True)
    albums = []
    for index, (album_id, title, artist, genre, year, (top, bottom)) in enumerate(ALBUMS):
        data = cover(index, top, bottom)
        name = "covers/%s.png" % hashlib.sha256(data).hexdigest()
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(data)
        albums.append({"id": album_id, "title": title, "artist": artist, "genre": genre, "year": year, "coverUrl": name})
    files = {
        "manifest.json": {"format": "albumkit-bundle", "version": 1, "created": "2026-11-22T00:00:00Z",
                          "generator": "albumkit make-starter.py", "albumCount": len(albums)},
        "albums.json": albums,
    }
    for name, value in files.items():
        with open(os.path.join(out, name), "w") as handle:
            json.dump(value, handle, indent=2)
            handle.write("\n")
    lines = []
    for name in ["manifest.json", "albums.json"] + sorted(a["coverUrl"] for a in albums):
        with open(os.path.join(out, name), "rb") as handle:
            lines.append("%s  %s\n" % (hashlib.sha256(handle.read()).hexdigest(), name))
    with open(os.path.join(out, "checksums.sha256"), "w") as handle:
        handle.writelines(lines)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "starter"))
