#!/usr/bin/env python3
"""Balanced random openings for engine matches: N short random lines from a variant's start,
each kept only if koma's own search scores the position after it within a margin of even.

For each line: PLIES random legal moves (`koma moves VARIANT --moves ...`; drops, Lion double
moves and promotions left out), then `koma usi` searches
the position to DEPTH and the line is kept when |score| <= MARGIN centipawns.

Writes OUT.pgn, one game per line in XBoard's coordinates (files a.. from Black's left, ranks
1.. from Black's side), for `xboard -lgf OUT.pgn -lgi -2` (each opening twice, colours
swapped); and OUT.usi, the same lines in USI, one a line. Standard library only.

Example:
  scripts/openings.py --variant chu --option royal-capture=allowed --files 12 --ranks 12 --count 20 --out match/chu-openings
"""
import argparse
import random
import re
import subprocess
import sys


def koma_moves(koma, variant, options, line):
    argv = [koma, "moves", variant, "--moves", " ".join(line)]
    for o in options:
        argv += ["--option", o]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    return out.split()


def is_quiet(move):
    """A plain one-leg board move without promotion (no drop, no Lion double move)."""
    return "*" not in move and not move.endswith("+") and len(re.findall(r"\d+[a-z]", move)) == 2


class Usi:
    def __init__(self, koma, variant, options):
        self.p = subprocess.Popen([koma, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send(f"setoption name USI_Variant value {variant}")
        for o in options:
            name, value = o.split("=", 1)
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        lines = []
        for line in self.p.stdout:
            lines.append(line)
            if line.startswith(word):
                return lines
        sys.exit("koma usi ended")

    def score(self, line, depth):
        self.send("position startpos moves " + " ".join(line))
        self.send(f"go depth {depth}")
        score = None
        for out in self.wait("bestmove"):
            found = re.search(r"score (cp|mate) (-?\d+)", out)
            if found:
                score = int(found.group(2)) if found.group(1) == "cp" else 100000
        # The score is the side to move's; the caller wants it from Black's side.
        return score if len(line) % 2 == 0 else -score


def xboard_move(move, files, ranks):
    def square(s):
        f, r = int(s[:-1]), ord(s[-1]) - ord("a")
        return f"{chr(ord('a') + files - f)}{ranks - r}"

    a, b = re.findall(r"\d+[a-z]", move)
    return square(a) + square(b)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--koma", default="target/release/koma")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--files", type=int, required=True, help="the board's width, for XBoard's coordinates")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--plies", type=int, default=6)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--margin", type=int, default=60, help="centipawns")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    files, ranks = args.files, args.ranks
    usi = Usi(args.koma, args.variant, args.option)
    kept = []
    while len(kept) < args.count:
        line = []
        for _ in range(args.plies):
            quiet = [m for m in koma_moves(args.koma, args.variant, args.option, line) if is_quiet(m)]
            if not quiet:
                break
            line.append(rng.choice(quiet))
        if len(line) < args.plies or line in kept:
            continue
        score = usi.score(line, args.depth)
        print(f"{' '.join(line)}: {score:+d}", file=sys.stderr)
        if abs(score) <= args.margin:
            kept.append(line)
    usi.send("quit")
    with open(args.out + ".usi", "w") as f:
        for line in kept:
            f.write(" ".join(line) + "\n")
    with open(args.out + ".pgn", "w") as f:
        for n, line in enumerate(kept, 1):
            moves = [xboard_move(m, files, ranks) for m in line]
            text = " ".join(
                (f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(moves)
            )
            f.write(f'[Event "opening {n}"]\n[Variant "{args.variant}"]\n[Result "*"]\n\n{text} *\n\n')
    print(f"{len(kept)} openings in {args.out}.pgn and {args.out}.usi")


if __name__ == "__main__":
    main()
