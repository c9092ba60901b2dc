// The board as SVG, drawn from the server's JSON position: squares, pieces (kanji or
// abbreviations, promoted ones in red, White's turned round), the last move and the marks
// of the piece being moved, with the coordinates in strips that stay in view when a large
// board is zoomed and scrolled. It knows no rule: the marks are the server's legal moves.

const SVG = "http://www.w3.org/2000/svg";

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// The rank letters as koma writes them: a..z, then aa..aj.
export function rankName(rank) {
  return rank <= 26 ? String.fromCharCode(96 + rank) : "a" + String.fromCharCode(96 + rank - 26);
}

// The smallest square drawn when fitting the board: below it a piece's name cannot be read,
// and the board scrolls instead.
export const SMALLEST_CELL = 26;

// The coordinates' strips, as a fraction of a square.
const STRIP = 0.7;

// The side of a square in pixels for a board to fit `width` × `height` pixels, times `zoom`.
export function cellSize(files, ranks, width, height, zoom = 1) {
  const fit = Math.floor(Math.min(width / (files + STRIP), height / (ranks + STRIP)));
  return Math.max(SMALLEST_CELL, Math.min(72, fit)) * zoom;
}

// What a piece shows: its kanji (when chosen and known) or its abbreviation. A royal piece
// written 玉将 is written 王将 for the side that moves second, as on real sets.
export function label(piece, kanji, side = "Black") {
  if (kanji && piece.kanji) return side === "White" && piece.kanji === "玉将" ? "王将" : piece.kanji;
  return piece.promoted && !piece.abbrev.startsWith("+") ? "+" + piece.abbrev : piece.abbrev;
}

// The lines a name is written in on a piece: a kanji name down the piece, two characters
// one above the other and longer names on two lines (the shorter half on top, where the
// piece is narrower); an abbreviation on one line.
export function nameLines(text) {
  const chars = [...text];
  if (!/[^\x00-\x7f]/.test(text)) return [text];
  if (chars.length <= 1) return chars;
  if (chars.length === 2) return chars;
  const top = Math.floor(chars.length / 2);
  return [chars.slice(0, top).join(""), chars.slice(top).join("")];
}

// Draws a piece of side `cell` at (x, y) into `parent`.
export function pieceShape(parent, x, y, cell, side, text, promoted) {
  const m = cell * 0.06;
  const w = cell - 2 * m;
  const h = cell - 2 * m;
  const points = [
    [w / 2, 0], [w * 0.86, h * 0.16], [w, h], [0, h], [w * 0.14, h * 0.16],
  ].map(([px, py]) => `${px},${py}`).join(" ");
  const turn = side === "White" ? ` rotate(180 ${w / 2} ${h / 2})` : "";
  const piece = el("g", { class: `piece ${side.toLowerCase()}`, transform: `translate(${x + m} ${y + m})${turn}` }, parent);
  el("polygon", { points, class: "body" }, piece);
  const lines = nameLines(text);
  const wide = Math.max(...lines.map((l) => [...l].length));
  const kanji = /[^\x00-\x7f]/.test(text);
  // A kanji is about 1 em wide; a Latin letter about 0.62 em (capitals 0.7).
  const across = kanji ? (w * 0.78) / wide : (w * 0.86) / (0.66 * wide);
  const down = (h * (lines.length === 1 ? 0.5 : 0.82)) / lines.length;
  const size = Math.min(across, down, h * 0.5);
  const first = lines.length === 1 ? h * 0.58 + size * 0.36 : h * 0.2 + size * 0.86;
  lines.forEach((line, index) => {
    const t = el("text", {
      x: w / 2,
      y: (first + index * size * 1.02).toFixed(1),
      "font-size": size.toFixed(1),
      "text-anchor": "middle",
      class: promoted ? "promoted" : "",
    }, piece);
    t.textContent = line;
  });
  return piece;
}

// A stand's piece: `piece` drawn in an SVG of side `cell`, with its count when more than one.
export function handPiece(piece, side, cell, kanji) {
  const svg = el("svg", { width: cell, height: cell, viewBox: `0 0 ${cell} ${cell}`, class: "board" });
  pieceShape(svg, 0, 0, cell, side, label(piece, kanji, side), piece.promoted);
  return svg;
}

