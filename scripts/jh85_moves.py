#!/usr/bin/env python3
"""Write tests/perft/taikyoku.jh85.moves: the moves of the engine jh85/taikyokushogi in positions of
random games, for koma's `pieces=jh85 twelfth-rank=jh85` reading of Taikyoku to be checked against.

jh85/taikyokushogi (MIT, https://github.com/jh85/taikyokushogi) is a Rust crate. This script copies
the commit given out of a clone, adds a small example program to it (`examples/koma_moves.rs`,
below: it uses only the crate's public API, `Board::initial`, `legal_moves`, `get`,
`apply_by_coord`), builds it with cargo and runs it. The program plays random games (its own
fixed-seed generator, so a rerun writes the same file) and prints, every few plies, the legal
moves of the side to move as (from, to, promotes), nothing of koma used. Left out on both sides:
the moves of the six range capturers (Great General, Vice General, Flying General, Angle
General, Fierce Dragon, Flying Crocodile), which koma plays as Tenjiku's range jump for now
(docs/taikyoku.md, "Range capture"), and the promotions of a piece that has promoted before,
which [JH] allows (a promoted kind there is the kind in the setup, with its promotion) and koma
does not (docs/taikyoku.md, "The jh85 reading"); the games never play a move of a Lion-like piece or one
that ends where it started, whose paths the two programs write differently, so that the move
played names one position in both.

Format: `position MOVES` (USI moves from the start, koma's square names), then `moves MOVES`:
every legal move there (a Lion's moves by their start and end only).

Usage:  scripts/jh85_moves.py JH85_REPOSITORY [COMMIT]   (COMMIT: default HEAD)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "perft", "taikyoku.jh85.moves")
GAMES, PLIES, EVERY, SEED = 6, 60, 5, 85

EXAMPLE = r"""
use std::collections::HashSet;
use taikyokushogi::Board;

/// The range capturers, whose moves koma does not read as [JH] does yet.
const RANGE_CAPTURERS: [&str; 6] = ["GG", "VG", "RO", "BG", "VD", "+FCR"];
/// The pieces with an area move (Lion-like), whose paths the programs write otherwise.
const LIONS: [&str; 4] = ["LN", "LI", "+FFI", "+BSP"];

type Triple = (usize, usize, usize, usize, bool);

fn text(t: &Triple) -> String {
    format!("{},{},{},{}{}", t.0, t.1, t.2, t.3, if t.4 { "+" } else { "" })
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (games, plies, every, mut state) = (args[0], args[1], args[2], args[3]);
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    for _ in 0..games {
        let mut board = Board::initial();
        let mut played: Vec<String> = vec![];
        // The squares of the pieces that have promoted.
        let mut promoted: HashSet<(usize, usize)> = HashSet::new();
        for ply in 0..=plies {
            let kind = |b: &Board, row, col| b.get(row, col).map(|p| p.abbrev()).unwrap_or("");
            let mut moves: Vec<Triple> = board
                .legal_moves()
                .iter()
                .filter(|m| !RANGE_CAPTURERS.contains(&kind(&board, m.from().row, m.from().col)))
                .map(|m| (m.from().row, m.from().col, m.to().row, m.to().col, m.is_promotion()))
                .filter(|t| !(t.4 && promoted.contains(&(t.0, t.1))))
                .collect();
            moves.sort();
            moves.dedup();
            if ply % every == 0 {
                println!("position {}", played.join(" "));
                println!("moves {}", moves.iter().map(text).collect::<Vec<_>>().join(" "));
            }
            let playable: Vec<&Triple> = moves
                .iter()
                .filter(|t| !LIONS.contains(&kind(&board, t.0, t.1)) && (t.0, t.1) != (t.2, t.3))
                .collect();
            if playable.is_empty() || board.game_result().is_some() {
                break;
            }
            let t = playable[next() % playable.len()];
            assert!(board.apply_by_coord(t.0, t.1, t.2, t.3, t.4));
            promoted.remove(&(t.2, t.3));
            if promoted.remove(&(t.0, t.1)) || t.4 {
                promoted.insert((t.2, t.3));
            }
            played.push(text(t));
        }
    }
}
"""


def square(row, col):
    """[JH]'s (row, column), row 0 White's back rank and column 0 Black's left, in koma's names."""
    rank = row + 1
    letters = chr(ord("a") + rank - 1) if rank <= 26 else "a" + chr(ord("a") + rank - 27)
    return f"{36 - col}{letters}"


def usi(triple):
    promotes = triple.endswith("+")
    r1, c1, r2, c2 = map(int, triple.rstrip("+").split(","))
    return square(r1, c1) + square(r2, c2) + ("+" if promotes else "")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    repo, commit = sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "HEAD"
    full = subprocess.run(["git", "-C", repo, "rev-parse", commit], check=True, capture_output=True, text=True)
    full = full.stdout.strip()
    with tempfile.TemporaryDirectory() as work:
        archive = subprocess.run(["git", "-C", repo, "archive", full], check=True, capture_output=True).stdout
        subprocess.run(["tar", "x", "-C", work], input=archive, check=True)
        with open(os.path.join(work, "examples", "koma_moves.rs"), "w") as f:
            f.write(EXAMPLE)
        run = subprocess.run(
            ["cargo", "run", "--quiet", "--release", "--example", "koma_moves", "--", str(GAMES), str(PLIES), str(EVERY), str(SEED)],
            cwd=work,
            check=True,
            capture_output=True,
            text=True,
        )
    lines = [
        "# Taikyoku Shogi as jh85/taikyokushogi plays it (koma: --option pieces=jh85 --option",
        f"# twelfth-rank=jh85): its legal moves, commit {full[:7]} ({full}), every {EVERY} plies of {GAMES}",
        f"# random games of up to {PLIES} plies (seed {SEED}), written by scripts/jh85_moves.py (see it for",
        "# what is left out).",
        "# `position` USI moves from the start, then `moves` every legal move there, as start, end, promotion.",
    ]
    for line in run.stdout.splitlines():
        word, _, rest = line.partition(" ")
        lines.append(" ".join([word, *map(usi, rest.split())]))
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    print(f"wrote {os.path.relpath(OUT)}: {sum(l.startswith('position') for l in lines)} positions")


if __name__ == "__main__":
    main()
