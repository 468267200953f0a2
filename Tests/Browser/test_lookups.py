"""The page's "Find covers" (SPEC 10, 11): the lookup services of covers.fetchers asked about
the albums in view that name no cover. iTunes Search is played by a local server answering as
the API documents (a search, then the artwork at 600x600), the artwork held back until the test
lets it go: each album's spinner shows while it is looked up and stops on cover.fetched (an
image) or cover.failed (a mark), and the round's outcome is said."""
import json

from conftest import ROOT, LocalService
from test_page import CHROMIUM, browser, open_page, page, shot  # noqa: F401 (fixtures)


class SlowITunes(LocalService):
    """The iTunes Search API: an album for any term but "Nobody", its artwork after `release`."""

    def __init__(self):
        body = next((ROOT / "Bundles" / "starter" / "covers").glob("*.png")).read_bytes()
        requests = self.requests = []

        def answer(path, query):
            requests.append(path)
            if path == "/search":
                term = query.get("term", [""])[0]
                artist, title = term.split(" ", 1) if " " in term else (term, "")
                results = [] if artist == "Nobody" else [{
                    "wrapperType": "collection", "collectionType": "Album", "collectionId": 1440857781,
                    "artistName": artist, "collectionName": title,
                    "artworkUrl100": f"{self.url}/image/thumb/Music/{abs(hash(term))}/100x100bb.jpg"}]
                return 200, "text/javascript; charset=utf-8", json.dumps({"resultCount": len(results), "results": results}).encode()
            if path.endswith("/600x600bb.jpg"):
                self.release.wait(60)
                return 200, "image/png", body
            return 404, "text/plain", b"Not Found"

        super().__init__(answer)


def test_find_covers_spins_each_album_until_its_cover_comes(page, sandbox):
    itunes = SlowITunes()
    try:
        config = sandbox.folder / "config" / "albumkit" / "config.yaml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(
            "covers: {fetchers: [bundle, file, http, itunes], minPixels: 200}\n"
            "lookups: {userAgent: \"albumkit-tests/1.0 ( tests@example.com )\"}\n"
            f"plugins:\n  itunes: {{baseURL: \"{itunes.url}\"}}\n")
        albums = sandbox.folder / "coverless.json"
        albums.write_text(json.dumps([{"title": "Wanted", "artist": "Someone"}, {"title": "Nothing", "artist": "Nobody"}]))
        sandbox.run("init")
        sandbox.run("import", str(albums))
        server = sandbox.start()
        open_page(page, server)
        assert page.locator(".cell .spinner").count() == 0
        assert not itunes.requests, "nothing is asked before the action"

        page.locator("#find-covers").click()
        page.wait_for_selector(".cell.current .spinner", timeout=15_000)
        assert page.locator("#details [data-field=cover]").inner_text() == "fetching…"
        shot(page, "find-covers-spinner")
        itunes.release.set()
        page.wait_for_selector(".cell.current img", timeout=30_000)
        page.wait_for_selector(".cell .failed-mark", timeout=30_000)
        assert page.locator(".cell .spinner").count() == 0
        page.wait_for_selector("#toast:not([hidden])")
        said = page.locator("#toast span").inner_text()
        assert "Covers: 1 found, 0 known, 1 not found (requests: itunes 3)" in said, said
        stored = {album["title"]: album["cover"] for album in sandbox.albums()["albums"]}
        assert stored == {"Wanted": "stored", "Nothing": "none"}, stored

        # Asked again, the services are not: the miss is remembered with the library.
        asked = len(itunes.requests)
        page.locator("#find-covers").click()
        page.wait_for_function("document.querySelector('#toast span').textContent.includes('0 found')")
        assert len(itunes.requests) == asked
    finally:
        itunes.close()


def test_find_covers_refuses_what_it_cannot_do(starter):
    """A body that is not {"ids": [...]}, too many albums, an unknown album: refused, nothing asked."""
    _, server = starter
    for body in [{"ids": "x"}, {}, {"ids": [str(index) for index in range(1001)]}]:
        status, answer = server.json("POST", "/api/covers/find", json_body=body)
        assert status == 422, (body if len(str(body)) < 80 else "1001 ids", status, answer)
    status, answer = server.json("POST", "/api/covers/find", json_body={"ids": ["no-such-album"]})
    assert status == 404, answer
    # The starter's albums all name their covers: nothing to look up, nothing asked.
    ids = [album["id"] for album in server.json("GET", "/api/albums?limit=100", expect=200)[1]["albums"]]
    _, round = server.json("POST", "/api/covers/find", json_body={"ids": ids}, expect=200)
    assert round == {"fetched": 0, "cached": 0, "failed": [], "requests": {}, "notes": []}, round
