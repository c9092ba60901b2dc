// The page: choose a variant, play with the mouse, inspect the pieces. Every rule is the
// server's: the page asks it for the legal moves and sends the move chosen; the result, the
// position and the moves played are what it answers.

import { get, post, ApiError } from "/api.js";
import { cellSize, drawBoard, handPiece, label } from "/board.js";

const $ = (id) => document.getElementById(id);

const state = {
  game: null,
  moves: [],
  // The move being made: the start square or the kind to drop, then a Lion's middle square.
  from: null,
  drop: null,
  middle: null,
  flipped: false,
  thinking: false,
  // The squares' size: 1 fits the board to the window.
  zoom: 1,
  // The pieces' help of the game's variant, by abbreviation, and that variant.
  help: new Map(),
  helpKey: null,
  // A long press showed a card: the tap that ends it is not a click.
  pressed: false,
  // The square last clicked: no card there until the mouse leaves it.
  quiet: null,
};

function say(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = kind;
}

function sayError(e) {
  say(e instanceof ApiError || e instanceof Error ? e.message : String(e), "error");
}

// ---------------------------------------------------------------------------------------
// Variants

async function loadVariants() {
  const list = await get("/api/variants");
  const select = $("variant");
  select.replaceChildren(...list.variants.map((name) => new Option(name, name)));
  // The variant asked for in the address (`/?variant=chu`), else the server's first.
  const asked = new URLSearchParams(location.search).get("variant");
  select.value = list.variants.includes(asked) ? asked : list.first;
  await chooseVariant(select.value);
}

// Shows a variant's options and handicaps; returns whether it loaded.
async function chooseVariant(name) {
  try {
    const loaded = await post("/api/variants", { name });
    showVariant(loaded.variant);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.body.check) showDiagnostics(e.body);
    sayError(e);
    return false;
  }
}

function showVariant(variant) {
  const options = $("options");
  options.replaceChildren();
  const explained = $("options-list");
  explained.replaceChildren();
  for (const [name, option] of Object.entries(variant.options)) {
    const select = document.createElement("select");
    select.dataset.option = name;
    select.append(...option.values.map((v) => new Option(v, v)));
    select.value = option.chosen;
    const wrap = document.createElement("label");
    wrap.title = option.description || "";
    wrap.append(`${name} `, select);
    options.append(wrap);
    const term = Object.assign(document.createElement("dt"), { textContent: `${name} (${option.values.join(", ")})` });
    const text = option.description || "The variant file does not explain it.";
    explained.append(term, Object.assign(document.createElement("dd"), { textContent: text }));
  }
  $("options-help").hidden = Object.keys(variant.options).length === 0;
  const handicap = $("handicap");
  handicap.replaceChildren(new Option("none", ""), ...variant.handicaps.map((h) => new Option(h, h)));
  handicap.disabled = variant.handicaps.length === 0;
}

// The pieces' help of the game's variant: the list (searchable), and what the board's
// hover cards show.
async function loadHelp(key) {
  if (state.helpKey === key) return;
  state.helpKey = key;
  const help = await get(`/api/variants/${encodeURIComponent(key)}/help`).catch(() => null);
  if (state.helpKey !== key) return;
  state.help = new Map();
  const list = $("pieces");
  list.replaceChildren();
  if (!help) return;
  for (const piece of help.pieces) {
    state.help.set(piece.abbrev, piece);
    const item = document.createElement("details");
    item.className = "piece-help";
    item.dataset.abbrev = piece.abbrev;
    item.dataset.search = `${piece.abbrev} ${piece.name} ${piece.kanji || ""}`.toLowerCase();
    const summary = document.createElement("summary");
    summary.textContent = `${piece.abbrev} ${piece.name}${piece.kanji ? " " + piece.kanji : ""}`;
    const picture = document.createElement("div");
    if (piece.svg === null) picture.textContent = "(no diagram: the help is past its size limit)";
    else picture.innerHTML = piece.svg;
    item.append(summary, picture);
    list.append(item);
  }
  searchHelp();
  sayKanji(help);
  render();
}

// Says when the variant's file gives no kanji (or only some), and why the box does nothing.
function sayKanji(help) {
  const named = help.pieces.filter((p) => p.kanji).length;
  const box = $("kanji");
  box.disabled = named === 0;
  const note = $("kanji-note");
  if (named === 0) note.textContent = `${help.title}'s file gives no kanji: the pieces show their abbreviations.`;
  else if (named < help.pieces.length) note.textContent = `${named} of ${help.pieces.length} pieces have kanji in ${help.title}'s file; the others show their abbreviations.`;
  else note.textContent = "";
}

