"use strict";
/*
 * The AlbumKit page: the library seen, live. The scroller (scroller.js) asks `albums`, the
 * data source below, for the count and the view at an index, and tells `selection`, its
 * delegate, which album was chosen; every choice is saved as the memento (PUT /api/current),
 * loaded or not. The search box and the sort take the query language of `albumkit list` and
 * show the matches as a grid (`results`), a click away from the row. Every change anywhere
 * arrives on the event stream (/api/events) and what is shown is fetched again; cover events
 * start and stop spinners; errors are shown next to what caused them, never dropped.
 */

// ---- The API, with the token when the server wants one -------------------------------

const token = {
  value: new URLSearchParams(location.hash.slice(1)).get("token") || sessionStorage.getItem("albumkit-token") || "",
  ask() {
    const given = window.prompt("This server needs its token:");
    if (!given) return false;
    this.value = given;
    sessionStorage.setItem("albumkit-token", given);
    return true;
  },
  /** A URL for something the browser loads itself (images, the event stream, downloads). */
  url(path) {
    if (!this.value) return path;
    return path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(this.value);
  },
};

class APIError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  for (;;) {
    const headers = {};
    if (token.value) headers["Authorization"] = "Bearer " + token.value;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 401 && token.ask()) continue;
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) throw new APIError(json.error?.message || `${method} ${path}: ${response.status}`, response.status);
    return json;
  }
}

const byId = (id) => document.getElementById(id);
const page = {
  scroller: byId("scroller"), details: byId("details"), empty: byId("empty"), editor: byId("editor"),
  progress: byId("progress"), error: byId("error"), status: byId("status"), drop: byId("drop"),
  search: byId("search"), sort: byId("sort"), searchError: byId("search-error"), results: byId("results"),
  grid: byId("grid"), help: byId("help"), toast: byId("toast"), undo: byId("undo"), redo: byId("redo"),
};

function showError(message) {
  page.error.querySelector("span").textContent = message;
  page.error.hidden = false;
}
page.error.querySelector("button").addEventListener("click", () => { page.error.hidden = true; });

/** Runs a change; its error is shown. */
async function attempt(work) {
  try {
    await work();
    page.error.hidden = true;
  } catch (error) {
    showError(error.message);
  }
}

/** A message at the bottom of the page for a few seconds, with an optional action button. */
const toast = {
  timer: null,
  show(text, action) {
    page.toast.querySelector("span").textContent = text;
    const button = page.toast.querySelector("button");
    button.hidden = !action;
    if (action) {
      button.textContent = action.label;
      button.onclick = () => { this.hide(); action.run(); };
    }
    page.toast.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), 10_000);
  },
  hide() { page.toast.hidden = true; },
};

// ---- How an album looks: its cover, or a tile with its name ---------------------------

/** A colour drawn from the name, dark enough for white text (at least 4.5:1). */
function colourOf(album) {
  let hash = 0;
  for (const character of `${album.artist}\u0000${album.title}`) hash = (hash * 31 + character.codePointAt(0)) >>> 0;
  return `hsl(${hash % 360} 42% 30%)`;
}

/** The picture of `album`: its stored cover, else a placeholder tile; with a spinner while
 * its cover is being fetched, or a mark saying why the last fetch failed. */
function albumArt(album, className) {
  const art = document.createElement("div");
  art.className = className;
  if (album.coverSha256) {
    const image = document.createElement("img");
    image.alt = `${album.title} by ${album.artist}`;
    image.draggable = false; // a swipe must not start the browser's own drag of the image
    if (className === "tile-art") image.loading = "lazy"; // the grid may be long; the row is a dozen cells
    image.src = token.url(`/api/covers/${album.coverSha256}`);
    art.append(image);
  } else {
    const placeholder = document.createElement("div");
    placeholder.className = "placeholder";
    placeholder.style.background = colourOf(album);
    const artist = document.createElement("span");
    artist.textContent = album.artist;
    const title = document.createElement("span");
    title.className = "p-title";
    title.textContent = album.title;
    placeholder.append(artist, title);
    art.append(placeholder);
  }
  if (covers.fetching.has(album.id)) {
    const spinner = document.createElement("div");
    spinner.className = "spinner";
    spinner.title = "fetching the cover";
    art.append(spinner);
  } else if (covers.failure(album)) {
    const mark = document.createElement("div");
    mark.className = "failed-mark";
    mark.textContent = "!";
    mark.title = covers.failure(album);
    art.append(mark);
  }
  return art;
}

