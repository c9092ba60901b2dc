#!/usr/bin/env node
// Writes tests/perft/annan.perft from lishogi's rules module, shogiops (npm `shogiops`, version
// 0.18.0 when the file was written; variant `annanshogi`). shogiops gives the legal moves and its
// own perft (`debug.perft`, which counts a move that may promote twice, promoting and not); this
// script counts from the start position and from positions reached in random legal games, drawn
// with a fixed seed so that a rerun writes the same file. Nothing of koma is used.
//
// Usage:
//   npm install --prefix /tmp/shogiops shogiops@0.18.0
//   node scripts/shogiops_perft_gen.mjs /tmp/shogiops/node_modules/shogiops
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/shogiops_perft_gen.mjs PATH/TO/node_modules/shogiops');
  process.exit(2);
}
const load = file => import(pathToFileURL(join(root, 'dist', file)).href);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { parseSfen, makeSfen, initialSfen } = await load('sfen.js');
const { perft } = await load('debug.js');
const { pieceCanPromote, pieceForcePromote } = await load('variant/util.js');

const RULES = 'annanshogi';
const START_DEPTH = 4;
const POSITIONS = 24;
const DEPTH = 3;
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'perft', 'annan.perft');

// A small seeded generator (mulberry32), so that the positions are the same on every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Every legal move and drop, as perft counts them (a move that may promote, both ways).
function legalMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) {
        out.push({ from, to, promotion: true });
        if (!pieceForcePromote(pos.rules)(piece, to)) out.push({ from, to, promotion: false });
      } else out.push({ from, to, promotion: false });
    }
  }
  for (const [name, dests] of pos.allDropDests()) {
    const role = name.split(':')[1];
    for (const to of dests) out.push({ role, to });
  }
  return out;
}

const position = sfen => parseSfen(RULES, sfen, false).unwrap();

// A position from a random legal game of 10 to 120 plies, or undefined if the game ended first.
// shogiops 0.18.0 throws on some positions (its Pawn-drop-mate test may try a square off the
// board, in front of a King on its side's last rank), and on others writes a piece it has no
// letter for (`undefined` in the SFEN): such a game is drawn again, and the header says how
// many were.
function randomPosition(next) {
  const pos = position(initialSfen(RULES));
  const length = 10 + Math.floor(next() * 111);
  for (let ply = 0; ply < length; ply++) {
    const moves = legalMoves(pos);
    if (moves.length === 0) return undefined;
    pos.play(moves[Math.floor(next() * moves.length)]);
  }
  return legalMoves(pos).length ? pos : undefined;
}

const lines = [
  '# annan perft. Format: `position start` or `position SFEN`, then `perft DEPTH NODES` lines.',
  `# Source of every number: lishogi's shogiops ${version} (npm \`shogiops\`, variant \`${RULES}\`), its`,
  '# perft (debug.perft); written by scripts/shogiops_perft_gen.mjs (docs/positions-and-counting.md).',
  '',
  'position start',
];
const start = position(initialSfen(RULES));
for (let d = 1; d <= START_DEPTH; d++) lines.push(`perft ${d} ${perft(start, d)}`);
lines.push('', '# Positions from random legal games (seeded), counted by shogiops.');
const next = rng(0x616e6e61);
let found = 0;
let thrown = 0;
while (found < POSITIONS) {
  let counts;
  let pos;
  try {
    pos = randomPosition(next);
    if (!pos) continue;
    if (makeSfen(pos).includes('undefined')) throw new Error('a piece without a letter');
    counts = Array.from({ length: DEPTH }, (_, i) => perft(pos, i + 1));
  } catch (e) {
    thrown++;
    continue;
  }
  found++;
  lines.push(`position ${makeSfen(pos)}`);
  counts.forEach((n, i) => lines.push(`perft ${i + 1} ${n}`));
  console.log(lines[lines.length - 1]);
}
lines.splice(
  3,
  0,
  `# ${thrown} random games were drawn again: shogiops threw an error on them, or wrote a piece without a letter.`,
);
writeFileSync(OUT, lines.join('\n') + '\n');