function searchHelp() {
  const words = $("piece-search").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  for (const item of $("pieces").children) {
    item.hidden = !words.every((w) => item.dataset.search.includes(w));
  }
}

// Opens the piece help at a piece (the one clicked on the board).
function showInHelp(abbrev) {
  const list = $("pieces");
  const item = [...list.children].find((i) => i.dataset.abbrev === abbrev);
  if (!item) return;
  $("help").open = true;
  $("piece-search").value = "";
  searchHelp();
  for (const other of list.children) other.open = other === item;
  list.scrollTop = item.offsetTop - list.offsetTop;
}

// The card shown over a piece on hover or a long press: its name and its moves.
function showCard(square) {
  const piece = state.game?.pieces.find((p) => p.square === square);
  const help = piece && state.help?.get(piece.abbrev);
  const card = $("piece-card");
  if (!piece) return hideCard();
  card.replaceChildren();
  const name = document.createElement("div");
  name.className = "name";
  name.textContent = `${piece.name}${piece.kanji ? " " + label(piece, true, piece.side) : ""} (${piece.abbrev}), ${piece.side}'s`;
  card.append(name);
  if (help) {
    const picture = document.createElement("div");
    picture.innerHTML = help.svg;
    card.append(picture);
  }
  card.dataset.square = square;
  card.hidden = false;
  placeNear(card, square);
}

function hideCard() {
  $("piece-card").hidden = true;
  delete $("piece-card").dataset.square;
}

// Puts a floating box beside a square: to its right, else its left; below, else above.
function placeNear(box, square) {
  const cell = document.querySelector(`g[data-square='${square}'] rect`);
  if (!cell) return;
  const r = cell.getBoundingClientRect();
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  const room = document.documentElement.clientWidth;
  let left = r.right + 8;
  if (left + w > room) left = r.left - 8 - w;
  if (left < 4) left = Math.max(4, Math.min(room - w - 4, r.left));
  let top = r.top;
  if (top + h > window.innerHeight) top = Math.max(4, window.innerHeight - h - 4);
  box.style.left = `${left + scrollX}px`;
  box.style.top = `${top + scrollY}px`;
}

function chosenOptions() {
  const options = {};
  for (const select of $("options").querySelectorAll("select")) options[select.dataset.option] = select.value;
  return options;
}

// ---------------------------------------------------------------------------------------
// Variant files: opened or pasted, checked on the server, diagnostics shown on the text

async function checkVariantText() {
  const text = $("var-text").value;
  const fileName = $("var-open").files[0]?.name || "pasted.var";
  $("diagnostics").replaceChildren();
  try {
    const loaded = await post("/api/variants", { source: text, file_name: fileName });
    const select = $("variant");
    select.append(new Option(loaded.variant.key, loaded.variant.key));
    select.value = loaded.variant.key;
    showVariant(loaded.variant);
    if (loaded.check.diagnostics.length) showDiagnostics({ check: loaded.check, source: text });
    say(`${loaded.variant.title} is loaded: start a new game.`);
  } catch (e) {
    if (e instanceof ApiError && e.body.check) showDiagnostics(e.body);
    sayError(e);
  }
}

// The byte offsets of the server's spans, as positions in the JavaScript string.
function byteSlicer(text) {
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  return (start, end) => decoder.decode(bytes.slice(start, end));
}

// Each diagnostic: its message and code, the lines of its labels with the spans marked,
// and its help.
function showDiagnostics({ check, source }) {
  const box = $("diagnostics");
  box.replaceChildren();
  const slice = source ? byteSlicer(source) : null;
  for (const d of check.diagnostics) {
    const item = document.createElement("div");
    item.className = `diagnostic ${d.severity}`;
    const head = document.createElement("div");
    head.className = "message";
    head.textContent = `${d.severity}: ${d.message} [${d.code}]`;
    item.append(head);
    for (const l of d.labels) {
      if (!slice) break;
      const before = slice(0, l.start);
      const lineStart = before.lastIndexOf("\n") + 1;
      const rest = slice(l.end);
      const lineEnd = rest.indexOf("\n");
      const pre = document.createElement("pre");
      const mark = document.createElement("mark");
      mark.textContent = slice(l.start, l.end) || " ";
      mark.title = l.text;
      const note = document.createElement("span");
      note.className = "label";
      note.textContent = `  ← ${l.text}`;
      pre.append(`${d.file}:${l.line}:${l.column}\n`, before.slice(lineStart), mark, lineEnd < 0 ? rest : rest.slice(0, lineEnd), note);
      item.append(pre);
    }
    if (d.help) {
      const help = document.createElement("div");
      help.className = "help";
      help.textContent = `help: ${d.help}`;
      item.append(help);
    }
    box.append(item);
  }
  $("variant-file").open = true;
}

