"""The page of `albumkit serve` for a real collection, in a real headless Chromium: search as
you type with a grid of results, sort, jump, the choice of current album saved whether its
page of data is loaded or not, the edit form following the album shown, delete with undo,
undo and redo that say what they did, the keys wherever focus is, the wheel, a phone's
width, light and dark with readable contrast, placeholder tiles, and a favicon.
Screenshots go to ARTIFACTS (desktop and 360 px phone, light and dark)."""
import json
import time

import pytest

from conftest import ARTIFACTS
from test_page import CHROMIUM, SlowCovers, browser, cells, current_title, open_page, shot  # noqa: F401 (fixtures)

ARTISTS = ["Abba", "Blondie", "Can", "Devo", "Eno", "Faust", "Genesis", "Hole", "Iggy Pop", "Japan"]


def collection(sandbox, count=240):
    """A library of `count` coverless albums made by importing an album list (ten artists,
    years 1960-1999), and a server on it."""
    albums = [{"title": f"Record {index:03d}", "artist": ARTISTS[index % 10], "genre": ["Rock", "Pop", "Jazz"][index % 3],
               "year": str(1960 + index % 40)} for index in range(1, count + 1)]
    path = sandbox.folder / "collection.json"
    path.write_text(json.dumps(albums))
    sandbox.run("init")
    sandbox.run("import", str(path))
    return sandbox.start()


def test_a_broad_search_says_about_how_many_albums_it_found(page, tmp_path):
    """A word a tenth of a large SQLite library holds: the first page is the first albums
    `albumkit list` gives, and the title says about how many match (the server read only as far
    as the page needed and estimated the rest); a query whose matches are all read says exactly."""
    from conftest import Sandbox
    sandbox = Sandbox(tmp_path, {"ALBUMKIT_STORAGE_BACKEND": "sqlite"})
    try:
        server = collection(sandbox, count=3000)
        open_page(page, server)
        page.locator("#search").press_sequentially("abba", delay=20)
        page.wait_for_function("document.querySelector('#results-title').textContent.startsWith('about ')")
        title = page.locator("#results-title").inner_text()
        assert title.endswith("albums for “abba”") and 270 <= int(title.split()[1].replace(",", "")) <= 330, title
        listed = [album["id"] for album in json.loads(sandbox.run("list", "abba", "--json").stdout)["albums"]]
        assert len(listed) == 300
        shown = page.eval_on_selector_all("#grid .tile", "tiles => tiles.map((tile) => tile.dataset.id)")
        assert shown == listed[:len(shown)] and len(shown) > 0
        narrow = "artist:abba year:1980 title:1"
        expected = json.loads(sandbox.run("list", *narrow.split(), "--json").stdout)["albums"]
        assert 0 < len(expected) < 60
        page.fill("#search", narrow)
        page.wait_for_function(f"document.querySelector('#results-title').textContent === '{len(expected)} albums for “{narrow}”'")
    finally:
        sandbox.close()


def make_page(browser, width=1100, height=760, scheme="dark"):
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


@pytest.fixture
def page(browser):
    context, page, errors = make_page(browser)
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def wait_current_saved(page, title):
    page.wait_for_function(f"fetch('/api/current').then(r => r.json()).then(j => j.album && j.album.title === {json.dumps(title)})")


