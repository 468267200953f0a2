"use strict";
/*
 * The AlbumKit page: the library seen, live. The scroller (scroller.js) asks `albums`, the
 * data source below, for the count and the view at an index, and tells `selection`, its
 * delegate, which album was chosen; that choice is saved as the memento (PUT /api/current).
 * Every change anywhere arrives on the event stream (/api/events) and the row and details
 * are fetched again; cover events start and stop spinners; errors are shown, never dropped.
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

class APIError extends Error {}

async function api(method, path, body) {
  for (;;) {
    const headers = {};
    if (token.value) headers["Authorization"] = "Bearer " + token.value;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 401 && token.ask()) continue;
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) throw new APIError(json.error?.message || `${method} ${path}: ${response.status}`);
    return json;
  }
}

// ---- What the page shows --------------------------------------------------------------

const page = {
  scroller: document.getElementById("scroller"),
  details: document.getElementById("details"),
  empty: document.getElementById("empty"),
  editor: document.getElementById("editor"),
  progress: document.getElementById("progress"),
  error: document.getElementById("error"),
  status: document.getElementById("status"),
  drop: document.getElementById("drop"),
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

// ---- The data source: albums fetched a page at a time ---------------------------------

const albums = {
  pageSize: 100,
  total: 0,
  current: null,       // the saved current album's id
  byIndex: new Map(),  // index → album
  loading: new Set(),  // page offsets being fetched
  fetching: new Set(), // ids whose cover is being fetched (cover.requested → spinner)
  failed: new Map(),   // id → why its cover failed

  numberOfItems() { return this.total; },

  viewForItem(scroller, index) {
    const album = this.byIndex.get(index);
    const view = document.createElement("div");
    view.className = "view";
    if (!album) {
      this.load(Math.floor(index / this.pageSize) * this.pageSize);
      view.innerHTML = '<div class="placeholder">…</div>';
      return view;
    }
    view.dataset.id = album.id;
    if (album.coverSha256) {
      const image = document.createElement("img");
      image.alt = `${album.title} by ${album.artist}`;
      image.draggable = false; // a swipe must not start the browser's own drag of the image
      image.src = token.url(`/api/covers/${album.coverSha256}`);
      view.append(image);
    } else {
      const placeholder = document.createElement("div");
      placeholder.className = "placeholder";
      placeholder.textContent = `${album.title} — ${album.artist}`;
      view.append(placeholder);
    }
    if (this.fetching.has(album.id)) {
      const spinner = document.createElement("div");
      spinner.className = "spinner";
      spinner.title = "fetching the cover";
      view.append(spinner);
    } else if (this.failed.has(album.id) || album.cover === "failed") {
      const mark = document.createElement("div");
      mark.className = "failed-mark";
      mark.textContent = "!";
      mark.title = this.failed.get(album.id) || "the cover could not be fetched";
      view.append(mark);
    }
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
    for (const album of answer.albums) this.byIndex.set(album.position - 1, album);
  },

  indexOf(id) {
    for (const [index, album] of this.byIndex) if (album.id === id) return index;
    return -1;
  },

  /** Forgets every album and fetches the page around the current one again. */
  async refresh() {
    const around = selection.pending > 0 ? scroller.currentIndex : (this.currentPosition ?? 1) - 1;
    const offset = Math.max(0, around - this.pageSize / 2);
    let answer = await api("GET", `/api/albums?offset=${offset}&limit=${this.pageSize}`);
    if (answer.currentPosition && (answer.currentPosition - 1 < offset || answer.currentPosition > offset + this.pageSize)) {
      answer = await api("GET", `/api/albums?offset=${Math.max(0, answer.currentPosition - 1 - this.pageSize / 2)}&limit=${this.pageSize}`);
    }
    this.byIndex.clear();
    this.take(answer);
    // Keep what this page chose while its save is on the way; else follow the memento.
    if (selection.pending === 0) scroller.currentIndex = (answer.currentPosition ?? 1) - 1;
    render();
  },
};

// ---- The delegate: a choice becomes the memento ---------------------------------------