/** Covers being fetched by any process (cover.requested), and why fetches failed. */
const covers = {
  fetching: new Set(), // ids
  failed: new Map(),   // id → reason, from events (the API says it too: album.coverFailure)
  failure(album) {
    if (this.failed.has(album.id)) return this.failed.get(album.id);
    return album.cover === "failed" ? album.coverFailure || "the cover could not be fetched" : null;
  },
  /** A stored cover (or none) settles a spinner an earlier event started; a failed one may
   * be fetched again, and its cover.fetched or cover.failed stops the spinner. */
  settle(album) {
    if (album.cover === "stored" || album.cover === "none") this.fetching.delete(album.id);
  },
};

// ---- The data source of the row: albums fetched a page at a time ----------------------

const albums = {
  pageSize: 100,
  total: 0,
  current: null,       // the saved current album's id
  currentPosition: null,
  undo: null,          // what undo would take back, or null
  redo: null,
  byIndex: new Map(),  // index → album
  loading: new Set(),  // page offsets being fetched

  numberOfItems() { return this.total; },

  viewForItem(scroller, index) {
    const album = this.byIndex.get(index);
    if (!album) {
      this.load(Math.floor(index / this.pageSize) * this.pageSize);
      const view = document.createElement("div");
      view.className = "view";
      view.innerHTML = '<div class="placeholder loading">…</div>';
      return view;
    }
    const view = albumArt(album, "view");
    view.dataset.id = album.id;
    return view;
  },

  /** Fetches the page at `offset` unless it is on its way. */
  async load(offset) {
    if (this.loading.has(offset)) return;
    this.loading.add(offset);
    try {
      this.take(await api("GET", `/api/albums?offset=${offset}&limit=${this.pageSize}`));
      render();
    } catch (error) {
      showError(error.message);
    } finally {
      this.loading.delete(offset);
    }
  },

  take(answer) {
    this.total = answer.total;
    this.current = answer.current;
    this.currentPosition = answer.currentPosition;
    this.undo = answer.undo;
    this.redo = answer.redo;
    for (const album of answer.albums) {
      this.byIndex.set(album.position - 1, album);
      covers.settle(album);
    }
    renderHistory();
  },

  indexOf(id) {
    for (const [index, album] of this.byIndex) if (album.id === id) return index;
    return -1;
  },

  /** Forgets every album and fetches the page around the current one again (the first
   * page when nothing is known yet: one request, then one more only when the current album
   * lies beyond it). */
  async refresh() {
    const around = selection.pending > 0 ? scroller.currentIndex : (this.currentPosition ?? 1) - 1;
    const offset = Math.max(0, around - this.pageSize / 2);
    let answer = await api("GET", `/api/albums?offset=${offset}&limit=${this.pageSize}`);
    if (selection.pending === 0 && answer.currentPosition && (answer.currentPosition - 1 < offset || answer.currentPosition > offset + this.pageSize)) {
      answer = await api("GET", `/api/albums?offset=${Math.max(0, answer.currentPosition - 1 - this.pageSize / 2)}&limit=${this.pageSize}`);
    }
    this.byIndex.clear();
    this.take(answer);
    // Keep what this page chose while its save is on the way; else follow the memento.
    if (selection.pending === 0) scroller.currentIndex = (answer.currentPosition ?? 1) - 1;
    render();
    results.refresh();
  },
};

// ---- The delegate: every choice becomes the memento -----------------------------------

// Choices are saved one at a time, in order, the newest replacing any not yet sent: two
// requests in flight at once could reach the server in either order, and an older choice
// saved last would win. An album whose page is not loaded yet (End, a far jump) is saved by
// its position, which the API takes where an id goes.
const selection = {
  pending: 0,          // > 0 while a choice is being saved
  next: null,          // the newest choice not sent yet: { id, position }
  scrollerDidSelectItem(scroller, index) {
    renderDetails();
    results.markCurrent();
    const album = albums.byIndex.get(index);
    this.next = { id: album ? album.id : String(index + 1), position: index + 1 };
    if (this.pending === 0) this.saveChoices();
  },
  async saveChoices() {
    this.pending++;
    try {
      while (this.next) {
        const choice = this.next;
        this.next = null;
        try {
          const { album } = await api("PUT", "/api/current", { id: choice.id });
          albums.current = album.id;
          albums.currentPosition = album.position;
        } catch (error) {
          showError(error.message);
        }
      }
    } finally {
      this.pending--;
    }
  },
};

const scroller = new AlbumScroller(page.scroller, { dataSource: albums, delegate: selection });

/** Makes `album` (as the API gave it) current, as a person choosing it in the row would. */
function chooseAlbum(album) {
  albums.byIndex.set(album.position - 1, album);
  scroller.choose(album.position - 1);
}