// ---------------------------------------------------------------------------------------
// The game

async function newGame(event) {
  event?.preventDefault();
  const body = {
    variant: $("variant").value,
    options: chosenOptions(),
    black: $("black").value,
    white: $("white").value,
  };
  if ($("handicap").value) body.handicap = $("handicap").value;
  try {
    const game = await post("/api/games", body);
    state.flipped = game.players[0] === "koma" && game.players[1] === "human";
    await setGame(game);
  } catch (e) {
    sayError(e);
  }
}

function sideIndex(side) {
  return side === "Black" ? 0 : 1;
}

// Shows a game the server answered, asks for its legal moves, and lets koma move on its turn.
async function setGame(game) {
  state.game = game;
  state.from = state.drop = state.middle = null;
  state.moves = [];
  if (!game.result) state.moves = (await get(`/api/games/${game.id}/moves`)).moves;
  // What tests (and curious users) read: the game shown and its position.
  Object.assign(document.body.dataset, { game: game.id, sfen: game.sfen });
  render();
  loadHelp(game.variant);
  describe(game);
  if (!game.result && game.players[sideIndex(game.turn)] === "koma") await komaMoves();
}

function describe(game) {
  if (game.result) {
    say(`Game over: ${game.result.reason} (${game.result.result}).`, "over");
  } else {
    const note = game.note ? `${game.note}. ` : "";
    say(`${note}${game.turn} to move (move ${game.ply + 1}).`);
  }
}

async function komaMoves() {
  const game = state.game;
  state.thinking = true;
  say(`koma is thinking for ${game.turn}…`);
  try {
    const seconds = Number($("seconds").value) || 2;
    await setGame(await post(`/api/games/${game.id}/engine`, { seconds, ply: game.ply }));
  } catch (e) {
    sayError(e);
  } finally {
    state.thinking = false;
  }
}

async function playMove(usi) {
  $("choice").hidden = true;
  try {
    await setGame(await post(`/api/games/${state.game.id}/move`, { move: usi, ply: state.game.ply }));
  } catch (e) {
    sayError(e);
    state.from = state.drop = state.middle = null;
    render();
  }
}

// The marks of the move being made: its start, where it may end (every square it reaches,
// a Lion's two-square moves included) and a Lion's first steps that capture on the way
// (a click there waits for the second step).
function marks() {
  const marks = new Map();
  const at = (square) => {
    if (!marks.has(square)) marks.set(square, {});
    return marks.get(square);
  };
  const end = (m) => {
    const mark = at(m.to);
    mark.end = mark.end === "capture" || m.captures.includes(m.to) ? "capture" : "target";
  };
  if (state.middle) {
    at(state.from).selected = true;
    for (const m of state.moves.filter((m) => m.from === state.from)) {
      if (m.middles.includes(state.middle) && m.to !== state.from) end(m);
      if (m.to === state.from && m.middles.includes(state.middle)) at(state.from).back = true;
    }
    const stop = stopsAt(state.middle);
    if (stop.length) end(stop[0]);
    at(state.middle).step = true;
  } else if (state.from) {
    at(state.from).selected = true;
    for (const m of state.moves.filter((m) => m.from === state.from)) {
      if (m.to !== state.from) end(m);
      for (const s of firstSteps(m)) at(s).step = true;
    }
  } else if (state.drop) {
    for (const m of state.moves.filter((m) => m.drop === state.drop)) end(m);
  }
  return marks;
}

// The squares a move captures on before its end: where a click must wait for the second step.
function firstSteps(m) {
  return m.captures.filter((s) => s !== m.to);
}

// The moves of the piece selected that stop on its first step `square`.
function stopsAt(square) {
  return state.moves.filter((m) => m.from === state.from && m.to === square && firstSteps(m).length === 0);
}

