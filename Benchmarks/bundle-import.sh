#!/usr/bin/env bash
# Issue 3's "must show" numbers: peak memory and time of `albumkit import` of a generated
# bundle of 1 000 and 10 000 albums (covers ~30 KB, all different), next to `bsdtar -xzf` of
# the same file into a fresh folder. Usage: Benchmarks/bundle-import.sh [path/to/albumkit]
set -euo pipefail
BIN=${1:-.build/release/albumkit}
WORK=$(mktemp -d /tmp/albumkit-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

make_bundle() {  # count output
  python3 - "$1" "$2" <<'PY'
import hashlib, io, json, os, sys, tarfile
count, output = int(sys.argv[1]), sys.argv[2]
with tarfile.open(output, "w:gz", compresslevel=6) as tar:
    def add(name, data):
        info = tarfile.TarInfo(name); info.size = len(data); info.mode = 0o644
        tar.addfile(info, io.BytesIO(data))
    albums, covers = [], []
    for index in range(count):
        cover = os.urandom(30_000)
        name = "covers/%s.jpg" % hashlib.sha256(cover).hexdigest()
        covers.append((name, cover))
        albums.append({"id": "bench-%d" % index, "title": "Album %d" % index, "artist": "Artist %d" % (index % 97),
                       "genre": "Pop", "year": str(1950 + index % 70), "coverUrl": name})
    add("manifest.json", json.dumps({"format": "albumkit-bundle", "version": 1, "albumCount": count}).encode())
    add("albums.json", json.dumps(albums).encode())
    for name, cover in covers: add(name, cover)
PY
}

measure() {  # label command...
  /usr/bin/time -f "$1: %e s elapsed, %M KB peak resident" "${@:2}" > /dev/null
}

for count in 1000 10000; do
  bundle="$WORK/bench-$count.tar.gz"
  make_bundle "$count" "$bundle"
  echo "== $count albums, $(du -h "$bundle" | cut -f1) bundle"
  sync
  mkdir "$WORK/x-$count"
  measure "bsdtar -xzf" bsdtar -xzf "$bundle" -C "$WORK/x-$count"
  export XDG_DATA_HOME="$WORK/data-$count" XDG_CONFIG_HOME="$WORK/config-$count"
  "$BIN" init > /dev/null
  measure "albumkit import" "$BIN" import "$bundle"
done