function render() {
  page.empty.hidden = albums.total > 0;
  scroller.show(scroller.currentIndex);
  renderDetails();
}

function renderHistory() {
  page.undo.disabled = !albums.undo;
  page.redo.disabled = !albums.redo;
  page.undo.title = albums.undo ? `Undo ${albums.undo} (Ctrl+Z)` : "Nothing to undo";
  page.redo.title = albums.redo ? `Redo ${albums.redo} (Ctrl+Shift+Z)` : "Nothing to redo";
}

function renderDetails() {
  const album = albums.byIndex.get(scroller.currentIndex);
  page.details.hidden = !album;
  if (editor.album && (!album || album.id !== editor.album.id)) editor.follow(album);
  if (!album) return;
  page.details.dataset.id = album.id;
  for (const field of ["title", "artist", "year", "genre", "position", "id", "coverUrl"]) {
    const value = album[field];
    page.details.querySelector(`[data-field="${field}"]`).textContent = value === "" || value == null ? "—" : String(value);
  }
  const failure = covers.failure(album);
  const cover = covers.fetching.has(album.id) ? "fetching…" : failure ? `failed: ${failure}` : album.cover;
  page.details.querySelector('[data-field="cover"]').textContent = cover;
  renderMoreFields(album);
}

/** Every other field the API gives (the album's whole record), in its order, and the tracks. */
const shownFields = new Set(["position", "id", "title", "artist", "genre", "year", "coverUrl", "cover", "coverSha256", "coverFailure", "tracks"]);
function renderMoreFields(album) {
  const rows = [];
  for (const [name, value] of Object.entries(album)) {
    if (shownFields.has(name) || value == null || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    const term = document.createElement("dt");
    term.textContent = labelOf(name);
    const description = document.createElement("dd");
    description.className = "wrap";
    description.textContent = textOf(value);
    rows.push(term, description);
  }
  byId("more-fields").replaceChildren(...rows);
  const tracks = Array.isArray(album.tracks) ? album.tracks : [];
  byId("tracks").hidden = tracks.length === 0;
  byId("tracks").querySelector("ol").replaceChildren(...tracks.map((track) => {
    const item = document.createElement("li");
    const where = [track.disc ? `${track.disc}-` : "", track.number ?? ""].join("");
    const length = track.seconds ? ` (${Math.floor(track.seconds / 60)}:${String(Math.round(track.seconds % 60)).padStart(2, "0")})` : "";
    item.textContent = `${where ? where + ". " : ""}${track.title}${track.artist ? " — " + track.artist : ""}${length}`;
    return item;
  }));
}

/** `catalogNumber` → "Catalog number". */
function labelOf(name) {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/\./g, " · ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value as text: lists joined, maps as `key: value` lines. */
function textOf(value) {
  if (Array.isArray(value)) return value.map(textOf).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([key, item]) => `${key}: ${textOf(item)}`).join("\n");
  return String(value);
}

// ---- Search: the query language of `albumkit list`, shown as a grid --------------------

const results = {
  pageSize: 60,
  start: 0,            // offset of the first match shown
  items: [],           // the matches shown, from `start`
  total: 0,
  totalIsExact: true,  // false: the server estimated the total from the part it read
  generation: 0,       // answers to an older search are dropped
  get query() { return page.search.value.trim(); },
  get sort() { return page.sort.value; },
  get active() { return this.query !== "" || this.sort !== ""; },

  path(offset, limit) {
    // Spaces as %20: the server reads a `+` as itself, not as a space.
    return `/api/albums?q=${encodeURIComponent(this.query)}&sort=${encodeURIComponent(this.sort)}&offset=${offset}&limit=${limit}`;
  },

  /** Shows the matches from `start` (the first page of them by default). */
  async search(start = 0) {
    const generation = ++this.generation;
    if (!this.active) {
      page.results.hidden = true;
      page.searchError.hidden = true;
      page.search.removeAttribute("aria-invalid");
      return;
    }
    try {
      const answer = await api("GET", this.path(start, this.pageSize));
      if (generation !== this.generation) return;
      page.searchError.hidden = true;
      page.search.removeAttribute("aria-invalid");
      this.start = Math.min(start, answer.total);
      this.total = answer.total;
      this.totalIsExact = answer.totalIsExact;
      this.items = answer.albums;
      this.render();
    } catch (error) {
      if (generation !== this.generation) return;
      if (error.status !== 422) return showError(error.message);
      page.searchError.textContent = error.message;
      page.searchError.hidden = false;
      page.search.setAttribute("aria-invalid", "true");
    }
  },

  /** The next page of matches, after those shown. */
  async later() {
    const generation = this.generation;
    const answer = await api("GET", this.path(this.start + this.items.length, this.pageSize));
    if (generation !== this.generation) return;
    this.items = this.items.concat(answer.albums);
    this.total = answer.total;
    this.totalIsExact = answer.totalIsExact;
    this.render();
  },

  /** Fetches the shown matches again after a change. */
  refresh() {
    if (this.active && !page.results.hidden) this.search(this.start);
  },

  render() {
    page.results.hidden = false;
    const what = this.query ? `for “${this.query}”` : "";
    const about = this.totalIsExact ? "" : "about ";
    byId("results-title").textContent = `${about}${this.total.toLocaleString()} ${this.total === 1 ? "album" : "albums"} ${what}`.trim();
    const tiles = this.items.map((album) => {
      const item = document.createElement("li");
      const tile = document.createElement("button");
      tile.type = "button";
      tile.className = "tile";
      tile.dataset.id = album.id;
      tile.dataset.position = String(album.position);
      tile.setAttribute("aria-label", `${album.title} by ${album.artist}${album.year ? ", " + album.year : ""}`);
      const caption = document.createElement("div");
      caption.className = "caption";
      caption.textContent = album.title;
      const artist = document.createElement("span");
      artist.textContent = album.artist + (album.year ? ` · ${album.year}` : "");
      caption.append(artist);
      tile.append(albumArt(album, "tile-art"), caption);
      tile.addEventListener("click", () => chooseAlbum(album));
      item.append(tile);
      return item;
    });
    page.grid.replaceChildren(...tiles);
    byId("results-earlier").hidden = this.start === 0;
    byId("results-later").hidden = this.start + this.items.length >= this.total;
    this.markCurrent();
  },

  markCurrent() {
    const current = albums.byIndex.get(scroller.currentIndex)?.id;
    for (const tile of page.grid.querySelectorAll(".tile")) tile.classList.toggle("current", tile.dataset.id === current);
  },

  redraw(id) {
    const index = this.items.findIndex((album) => album.id === id);
    const tile = page.grid.querySelector(`.tile[data-id="${CSS.escape(id)}"]`);
    if (index >= 0 && tile) tile.querySelector(".tile-art").replaceWith(albumArt(this.items[index], "tile-art"));
  },

  close() {
    page.search.value = "";
    page.sort.value = "";
    this.search();
  },

  /** Shows the matches from the first whose `field` comes at or after `target` in the sort
   * order (found by halving, one album asked per step, as the server sorts them). */
  async jump(field, target, numeric) {
    const [key, descending] = this.sort.endsWith("-") ? [this.sort.slice(0, -1), true] : [this.sort, false];
    if (key !== field) page.sort.value = field;
    const backwards = key === field && descending;
    const generation = ++this.generation;
    const total = (await api("GET", this.path(0, 1))).total;
    let low = 0, high = total;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const [album] = (await api("GET", this.path(middle, 1))).albums;
      if (generation !== this.generation || !album) return;
      const order = compareValues(String(album[field] ?? ""), target, numeric);
      if (backwards ? order > 0 : order < 0) low = middle + 1; else high = middle;
    }
    await this.search(Math.max(0, Math.min(low, total - 1)));
    page.grid.querySelector(".tile")?.focus();
  },
};

