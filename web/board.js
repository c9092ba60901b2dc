// The board as SVG, drawn from the server's JSON position: squares, pieces (kanji or
// abbreviations, promoted ones in red, White's turned round), the last move and the marks
// of the piece being moved. It knows no rule: the marks are the server's legal moves.

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

// The side of a square in pixels, so that the board fits about 640 pixels.
export function cellSize(files, ranks) {
  return Math.max(17, Math.min(60, Math.floor(640 / Math.max(files, ranks))));
}

// What a piece shows: its kanji (when chosen and known) or its abbreviation.
export function label(piece, kanji) {
  if (kanji && piece.kanji) return piece.kanji;
  return piece.promoted && !piece.abbrev.startsWith("+") ? "+" + piece.abbrev : piece.abbrev;
}

function pieceShape(g, x, y, cell, side, text, promoted) {
  const m = cell * 0.08;
  const w = cell - 2 * m;
  const h = cell - 2 * m;
  const points = [
    [w / 2, 0], [w * 0.85, h * 0.18], [w, h], [0, h], [w * 0.15, h * 0.18],
  ].map(([px, py]) => `${px},${py}`).join(" ");
  const turn = side === "White" ? ` rotate(180 ${w / 2} ${h / 2})` : "";
  const piece = el("g", { class: `piece ${side.toLowerCase()}`, transform: `translate(${x + m} ${y + m})${turn}` }, g);
  el("polygon", { points, class: "body" }, piece);
  const chars = [...text];
  const vertical = chars.length === 2 && /[^\x00-\x7f]/.test(text);
  const size = vertical ? h * 0.36 : Math.min(h * 0.5, (w * 1.6) / Math.max(chars.length, 1));
  const lines = vertical ? chars : [text];
  lines.forEach((line, index) => {
    const t = el("text", {
      x: w / 2,
      y: h * (vertical ? 0.48 + index * 0.38 : 0.72),
      "font-size": size.toFixed(1),
      "text-anchor": "middle",
      class: promoted ? "promoted" : "",
    }, piece);
    t.textContent = line;
  });
}

// Draws the position into `container`. `view`: { flipped, kanji, marks: Map(square ->
// class), onSquare(square) }.
export function drawBoard(container, game, view) {
  const { files, ranks } = game;
  const cell = cellSize(files, ranks);
  const margin = Math.max(14, cell * 0.5);
  const width = files * cell + 2 * margin;
  const height = ranks * cell + 2 * margin;
  const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "board" });
  const place = (file, rank) => {
    const column = view.flipped ? file - 1 : files - file;
    const row = view.flipped ? ranks - rank : rank - 1;
    return [margin + column * cell, margin + row * cell];
  };
  const last = new Set();
  if (game.last) {
    if (game.last.from) last.add(game.last.from);
    last.add(game.last.to);
    for (const s of game.last.via) last.add(s);
  }
  const pieces = new Map(game.pieces.map((p) => [p.square, p]));
  const coordinate = Math.max(9, Math.min(14, cell * 0.35));
  for (let file = 1; file <= files; file++) {
    const [x] = place(file, 1);
    const t = el("text", { x: x + cell / 2, y: margin * 0.75, "font-size": coordinate, "text-anchor": "middle", class: "coordinate" }, svg);
    t.textContent = file;
  }
  for (let rank = 1; rank <= ranks; rank++) {
    const [, y] = place(1, rank);
    const t = el("text", { x: width - margin * 0.5, y: y + cell / 2 + coordinate / 3, "font-size": coordinate, "text-anchor": "middle", class: "coordinate" }, svg);
    t.textContent = rankName(rank);
  }
  for (let rank = 1; rank <= ranks; rank++) {
    for (let file = 1; file <= files; file++) {
      const square = `${file}${rankName(rank)}`;
      const [x, y] = place(file, rank);
      const g = el("g", { class: "square", "data-square": square }, svg);
      const classes = ["cell"];
      if (last.has(square)) classes.push("last");
      const mark = view.marks.get(square);
      if (mark) classes.push(mark);
      el("rect", { x, y, width: cell, height: cell, class: classes.join(" ") }, g);
      const piece = pieces.get(square);
      if (piece) pieceShape(g, x, y, cell, piece.side, label(piece, view.kanji), piece.promoted);
      if (mark === "target" || mark === "capture" || mark === "middle") {
        el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * (mark === "middle" ? 0.2 : 0.14), class: `dot ${mark}` }, g);
      }
      g.addEventListener("click", () => view.onSquare(square));
    }
  }
  container.replaceChildren(svg);
}
