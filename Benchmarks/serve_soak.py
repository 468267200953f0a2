"""`make soak`: `albumkit serve` under steady API load for a while (default 10 minutes) — reads,
covers with and without ETag, add + delete, selections, undo + redo, event-stream clients
coming and going, backups and uploads — sampling the server's resident memory. It leaks
nothing when the memory after the warm-up minute stays flat to the end; exits 1 when it grows
by more than 25 % (and 16 MiB), or when any request failed. Loopback only; bounded in time.

    python3 Benchmarks/serve_soak.py [--bin .build/release] [--minutes 10] [--albums N] [--work DIR]

The library is made as users make one: with `--albums N` (default 100 000), an SQLite library
imported from the corpus bundle with covers (Benchmarks/make-corpus.py, cached in the work
folder) and then changed; with `--albums 0`, the starter library (`init --starter` imports the
starter bundle with its covers; the load changes it). Besides the memory it reports
each method's median and p99 (the aims of issue 37: `POST`/`PATCH`/`DELETE` p99 < 30 ms, RSS
≤ 128 MB).
"""
import argparse
import http.client
import statistics
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_kib(pid, field="VmRSS"):
    with open("/proc/%d/status" % pid) as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field))


class Load:
    """Worker threads sending a steady mix of requests, each on a kept-alive connection."""

    def __init__(self, port, deadline):
        self.port, self.deadline = port, deadline
        self.counts, self.failures, self.latencies = {}, [], {}
        self.lock = threading.Lock()

    def call(self, connection, method, path, body=None, headers=None, expect=(200,)):
        headers = dict(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        started = time.monotonic()
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        elapsed = time.monotonic() - started
        with self.lock:
            self.counts[method] = self.counts.get(method, 0) + 1
            if not path.startswith(("/api/export", "/api/import")):
                self.latencies.setdefault(method, []).append(elapsed)
            if response.status not in expect:
                self.failures.append("%s %s: %d %s" % (method, path, response.status, data[:200]))
        return response.status, data

    def reader(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sha = None
        while time.monotonic() < self.deadline:
            _, data = self.call(connection, "GET", "/api/albums?limit=100")
            page = json.loads(data)
            sha = next((a["coverSha256"] for a in page["albums"] if a["coverSha256"]), sha)
            if sha:
                self.call(connection, "GET", "/api/covers/" + sha)
                self.call(connection, "GET", "/api/covers/" + sha, headers={"If-None-Match": '"%s"' % sha}, expect=(304,))
            self.call(connection, "GET", "/api/current")
            time.sleep(0.01)

    def writer(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        number = 0
        while time.monotonic() < self.deadline:
            number += 1
            _, data = self.call(connection, "POST", "/api/albums", {"title": "Soak %d" % number, "artist": "Load", "year": "2024"}, expect=(201,))
            album = json.loads(data)["album"]
            path = "/api/albums/" + urllib.parse.quote(album["id"], safe="")
            self.call(connection, "PATCH", path, {"genre": "Soak"})
            self.call(connection, "PUT", "/api/current", {"id": album["id"]})
            self.call(connection, "POST", path + "/move", {"to": 1})
            self.call(connection, "POST", "/api/undo")
            self.call(connection, "POST", "/api/redo")
            self.call(connection, "DELETE", path)
            time.sleep(0.05)

    def listeners(self):
        while time.monotonic() < self.deadline:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            connection.request("GET", "/api/events")
            response = connection.getresponse()
            for _ in range(20):  # a few events, then the client goes away
                response.fp.readline()
            connection.close()
            with self.lock:
                self.counts["events"] = self.counts.get("events", 0) + 1

    def transfers(self, starter, pause):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        while time.monotonic() < self.deadline:
            self.call(connection, "GET", "/api/export")
            # Every starter album is there already: read and checked in full, skipped, no history step
            # (an undo here would take back the writer's changes).
            self.call(connection, "POST", "/api/import?name=starter.tar.gz", starter, headers={"Content-Type": "application/octet-stream"})
            time.sleep(pause)


def made_library(binary, env, albums, work):
    """The library the soak serves: the starter (`albums` 0), or an SQLite library imported
    from the corpus bundle of `albums` albums with covers, then changed."""
    if not albums:
        subprocess.run([binary, "init", "--starter"], env=env, check=True, stdout=subprocess.DEVNULL)
        return
    corpus = os.path.join(work, "corpus-soak-%d" % albums)
    subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "make-corpus.py"), "bundle", "--albums", str(albums),
                    "--cover-bytes", "600", "--formats", "tar.gz", corpus], check=True)
    env["ALBUMKIT_STORAGE_BACKEND"] = "sqlite"
    for arguments in [["init"], ["import", os.path.join(corpus, "bundle-%d.tar.gz" % albums)],
                      ["add", "--title", "Soak Added", "--artist", "Soak"], ["update", "2", "--genre", "Changed"],
                      ["remove", "3"], ["undo"], ["select", "5"]]:
        subprocess.run([binary] + arguments, env=env, check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--albums", type=int, default=100_000)
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "albumkit-bench"))
    options = parser.parse_args()
    binary = os.path.join(os.path.abspath(options.bin), "albumkit")
    os.makedirs(options.work, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="albumkit-soak-") as folder:
        env = {"HOME": folder, "XDG_DATA_HOME": folder + "/data", "XDG_CONFIG_HOME": folder + "/config", "PATH": "/usr/bin:/bin"}
        made_library(binary, env, options.albums, os.path.abspath(options.work))
        server = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        started = time.monotonic()
        deadline = started + options.minutes * 60
        load = Load(port, deadline)
        with open(os.path.join(ROOT, "Bundles", "starter.tar.gz"), "rb") as handle:
            starter = handle.read()
        # The starter's albums go in before the load starts: an import that adds them is a
        # history step, which, between the writer's undo and redo, leaves it nothing to redo.
        load.call(http.client.HTTPConnection("127.0.0.1", port, timeout=600), "POST", "/api/import?name=starter.tar.gz", starter,
                  headers={"Content-Type": "application/octet-stream"})
        workers = [threading.Thread(target=load.reader) for _ in range(3)] + [threading.Thread(target=load.writer),
                   threading.Thread(target=load.listeners), threading.Thread(target=load.transfers, args=(starter, 60 if options.albums else 5))]
        for worker in workers:
            worker.start()
        samples = []
        warmup = min(60, options.minutes * 60 / 5)
        while time.monotonic() < deadline:
            time.sleep(5)
            samples.append((time.monotonic() - started, rss_kib(server.pid) / 1024))
        for worker in workers:
            worker.join()
        peak = rss_kib(server.pid, "VmHWM") / 1024
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=60)
        after_warmup = next(rss for at, rss in samples if at >= warmup)
        end = samples[-1][1]
        growth = end - after_warmup
        requests = sum(count for kind, count in load.counts.items() if kind != "events")
        result = dict(minutes=options.minutes, requests=requests, per_second=requests / (options.minutes * 60), event_clients=load.counts.get("events", 0),
                      rss_after_warmup_mib=round(after_warmup, 1), rss_end_mib=round(end, 1), peak_rss_mib=round(peak, 1),
                      growth_mib=round(growth, 1), failures=len(load.failures), stopped_with=server.returncode)
        result["latency_ms"] = {method: dict(count=len(times), median=round(statistics.median(times) * 1000, 1),
                                             p99=round(sorted(times)[min(len(times) - 1, int(0.99 * len(times)))] * 1000, 1))
                                for method, times in sorted(load.latencies.items())}
        result["albums"] = options.albums
        print(json.dumps(result, indent=1))
        print("soak: %.0f min, %d requests (%.0f/s), %d event clients; RSS %.1f MiB after warm-up, %.1f MiB at the end, peak %.1f MiB"
              % (options.minutes, requests, result["per_second"], result["event_clients"], after_warmup, end, peak))
        for method, figures in result["latency_ms"].items():
            print("soak: %-6s %6d requests, median %.1f ms, p99 %.1f ms" % (method, figures["count"], figures["median"], figures["p99"]))
        for failure in load.failures[:10]:
            print("soak: FAILED " + failure, file=sys.stderr)
        leaked = growth > max(16, 0.25 * after_warmup)
        if leaked:
            print("soak: memory grew by %.1f MiB after the warm-up: a leak" % growth, file=sys.stderr)
        too_large = peak * 1.048576 > 128
        if too_large:
            print("soak: peak RSS %.1f MiB is over 128 MB" % peak, file=sys.stderr)
        return 1 if leaked or too_large or load.failures or server.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