/** Compares as the server's sort does: empty first, numbers by value, text ignoring case and accents. */
function compareValues(value, target, numeric) {
  if (value === "") return -1;
  if (numeric) return Number(value) - Number(target);
  return value.localeCompare(target, undefined, { sensitivity: "base", numeric: true });
}

let searchTimer = null;
page.search.addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => results.search(), 150);
});
byId("finder").addEventListener("submit", (event) => { event.preventDefault(); results.search(); });
page.sort.addEventListener("change", () => results.search());
byId("results-close").addEventListener("click", () => { results.close(); page.scroller.focus(); });
byId("results-later").addEventListener("click", () => results.later().catch((error) => showError(error.message)));
byId("results-earlier").addEventListener("click", () => results.search(Math.max(0, results.start - results.pageSize)));
for (const letter of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = letter;
  button.addEventListener("click", () => {
    const field = ["title", "artist", "genre"].includes(results.sort.replace(/-$/, "")) ? results.sort.replace(/-$/, "") : "artist";
    results.jump(field, letter, false).catch((error) => showError(error.message));
  });
  byId("letters").append(button);
}
byId("jump-year").addEventListener("change", (event) => {
  if (event.target.value) results.jump("year", event.target.value, true).catch((error) => showError(error.message));
});

// ---- Live: the hub's events -----------------------------------------------------------

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => albums.refresh().catch((error) => showError(error.message)), 30);
}

