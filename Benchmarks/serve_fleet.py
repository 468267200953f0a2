#!/usr/bin/env python3
"""`make bench-fleet`: several `albumkit serve` hosts over one PostgreSQL library, as people run
AlbumKit when one machine is not enough (README, "A fleet of serve hosts").

    Benchmarks/serve_fleet.py [--bin DIR] [--albums N] [--hosts 3] [--seconds 30] [--changes 100]
                              [--connections 64] [--work DIR]

The library is made as users make one: `init` on PostgreSQL, `import` of the corpus bundle with
covers (Benchmarks/make-corpus.py, cached in the work folder), then a few changes. Each host
gets a library folder of its own (as separate machines would) pointing at the same database.
Then, with every host up:
- `wrk` against every host at once (`--connections` each) on `GET /api/albums?limit=100` in the
  middle of the library, then on the same page with a query (`q=`): requests/s and p99 per host;
- a change through the first host (`POST /api/albums`) timed until it reaches the server-sent
  events of every other host, `--changes` times: median and p99;
- the page's search (`GET /api/albums?q=…&limit=100`, one client): median and p99;
- each host's peak RSS after the pages alone (before any query) and at the end, and the CPU
  seconds the hosts and PostgreSQL used under `wrk` (what limits the fleet on this machine).
Prints the result as JSON and as the Markdown section of BENCHMARKS.md. Uses the project's
throwaway PostgreSQL server (scripts/postgres-server.sh: started if it is not running, and then
stopped) and a database of its own, dropped at the end. Everything runs on 127.0.0.1.
"""
import argparse, http.client, json, os, re, statistics, subprocess, sys, threading, time, urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import serve_bench  # noqa: E402  (Served, EventTimes, percentile, parse_duration)

POSTGRES = os.path.join(ROOT, "scripts", "postgres-server.sh")
QUERY = "artist:wires year:1990..1999"
SEARCHES = ["artist:wires", "title:river", "genre:jazz year:1980..1989", "moon", "label:warp"]


def psql(url, sql):
    return subprocess.run(["psql", "-qAt", url, "-c", sql], capture_output=True, text=True, check=True, timeout=600).stdout.strip()


