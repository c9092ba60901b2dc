// The page: choose a variant, play with the mouse, inspect the pieces. Every rule is the
// server's: the page asks it for the legal moves and sends the move chosen; the result, the
// position and the moves played are what it answers.

import { get, post, ApiError } from "/api.js";
import { drawBoard, label } from "/board.js";

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

// Shows a variant's options and handicaps, and its pieces' help.
async function chooseVariant(name) {
  try {
    const loaded = await post("/api/variants", { name });
    showVariant(loaded.variant);
  } catch (e) {
    if (e instanceof ApiError && e.body.check) showDiagnostics(e.body);
    sayError(e);
  }
}

function showVariant(variant) {
  const options = $("options");
  options.replaceChildren();
  for (const [name, option] of Object.entries(variant.options)) {
    const select = document.createElement("select");
    select.dataset.option = name;
    select.append(...option.values.map((v) => new Option(v, v)));
    select.value = option.chosen;
    const wrap = document.createElement("label");
    wrap.title = option.description || "";
    wrap.append(`${name} `, select);
    options.append(wrap);
  }
  const handicap = $("handicap");
  handicap.replaceChildren(new Option("none", ""), ...variant.handicaps.map((h) => new Option(h, h)));
  handicap.disabled = variant.handicaps.length === 0;
  loadHelp(variant.key);
}

async function loadHelp(key) {
  const help = await get(`/api/variants/${encodeURIComponent(key)}/help`).catch(() => null);
  const list = $("pieces");
  list.replaceChildren();
  if (!help) return;
  for (const piece of help.pieces) {
    const item = document.createElement("details");
    item.className = "piece-help";
    item.dataset.abbrev = piece.abbrev;
    const summary = document.createElement("summary");
    summary.textContent = `${piece.abbrev} ${piece.name}${piece.kanji ? " " + piece.kanji : ""}`;
    const picture = document.createElement("div");
    if (piece.svg === null) picture.textContent = "(no diagram: the help is past its size limit)";
    else picture.innerHTML = piece.svg;
    item.append(summary, picture);
    list.append(item);
  }
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

// The marks of the move being made: its start, and where a click may go next.
function marks() {
  const marks = new Map();
  const mark = (m, square) => {
    if (!marks.has(square)) marks.set(square, m.captures.includes(square) ? "capture" : "target");
  };
  if (state.middle) {
    marks.set(state.from, "selected");
    for (const m of state.moves) {
      if (m.from !== state.from) continue;
      if (m.middles.includes(state.middle)) mark(m, m.to);
      if (m.to === state.middle) mark(m, m.to);
    }
    marks.set(state.middle, marks.has(state.middle) ? "middle-end" : "middle");
    if (marks.get(state.from) === "selected") {
      const back = state.moves.some((m) => m.from === state.from && m.to === state.from && m.middles.includes(state.middle));
      if (back) marks.set(state.from, "selected back");
    }
  } else if (state.from) {
    marks.set(state.from, "selected");
    for (const m of state.moves.filter((m) => m.from === state.from)) {
      if (m.middles.length === 0) mark(m, m.to);
      for (const s of m.middles) if (!marks.has(s)) marks.set(s, m.captures.includes(s) ? "capture" : "middle");
    }
  } else if (state.drop) {
    for (const m of state.moves.filter((m) => m.drop === state.drop)) mark(m, m.to);
  }
  return marks;
}

function render() {
  const game = state.game;
  if (!game) return;
  const kanji = $("kanji").checked;
  drawBoard($("board"), game, { flipped: state.flipped, kanji, marks: marks(), onSquare: clickSquare });
  const [bottom, top] = state.flipped ? [1, 0] : [0, 1];
  drawHand($("hand-bottom"), game, bottom, kanji);
  drawHand($("hand-top"), game, top, kanji);
  $("moves").replaceChildren(...game.moves.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  $("sfen").value = game.sfen;
}

function drawHand(box, game, index, kanji) {
  box.replaceChildren();
  if (!game.drops) return;
  const side = index === 0 ? "Black" : "White";
  const title = document.createElement("span");
  title.textContent = `${side}'s hand: `;
  box.append(title);
  for (const piece of game.hands[index]) {
    const button = document.createElement("button");
    button.className = "in-hand" + (state.drop === piece.abbrev && game.turn === side ? " selected" : "");
    button.dataset.side = side;
    button.dataset.abbrev = piece.abbrev;
    button.textContent = `${label(piece, kanji)} ×${piece.count}`;
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
  if (state.thinking || !state.game || state.game.result) return;
  if (state.drop) {
    const chosen = state.moves.filter((m) => m.drop === state.drop && m.to === square);
    state.drop = null;
    return chosen.length ? finish(chosen) : render();
  }
  if (state.middle) return secondStep(square);
  if (state.from && square !== state.from) {
    const taken = firstStep(square);
    if (taken) return;
  }
  state.from = state.from !== square && ownPieceWithMoves(square) ? square : null;
  state.middle = null;
  render();
}

// A click after the start: the end of a move, or a Lion's middle square. Returns whether
// it was one.
function firstStep(square) {
  const mine = state.moves.filter((m) => m.from === state.from);
  const ending = mine.filter((m) => m.to === square && m.middles.length === 0);
  const through = mine.filter((m) => m.middles.includes(square));
  if (through.length) {
    state.middle = square;
    render();
    return true;
  }
  if (ending.length) {
    finish(ending);
    return true;
  }
  return false;
}

// A click after a Lion's middle square: the end (the middle again to stop there, the start
// for igui or a pass).
function secondStep(square) {
  const mine = state.moves.filter((m) => m.from === state.from);
  const chosen = mine.filter((m) => m.to === square && (m.middles.includes(state.middle) || square === state.middle));
  if (chosen.length) return finish(chosen);
  state.middle = null;
  state.from = ownPieceWithMoves(square) ? square : null;
  render();
}

// Plays the move chosen, asking first where the choice is the player's (promotion).
function finish(chosen) {
  const distinct = [...new Map(chosen.map((m) => [m.usi, m])).values()];
  if (distinct.length === 1) return playMove(distinct[0].usi);
  const box = $("choice");
  box.replaceChildren();
  // A choice between drops (a piece dropped on either face) names the moves.
  const promotes = distinct.every((m) => m.from && m.from === distinct[0].from && m.to === distinct[0].to);
  const question = document.createElement("span");
  question.textContent = promotes ? "Promote? " : "Which move? ";
  box.append(question);
  for (const m of distinct) {
    const button = document.createElement("button");
    button.textContent = promotes ? `${m.promote ? "Promote" : "Don't promote"} (${m.text})` : m.text;
    button.dataset.usi = m.usi;
    button.addEventListener("click", () => playMove(m.usi));
    box.append(button);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => {
    box.hidden = true;
    state.from = state.middle = null;
    render();
  });
  box.append(cancel);
  box.hidden = false;
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

async function openVariantFile() {
  const file = $("var-open").files[0];
  if (file) $("var-text").value = await file.text();
}

function wire() {
  $("new-game").addEventListener("submit", newGame);
  $("variant").addEventListener("change", () => chooseVariant($("variant").value));
  $("undo").addEventListener("click", undo);
  $("go").addEventListener("click", () => state.game && !state.game.result && !state.thinking && komaMoves());
  $("draw").addEventListener("click", offerDraw);
  $("resign").addEventListener("click", resign);
  $("flip").addEventListener("click", () => {
    state.flipped = !state.flipped;
    render();
  });
  $("kanji").addEventListener("change", render);
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