function onEvent(event) {
  const name = event.event;
  if (name === "cover.requested") {
    covers.fetching.add(event.id);
    covers.failed.delete(event.id);
    redrawAlbum(event.id);
  } else if (name === "cover.fetched" || name === "cover.cached") {
    covers.fetching.delete(event.id);
    for (const album of [albums.byIndex.get(albums.indexOf(event.id)), results.items.find((item) => item.id === event.id)]) {
      if (!album) continue;
      album.coverSha256 = event.cover.split(".")[0];
      album.cover = "stored";
    }
    redrawAlbum(event.id);
  } else if (name === "cover.failed") {
    covers.fetching.delete(event.id);
    covers.failed.set(event.id, event.reason);
    redrawAlbum(event.id);
  } else if (name === "import.started") {
    showProgress("Importing…", null);
  } else if (name === "import.progress") {
    const percent = event.totalBytes ? Math.round((100 * event.bytesRead) / event.totalBytes) : null;
    showProgress(`Importing: ${event.albums} albums read`, percent);
  } else if (name === "import.finished") {
    showProgress(`Imported: ${event.added} added, ${event.skipped} skipped, ${event.replaced} replaced, ${event.kept} kept`, 100);
    setTimeout(() => { page.progress.hidden = true; }, 4000);
  } else if (name === "import.failed") {
    // This page's upload reports its own failure, naming the file (see ownFailures).
    if (ownFailures.answers > 0) { ownFailures.answers--; return; }
    if (uploadsInFlight > 0) { ownFailures.events++; return; }
    page.progress.hidden = true;
    showError(`Import failed: ${event.reason}`);
  } else if (name.startsWith("library.")) {
    scheduleRefresh();
  }
}

function redrawAlbum(id) {
  const index = albums.indexOf(id);
  if (index >= 0) scroller.reloadItem(index);
  if (index === scroller.currentIndex) renderDetails();
  results.redraw(id);
}

function showProgress(text, percent) {
  page.progress.hidden = false;
  page.progress.querySelector("span").textContent = text;
  const bar = page.progress.querySelector("progress");
  if (percent === null) bar.removeAttribute("value"); else bar.value = percent;
}

/** Listens to the event stream; the library is fetched once the stream is open (so no change
 * falls between the two), and again after each reconnection. */
function listen() {
  const source = new EventSource(token.url("/api/events"));
  let loaded = false;
  const firstLoad = setTimeout(() => load(), 2000); // a stream slow to open must not leave the page empty
  function load() {
    clearTimeout(firstLoad);
    albums.refresh().catch((error) => showError(error.message)).finally(() => {
      if (!loaded && !document.activeElement?.closest("input, select, textarea")) page.scroller.focus();
      loaded = true;
    });
  }
  source.onopen = () => {
    page.status.textContent = "live";
    page.status.dataset.state = "live";
    load();
  };
  source.onmessage = (message) => onEvent(JSON.parse(message.data));
  source.onerror = () => {
    page.status.textContent = "reconnecting…";
    page.status.dataset.state = "reconnecting";
  };
}

// ---- Changes ---------------------------------------------------------------------------

function currentAlbum() { return albums.byIndex.get(scroller.currentIndex); }
const albumPath = (album) => `/api/albums/${encodeURIComponent(album.id)}`;

/** Undo (or, `forward`, redo): says what it did and selects the album it brought back. */
async function walkHistory(forward) {
  if (!(forward ? albums.redo : albums.undo)) return toast.show(forward ? "Nothing to redo." : "Nothing to undo.");
  await attempt(async () => {
    const answer = await api("POST", forward ? "/api/redo" : "/api/undo");
    toast.show(forward ? `Redone: ${answer.redone}` : `Undone: ${answer.undone}`);
    if (answer.albums.length > 0) {
      // Saved first, then shown as the memento says: the row's count may not know it yet.
      const { album } = await api("PUT", "/api/current", { id: answer.albums[0] });
      albums.currentPosition = album.position;
      await albums.refresh();
    }
  });
}
page.undo.addEventListener("click", () => walkHistory(false));
page.redo.addEventListener("click", () => walkHistory(true));

byId("delete").addEventListener("click", () => {
  const album = currentAlbum();
  if (!album) return;
  attempt(async () => {
    await api("DELETE", albumPath(album));
    toast.show(`Deleted “${album.title}”.`, { label: "Undo", run: () => walkHistory(false) });
  });
});

