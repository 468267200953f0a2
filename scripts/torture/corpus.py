"""The data the torture runs on, made the way users make theirs: bundles with real PNG covers
written by Benchmarks/make-corpus.py (tar.gz, as `tar` makes them), an album list whose covers
are http:// addresses, and a loopback HTTP server (Python's http.server) that serves them."""
import functools
import http.server
import json
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAKE_CORPUS = os.path.join(ROOT, "Benchmarks", "make-corpus.py")


def bundle(out, albums, seed, cover_bytes):
    """OUT/seed-S/bundle-N.tar.gz: N albums with one PNG cover each; returns (archive, folder)."""
    folder = os.path.join(out, "seed-%d" % seed)
    subprocess.run([sys.executable, MAKE_CORPUS, "bundle", "--albums", str(albums), "--cover-bytes", str(cover_bytes),
                    "--formats", "tar.gz", "--seed", str(seed), folder], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(folder, "bundle-%d.tar.gz" % albums), os.path.join(folder, "bundle-%d" % albums)


def remote_list(out, albums, seed, cover_bytes, base_url):
    """An album list (JSON) whose covers are served at BASE_URL/<sha256>.png, and the folder the
    cover server serves them from."""
    _, folder = bundle(out, albums, seed, cover_bytes)
    with open(os.path.join(folder, "albums.json"), encoding="utf-8") as handle:
        listed = json.load(handle)
    for album in listed:
        album["coverUrl"] = "%s/%s" % (base_url, album["coverUrl"].split("/", 1)[1])
    path = os.path.join(out, "remote-%d.json" % seed)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(listed, handle, ensure_ascii=False)
    return path, os.path.join(folder, "covers")


class _QuietCovers(http.server.SimpleHTTPRequestHandler):
    # A little latency per cover, as a real server has, so a fetch lasts long enough to be hit.
    latency = 0.02

    def do_GET(self):
        time.sleep(self.latency)
        super().do_GET()

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client killed mid-download breaks the pipe: expected here, not worth a traceback.
        pass


class CoverServer:
    """http.server on 127.0.0.1 (a free port), serving one folder, in a daemon thread."""

    def __init__(self):
        self._folder = None
        handler = functools.partial(self._handle)
        self.server = _Server(("127.0.0.1", 0), handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def serve(self, folder):
        """Serves FOLDER from now on."""
        self._folder = folder

    def _handle(self, *args, **kwargs):
        return _QuietCovers(*args, directory=self._folder or os.devnull, **kwargs)

    def close(self):
        self.server.shutdown()
        self.server.server_close()