// The side of a square for the window: the board fits the space left of the side panel
// and below the status line, never below SMALLEST_CELL (then it scrolls), times the zoom.
function boardCell(game) {
  const area = $("board-area");
  const narrow = matchMedia("(max-width: 760px)").matches;
  const stands = game.drops ? [$("hand-top"), $("hand-bottom")] : [];
  const standWidth = narrow ? 0 : stands.reduce((sum, s) => sum + s.offsetWidth + 10, 0);
  const standHeight = narrow ? stands.reduce((sum, s) => sum + s.offsetHeight + 6, 0) : 0;
  const width = area.clientWidth - standWidth - 4;
  const top = area.getBoundingClientRect().top + scrollY;
  const height = narrow ? Infinity : window.innerHeight - top - standHeight - 12;
  const cell = cellSize(game.files, game.ranks, width, Math.max(height, 200), state.zoom);
  const board = $("board");
  board.style.maxWidth = `${Math.max(width, 120)}px`;
  board.style.maxHeight = narrow ? `${Math.round(window.innerHeight * 0.85)}px` : `${Math.max(height, 200)}px`;
  return cell;
}

function render() {
  const game = state.game;
  if (!game) return;
  const kanji = $("kanji").checked && !$("kanji").disabled;
  const [bottom, top] = state.flipped ? [1, 0] : [0, 1];
  const cell = Math.round(boardCell(game));
  const handCell = Math.max(28, Math.min(48, cell));
  drawHand($("hand-bottom"), game, bottom, kanji, handCell);
  drawHand($("hand-top"), game, top, kanji, handCell);
  drawBoard($("board"), game, { flipped: state.flipped, kanji, cell, marks: marks(), onSquare: clickSquare });
  drawMoves(game);
  $("sfen").value = game.sfen;
  if (!$("piece-card").hidden) showCard($("piece-card").dataset.square);
}