def test_search_as_you_type_shows_a_grid_and_a_click_makes_the_choice_current_across_a_reload(page, sandbox):
    server = collection(sandbox)
    open_page(page, server)
    page.locator("#search").press_sequentially("artist:devo year:1990..", delay=20)
    expected = [a for a in sandbox.albums()["albums"] if a["artist"] == "Devo" and int(a["year"]) >= 1990]
    page.wait_for_function(f"document.querySelector('#results-title').textContent === '{len(expected)} albums for “artist:devo year:1990..”'")
    assert page.locator("#grid .tile").count() == len(expected) > 0
    assert page.locator("#search-error").is_hidden()
    shot(page, "search-grid")
    chosen = expected[-1]
    page.locator(f"#grid .tile[data-id='{chosen['id']}']").click()
    page.wait_for_function(f"document.querySelector('#details [data-field=title]').textContent === {json.dumps(chosen['title'])}")
    wait_current_saved(page, chosen["title"])
    assert page.locator(".cell.current .view").get_attribute("data-id") == chosen["id"]
    page.reload()
    open_page(page, server)
    assert current_title(page) == chosen["title"]
    assert json.loads(sandbox.run("current", "--json").stdout)["album"]["id"] == chosen["id"]

    page.fill("#search", "year:abc")
    page.wait_for_selector("#search-error:not([hidden])")
    assert "year" in page.locator("#search-error").inner_text()


def test_any_field_sorts_and_a_letter_or_a_year_jumps(page, sandbox):
    server = collection(sandbox)
    open_page(page, server)
    page.select_option("#sort", "year-")
    page.wait_for_selector("#results:not([hidden]) .tile")
    first = page.locator("#grid .tile").first.get_attribute("aria-label")
    assert first.endswith("1999"), first
    page.select_option("#sort", "title-")
    page.wait_for_function("document.querySelector('#grid .tile').getAttribute('aria-label').startsWith('Record 240')")
    page.select_option("#sort", "artist")
    page.locator("#letters button", has_text="G").click()
    page.wait_for_function("document.querySelector('#grid .tile').getAttribute('aria-label').includes(' by Genesis')")
    assert page.locator("#results-earlier").is_visible()
    page.fill("#jump-year", "1985")
    page.locator("#jump-year").dispatch_event("change")
    page.wait_for_function("document.querySelector('#grid .tile').getAttribute('aria-label').endsWith(', 1985')")
    assert page.locator("#sort").input_value() == "year"
    shot(page, "sorted-jump")


def test_end_is_saved_though_its_page_is_not_loaded_and_a_change_elsewhere_keeps_it(page, sandbox):
    server = collection(sandbox)
    open_page(page, server)
    last = sandbox.albums()["albums"][-1]
    page.locator("#scroller").focus()
    page.keyboard.press("End")
    wait_current_saved(page, last["title"])
    page.wait_for_function(f"document.querySelector('#details [data-field=title]').textContent === {json.dumps(last['title'])}")
    sandbox.run("update", "1", "--genre", "Changed elsewhere")
    time.sleep(1.5)  # the change reaches the page, which fetches the library again
    assert current_title(page) == last["title"]
    assert page.locator(".cell.current").get_attribute("data-index") == str(len(sandbox.albums()["albums"]) - 1)
    page.keyboard.press("Home")
    page.keyboard.press("PageDown")
    steps = page.evaluate("scroller.cellsInView()")
    page.wait_for_function(f"document.querySelector('#details [data-field=position]').textContent === '{1 + steps}'")


def test_the_edit_form_follows_the_album_shown_and_errors_sit_by_their_field(page, starter):
    sandbox, server = starter
    open_page(page, server)
    titles = [album["title"] for album in sandbox.albums()["albums"]]
    page.locator("#edit").click()
    assert page.locator("#editor input[name=title]").input_value() == titles[0]
    page.locator(".cell[data-index='1']").click()
    page.wait_for_function(f"document.querySelector('#editor input[name=title]').value === {json.dumps(titles[1])}")
    assert page.locator("#editor-title").inner_text() == f"Edit “{titles[1]}”"
    page.fill("#editor input[name=year]", "19x")
    page.locator("#editor button[type=submit]").click()
    page.wait_for_selector("#error-year:not([hidden])")
    assert "year" in page.locator("#error-year").inner_text().lower() and page.locator("#error").is_hidden()
    assert page.locator("#editor input[name=year]").get_attribute("aria-invalid") == "true"
    shot(page, "edit-error")
    page.fill("#editor input[name=year]", "1999")
    page.fill("#editor input[name=genre]", "Edited")
    page.locator("#editor button[type=submit]").click()
    page.wait_for_selector("#editor", state="hidden")
    albums = sandbox.albums()["albums"]
    assert albums[1]["genre"] == "Edited" and albums[1]["year"] == "1999"
    assert albums[0]["genre"] != "Edited"


