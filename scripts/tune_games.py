#!/usr/bin/env python3
"""Games from match records, one a line as `koma eval-terms` reads them: the result for the
first player (black, white or draw), then the moves.

  scripts/tune_games.py usi MATCH.usi...      # scripts/usi-match.py's records (moves in USI)
  scripts/tune_games.py xboard MATCH.debug... # scripts/xboard-match.py's XBoard debug logs

From a USI record (`MOVES ; koma SIDE SCORE (WHY)`, koma's score 1, 0.5 or 0) the moves are
kept as they are. From an XBoard debug log (koma the first engine), a game is what koma was
told (`usermove`) and answered (`move`) between `new` and the `result` XBoard sent it, in
XBoard's coordinates (`koma eval-terms --notation xboard`); XBoard's first player (`1-0`) is
koma's Black. Games without a result are left out, and counted on standard error.
Standard library only.
"""
import re
import sys

RESULTS = {"1-0": "black", "0-1": "white", "1/2-1/2": "draw"}


def usi_games(path):
    """The games of a usi-match.py record."""
    for n, line in enumerate(open(path), 1):
        moves, _, verdict = line.partition(";")
        found = re.match(r"\s*koma (Black|White) (1|0\.5|0)\b", verdict)
        if not found:
            print(f"{path}:{n}: no result, left out", file=sys.stderr)
            continue
        side, score = found.group(1), float(found.group(2))
        black = score if side == "Black" else 1 - score
        yield {1: "black", 0: "white", 0.5: "draw"}[black], moves.split()


def xboard_games(path):
    """The games of an XBoard debug log, koma being the first engine."""
    moves, left_out = [], 0
    for line in open(path, errors="replace"):
        if re.search(r">first : new$", line.rstrip()):
            left_out += bool(moves)
            moves = []
            continue
        told = re.search(r">first : usermove (?:\d+ >first : )?(\S+)", line)
        answered = re.search(r"<first : move (\S+)", line)
        if told or answered:
            moves.append((told or answered).group(1))
            continue
        ended = re.search(r">first : result (\S+)", line)
        if ended:
            if ended.group(1) in RESULTS and moves:
                yield RESULTS[ended.group(1)], moves
            else:
                left_out += bool(moves)
            moves = []
    left_out += bool(moves)
    if left_out:
        print(f"{path}: {left_out} games without a result, left out", file=sys.stderr)


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("usi", "xboard"):
        sys.exit(__doc__)
    read = usi_games if sys.argv[1] == "usi" else xboard_games
    count = 0
    for path in sys.argv[2:]:
        for result, moves in read(path):
            print(result, " ".join(moves))
            count += 1
    print(f"{count} games", file=sys.stderr)


if __name__ == "__main__":
    main()