/** How a person types each kind of field that is more than one line of text (the kinds of
 * `/api/fields`); a field of any other kind is one line, its summary as the hint. */
const typing = {
  notes: { long: true },
  tags: { hint: "separated by commas",
    text: (value) => (value ?? []).join(", "), parse: (text) => text.split(",").map((tag) => tag.trim()).filter(Boolean) },
  ids: { hint: "one per line: musicbrainz: …, discogs: …", long: true, map: true },
  fields: { hint: "one per line: mood: calm", long: true, map: true },
  tracks: { hint: "one per line: 1. Title (3:45), or 2-1. Title for disc 2", long: true,
    text: (tracks) => (tracks ?? []).map(trackLine).join("\n"),
    parse: (text) => editedTracks(editor.album?.tracks ?? [], text.split("\n").filter((line) => line.trim())) },
};

/** The form's fields beyond the core: every field of the album's table (`/api/fields`, the one
 * place that knows them) that not every album has, each as a person types it. Filled once the
 * table has come. */
const moreFields = [];
async function loadFields() {
  const { fields } = await api("GET", "/api/fields");
  for (const described of fields.filter((field) => !field.core)) {
    const field = { name: described.name, label: labelOf(described.name), hint: described.summary, ...typing[described.kind] };
    if (field.map) {
      field.text = (value) => Object.entries(value ?? {}).map(([key, item]) => `${key}: ${item}`).join("\n");
      field.parse = (text) => Object.fromEntries(text.split("\n").filter((line) => line.includes(":"))
        .map((line) => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()]));
    }
    const label = document.createElement("label");
    label.textContent = field.label + " ";
    label.title = described.summary;
    const input = document.createElement(field.long ? "textarea" : "input");
    input.name = field.name;
    input.setAttribute("aria-describedby", `error-${field.name}`);
    if (field.hint) input.placeholder = field.hint;
    label.append(input);
    const error = document.createElement("p");
    error.id = `error-${field.name}`;
    error.className = "field-error";
    error.hidden = true;
    byId("more-inputs").append(label, error);
    moreFields.push(field);
    // A form opened before the table came: the new input shows the album's value, and what
    // the person typed in the others stays.
    if (!page.editor.hidden) {
      input.value = editor.textOf(field, editor.album?.[field.name]);
      editor.shown[field.name] = input.value;
    }
  }
}

function trackLine(track) {
  const place = track.number ? `${track.disc ? track.disc + "-" : ""}${track.number}. ` : "";
  const length = track.seconds ? ` (${Math.floor(track.seconds / 60)}:${String(Math.round(track.seconds % 60)).padStart(2, "0")})` : "";
  return place + track.title + length;
}

/** The tracks `lines` give, each keeping what its line does not show (its artist, ids and
 * fields): a line left as it was is its track; an edited line is the track it stands for — the
 * one at its place (disc and number), else the one on the same line, unless another line
 * left as it was is that one — with the line's title, place and length. */
function editedTracks(tracks, lines) {
  const kept = new Set(lines.flatMap((line) => tracks.filter((track) => trackLine(track) === line.trim())));
  return lines.map((line, index) => {
    const same = tracks.find((track) => trackLine(track) === line.trim());
    if (same) return same;
    const parsed = parseTrack(line);
    const atPlace = parsed.number ? tracks.find((track) => !kept.has(track) && track.number === parsed.number && (track.disc ?? null) === (parsed.disc ?? null)) : undefined;
    const was = atPlace ?? (kept.has(tracks[index]) ? undefined : tracks[index]);
    if (!was) return parsed;
    const { title, number, disc, seconds, ...unshown } = was;
    return { ...unshown, ...parsed };
  });
}

function parseTrack(line) {
  const [, disc, number, title, minutes, seconds] = line.trim().match(/^(?:(?:(\d+)-)?(\d+)\.\s+)?(.*?)(?:\s+\((\d+):(\d{2})\))?$/);
  const track = { title };
  if (number) track.number = Number(number);
  if (disc) track.disc = Number(disc);
  if (minutes) track.seconds = Number(minutes) * 60 + Number(seconds);
  return track;
}