def test_delete_offers_undo_and_undo_says_what_it_did_and_selects_what_it_brought_back(page, starter):
    sandbox, server = starter
    open_page(page, server)
    titles = [album["title"] for album in sandbox.albums()["albums"]]
    assert page.locator("#undo").is_disabled() and page.locator("#redo").is_disabled()
    page.locator(".cell[data-index='3']").click()
    page.wait_for_function(f"document.querySelector('#details [data-field=title]').textContent === {json.dumps(titles[3])}")
    page.locator("#delete").click()
    page.wait_for_selector("#toast:not([hidden])")
    assert page.locator("#toast span").inner_text() == f"Deleted “{titles[3]}”."
    page.wait_for_function("!document.querySelector('#undo').disabled")
    page.locator(".cell[data-index='0']").click()  # look elsewhere before taking it back
    shot(page, "deleted-toast")
    page.locator("#toast button", has_text="Undo").click()
    page.wait_for_function(f"document.querySelector('#details [data-field=title]').textContent === {json.dumps(titles[3])}")
    wait_current_saved(page, titles[3])
    assert page.locator("#toast span").inner_text() == f"Undone: remove '{titles[3]}'"
    page.wait_for_function("document.querySelector('#undo').disabled && !document.querySelector('#redo').disabled")
    page.locator("#redo").click()
    page.wait_for_function("document.querySelector('#toast span').textContent.startsWith('Redone: remove')")
    assert [a["title"] for a in sandbox.albums()["albums"]] == titles[:3] + titles[4:]


def test_keys_work_after_a_button_click_and_the_wheel_scrolls_the_row(page, starter):
    sandbox, server = starter
    open_page(page, server)
    page.locator("#help-button").click()
    assert page.locator("#help").is_visible()
    assert "search" in page.locator("#help").inner_text()
    page.locator("#help-close").click()
    assert page.evaluate("document.activeElement.id") == "help-button"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#details [data-field=position]').textContent === '2'")
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#details [data-field=position]').textContent === '5'")
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    page.keyboard.press("Escape")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search"
    page.keyboard.press("ArrowLeft")  # in a text field the keys are the field's
    assert page.locator("#details [data-field=position]").inner_text() == "5"
    box = page.locator("#scroller").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -120)
    page.wait_for_function("document.querySelector('#details [data-field=position]').textContent === '4'")
    assert page.evaluate("window.scrollY") == 0