// Draws the position into `container`. `view`: { flipped, kanji, cell, marks: Map(square
// -> { end: "target" | "capture", step: bool, selected: bool, back: bool }), onSquare(square) }.
export function drawBoard(container, game, view) {
  const { files, ranks } = game;
  const cell = view.cell;
  const strip = Math.round(cell * STRIP);
  const width = files * cell;
  const height = ranks * cell;
  const place = (file, rank) => {
    const column = view.flipped ? file - 1 : files - file;
    const row = view.flipped ? ranks - rank : rank - 1;
    return [column * cell, row * cell];
  };
  const grid = document.createElement("div");
  grid.className = "board-grid";
  grid.style.gridTemplateColumns = `${width}px ${strip}px`;
  grid.style.gridTemplateRows = `${strip}px ${height}px`;
  const coordinate = Math.max(10, Math.min(16, cell * 0.4));
  const filesStrip = el("svg", { width, height: strip, class: "coordinates files" });
  for (let file = 1; file <= files; file++) {
    const [x] = place(file, 1);
    el("text", { x: x + cell / 2, y: strip * 0.5 + coordinate * 0.35, "font-size": coordinate, "text-anchor": "middle" }, filesStrip).textContent = file;
  }
  const ranksStrip = el("svg", { width: strip, height, class: "coordinates ranks" });
  for (let rank = 1; rank <= ranks; rank++) {
    const [, y] = place(1, rank);
    el("text", { x: strip / 2, y: y + cell / 2 + coordinate * 0.35, "font-size": coordinate, "text-anchor": "middle" }, ranksStrip).textContent = rankName(rank);
  }
  const corner = document.createElement("div");
  corner.className = "corner";
  const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "board" });
  const last = new Set();
  if (game.last) {
    if (game.last.from) last.add(game.last.from);
    last.add(game.last.to);
    for (const s of game.last.via) last.add(s);
  }
  const pieces = new Map(game.pieces.map((p) => [p.square, p]));
  for (let rank = 1; rank <= ranks; rank++) {
    for (let file = 1; file <= files; file++) {
      const square = `${file}${rankName(rank)}`;
      const [x, y] = place(file, rank);
      const g = el("g", { class: "square", "data-square": square }, svg);
      const mark = view.marks.get(square) || {};
      const classes = ["cell"];
      if (last.has(square)) classes.push("last");
      if (mark.selected) classes.push("selected");
      if (mark.back) classes.push("back");
      if (mark.end) classes.push(mark.end);
      if (mark.step) classes.push("step");
      el("rect", { x, y, width: cell, height: cell, class: classes.join(" ") }, g);
      const piece = pieces.get(square);
      if (piece) pieceShape(g, x, y, cell, piece.side, label(piece, view.kanji, piece.side), piece.promoted);
      marksOn(g, x, y, cell, mark, !!piece);
    }
  }
  svg.addEventListener("click", (event) => {
    const g = event.target.closest("g.square");
    if (g) view.onSquare(g.dataset.square, event);
  });
  grid.append(filesStrip, corner, svg, ranksStrip);
  container.replaceChildren(grid);
  return svg;
}

// The marks of a square the piece being moved may go to, drawn around a piece rather than
// over it: a dot on an empty square, corners on a piece it captures, a ring on a first step.
function marksOn(g, x, y, cell, mark, occupied) {
  if (mark.end === "target" && !occupied) {
    el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.14, class: "dot target" }, g);
  }
  if (mark.end === "capture" || (mark.end === "target" && occupied)) {
    const k = cell * 0.3;
    for (const [cx, cy, dx, dy] of [[x, y, 1, 1], [x + cell, y, -1, 1], [x, y + cell, 1, -1], [x + cell, y + cell, -1, -1]]) {
      el("polygon", { points: `${cx},${cy} ${cx + dx * k},${cy} ${cx},${cy + dy * k}`, class: `corner-mark ${mark.end}` }, g);
    }
  }
  if (mark.step) {
    const inset = cell * 0.07;
    el("rect", { x: x + inset, y: y + inset, width: cell - 2 * inset, height: cell - 2 * inset, rx: cell * 0.12, class: "ring step" }, g);
  }
}
