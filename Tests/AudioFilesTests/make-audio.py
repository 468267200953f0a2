#!/usr/bin/env python3
"""Writes tagged audio files for the AudioFiles tests and benchmark.

    make-audio.py CACHE OUT PLAN.json

PLAN.json is a list of tracks:
    {"path": "Artist/Album/01.mp3", "format": "mp3|mp3v23|mp3v1|flac|ogg|m4a",
     "tags": {"album": …, "albumartist": …, "artist": …, "genre": …, "date": …, "mbid": …,
              "title", "tracknumber", "discnumber", "label", "catalognumber", "barcode", "country",
              "media", "releasegroupid", "trackid": … (each optional)},
     "cover": <int seed of a PNG front cover, or null>, "coverType": 3,
     "pictures": [{"seed": <int>, "type": <picture type>}, …] (more pictures, after the cover)}
and of plain files: {"path": "Artist/Album/cover.jpg", "image": <seed>} or
{"path": …, "bytes": "<latin-1 text>"}. A track's "format" may also be "m4afast" (M4A with
`moov` before `mdat`), and "coverBytes" gives a cover of that many bytes (a PNG padded with
a chunk of noise). The script prints, as JSON, the bundle path every cover gets
(`covers/<sha256>.<ext>`), by seed: {"png": {seed: path}, "jpg": {seed: path}}.

Sound comes from sox, encoded once per format by the real encoders (lame, flac, oggenc,
ffmpeg) into CACHE; each track is a copy of that file tagged with mutagen. An embedded cover
is a real PNG and an `image` file a real JPEG (through ffmpeg), both made from the seed, so
different seeds give different SHA-256s.
"""
import base64
import hashlib
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib

from mutagen.flac import FLAC, Picture
from mutagen.id3 import APIC, COMM, ID3, TALB, TCON, TDRC, TIT2, TMED, TPE1, TPE2, TPOS, TPUB, TRCK, TXXX, UFID
from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm
from mutagen.oggvorbis import OggVorbis


def png(seed, size=0):
    """A 16×16 PNG whose colour follows the seed, padded with a chunk of noise to `size` bytes."""
    width = height = 16
    colour = bytes([(seed * 37) % 256, (seed * 91 + 50) % 256, (seed * 13 + 100) % 256])
    raw = b"".join(b"\x00" + colour * width for _ in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    # The seed also goes in a text chunk, so seeds with equal colours still differ.
    text = b"Comment\x00seed " + str(seed).encode()
    image = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"tEXt", text) + chunk(b"IDAT", zlib.compress(raw))
    if size > len(image) + 24:
        # Noise in a private ancillary chunk, which decoders skip: compresses no better than a
        # real image would.
        image += chunk(b"nsEd", random.Random(seed).randbytes(size - len(image) - 24))
    return image + chunk(b"IEND", b"")


def jpeg(cache, seed):
    """A real JPEG (through ffmpeg) of the seed's PNG."""
    path = os.path.join(cache, f"image-{seed}.jpg")
    if not os.path.exists(path):
        source = os.path.join(cache, f"image-{seed}.png")
        with open(source, "wb") as f:
            f.write(png(seed))
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", source, "-metadata", f"comment=seed {seed}", path], check=True)
    with open(path, "rb") as f:
        return f.read()