/** The form: adds an album, or edits the one shown (and follows the row while open). */
const editor = {
  album: null,        // the album being edited, or null when adding or closed
  core: ["title", "artist", "genre", "year", "coverUrl"],
  get fields() { return this.core.concat(moreFields.map((field) => field.name)); },
  shown: {},          // each field's text as the form opened with it
  open(album) {
    this.album = album;
    byId("editor-title").textContent = album ? `Edit “${album.title}”` : "Add an album";
    for (const name of this.core) page.editor.elements[name].value = album?.[name] ?? "";
    for (const field of moreFields) page.editor.elements[field.name].value = this.textOf(field, album?.[field.name]);
    this.shown = Object.fromEntries(this.fields.map((name) => [name, page.editor.elements[name].value]));
    this.clearErrors();
    page.editor.hidden = false;
    page.editor.elements.title.focus();
  },
  /** `value` of `field` (one of `moreFields`) as the form shows it. */
  textOf(field, value) {
    return field.text ? field.text(value) : value == null ? "" : String(value);
  },
  /** The row moved on while editing: edit the album now shown, or close when there is none. */
  follow(album) {
    if (album) this.open(album); else this.close();
  },
  close() {
    this.album = null;
    page.editor.hidden = true;
  },
  clearErrors() {
    for (const field of this.fields) this.fieldError(field, null);
  },
  fieldError(field, message) {
    const note = byId(`error-${field}`);
    note.textContent = message || "";
    note.hidden = !message;
    if (message) page.editor.elements[field].setAttribute("aria-invalid", "true");
    else page.editor.elements[field].removeAttribute("aria-invalid");
    if (message && note.closest("details")) note.closest("details").open = true;
  },
  /** The field an error from the core names, if any (`field 'year' …`, `ids.discogs …`). */
  fieldOf(message) {
    const named = message.match(/field '([\w.]+)'/)?.[1]?.split(".")[0];
    if (this.fields.includes(named)) return named;
    const lower = message.toLowerCase();
    return this.fields.find((field) => new RegExp(`\\b${field.toLowerCase()}\\b`).test(lower))
      ?? (/\bcover\b/.test(lower) ? "coverUrl" : /\btrack/.test(lower) ? "tracks" : null);
  },
  /** What the form says, as the API takes it: on an edit only what changed (an emptied
   * optional field is removed, a map's removed entry null), on an add what is filled in. */
  body() {
    const body = {};
    for (const name of this.fields) {
      const text = page.editor.elements[name].value;
      if (this.album ? text === this.shown[name] : text.trim() === "") continue;
      const field = moreFields.find((more) => more.name === name);
      if (!field) {
        body[name] = text;
      } else if (field.map) {
        const now = field.parse(text);
        const before = this.album ? field.parse(this.shown[name]) : {};
        for (const key of Object.keys(before)) if (!(key in now)) now[key] = null;
        body[name] = now;
      } else {
        body[name] = field.parse ? field.parse(text) : text === "" ? null : text;
      }
    }
    return body;
  },
  async save() {
    this.clearErrors();
    const missing = ["title", "artist"].filter((field) => page.editor.elements[field].value.trim() === "");
    for (const field of missing) this.fieldError(field, `The ${field} is required.`);
    if (missing.length) return page.editor.elements[missing[0]].focus();
    try {
      const body = this.body();
      if (this.album) {
        if (Object.keys(body).length > 0) await api("PATCH", albumPath(this.album), body);
      } else {
        const { album } = await api("POST", "/api/albums", body);
        await api("PUT", "/api/current", { id: album.id });
      }
      this.close();
      page.error.hidden = true;
      page.scroller.focus();
    } catch (error) {
      const field = error.status === 422 ? this.fieldOf(error.message) : null;
      if (!field) return showError(error.message);
      this.fieldError(field, error.message);
      page.editor.elements[field].focus();
    }
  },
};
byId("add").addEventListener("click", () => editor.open(null));
byId("edit").addEventListener("click", () => { const album = currentAlbum(); if (album) editor.open(album); });
byId("cancel").addEventListener("click", () => { editor.close(); page.scroller.focus(); });
page.editor.addEventListener("submit", (event) => { event.preventDefault(); editor.save(); });

// ---- Keys: wherever focus is, except in a text field ------------------------------------

function toggleHelp() {
  if (page.help.open) page.help.close(); else page.help.showModal();
}
byId("help-button").addEventListener("click", toggleHelp);

