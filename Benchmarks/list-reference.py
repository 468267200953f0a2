#!/usr/bin/env python3
"""The reference for `albumkit list`: what a user would write with Python's standard library.

    Benchmarks/list-reference.py json|plist LIBRARY_FILE

Loads an albumkit library with `json.load` or `plistlib.load`, builds one object per album
(the same fields AlbumKit's `Album` has), and prints the same table `albumkit list` prints:
position, title, artist, year, genre, cover state, in padded columns.
"""
import json, plistlib, sys


class Album:
    __slots__ = ("id", "title", "artist", "genre", "year", "cover_url")

    def __init__(self, fields):
        self.id = fields["id"]
        self.title = fields["title"].strip()
        self.artist = fields["artist"].strip()
        self.genre = fields.get("genre", "")
        self.year = str(fields.get("year", ""))
        self.cover_url = fields.get("coverUrl")


def clip(text):
    text = text.replace("\t", " ")
    return text if len(text) <= 40 else text[:39] + "…"


def main(kind, path):
    with open(path, "rb") as handle:
        document = json.load(handle) if kind == "json" else plistlib.load(handle)
    albums = [Album(fields) for fields in document["albums"]]
    current = document.get("state", {}).get("current")
    rows = [["", "#", "TITLE", "ARTIST", "YEAR", "GENRE", "COVER"]]
    rows += [["*" if album.id == current else "", str(position), clip(album.title), clip(album.artist), album.year,
              clip(album.genre), "none" if album.cover_url is None else "missing"]
             for position, album in enumerate(albums, 1)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    sys.stdout.write("\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