// The moves as numbered pairs, `1. P-7f P-3d`; a game begun by White starts `1. … P-3d`. A
// move that took pieces besides its destination (a range capture, burning, a Lion's double
// capture) says what under its pair.
function drawMoves(game) {
  const list = $("moves");
  const blackFirst = (game.turn === "Black") === (game.moves.length % 2 === 0);
  const played = blackFirst ? game.moves : [null, ...game.moves];
  const items = [];
  for (let i = 0; i < played.length; i += 2) {
    const li = document.createElement("li");
    const notes = [];
    for (const move of played.slice(i, i + 2)) {
      const span = document.createElement("span");
      span.className = move ? "move" : "skipped";
      span.textContent = move ? move.text : "…";
      li.append(span, " ");
      if (move && move.taken) notes.push(`${move.text}: ${move.taken}`);
    }
    for (const note of notes) {
      const taken = document.createElement("div");
      taken.className = "taken";
      taken.textContent = note;
      li.append(taken);
    }
    items.push(li);
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

// A stand: the pieces in hand drawn as pieces, each with its count.
function drawHand(box, game, index, kanji, cell) {
  box.replaceChildren();
  box.hidden = !game.drops;
  if (!game.drops) return;
  const side = index === 0 ? "Black" : "White";
  box.dataset.side = side;
  const title = document.createElement("span");
  title.className = "title";
  title.textContent = side;
  box.append(title);
  for (const piece of game.hands[index]) {
    const button = document.createElement("button");
    button.className = "in-hand" + (state.drop === piece.abbrev && game.turn === side ? " selected" : "");
    button.dataset.side = side;
    button.dataset.abbrev = piece.abbrev;
    button.title = `${piece.name} (${piece.abbrev}) × ${piece.count}`;
    button.append(handPiece(piece, "Black", cell, kanji));
    if (piece.count > 1) button.append(Object.assign(document.createElement("span"), { className: "count", textContent: piece.count }));
    button.addEventListener("click", () => clickHand(side, piece.abbrev));
    box.append(button);
  }
}

function clickHand(side, abbrev) {
  if (state.thinking || side !== state.game.turn) return;
  const drops = state.moves.some((m) => m.drop === abbrev);
  state.from = state.middle = null;
  state.drop = drops && state.drop !== abbrev ? abbrev : null;
  render();
}

function ownPieceWithMoves(square) {
  return state.moves.some((m) => m.from === square);
}

function clickSquare(square) {
  if (state.pressed) {
    state.pressed = false;
    return;
  }
  hideChoice();
  hideCard();
  // The card stays away from the square clicked (the board is drawn anew under the mouse)
  // until the mouse goes to another square.
  state.quiet = square;
  if (!state.game) return;
  const piece = state.game.pieces.find((p) => p.square === square);
  if (state.thinking || state.game.result) {
    if (piece) showInHelp(piece.abbrev);
    return;
  }
  if (state.drop) {
    const chosen = state.moves.filter((m) => m.drop === state.drop && m.to === square);
    state.drop = null;
    return chosen.length ? finish(chosen, square) : render();
  }
  if (state.middle) return secondStep(square);
  if (state.from && square === state.from) return clickStart(square);
  if (state.from && firstStep(square)) return;
  state.from = ownPieceWithMoves(square) ? square : null;
  state.middle = null;
  if (piece && $("help").open) showInHelp(piece.abbrev);
  else if (piece && !state.from) showInHelp(piece.abbrev);
  render();
}

// A click on the piece selected: it may pass (a Lion's move there and back), else it is put back.
function clickStart(square) {
  const passes = state.moves.filter((m) => m.from === square && m.to === square);
  if (passes.length) return finish(passes, square, "Pass", "Put it back");
  state.from = null;
  render();
}

// A click after the start: a first step that captures on the way (then a second click ends
// the move), or the end of a move, made at once when only one move ends there. Returns
// whether it was one.
function firstStep(square) {
  const mine = state.moves.filter((m) => m.from === state.from);
  if (mine.some((m) => firstSteps(m).includes(square))) {
    state.middle = square;
    render();
    return true;
  }
  const ending = mine.filter((m) => m.to === square);
  if (ending.length) {
    finish(ending, square);
    return true;
  }
  return false;
}

// A click after a Lion's first step: the end (the first step again to stop there, the start
// for igui).
function secondStep(square) {
  const mine = state.moves.filter((m) => m.from === state.from);
  const chosen = square === state.middle ? stopsAt(square) : mine.filter((m) => m.to === square && m.middles.includes(state.middle));
  if (chosen.length) return finish(chosen, square);
  state.middle = null;
  state.from = ownPieceWithMoves(square) ? square : null;
  render();
}

// Plays the move chosen, asking first, beside the square, where the choice is the
// player's (promotion, or which of the moves ending there).
function finish(chosen, square, question = null, cancelText = "Cancel") {
  const distinct = [...new Map(chosen.map((m) => [m.usi, m])).values()];
  if (distinct.length === 1 && !question) return playMove(distinct[0].usi);
  const box = $("choice");
  box.replaceChildren();
  const promotes = distinct.length === 2 && distinct.every((m) => m.from && m.from === distinct[0].from && m.to === distinct[0].to && m.middles.join() === distinct[0].middles.join());
  const ask = document.createElement("span");
  ask.textContent = question ? `${question}? ` : promotes ? "Promote? " : "Which move? ";
  box.append(ask);
  for (const m of distinct) {
    const button = document.createElement("button");
    button.textContent = promotes ? `${m.promote ? "Promote" : "Don't promote"} (${m.text})` : m.text;
    button.dataset.usi = m.usi;
    button.addEventListener("click", () => playMove(m.usi));
    box.append(button);
  }
  const cancel = document.createElement("button");
  cancel.textContent = cancelText;
  cancel.addEventListener("click", () => {
    hideChoice();
    state.from = state.middle = state.drop = null;
    render();
  });
  box.append(cancel);
  box.hidden = false;
  placeNear(box, square);
}

function hideChoice() {
  $("choice").hidden = true;
}

// Hover shows a piece's card; so does a long press on a touch screen (and the tap that
// ends it is not a click).
function wireBoard() {
  const board = $("board");
  board.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const g = event.target.closest?.("g.square");
    if (!g) return hideCard();
    if (g.dataset.square === state.quiet) return;
    state.quiet = null;
    if (state.game?.pieces.some((p) => p.square === g.dataset.square)) showCard(g.dataset.square);
    else hideCard();
  });
  // A finger leaves the board as it is lifted: the card of a long press stays.
  board.addEventListener("pointerleave", (event) => event.pointerType === "mouse" && hideCard());
  let timer = null;
  board.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    hideCard();
    const g = event.target.closest?.("g.square");
    if (!g) return;
    timer = setTimeout(() => {
      state.pressed = true;
      showCard(g.dataset.square);
    }, 500);
  });
  const stop = () => {
    clearTimeout(timer);
    if (state.pressed) setTimeout(() => (state.pressed = false), 400);
  };
  for (const name of ["pointerup", "pointercancel", "pointermove"]) {
    board.addEventListener(name, (event) => name !== "pointermove" || event.movementX || event.movementY ? stop() : null);
  }
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  document.addEventListener("pointerdown", (event) => {
    if (!board.contains(event.target)) hideCard();
  });
}