def cpu_seconds(pids):
    """User plus system CPU seconds the processes `pids` have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass  # a backend that ended between the listing and the read
    return total / ticks


def postgres_pids():
    """Every process of the PostgreSQL server (the postmaster and its backends)."""
    out = subprocess.run(["pgrep", "-f", "postgres"], capture_output=True, text=True).stdout.split()
    return [int(pid) for pid in out]


def wrk_all(urls, connections, seconds):
    """`wrk` against every URL at once; a dict per URL: requests/s, p50/p99 ms, errors."""
    processes = [subprocess.Popen(["wrk", "-t1", "-c%d" % connections, "-d%ds" % seconds, "--latency", url],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for url in urls]
    results = []
    for process in processes:
        output = process.communicate()[0]
        rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
        p50 = serve_bench.parse_duration(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1))
        p99 = serve_bench.parse_duration(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))
        errors = re.findall(r"Non-2xx or 3xx responses: \d+|Socket errors: .*", output)
        results.append(dict(rate=rate, p50_ms=p50 * 1000, p99_ms=p99 * 1000, errors="; ".join(errors)))
    return results


class ConnectionCount:
    """The most connections the fleet held to its database, sampled every half second on a thread
    until `stop`."""

    def __init__(self, admin, database):
        self.most = 0
        self.done = threading.Event()
        self.sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = '%s'" % database
        self.admin = admin
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while not self.done.wait(0.5):
            try:
                self.most = max(self.most, int(psql(self.admin, self.sql)))
            except (subprocess.SubprocessError, ValueError):
                pass  # one sample lost under load

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.most


def timed_get(port, path, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.monotonic()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    elapsed = time.monotonic() - started
    connection.close()
    if response.status != 200:
        raise RuntimeError("GET %s answered %d: %s" % (path, response.status, body[:200]))
    return elapsed, json.loads(body)


def search_time(port, search, timeout=120):
    """Seconds the page's search `search` took on one connection; `timeout` when it did not
    answer within it (a query lists the whole library, and `wrk` may have left a backlog)."""
    try:
        return timed_get(port, "/api/albums?limit=100&q=%s" % urllib.parse.quote(search), timeout)[0]
    except (TimeoutError, OSError):
        return timeout


def change_spread(hosts, changes):
    """`changes` albums added through the first host; for each, the time until every other
    host's event stream has said so. Returns (latencies in seconds, add times)."""
    listeners = [serve_bench.EventTimes(host.port) for host in hosts[1:]]
    time.sleep(0.5)  # every stream is open
    spreads, adds = [], []
    for number in range(changes):
        for listener in listeners:
            while not listener.arrivals.empty():
                listener.arrivals.get()
        body = json.dumps({"title": "Fleet change %d" % number, "artist": "Fleet"}).encode()
        connection = http.client.HTTPConnection("127.0.0.1", hosts[0].port, timeout=60)
        started = time.monotonic()
        connection.request("POST", "/api/albums", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        adds.append(time.monotonic() - started)
        if response.status not in (200, 201):
            raise RuntimeError("POST /api/albums answered %d" % response.status)
        arrivals = [first_library_event(listener) for listener in listeners]
        spreads.append(max(arrivals) - started)
    return spreads, adds


def first_library_event(listener, timeout=10):
    """When `listener` saw its next event about the albums (any `library.` event)."""
    deadline = time.monotonic() + timeout
    while True:
        arrived, event = listener.arrivals.get(timeout=max(0.01, deadline - time.monotonic()))
        if event.startswith("library."):
            return arrived


def made_library(options, binary, env):
    """The PostgreSQL library, made by `init`, an import of the corpus bundle with covers and a
    few changes; returns the seconds the import took."""
    corpus = os.path.join(options.work, "corpus-fleet-%d" % options.albums)
    subprocess.run([sys.executable, os.path.join(HERE, "make-corpus.py"), "bundle", "--albums", str(options.albums),
                    "--cover-bytes", "600", "--formats", "tar.gz", corpus], check=True)
    bundle = os.path.join(corpus, "bundle-%d.tar.gz" % options.albums)
    library = os.path.join(options.work, "fleet-host-0")
    subprocess.run([binary, "--library", library, "init"], env=env, check=True, stdout=subprocess.DEVNULL)
    started = time.monotonic()
    subprocess.run([binary, "--library", library, "import", bundle], env=env, check=True, stdout=subprocess.DEVNULL)
    seconds = time.monotonic() - started
    for arguments in [["add", "--title", "Fleet Added", "--artist", "Fleet"], ["update", "2", "--genre", "Changed"],
                      ["remove", "3"], ["undo"], ["select", "5"]]:
        subprocess.run([binary, "--library", library] + arguments, env=env, check=True, stdout=subprocess.DEVNULL)
    return library, seconds


def measure(options):
    binary = os.path.join(os.path.abspath(options.bin), "albumkit")
    os.makedirs(options.work, exist_ok=True)
    for name in os.listdir(options.work):
        if name.startswith("fleet-host-"):
            subprocess.run(["rm", "-rf", os.path.join(options.work, name)], check=True)
    started_postgres = subprocess.run([POSTGRES, "status"], capture_output=True).returncode != 0
    if started_postgres:
        subprocess.run([POSTGRES, "start"], check=True, capture_output=True, timeout=300)
    admin = subprocess.run([POSTGRES, "url"], capture_output=True, text=True, check=True).stdout.strip()
    database = "albumkit_fleet_%d" % os.getpid()
    psql(admin, "CREATE DATABASE %s" % database)
    url = admin.rsplit("/", 1)[0] + "/" + database
    env = {"HOME": options.work, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "XDG_CONFIG_HOME": os.path.join(options.work, "no-config"),
           "XDG_DATA_HOME": os.path.join(options.work, "no-data"), "ALBUMKIT_STORAGE_BACKEND": "postgres", "ALBUMKIT_STORAGE_URL": url,
           # A million albums' list is about 300 MB, past the default limit on one list.
           "ALBUMKIT_LIMITS_LIST_BYTES": "2000000000"}
    hosts = []
    try:
        library, import_seconds = made_library(options, binary, env)
        connections_allowed = int(psql(admin, "SHOW max_connections"))
        for index in range(options.hosts):
            folder = library if index == 0 else os.path.join(options.work, "fleet-host-%d" % index)
            os.makedirs(folder, exist_ok=True)
            hosts.append(serve_bench.Served([binary, "--library", folder], env))
        middle = "/api/albums?limit=100&offset=%d" % (options.albums // 2)
        queried = "/api/albums?limit=100&q=%s" % urllib.parse.quote(QUERY)
        for host in hosts:  # warm up every host and check that it serves the library
            elapsed, page = timed_get(host.port, middle)
            if not page.get("albums"):
                raise RuntimeError("host on port %d served no albums at %s" % (host.port, middle))
        server_pids = [host.process.pid for host in hosts]
        database_pids = postgres_pids()
        cpu_before = (cpu_seconds(server_pids), cpu_seconds(database_pids), time.monotonic())
        counter = ConnectionCount(admin, database)
        plain = wrk_all([host.url + middle for host in hosts], options.connections, options.seconds)
        cpu_after = (cpu_seconds(server_pids), cpu_seconds(postgres_pids()), time.monotonic())
        most_connections = counter.stop()
        # The peak so far comes from pages alone (and warming up); queries and changes follow.
        page_peaks = [host.peak_rss_mib() for host in hosts]
        wall = cpu_after[2] - cpu_before[2]
        print("wrk: %s" % json.dumps(plain), flush=True)
        # The searches and the changes before the query load: queries queued by `wrk` outlive it.
        searches = [search_time(hosts[0].port, search) for search in SEARCHES]
        spreads, adds = change_spread(hosts, options.changes)
        query = wrk_all([host.url + queried for host in hosts], options.connections, options.seconds)
        peaks = [host.peak_rss_mib() for host in hosts]
    finally:
        for host in hosts:
            host.__exit__(None, None, None)
        try:
            psql(admin, "DROP DATABASE IF EXISTS %s" % database)
        finally:
            if started_postgres:
                subprocess.run([POSTGRES, "stop"], capture_output=True)
    return dict(albums=options.albums, hosts=options.hosts, connections=options.connections, seconds=options.seconds,
                import_s=round(import_seconds, 1), max_connections=connections_allowed, most_connections=most_connections, cores=os.cpu_count(),
                plain=plain, query=query, query_text=QUERY,
                hosts_cpu=round((cpu_after[0] - cpu_before[0]) / wall, 2), database_cpu=round((cpu_after[1] - cpu_before[1]) / wall, 2),
                search_p50_ms=statistics.median(searches) * 1000, search_p99_ms=max(searches) * 1000,
                spread_p50_ms=statistics.median(spreads) * 1000, spread_p99_ms=serve_bench.percentile(spreads, 0.99) * 1000,
                post_p50_ms=statistics.median(adds) * 1000, post_p99_ms=serve_bench.percentile(adds, 0.99) * 1000,
                changes=options.changes, peak_rss_mib=[round(peak, 1) for peak in peaks],
                page_peak_rss_mib=[round(peak, 1) for peak in page_peaks])


def markdown(result):
    """The fleet section of BENCHMARKS.md."""
    def verdict(met):
        return "met" if met else "NOT met"
    lines = ["### A fleet: %d `serve` hosts over one PostgreSQL library (`make bench-fleet`)" % result["hosts"], "",
             "%s albums imported from a bundle with covers into PostgreSQL on 127.0.0.1 (%.0f s), then changed; "
             "`wrk -t1 -c%d -d%ds` against every host at once, on a machine of %d cores running the hosts, "
             "PostgreSQL (max_connections %d) and `wrk`." % ("{:,}".format(result["albums"]), result["import_s"], result["connections"],
                                                              result["seconds"], result["cores"], result["max_connections"]), "",
             "| request | host | requests/s | p50 | p99 | errors | aim p99 < 50 ms |", "|---|---:|---:|---:|---:|---|---|"]
    for kind, label in [("plain", "`GET /api/albums?limit=100` (middle)"), ("query", "the same with `q=%s`" % result["query_text"])]:
        for index, row in enumerate(result[kind]):
            lines.append("| %s | %d | %s | %.1f ms | %.1f ms | %s | %s |" % (label, index + 1, "{:,.0f}".format(row["rate"]), row["p50_ms"],
                                                                          row["p99_ms"], row["errors"] or "none", verdict(row["rate"] > 0 and row["p99_ms"] < 50 and not row["errors"])))
    lines += ["", "| measure | figure | aim |", "|---|---:|---|",
              "| a change through host 1 seen by every other host's events, median | %.0f ms | |" % result["spread_p50_ms"],
              "| the same, p99 over %d changes | %.0f ms | %s (< 1 s) |" % (result["changes"], result["spread_p99_ms"], verdict(result["spread_p99_ms"] < 1000)),
              "| `POST /api/albums` through host 1, median / p99 | %.0f / %.0f ms | |" % (result["post_p50_ms"], result["post_p99_ms"]),
              "| the page's search (`q=`, one client, %d searches; 120 000 ms is a time-out), median / worst | %.0f / %.0f ms | %s (< 100 ms) |" % (len(SEARCHES),
                  result["search_p50_ms"], result["search_p99_ms"], verdict(result["search_p99_ms"] < 100)),
              "| peak RSS per host after the pages alone | %s MiB | %s (≤ 128 MB) |" % (" / ".join("%.0f" % peak for peak in result["page_peak_rss_mib"]),
                                                                                     verdict(max(result["page_peak_rss_mib"]) * 1.048576 <= 128)),
              "| peak RSS per host after the searches, changes and queries too | %s MiB | %s (≤ 128 MB) |" % (
                  " / ".join("%.0f" % peak for peak in result["peak_rss_mib"]), verdict(max(result["peak_rss_mib"]) * 1.048576 <= 128)),
              "| CPU in use under `wrk`: the hosts / PostgreSQL (cores) | %.2f / %.2f | |" % (result["hosts_cpu"], result["database_cpu"]),
              "| most connections the hosts held to the database at once | %d | |" % result["most_connections"]]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--albums", type=int, default=1_000_000)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "albumkit-bench"))
    options = parser.parse_args()
    if options.hosts < 2:
        parser.error("a fleet has at least two hosts")
    options.work = os.path.abspath(options.work)
    result = measure(options)
    print(json.dumps(result, indent=1))
    print("\n".join(markdown(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