document.addEventListener("keydown", (event) => {
  const inField = event.target.closest?.("input, textarea, select, [contenteditable]");
  if (event.key === "Escape" && !page.help.open) {
    if (!page.editor.hidden) { editor.close(); page.scroller.focus(); } else if (results.active) { results.close(); page.scroller.focus(); } else return;
    event.preventDefault();
    return;
  }
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !inField) {
    event.preventDefault();
    walkHistory(event.shiftKey);
    return;
  }
  if (inField || event.ctrlKey || event.metaKey || event.altKey) return;
  if (page.help.open && event.key !== "?") return;
  switch (event.key) {
    case "ArrowRight": scroller.step(1); break;
    case "ArrowLeft": scroller.step(-1); break;
    case "Home": scroller.choose(0); break;
    case "End": scroller.choose(scroller.count - 1); break;
    case "PageDown": scroller.step(scroller.cellsInView()); break;
    case "PageUp": scroller.step(-scroller.cellsInView()); break;
    case "/": page.search.focus(); page.search.select(); break;
    case "?": toggleHelp(); break;
    default: return;
  }
  event.preventDefault();
});

// ---- Find covers: the lookup services asked about the albums in view that name none ---

/** The albums in view: the matches shown, else the row's loaded albums around the current one. */
function albumsInView() {
  if (!page.results.hidden) return results.items;
  const reach = scroller.cellsInView();
  const shown = [];
  for (let index = scroller.currentIndex - reach; index <= scroller.currentIndex + reach; index++) {
    const album = albums.byIndex.get(index);
    if (album) shown.push(album);
  }
  return shown;
}

/** Runs a round of lookups (as `albumkit covers fetch ID…`); each album's spinner is started
 * and stopped by its cover events, the round's outcome said when it ends. */
async function findCovers() {
  const ids = albumsInView().filter((album) => album.cover === "none").map((album) => album.id);
  if (ids.length === 0) return toast.show("Every album in view names a cover.");
  const button = byId("find-covers");
  button.disabled = true;
  showProgress(`Finding covers for ${ids.length} ${ids.length === 1 ? "album" : "albums"}…`, null);
  try {
    const round = await api("POST", "/api/covers/find", { ids });
    const requests = Object.entries(round.requests).map(([service, count]) => `${service} ${count}`).join(", ");
    toast.show(`Covers: ${round.fetched} found, ${round.cached} known, ${round.failed.length} not found` +
      (requests ? ` (requests: ${requests})` : "") + [""].concat(round.notes).join(". "));
  } finally {
    button.disabled = false;
    page.progress.hidden = true;
  }
}
byId("find-covers").addEventListener("click", () => attempt(findCovers));

// ---- Drop a bundle or album list: streamed up, imported as one undoable step ----------

let dragDepth = 0;
document.addEventListener("dragenter", (event) => { event.preventDefault(); dragDepth++; page.drop.hidden = false; });
document.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; page.drop.hidden = true; } });
document.addEventListener("dragover", (event) => event.preventDefault());
document.addEventListener("drop", (event) => {
  event.preventDefault();
  dragDepth = 0;
  page.drop.hidden = true;
  for (const file of event.dataTransfer.files) upload(file);
});

let uploadsInFlight = 0;
// An import this page uploaded that fails is told twice, in either order: by the upload's
// answer (422) and by the import.failed event. Each pairs with the other; an event left
// without a pair is another client's, and shown.
const ownFailures = { answers: 0, events: 0 };

/** Sends `file` as the request body (the browser streams it) and reports the outcome. */
function upload(file) {
  uploadsInFlight++;
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api/import?name=${encodeURIComponent(file.name)}`);
    if (token.value) request.setRequestHeader("Authorization", "Bearer " + token.value);
    request.setRequestHeader("Content-Type", "application/octet-stream");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) showProgress(`Uploading ${file.name}`, Math.round((100 * event.loaded) / event.total));
    };
    request.onload = () => {
      let answer = {};
      try { answer = JSON.parse(request.responseText); } catch { /* shown below */ }
      if (request.status >= 200 && request.status < 300) {
        page.error.hidden = true;
        showProgress(`Imported ${file.name}: ${answer.added} added, ${answer.skipped} skipped`, 100);
        setTimeout(() => { page.progress.hidden = true; }, 4000);
      } else {
        if (request.status === 422) {
          if (ownFailures.events > 0) ownFailures.events--; else ownFailures.answers++;
        }
        page.progress.hidden = true;
        showError(`${file.name} was not imported: ${answer.error?.message || request.statusText}`);
      }
      resolve();
    };
    request.onerror = () => { page.progress.hidden = true; showError(`${file.name}: the upload failed`); resolve(); };
    request.onloadend = () => { uploadsInFlight--; };
    request.send(file);
  });
}
window.albumkitUpload = upload; // for tests and the console

byId("download").addEventListener("click", (event) => {
  event.currentTarget.href = token.url("/api/export");
});

// Not through `attempt`: its success would hide an error the first listing showed meanwhile.
loadFields().catch((error) => showError(`The form's fields did not load: ${error.message}`));
listen();
