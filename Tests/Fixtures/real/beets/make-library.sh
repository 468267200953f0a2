#!/bin/sh
# How the beets libraries here were made: real beets (`pip install beets`; 2.x, the version
# .ci/run installs) importing the real tagged audio of ../audio (mutagen's test data) as it is
# tagged (`-A`: no MusicBrainz lookup), copying it into a music folder under
# /tmp/albumkit-beets-recipe, then changed as people change their libraries:
#   beets-real-audio.db   flexible attributes set on an album and on an item (`beet modify`)
#   beets-singletons.db   one folder imported as singletons (`-s`): items in no album
#   beets-edited.db       label, catalog number, country, barcode, release date and a
#                         MusicBrainz release id filled in by hand (`beet modify -a`)
#
#   sh make-library.sh     (writes the three databases here)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/albumkit-beets-recipe
audio="$here/../audio"

fresh() {
    rm -rf "$work"
    mkdir -p "$work/beets"
    printf 'directory: %s\nlibrary: %s\nimport:\n  copy: yes\n  write: no\nplugins: []\n' "$work/music" "$work/beets/library.db" > "$work/beets/config.yaml"
}
export BEETSDIR="$work/beets"

fresh
for album in mutagen-quodlibet-test-data mutagen-multipage-setup mutagen-id3v22; do beet import -A -q "$audio/$album"; done
beet modify -a -y album:Timeless mood=energetic
beet modify -y "title:cosmic american" rating=4
cp "$work/beets/library.db" "$here/beets-real-audio.db"

fresh
beet import -A -q "$audio/mutagen-multipage-setup"
beet import -A -q -s "$audio/mutagen-quodlibet-test-data"
cp "$work/beets/library.db" "$here/beets-singletons.db"

fresh
beet import -A -q "$audio/mutagen-multipage-setup"
beet modify -a -y album:Timeless label="Sony Records" catalognum=SRCL-6240 country=JP barcode=4988009024066 \
    year=2006 month=2 day=15 mb_albumid=4b4b8e6e-0c4d-4a8e-9a43-3c7f3b1f0e11 albumtype=album
cp "$work/beets/library.db" "$here/beets-edited.db"
rm -rf "$work"