def base_file(cache, kind):
    """The untagged encoding of one short sound in `kind`, made once per cache."""
    ending = {"mp3": "mp3", "mp3v23": "mp3", "mp3v1": "mp3", "flac": "flac", "ogg": "ogg", "m4a": "m4a", "m4afast": "m4a"}[kind]
    path = os.path.join(cache, f"base-{kind}.{ending}")
    if os.path.exists(path):
        return path
    wav = os.path.join(cache, "tone.wav")
    if not os.path.exists(wav):
        subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "0.5", "sine", "440"], check=True)
    aac = ["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "96k"]
    commands = {
        "mp3": ["lame", "--quiet", "-b", "128", wav, path],
        "flac": ["flac", "--silent", "-f", "-o", path, wav],
        "ogg": ["oggenc", "--quiet", "-o", path, wav],
        "m4a": aac + [path],
        "m4afast": aac + ["-movflags", "+faststart", path],
    }
    subprocess.run(commands["mp3" if kind.startswith("mp3") else kind], check=True)
    return path


def flac_picture(data, cover_type):
    picture = Picture()
    picture.type = cover_type
    picture.mime = "image/png"
    picture.data = data
    return picture


# The other tags, as Picard names them: (plan key, ID3 TXXX description or frame, Vorbis
# comment, MP4 freeform name or atom).
MORE_TAGS = [
    ("title", TIT2, "title", "\xa9nam"),
    ("tracknumber", TRCK, "tracknumber", "trkn"),
    ("discnumber", TPOS, "discnumber", "disk"),
    ("label", TPUB, "label", "LABEL"),
    ("catalognumber", "CATALOGNUMBER", "catalognumber", "CATALOGNUMBER"),
    ("barcode", "BARCODE", "barcode", "BARCODE"),
    ("country", "MusicBrainz Album Release Country", "releasecountry", "MusicBrainz Album Release Country"),
    ("media", TMED, "media", "MEDIA"),
    ("releasegroupid", "MusicBrainz Release Group Id", "musicbrainz_releasegroupid", "MusicBrainz Release Group Id"),
    ("trackid", None, "musicbrainz_trackid", "MusicBrainz Track Id"),
    ("comment", None, "comment", "\xa9cmt"),
    ("replaygain", "replaygain_track_gain", "replaygain_track_gain", "replaygain_track_gain"),
]


def tag(path, kind, tags, cover, cover_type, pictures=()):
    """Tags the file at `path`; `pictures` are (PNG bytes, picture type) embedded after the cover."""
    album, albumartist, artist = tags.get("album"), tags.get("albumartist"), tags.get("artist")
    genre, date, mbid = tags.get("genre"), tags.get("date"), tags.get("mbid")
    more = [(entry, tags[entry[0]]) for entry in MORE_TAGS if tags.get(entry[0]) is not None]
    if kind in ("mp3", "mp3v23", "mp3v1"):
        id3 = ID3()
        for frame, value in ((TALB, album), (TPE2, albumartist), (TPE1, artist), (TCON, genre), (TDRC, date)):
            if value is not None:
                id3.add(frame(encoding=3, text=[value]))
        if mbid is not None:
            id3.add(TXXX(encoding=3, desc="MusicBrainz Album Id", text=[mbid]))
        for (key, frame, _, _), value in more:
            if key == "trackid":
                id3.add(UFID(owner="http://musicbrainz.org", data=value.encode()))
            elif key == "comment":
                id3.add(COMM(encoding=3, lang="eng", desc="", text=[value]))
            elif isinstance(frame, str):
                id3.add(TXXX(encoding=3, desc=frame, text=[value]))
            else:
                id3.add(frame(encoding=3, text=[value]))
        if cover is not None:
            id3.add(APIC(encoding=3, mime="image/png", type=cover_type, desc="cover", data=cover))
        for index, (data, picture_type) in enumerate(pictures):
            # ID3 tells APIC frames apart by their description.
            id3.add(APIC(encoding=3, mime="image/png", type=picture_type, desc="picture %d" % index, data=data))
        if kind == "mp3v1":
            id3.save(path, v1=2)
            ID3(path).delete(path, delete_v1=False, delete_v2=True)
        else:
            id3.save(path, v2_version=3 if kind == "mp3v23" else 4)
    elif kind in ("flac", "ogg"):
        audio = FLAC(path) if kind == "flac" else OggVorbis(path)
        for key, value in (("album", album), ("albumartist", albumartist), ("artist", artist), ("genre", genre),
                           ("date", date), ("musicbrainz_albumid", mbid)):
            if value is not None:
                audio[key] = [value]
        for (_, _, key, _), value in more:
            audio[key] = [value]
        embedded = ([(cover, cover_type)] if cover is not None else []) + list(pictures)
        if kind == "flac":
            for data, picture_type in embedded:
                audio.add_picture(flac_picture(data, picture_type))
        elif embedded:
            audio["metadata_block_picture"] = [base64.b64encode(flac_picture(data, picture_type).write()).decode("ascii")
                                               for data, picture_type in embedded]
        audio.save()
    elif kind in ("m4a", "m4afast"):
        audio = MP4(path)
        for key, value in (("\xa9alb", album), ("aART", albumartist), ("\xa9ART", artist), ("\xa9gen", genre), ("\xa9day", date)):
            if value is not None:
                audio[key] = [value]
        if mbid is not None:
            audio["----:com.apple.iTunes:MusicBrainz Album Id"] = [MP4FreeForm(mbid.encode())]
        for (key, _, _, atom), value in more:
            if key in ("tracknumber", "discnumber"):
                audio[atom] = [tuple(int(part) for part in (value.split("/") + ["0"])[:2])]
            elif atom.startswith("\xa9"):
                audio[atom] = [value]
            else:
                audio["----:com.apple.iTunes:" + atom] = [MP4FreeForm(value.encode())]
        # `covr` has no picture types: the first image is the front cover by convention.
        embedded = ([cover] if cover is not None else []) + [data for data, _ in pictures]
        if embedded:
            audio["covr"] = [MP4Cover(data, imageformat=MP4Cover.FORMAT_PNG) for data in embedded]
        audio.save()
    else:
        raise SystemExit(f"unknown format {kind}")


def bundle_path(data, ending):
    return f"covers/{hashlib.sha256(data).hexdigest()}.{ending}"


def main():
    cache, out, plan = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(cache, exist_ok=True)
    with open(plan) as f:
        entries = json.load(f)
    paths = {"png": {}, "jpg": {}}
    for entry in entries:
        path = os.path.join(out, entry["path"])
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        if "image" in entry:
            data = jpeg(cache, entry["image"])
            paths["jpg"][entry["image"]] = bundle_path(data, "jpg")
            with open(path, "wb") as f:
                f.write(data)
        elif "bytes" in entry:
            with open(path, "wb") as f:
                f.write(entry["bytes"].encode("latin-1"))
        else:
            shutil.copyfile(base_file(cache, entry["format"]), path)
            seed = entry.get("cover")
            cover = None if seed is None else png(seed, entry.get("coverBytes", 0))
            if cover is not None:
                paths["png"][seed] = bundle_path(cover, "png")
            pictures = [(png(picture["seed"]), picture["type"]) for picture in entry.get("pictures", [])]
            for picture in entry.get("pictures", []):
                paths["png"][picture["seed"]] = bundle_path(png(picture["seed"]), "png")
            tag(path, entry["format"], entry.get("tags", {}), cover, entry.get("coverType", 3), pictures)
    json.dump(paths, sys.stdout)


if __name__ == "__main__":
    main()
