#!/usr/bin/env python3
"""Recheck the Shogi, Yari and Tori counts of tests/perft/ with Fairy-Stockfish.

Fairy-Stockfish's move generator, as its Python module pyffish (`pip install pyffish`;
version 0.0.90 was used for docs/positions-and-counting.md), counts every position of
tests/perft/{shogi,yari,tori}.perft up to depth MAX (default 3) by walking its legal moves ply
by ply. Nothing of koma is used. Prints `ok` or `DIFF` per count, with both numbers.

Usage:  scripts/ffish_perft.py [MAX]
"""
import os
import sys
import time

import pyffish as ff

MAX = int(sys.argv[1]) if len(sys.argv) > 1 else 3
VARIANT = {"shogi": "shogi", "yari": "yarishogi", "tori": "torishogi"}
PERFT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "perft")


def to_fen(variant, sfen):
    """koma's SFEN (Black = b, hands after the side) as Fairy-Stockfish's FEN (Black = w)."""
    if sfen == "start":
        return ff.start_fen(variant)
    board, side, hands, number = sfen.split()
    hand, count = "", ""
    if hands != "-":
        for c in hands:
            if c.isdigit():
                count += c
            else:
                hand += c * int(count or "1")
                count = ""
    return f"{board}[{hand}] {'w' if side == 'b' else 'b'} 0 {int(number)}"


def perft(variant, fen, moves, depth):
    legal = ff.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def main():
    print(f"pyffish {'.'.join(map(str, ff.version()))}")
    for name, variant in VARIANT.items():
        position = None
        for line in open(os.path.join(PERFT_DIR, f"{name}.perft")):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "position":
                position = " ".join(words[1:])
            elif words[0] == "perft" and int(words[1]) <= MAX:
                depth, nodes = int(words[1]), int(words[2])
                started = time.time()
                got = perft(variant, to_fen(variant, position), [], depth)
                verdict = "ok  " if got == nodes else "DIFF"
                print(f"{verdict} {name} {position} perft {depth}: file {nodes}, Fairy-Stockfish {got}"
                      f" ({time.time() - started:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