// ---------------------------------------------------------------------------------------
// Controls

async function act(path, body) {
  if (!state.game || state.thinking) return;
  try {
    await setGame(await post(`/api/games/${state.game.id}/${path}`, body));
  } catch (e) {
    sayError(e);
  }
}

async function undo() {
  if (!state.game || state.thinking) return;
  try {
    let game = await post(`/api/games/${state.game.id}/undo`);
    // Against koma, take back its reply too: the player moves again.
    if (game.ply > 0 && game.players[sideIndex(game.turn)] === "koma" && game.players.includes("human")) {
      game = await post(`/api/games/${game.id}/undo`);
    }
    state.game = game;
    state.moves = game.result ? [] : (await get(`/api/games/${game.id}/moves`)).moves;
    state.from = state.drop = state.middle = null;
    render();
    describe(game);
  } catch (e) {
    sayError(e);
  }
}

function offerDraw() {
  const game = state.game;
  if (!game) return;
  const other = game.turn === "Black" ? "White" : "Black";
  if (game.players[sideIndex(other)] === "human" && !confirm(`${game.turn} offers a draw. ${other}: accept?`)) return;
  act("draw");
}

function resign() {
  if (state.game && confirm(`${state.game.turn} resigns?`)) act("resign");
}

async function downloadRecord() {
  if (!state.game) return;
  const link = document.createElement("a");
  link.href = `/api/games/${state.game.id}/record`;
  link.download = "";
  link.click();
}

async function loadRecord() {
  const file = $("record-load").files[0];
  if (!file) return;
  try {
    const game = await post("/api/records", { record: await file.text() });
    state.flipped = false;
    await setGame(game);
  } catch (e) {
    sayError(e);
  }
  $("record-load").value = "";
}

async function copySfen() {
  try {
    await navigator.clipboard.writeText($("sfen").value);
    say("The position is copied as SFEN.");
  } catch {
    $("sfen").select();
    say("Copy the selected SFEN (Ctrl-C).");
  }
}

function setSfen() {
  act("sfen", { sfen: $("sfen").value.trim() });
}

// Zooms the board about the middle of what is in view.
function zoom(factor) {
  const board = $("board");
  const before = state.zoom;
  state.zoom = Math.max(0.4, Math.min(4, factor));
  const scale = state.zoom / before;
  const middleX = (board.scrollLeft + board.clientWidth / 2) * scale;
  const middleY = (board.scrollTop + board.clientHeight / 2) * scale;
  render();
  board.scrollLeft = middleX - board.clientWidth / 2;
  board.scrollTop = middleY - board.clientHeight / 2;
}

async function openVariantFile() {
  const file = $("var-open").files[0];
  if (file) $("var-text").value = await file.text();
}

function wire() {
  $("new-game").addEventListener("submit", newGame);
  // The board follows the menu: another variant starts a game of it.
  $("variant").addEventListener("change", async () => {
    if (await chooseVariant($("variant").value)) await newGame();
  });
  $("undo").addEventListener("click", undo);
  $("go").addEventListener("click", () => state.game && !state.game.result && !state.thinking && komaMoves());
  $("draw").addEventListener("click", offerDraw);
  $("resign").addEventListener("click", resign);
  $("flip").addEventListener("click", () => {
    state.flipped = !state.flipped;
    render();
  });
  $("kanji").addEventListener("change", render);
  $("zoom-in").addEventListener("click", () => zoom(state.zoom * 1.25));
  $("zoom-out").addEventListener("click", () => zoom(state.zoom / 1.25));
  $("zoom-fit").addEventListener("click", () => zoom(1));
  $("piece-search").addEventListener("input", searchHelp);
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(render, 150);
  });
  wireBoard();
  $("sfen-copy").addEventListener("click", copySfen);
  $("sfen-set").addEventListener("click", setSfen);
  $("record-save").addEventListener("click", downloadRecord);
  $("record-load").addEventListener("change", loadRecord);
  $("var-open").addEventListener("change", openVariantFile);
  $("var-check").addEventListener("click", checkVariantText);
}

wire();
loadVariants()
  .then(() => newGame())
  .catch(sayError);