def control_ids(page):
    return page.evaluate("""() => [...document.querySelectorAll('header button, header a, header input, header select, #details button')]
        .filter(e => e.offsetParent !== null).map(e => e.id || e.textContent)""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1100])
def test_every_width_and_scheme_fits_and_reads_at_aa_contrast(browser, sandbox, scheme, width):
    sandbox.run("init", "--starter")
    sandbox.run("add", "--title", "A Placeholder Album", "--artist", "Without Cover")
    server = sandbox.start()
    context, page, errors = make_page(browser, width=width, height=760 if width > 400 else 740, scheme=scheme)
    try:
        open_page(page, server)
        page.locator("#scroller").focus()
        page.keyboard.press("End")
        page.wait_for_function("document.querySelector('#details [data-field=title]').textContent === 'A Placeholder Album'")
        page.wait_for_timeout(400)  # the centring transition
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        channels = [int(c) for c in background[background.index("(") + 1:-1].split(",")[:3]]
        assert (sum(channels) / 3 > 200) == (scheme == "light"), background
        assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
        for control in ["search", "sort", "undo", "redo", "add", "download", "help-button", "edit", "delete"]:
            box = page.locator(f"#{control}").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, f"{control} is off-screen at {width}px: {box}"
        placeholder = page.locator(".cell.current .placeholder")
        texts = placeholder.locator("span")
        assert [texts.nth(0).inner_text(), texts.nth(1).inner_text()] == ["Without Cover", "A Placeholder Album"]
        tile, text = placeholder.bounding_box(), texts.nth(1).bounding_box()
        assert abs((tile["x"] + tile["width"] / 2) - (text["x"] + text["width"] / 2)) < 3
        assert abs((tile["y"] + tile["height"] / 2) - (text["y"] + text["height"] / 2)) < tile["height"] / 4
        low = page.evaluate(CONTRAST)
        assert not low, f"text under 4.5:1 in {scheme}: {low}"
        page.fill("#search", "sun")
        page.wait_for_selector("#results:not([hidden]) .tile")
        assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
        assert not page.evaluate(CONTRAST), f"results under 4.5:1 in {scheme}"
        page.fill("#search", "")
        page.wait_for_selector("#results", state="hidden")
        shot(page, f"{'phone' if width < 400 else 'desktop'}-{scheme}")
    finally:
        context.close()
    assert not errors


# Every visible element with its own text: its colour against the first opaque background
# behind it (the colour behind a placeholder's text is its own), the WCAG ratio under 4.5.
CONTRAST = """() => {
  const parse = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return { rgb: m.slice(0, 3), a: m.length > 3 ? m[3] : 1 }; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const behind = (element) => {
    for (let e = element; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c.a > 0.5) return c.rgb; }
    return parse(getComputedStyle(document.documentElement).backgroundColor).rgb;
  };
  const low = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!e.offsetParent && getComputedStyle(e).position !== 'fixed') continue;
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    if (e.closest('.cell') && !e.closest('.cell.current')) continue;  // the row's side cells are dimmed covers
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || parseFloat(style.opacity) === 0) continue;
    const a = lum(parse(style.color).rgb), b = lum(behind(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push(`${e.tagName}#${e.id}.${e.className} "${e.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
  }
  return low;
}"""


def test_placeholder_colours_come_from_the_name(page, sandbox):
    server = collection(sandbox, count=12)
    open_page(page, server)
    colours = page.evaluate("[...document.querySelectorAll('.cell .placeholder')].map(p => getComputedStyle(p).backgroundColor)")
    assert len(set(colours)) >= 5, colours


def test_the_first_page_is_fetched_once_and_the_page_has_a_favicon(page, starter):
    _, server = starter
    pages = []
    page.on("request", lambda request: pages.append(request.url) if "/api/albums?" in request.url else None)
    open_page(page, server)
    page.wait_for_timeout(800)
    assert len([url for url in pages if "offset=0" in url]) == 1, pages
    icon = page.evaluate("document.querySelector('link[rel=icon]').href")
    status, headers, body = server.request("GET", "/" + icon.rsplit("/", 1)[1])
    assert status == 200 and headers["content-type"] == "image/svg+xml" and body.startswith(b"<svg")


def test_a_cover_failure_reason_is_kept_across_a_reload(page, starter):
    sandbox, server = starter
    covers = SlowCovers(delay=0)
    try:
        server.json("POST", "/api/albums", json_body={"title": "Gone cover", "artist": "Fetcher", "coverUrl": covers.url + "/gone.png"}, expect=201)
        open_page(page, server)
        page.locator("#scroller").focus()
        page.keyboard.press("End")
        page.wait_for_selector(".cell.current .failed-mark")
        page.reload()
        open_page(page, server)
        page.wait_for_selector(".cell.current .failed-mark")
        assert "404" in page.locator(".cell.current .failed-mark").get_attribute("title")
        assert "404" in page.locator("#details [data-field=cover]").inner_text()
    finally:
        covers.close()


def watch_a_fetch_elsewhere(page, server, fetching, covers):
    """Adds an album whose cover fails the first time through `fetching` (a sandbox), shows it
    on the page of `server`, then runs `albumkit covers fetch` for it from `fetching`: the page
    must show the spinner while the cover is held back, then the cover. Returns the process."""
    import subprocess
    from conftest import BINARY
    fetching.run("add", "--title", "Fetched elsewhere", "--artist", "Another process", "--cover", covers.url + "/later.png")
    album = fetching.albums()["albums"][-1]
    assert album["cover"] == "failed"
    open_page(page, server)
    page.locator("#scroller").focus()
    page.keyboard.press("End")
    page.wait_for_selector(".cell.current .failed-mark")
    fetch = subprocess.Popen([str(BINARY), "covers", "fetch", album["id"]], cwd=fetching.folder, env=fetching.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        page.wait_for_selector(".cell.current .spinner", timeout=15_000)
        assert page.locator("#details [data-field=cover]").inner_text() == "fetching…"
        shot(page, "cover-spinner-other-process")
        covers.release.set()
        assert fetch.wait(60) == 0, fetch.stderr.read()
        page.wait_for_selector(".cell.current img", timeout=15_000)
        assert page.locator(".cell.current .spinner").count() == 0
    finally:
        if fetch.poll() is None:
            fetch.kill()
            fetch.communicate()


def test_a_cover_fetched_by_another_process_shows_a_spinner(page, starter):
    sandbox, server = starter
    covers = SlowCovers(delay=60)
    try:
        watch_a_fetch_elsewhere(page, server, sandbox, covers)
        assert not (sandbox.library / "fetching-covers").exists(), "the fetching process left its notice"
    finally:
        covers.close()


def test_a_cover_fetched_on_another_host_shows_a_spinner(page, tmp_path, postgres_url):
    """Two hosts over one PostgreSQL library, each with a library folder of its own: a
    `covers fetch` run on one is seen spinning, then done, by the page of the other's serve."""
    from conftest import Sandbox
    env = {"ALBUMKIT_STORAGE_BACKEND": "postgres", "ALBUMKIT_STORAGE_URL": postgres_url}
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    fetching, serving = Sandbox(tmp_path / "one", env), Sandbox(tmp_path / "two", env)
    covers = SlowCovers(delay=60)
    try:
        fetching.run("init", "--starter")
        watch_a_fetch_elsewhere(page, serving.start(), fetching, covers)
    finally:
        covers.close()
        fetching.close()
        serving.close()


def test_a_cover_one_host_fetches_for_its_page_shows_a_spinner_on_another(page, tmp_path, postgres_url):
    """Two hosts over one PostgreSQL library: an album added through one host with a cover
    URL is fetched by that host's own cover service, and the other host's page shows the
    spinner until the cover is there; the fetching host's own events tell of the request
    once (its notices are not relayed back to it)."""
    from conftest import EventClient, Sandbox
    env = {"ALBUMKIT_STORAGE_BACKEND": "postgres", "ALBUMKIT_STORAGE_URL": postgres_url}
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one, two = Sandbox(tmp_path / "one", env), Sandbox(tmp_path / "two", env)
    covers = SlowCovers(delay=60)
    events = None
    try:
        one.run("init", "--starter")
        fetching, shown = one.start(), two.start()
        events = EventClient(fetching)
        open_page(page, shown)
        _, added = fetching.json("POST", "/api/albums", expect=201, json_body={
            "title": "Fetched by a host", "artist": "Host one", "coverUrl": covers.url + "/slow.png"})
        album = added["album"]["id"]
        page.wait_for_selector(f'.cell .view[data-id="{album}"]', timeout=15_000)
        page.locator("#scroller").focus()
        page.keyboard.press("End")
        page.wait_for_function("document.querySelector('#details [data-field=title]').textContent === 'Fetched by a host'")
        page.wait_for_selector(".cell.current .spinner", timeout=15_000)
        assert page.locator("#details [data-field=cover]").inner_text() == "fetching…"
        shot(page, "cover-spinner-other-host")
        covers.release.set()
        page.wait_for_selector(".cell.current img", timeout=15_000)
        assert page.locator(".cell.current .spinner").count() == 0
        events.wait_for(lambda e: e["event"] == "cover.fetched" and e["id"] == album, timeout=15)
        time.sleep(1)  # a notice relayed back to its own host would come after its hub's event
        requested = [e for _, e in events.events if e["event"] == "cover.requested" and e["id"] == album]
        assert len(requested) == 1, requested
    finally:
        if events:
            events.close()
        covers.close()
        one.close()
        two.close()


def test_every_field_and_the_tracks_are_shown_and_edited(page, starter):
    sandbox, server = starter
    body = {"title": "Kind of Blue", "artist": "Miles Davis", "label": "Columbia", "rating": 5, "released": "1959-08-17",
            "tags": ["modal", "jazz"], "ids": {"discogs": "1"}, "fields": {"discogs.folder": "Jazz"},
            "tracks": [{"title": "So What", "number": 1, "seconds": 562}, {"title": "Freddie Freeloader", "number": 2, "artist": "Miles"}]}
    _, added = server.json("POST", "/api/albums", json_body=body, expect=201)
    path = "/api/albums/" + added["album"]["id"]
    open_page(page, server)
    page.locator("#scroller").focus()
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#details [data-field=title]').textContent === 'Kind of Blue'")
    shown = page.locator("#more-fields").inner_text()
    for text in ["Label", "Columbia", "Released", "1959-08-17", "Rating", "5", "modal, jazz", "discogs: 1", "discogs.folder: Jazz"]:
        assert text in shown, (text, shown)
    assert page.locator("#tracks li").all_inner_texts() == ["1. So What (9:22)", "2. Freddie Freeloader — Miles"]
    shot(page, "every-field")

    page.locator("#edit").click()
    page.locator("#more-inputs summary").click()
    page.fill("#editor [name=label]", "")
    page.fill("#editor [name=rating]", "7")
    page.fill("#editor [name=fields]", "discogs.folder: Jazz\nmood: calm")
    page.fill("#editor [name=tags]", "modal")
    page.locator("#editor button[type=submit]").click()
    page.wait_for_selector("#error-rating:not([hidden])")
    assert "rating" in page.locator("#error-rating").inner_text()
    page.fill("#editor [name=rating]", "4.5")
    page.fill("#editor [name=tracks]", page.locator("#editor [name=tracks]").input_value() + "\n3. Blue in Green (5:37)")
    page.locator("#editor button[type=submit]").click()
    page.wait_for_selector("#editor", state="hidden")
    _, answer = server.json("GET", path, expect=200)
    album = answer["album"]
    assert "label" not in album and album["rating"] == 4.5 and album["tags"] == ["modal"]
    assert album["fields"] == {"discogs.folder": "Jazz", "mood": "calm"} and album["ids"] == {"discogs": "1"}
    assert [(t["title"], t.get("number"), t.get("seconds"), t.get("artist")) for t in album["tracks"]] == [
        ("So What", 1, 562, None), ("Freddie Freeloader", 2, None, "Miles"), ("Blue in Green", 3, 337, None)], "a line left as it was keeps its track"
    page.wait_for_function("document.querySelector('#more-fields').textContent.includes('mood: calm')")



def test_the_form_is_built_from_the_table_of_fields(page, starter):
    """The form's inputs beyond the core are the fields `/api/fields` gives (the one table of
    SPEC 1), in its order, labelled from their names: a field added to the table is in the
    form with no list of the page's own to change. The table is answered with one more field
    here, which the form must show."""
    sandbox, server = starter
    _, table = server.json("GET", "/api/fields", expect=200)
    names = [field["name"] for field in table["fields"]]
    assert names[:6] == ["id", "title", "artist", "genre", "year", "coverUrl"] and "catalogNumber" in names and names[-1] == "fields"
    grown = {"fields": table["fields"] + [{"name": "mastering", "kind": "text", "summary": "who mastered it", "core": False}]}
    page.route("**/api/fields", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(grown)))
    open_page(page, server)
    page.locator("#add").click()
    page.locator("#more-inputs summary").click()
    wanted = [field["name"] for field in grown["fields"] if not field["core"]]
    page.wait_for_function(f"document.querySelectorAll('#more-inputs [name]').length === {len(wanted)}")
    assert page.eval_on_selector_all("#more-inputs [name]", "inputs => inputs.map((input) => input.name)") == wanted
    text = page.locator("#more-inputs").inner_text()
    assert "Catalog number" in text and "Mastering" in text
    assert page.get_attribute("#editor [name=mastering]", "placeholder") == "who mastered it"
    assert page.evaluate("editor.fields").count("mastering") == 1


def test_a_table_of_fields_coming_late_keeps_what_was_typed(page, starter):
    """`/api/fields` answered only after the form is open and typed in: the inputs it brings show
    the album's values, what the person typed stays, and saving sends only what they changed."""
    sandbox, server = starter
    _, added = server.json("POST", "/api/albums", json_body={"title": "Kind of Blue", "artist": "Miles Davis", "label": "Columbia"}, expect=201)
    path = "/api/albums/" + added["album"]["id"]
    held = []
    page.route("**/api/fields", lambda route: held.append(route))
    open_page(page, server)
    page.locator("#scroller").focus()
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#details [data-field=title]').textContent === 'Kind of Blue'")
    page.locator("#edit").click()
    page.fill("#editor input[name=genre]", "Modal jazz")
    assert page.locator("#editor [name=label]").count() == 0 and len(held) == 1
    held[0].continue_()
    page.wait_for_selector("#editor [name=label]", state="attached")
    assert page.input_value("#editor input[name=genre]") == "Modal jazz"
    assert page.input_value("#editor [name=label]") == "Columbia"
    page.locator("#editor button[type=submit]").click()
    page.wait_for_selector("#editor", state="hidden")
    _, answer = server.json("GET", path, expect=200)
    assert answer["album"]["genre"] == "Modal jazz" and answer["album"]["label"] == "Columbia"

def test_an_edited_track_line_keeps_what_the_line_does_not_show(page, starter):
    """A track line whose title or length is changed keeps the track's artist, ids and fields:
    the track at the line's place (disc and number), or on the same line when it has none."""
    sandbox, server = starter
    tracks = [{"title": "So What", "number": 1, "seconds": 562, "artist": "Miles", "ids": {"isrc": "USSM15900113"}, "fields": {"take": "3"}},
              {"title": "Freddie", "artist": "Miles & Wynton", "fields": {"take": "1"}},
              {"title": "Blue in Green", "number": 3, "seconds": 337}]
    _, added = server.json("POST", "/api/albums", json_body={"title": "Kind of Blue", "artist": "Miles Davis", "tracks": tracks}, expect=201)
    path = "/api/albums/" + added["album"]["id"]
    open_page(page, server)
    page.locator("#scroller").focus()
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#details [data-field=title]').textContent === 'Kind of Blue'")
    page.locator("#edit").click()
    page.locator("#more-inputs summary").click()
    assert page.locator("#editor [name=tracks]").input_value() == "1. So What (9:22)\nFreddie\n3. Blue in Green (5:37)"
    page.fill("#editor [name=tracks]", "1. So What? (9:25)\nFreddie Freeloader\n3. Blue in Green (5:37)\n4. Flamenco Sketches")
    page.locator("#editor button[type=submit]").click()
    page.wait_for_selector("#editor", state="hidden")
    _, answer = server.json("GET", path, expect=200)
    assert answer["album"]["tracks"] == [
        {"title": "So What?", "number": 1, "seconds": 565, "artist": "Miles", "ids": {"isrc": "USSM15900113"}, "fields": {"take": "3"}},
        {"title": "Freddie Freeloader", "artist": "Miles & Wynton", "fields": {"take": "1"}},
        {"title": "Blue in Green", "number": 3, "seconds": 337},
        {"title": "Flamenco Sketches", "number": 4}]
