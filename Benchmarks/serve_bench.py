"""The `serve` rows of Benchmarks/run.py: `wrk` against `GET /api/albums?limit=100` on a
large SQLite library, and the change-to-page latency — from an `albumkit add` in another
process to its event at a server-sent-events client — for the json, sqlite and postgres
backends. Imported by run.py; every server runs on 127.0.0.1 and is stopped with SIGTERM."""
import http.client
import json
import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import threading
import time


class Served:
    """`albumkit serve` on a free loopback port, stopped (SIGTERM) when the block ends."""

    def __init__(self, command, env):
        self.process = subprocess.Popen(command + ["serve", "--listen", "127.0.0.1:0"], env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise RuntimeError("serve did not start: %r %s" % (line, self.process.stderr.read()[-500:]))
        self.port = int(match.group(1))
        self.url = "http://127.0.0.1:%d" % self.port

    def peak_rss_mib(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()


class EventTimes:
    """Reads `/api/events` on a thread and queues (arrival time, event name)."""

    def __init__(self, port):
        self.arrivals = queue.Queue()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.connection.request("GET", "/api/events")
        response = self.connection.getresponse()
        threading.Thread(target=self.read, args=(response,), daemon=True).start()

    def read(self, response):
        try:
            for line in response:
                if line.startswith(b"data: "):
                    self.arrivals.put((time.monotonic(), json.loads(line[6:])["event"]))
        except (OSError, ValueError):
            pass

    def next(self, name, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            arrived, event = self.arrivals.get(timeout=max(0.01, deadline - time.monotonic()))
            if event == name:
                return arrived


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def throughput(bench, albums, seconds):
    """wrk -c64 on GET /api/albums?limit=100 of an `albums`-album SQLite library made as users
    make one: imported from the corpus bundle with covers, then changed (so every album has a
    stored cover to judge and the history holds the import)."""
    library, env = bench.made_library(albums, "sqlite")
    command = bench.albumkit(library)
    with Served(command, env) as server:
        target = server.url + "/api/albums?limit=100&offset=%d" % (albums // 2)
        subprocess.run(["wrk", "-t1", "-c8", "-d1s", target], check=True, capture_output=True)  # warm up
        output = subprocess.run(["wrk", "-t2", "-c64", "-d%ds" % seconds, "--latency", target], check=True,
                                capture_output=True, text=True).stdout
        rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
        p99 = parse_duration(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))
        p50 = parse_duration(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1))
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)", output)
        return dict(albums=albums, seconds=seconds, rate=rate, p50_ms=p50 * 1000, p99_ms=p99 * 1000, peak_mib=server.peak_rss_mib(),
                    errors=errors.group(0) if errors else "", met=p99 * 1000 < 20)


def parse_duration(text):
    number, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[unit]


def change_latency(bench, backend, changes, url=None):
    """From the start of `albumkit add` in another process to `library.changedElsewhere` (the
    server reloading that change) at an SSE client, `changes` times."""
    library = bench.fresh("serve-latency-" + backend)
    env = dict(bench.env, ALBUMKIT_STORAGE_BACKEND=backend)
    if url:
        env["ALBUMKIT_STORAGE_URL"] = url
    command = bench.albumkit(library)
    subprocess.run(command + ["init", "--starter"], env=env, check=True, stdout=subprocess.DEVNULL)
    latencies, adds = [], []
    with Served(command, env) as server:
        events = EventTimes(server.port)
        time.sleep(0.3)  # the stream is open and the watcher has looked once
        for number in range(changes):
            started = time.monotonic()
            subprocess.run(command + ["add", "--title", "Change %d" % number, "--artist", "Bench"], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            adds.append(time.monotonic() - started)
            latencies.append(events.next("library.changedElsewhere") - started)
            while not events.arrivals.empty():
                events.arrivals.get()
    return dict(backend=backend, changes=changes, p50_ms=statistics.median(latencies) * 1000, p99_ms=percentile(latencies, 0.99) * 1000,
                add_ms=statistics.median(adds) * 1000, met=percentile(latencies, 0.99) < 1.0)


def rows(bench, postgres_url):
    """Every serve row, as dicts for run.py's tables."""
    sizes = bench.sizes["serve"]
    out = []
    try:
        out.append(dict(kind="wrk", **throughput(bench, sizes["albums"], sizes["seconds"])))
    except (subprocess.SubprocessError, OSError, RuntimeError, AttributeError) as error:
        out.append(dict(kind="wrk", failed=str(error)[:300]))
    for backend in ["json", "sqlite", "postgres"]:
        if backend == "postgres" and not postgres_url:
            out.append(dict(kind="latency", backend=backend, failed="no PostgreSQL server"))
            continue
        try:
            out.append(dict(kind="latency", **change_latency(bench, backend, sizes["changes"], postgres_url if backend == "postgres" else None)))
        except (subprocess.SubprocessError, OSError, RuntimeError, queue.Empty) as error:
            out.append(dict(kind="latency", backend=backend, failed=str(error)[:300] or type(error).__name__))
    return out


def markdown(table):
    """The serve section of BENCHMARKS.md."""
    if not table:
        return []
    lines = []
    for row in table:
        if row["kind"] == "wrk":
            lines += ["", "### `serve`: `wrk -t2 -c64` on `GET /api/albums?limit=100` (aim p99 < 20 ms)", "",
                      "| library | duration | requests/s | p50 | p99 | serve peak RSS | aim |", "|---|---:|---:|---:|---:|---:|---|"]
            if "failed" in row:
                lines.append("| failed: %s | | | | | | |" % row["failed"].replace("|", "/"))
            else:
                lines.append("| %s albums, sqlite | %d s | %s | %.1f ms | %.1f ms | %.0f MiB | %s%s |" % (
                    "{:,}".format(row["albums"]), row["seconds"], "{:,.0f}".format(row["rate"]), row["p50_ms"], row["p99_ms"],
                    row["peak_mib"], "met" if row["met"] else "NOT met", (" (%s)" % row["errors"]) if row["errors"] else ""))
    latency = [row for row in table if row["kind"] == "latency"]
    if latency:
        lines += ["", "### `serve`: change-to-page latency (aim: within 1 s)", "",
                  "From the start of `albumkit add` in another process to the change's event at an SSE client. "
                  "The median time `albumkit add` itself takes is shown beside it.", "",
                  "| backend | changes | median | p99 | `albumkit add` alone (median) | how the change is seen | aim |",
                  "|---|---:|---:|---:|---:|---|---|"]
        how = {"json": "poll of the file's identity (100 ms)", "sqlite": "poll of the file and its -wal (100 ms)",
               "postgres": "LISTEN/NOTIFY"}
        for row in latency:
            if "failed" in row:
                lines.append("| %s | not available: %s | | | | | |" % (row["backend"], row["failed"].replace("|", "/")))
            else:
                lines.append("| %s | %d | %.0f ms | %.0f ms | %.0f ms | %s | %s |" % (
                    row["backend"], row["changes"], row["p50_ms"], row["p99_ms"], row["add_ms"], how[row["backend"]],
                    "met" if row["met"] else "NOT met"))
    return lines
