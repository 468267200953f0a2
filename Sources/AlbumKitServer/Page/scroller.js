"use strict";
/**
 * AlbumScroller: the seed app's horizontal row of covers, as a plain component.
 *
 * It knows nothing about albums. It asks its data source how many items there are
 * (`numberOfItems(scroller)`) and for the view of one item (`viewForItem(scroller, index)`,
 * an element), and tells its delegate which item was chosen
 * (`scrollerDidSelectItem(scroller, index)`). A click, a horizontal swipe or the wheel
 * choose (the page's keys call `step`, `choose` and `cellsInView`); the chosen item is centred
 * and highlighted. Only the cells near the current one exist in the page, so a library of
 * 100 000 albums scrolls as one of five does.
 */
class AlbumScroller {
  /** How many cells are kept on each side of the current one. */
  static window = 12;

  constructor(element, { dataSource, delegate }) {
    this.element = element;
    this.dataSource = dataSource;
    this.delegate = delegate;
    this.currentIndex = 0;
    this.track = document.createElement("div");
    this.track.className = "track";
    element.replaceChildren(this.track);
    // A new width (a phone turned, a window resized) may change the cells' size: centre again.
    window.addEventListener("resize", () => this.reload());
    // The wheel, either axis: one album per notch (a trackpad's small deltas add up).
    let wheel = 0;
    element.addEventListener("wheel", (event) => {
      event.preventDefault();
      wheel += Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : event.deltaY;
      if (Math.abs(wheel) < 40) return;
      this.step(wheel > 0 ? 1 : -1);
      wheel = 0;
    }, { passive: false });
    element.addEventListener("click", (event) => {
      const cell = event.target.closest(".cell");
      if (cell) this.choose(Number(cell.dataset.index));
    });
    let start = null;
    element.addEventListener("pointerdown", (event) => { start = { x: event.clientX, y: event.clientY }; });
    element.addEventListener("pointercancel", () => { start = null; });
    element.addEventListener("pointerup", (event) => {
      if (!start) return;
      const dx = event.clientX - start.x, dy = event.clientY - start.y;
      start = null;
      if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy)) this.choose(this.currentIndex + (dx < 0 ? 1 : -1));
    });
  }

  /** The number of items, as the data source says. */
  get count() { return this.dataSource.numberOfItems(this); }

  /** Moves the highlight to `index` without telling the delegate (a change from elsewhere). */
  show(index) {
    this.currentIndex = Math.max(0, Math.min(index, this.count - 1));
    this.reload();
  }

  /** Chooses `index`, as a person did: shows it and tells the delegate. */
  choose(index) {
    const count = this.count;
    if (count === 0) return;
    const next = Math.max(0, Math.min(index, count - 1));
    if (next === this.currentIndex && this.track.querySelector(".cell.current")) return;
    this.currentIndex = next;
    this.reload();
    this.delegate.scrollerDidSelectItem(this, next);
  }

  /** Asks the data source again for every visible cell. */
  reload() {
    const count = this.count;
    const first = Math.max(0, this.currentIndex - AlbumScroller.window);
    const last = Math.min(count - 1, this.currentIndex + AlbumScroller.window);
    const cells = [];
    for (let index = first; index <= last; index++) {
      const cell = document.createElement("div");
      cell.className = "cell" + (index === this.currentIndex ? " current" : "");
      cell.dataset.index = String(index);
      cell.append(this.dataSource.viewForItem(this, index));
      cells.push(cell);
    }
    this.track.replaceChildren(...cells);
    this.first = first;
    // Centre the current cell: the track starts at the middle of the row.
    const style = getComputedStyle(this.element);
    const size = parseFloat(style.getPropertyValue("--cell")) + parseFloat(style.getPropertyValue("--gap"));
    const offset = (this.currentIndex - first) * size + parseFloat(style.getPropertyValue("--cell")) / 2;
    this.track.style.transform = `translateX(${-offset}px)`;
  }

  /** Asks the data source again for one cell, if it is visible. */
  reloadItem(index) {
    const cell = this.track.querySelector(`.cell[data-index="${index}"]`);
    if (cell) cell.replaceChildren(this.dataSource.viewForItem(this, index));
  }

  /** Chooses the item `delta` places from the current one. */
  step(delta) { this.choose(this.currentIndex + delta); }

  /** How many cells the row shows at once (what PageUp and PageDown move by). */
  cellsInView() {
    const style = getComputedStyle(this.element);
    const size = parseFloat(style.getPropertyValue("--cell")) + parseFloat(style.getPropertyValue("--gap"));
    return Math.max(1, Math.floor(this.element.clientWidth / size));
  }
}
