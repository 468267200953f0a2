#!/usr/bin/env python3
"""An AlbumKit source plugin: albums from a CSV file, one album a row.

Which column holds which album field comes from the plugin's settings, so any CSV with a
header row can be read:

    plugins:
      commands:
        - {name: csv, kind: source, run: [python3, /path/to/csv_source.py]}
      csv:
        columns: {title: Album, artist: Band, year: Released, genre: Style, cover: Artwork}

    albumkit import albums.csv --format csv

A `cover` column names an image file (relative to the CSV's folder); AlbumKit reads it only
under `covers.fileRoots`. Speaks version 1 of docs/plugin-protocol.md; Python 3 standard
library only, with the helper albumkit_plugin.py beside it.
"""
import csv
import os
import sys

from albumkit_plugin import receive, send, start

FIELDS = ("id", "title", "artist", "genre", "year", "cover")
DEFAULT_COLUMNS = {"title": "title", "artist": "artist", "genre": "genre", "year": "year"}




def read(path, columns, delimiter):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        rows = csv.DictReader(handle, delimiter=delimiter)
        header = rows.fieldnames or []
        missing = [column for field, column in columns.items() if field in ("title", "artist") and column not in header]
        if missing:
            send({"type": "error", "message": "the header has no column %s (plugins.<name>.columns maps the fields)" % ", ".join(repr(m) for m in missing)})
            return
        for row in rows:
            album = {}
            for field, column in columns.items():
                value = (row.get(column) or "").strip()
                if field == "cover" or (field == "id" and not value):
                    continue
                album[field] = value
            message = {"type": "album", "album": album, "label": "row %d" % rows.line_num}
            cover = (row.get(columns.get("cover", "")) or "").strip()
            if cover:
                message["cover"] = {"file": os.path.abspath(os.path.join(os.path.dirname(path), cover))}
            send(message)
    send({"type": "end"})


def main():
    settings = start("source", "csv-source", "1.0.0", [
        {"key": "columns", "type": "map", "default": DEFAULT_COLUMNS,
         "summary": "album field (id, title, artist, genre, year, cover) -> CSV column"},
        {"key": "delimiter", "type": "text", "default": ",", "summary": "the character between columns"},
    ])
    if settings is None:
        return
    columns = settings.get("columns", DEFAULT_COLUMNS)
    unknown = sorted(set(columns) - set(FIELDS))
    if unknown:
        print("columns: unknown album fields %s" % ", ".join(unknown), file=sys.stderr)
        sys.exit(2)
    while True:
        request = receive()
        if request is None:
            return
        if request.get("type") == "read":
            read(request["path"], columns, settings.get("delimiter", ","))


if __name__ == "__main__":
    main()
