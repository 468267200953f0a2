#!/bin/sh
# Writes the seed corpora under Corpus/ (small inputs of every kind each target reads).
# Run from Fuzz/; needs python3, tar, gzip, xz, zstd, zip, 7z, cpio.
set -eu
corpus=Corpus
rm -rf "$corpus" && mkdir -p "$corpus"
for target in json-list album-record manifest checksums plist configuration bundle library-file; do mkdir -p "$corpus/$target"; done

printf '[{"title":"Blue","artist":"Joni Mitchell","genre":"Folk","year":1971,"coverUrl":"covers/%s.png"}]' \
    "$(printf 'x' | sha256sum | cut -c1-64)" > "$corpus/json-list/array.json"
printf '{"albums":[{"id":"album:1/custom id","title":" Kid A ","artist":"Radiohead","year":"2000"},{"title":"東京","artist":"Ä"}],"other":[1,{"a":[]}]}' > "$corpus/json-list/object.json"
printf '\357\273\277[]' > "$corpus/json-list/bom-empty.json"
printf '{"id":"a-1","title":"T","artist":"A","genre":"","year":"1992","coverUrl":"https://example.com/c.png"}' > "$corpus/album-record/full.json"
printf '{"title":"T\\u0001","artist":"A","year":19920}' > "$corpus/album-record/bad.json"
# Every field of SPEC 1, and the values that are kept in fields or dropped.
whole='{"id":"discogs:1","title":"Kind of Blue","artist":"Miles Davis","genre":"Jazz","released":"1959-08-17","label":"Columbia","catalogNumber":"CS 8163","format":"LP","country":"US","barcode":"0 7464","rating":4.5,"added":"2019-05-12T10:23:45+02:00","notes":"a\\nb","tags":["modal","cool"],"ids":{"discogs":"1","musicbrainz":"x"},"tracks":[{"title":"So What","number":1,"disc":1,"seconds":562.5,"artist":"M","ids":{"musicbrainz":"t"},"fields":{"plays":3}},{"title":"Blue in Green"}],"fields":{"discogs.folder":"Jazz","n":2,"b":true},"playCount":31,"rank":{"x":[1]},"bad key":"y"}'
printf '%s' "$whole" > "$corpus/album-record/whole.json"
printf '[%s,{"title":"T","artist":"A","rating":7,"released":"1977-13-40","tracks":[{"title":""}]}]' "$whole" > "$corpus/json-list/whole.json"
# Library files as the json backend writes them: one album a line, then the memento.
state='"format":"albumkit-library","state":{"current":"a-2","nextStep":3,"redo":[],"undo":[{"id":1,"label":"add"},{"id":2,"label":"update"}],"version":2},"version":2}'
printf '{"albums":[\n{"artist":"Radiohead","genre":"","id":"a-1","label":"Parlophone","title":"Kid A","year":"2000"},\n{"artist":"\\u00c4 \\"q\\"","id":"a-2","title":"東京","tracks":[{"number":1,"title":"x"}],"year":"1971"}],%s' "$state" > "$corpus/library-file/two.json"
printf '{"albums":[],"format":"albumkit-library","state":{"current":null,"nextStep":1,"redo":[],"undo":[],"version":2},"version":2}' > "$corpus/library-file/empty.json"
printf '{"albums":[\n%s],%s' "$whole" "$state" > "$corpus/library-file/whole.json"
printf '{"format":"albumkit-bundle","version":1,"created":"2026-01-01T00:00:00Z","generator":"albumkit 1.0","albumCount":0}' > "$corpus/manifest/valid.json"
printf '{"format":"albumkit-bundle","version":3}' > "$corpus/manifest/version.json"
printf '{"format":"albumkit-bundle","version":2,"albumCount":0}' > "$corpus/manifest/valid-2.json"
printf '%s  albums.json\n%s *manifest.json\r\n' "$(printf '[]' | sha256sum | cut -c1-64)" "$(printf x | sha256sum | cut -c1-64)" > "$corpus/checksums/lines.sha256"
python3 - "$corpus/plist" <<'PY'
import plistlib, sys
albums = [{"title": "Blue", "artist": "Joni Mitchell", "year": 1971}, {"title": "東京", "artist": "Ä", "genre": "Pop"},
          {"title": "Kind of Blue", "artist": "Miles Davis", "rating": 4.5, "released": "1959-08-17", "tags": ["modal"],
           "ids": {"discogs": "1"}, "tracks": [{"title": "So What", "number": 1, "seconds": 562.5}], "fields": {"discogs.folder": "Jazz"}, "plays": 3}]
open(sys.argv[1] + "/xml.plist", "wb").write(plistlib.dumps(albums, fmt=plistlib.FMT_XML))
open(sys.argv[1] + "/binary.plist", "wb").write(plistlib.dumps({"albums": albums}, fmt=plistlib.FMT_BINARY))
PY
cat > "$corpus/configuration/full.yaml" <<'YAML'
library: ~/albums
storage:
  backend: json
  path: library.json
  lockTimeoutSeconds: 30
covers:
  fetchers: [bundle, file, http]
  allowedSchemes: [https, http, file]
  fileRoots: []
  maxBytes: 20000000
  concurrency: 8
  timeoutSeconds: 15
limits: {coverBytes: 20000000, listBytes: 200000000, archiveBytes: 64000000000}
YAML
printf 'storage:\n  backend: plist\n  format: binary\nimport:\n  stages: [validate, normalize, covers]\n' > "$corpus/configuration/short.yaml"

bundle=$(mktemp -d)
trap 'rm -rf "$bundle"' EXIT
mkdir -p "$bundle/b/covers"
printf 'GIF89a\001\000\001\000' > "$bundle/b/covers/cover.gif"
sum=$(sha256sum "$bundle/b/covers/cover.gif" | cut -c1-64)
mv "$bundle/b/covers/cover.gif" "$bundle/b/covers/$sum.gif"
printf '[{"id":"s-1","title":"Seed","artist":"Fuzz","coverUrl":"covers/%s.gif"}]' "$sum" > "$bundle/b/albums.json"
printf '{"format":"albumkit-bundle","version":1,"albumCount":1}' > "$bundle/b/manifest.json"
printf '{"version":1,"current":"s-1","undo":[],"redo":[]}' > "$bundle/b/state.json"
(cd "$bundle/b" && sha256sum manifest.json albums.json state.json "covers/$sum.gif" > checksums.sha256)
out=$(pwd)/$corpus/bundle
(cd "$bundle/b" && tar --owner=0 --group=0 --mtime=@0 -cf "$out/bundle.tar" manifest.json albums.json state.json covers checksums.sha256)
gzip -n -c "$out/bundle.tar" > "$out/bundle.tar.gz"
xz -c "$out/bundle.tar" > "$out/bundle.tar.xz"
zstd -q -c "$out/bundle.tar" > "$out/bundle.tar.zst"
(cd "$bundle/b" && zip -q -X -r "$out/bundle.zip" .)
(cd "$bundle/b" && find . | cpio --quiet -o -H newc > "$out/bundle.cpio")
(cd "$bundle/b" && 7z a -bd -bso0 "$out/bundle.7z" . >/dev/null)
