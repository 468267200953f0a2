#!/usr/bin/env bash
# Runs the example's own albumkit in a throwaway home: an import through its source, its
# stage in `pipeline show` and in the imported albums, its fetcher in `covers fetch`.
set -euo pipefail
cd "$(dirname "$0")"
bin="$(swift build --show-bin-path)/my-albumkit"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config"
check() { grep -q -- "$1" || { echo "example: expected '$1' in the output of: $2" >&2; exit 1; }; }

"$bin" init
"$bin" import sample.albums
"$bin" pipeline show | tee "$home/pipeline"
check "3. title-case-genre  package my_albumkit" "pipeline show" < "$home/pipeline"
"$bin" list | tee "$home/list"
check "Art Rock" "list" < "$home/list"
check "New Wave" "list" < "$home/list"
"$bin" covers fetch
"$bin" list --json > "$home/list.json"
python3 - "$home/list.json" <<'PY'
import json, sys
albums = json.load(open(sys.argv[1]))["albums"]
assert [a["cover"] for a in albums] == ["stored", "stored", "none"], albums
assert [a["title"] for a in albums] == ["Low", "Trans-Europe Express", "Remain in Light"], albums
PY
"$bin" plugins | tee "$home/plugins"
check "pipe-list — .albums files" "plugins" < "$home/plugins"
check "placeholder — one-pixel GIFs" "plugins" < "$home/plugins"
echo "example: its source, stage and cover fetcher all worked"