// Choices are saved one at a time, in order, the newest replacing any not yet sent: two
// requests in flight at once could reach the server in either order, and an older choice
// saved last would win.
const selection = {
  pending: 0,          // > 0 while a choice is being saved
  next: null,          // the newest choice not sent yet: { id, position }
  scrollerDidSelectItem(scroller, index) {
    renderDetails();
    const album = albums.byIndex.get(index);
    if (!album) return;
    this.next = { id: album.id, position: index + 1 };
    if (this.pending === 0) this.saveChoices();
  },
  async saveChoices() {
    this.pending++;
    try {
      while (this.next) {
        const choice = this.next;
        this.next = null;
        try {
          await api("PUT", "/api/current", { id: choice.id });
          albums.current = choice.id;
          albums.currentPosition = choice.position;
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

function render() {
  page.empty.hidden = albums.total > 0;
  scroller.show(scroller.currentIndex);
  renderDetails();
}

function renderDetails() {
  const album = albums.byIndex.get(scroller.currentIndex);
  page.details.hidden = !album;
  if (!album) return;
  page.details.dataset.id = album.id;
  for (const field of ["title", "artist", "year", "genre", "position", "id"]) {
    page.details.querySelector(`[data-field="${field}"]`).textContent = album[field] === "" ? "—" : String(album[field]);
  }
  const cover = albums.fetching.has(album.id) ? "fetching…" : albums.failed.get(album.id) ? `failed: ${albums.failed.get(album.id)}` : album.cover;
  page.details.querySelector('[data-field="cover"]').textContent = cover;
}

// ---- Live: the hub's events -----------------------------------------------------------

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => albums.refresh().catch((error) => showError(error.message)), 30);
}

function onEvent(event) {
  const name = event.event;
  if (name === "cover.requested") {
    albums.fetching.add(event.id);
    albums.failed.delete(event.id);
    redrawAlbum(event.id);
  } else if (name === "cover.fetched" || name === "cover.cached") {
    albums.fetching.delete(event.id);
    const index = albums.indexOf(event.id);
    if (index >= 0) {
      const album = albums.byIndex.get(index);
      album.coverSha256 = event.cover.split(".")[0];
      album.cover = "stored";
    }
    redrawAlbum(event.id);
  } else if (name === "cover.failed") {
    albums.fetching.delete(event.id);
    albums.failed.set(event.id, event.reason);
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
}

function showProgress(text, percent) {
  page.progress.hidden = false;
  page.progress.querySelector("span").textContent = text;
  const bar = page.progress.querySelector("progress");
  if (percent === null) bar.removeAttribute("value"); else bar.value = percent;
}

function listen() {
  const source = new EventSource(token.url("/api/events"));
  source.onopen = () => {
    page.status.textContent = "live";
    page.status.dataset.state = "live";
    scheduleRefresh(); // whatever changed while the stream was down
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

document.getElementById("undo").addEventListener("click", () => attempt(() => api("POST", "/api/undo")));
document.getElementById("redo").addEventListener("click", () => attempt(() => api("POST", "/api/redo")));
document.getElementById("delete").addEventListener("click", () => {
  const album = currentAlbum();
  if (album) attempt(() => api("DELETE", albumPath(album)));
});

let editing = null; // the album being edited, or null when adding
function openEditor(album) {
  editing = album;
  document.getElementById("editor-title").textContent = album ? `Edit “${album.title}”` : "Add an album";
  for (const field of ["title", "artist", "genre", "year", "coverUrl"]) page.editor.elements[field].value = album?.[field] ?? "";
  page.editor.hidden = false;
  page.editor.elements.title.focus();
}
document.getElementById("add").addEventListener("click", () => openEditor(null));
document.getElementById("edit").addEventListener("click", () => { const album = currentAlbum(); if (album) openEditor(album); });
document.getElementById("cancel").addEventListener("click", () => { page.editor.hidden = true; page.scroller.focus(); });
page.editor.addEventListener("submit", (event) => {
  event.preventDefault();
  const fields = {};
  for (const field of ["title", "artist", "genre", "year", "coverUrl"]) fields[field] = page.editor.elements[field].value;
  attempt(async () => {
    if (editing) {
      await api("PATCH", albumPath(editing), fields);
    } else {
      if (!fields.coverUrl) delete fields.coverUrl;
      const { album } = await api("POST", "/api/albums", fields);
      await api("PUT", "/api/current", { id: album.id });
    }
    page.editor.hidden = true;
    page.scroller.focus();
  });
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea") || !(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== "z") return;
  event.preventDefault();
  attempt(() => api("POST", event.shiftKey ? "/api/redo" : "/api/undo"));
});

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

document.getElementById("download").addEventListener("click", (event) => {
  event.currentTarget.href = token.url("/api/export");
});

listen();
albums.refresh().catch((error) => showError(error.message)).finally(() => page.scroller.focus());
