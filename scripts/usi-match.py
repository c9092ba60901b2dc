#!/usr/bin/env python3
"""A Shogi match: `koma usi` against GNU Shogi (Debian `gnushogi`, which speaks its own line
protocol, not CECP or USI), N games alternating colours, each opening of a file played twice
with colours swapped, on one clock for both engines; then the score and an Elo estimate with
its error, beside each engine's average thinking time. A benchmark, not a test: run it on a
quiet machine.

The referee is neither engine: Fairy-Stockfish's move generator (`pip install pyffish`) checks
every move, and ends the game on mate, repetition (fourfold, perpetual check losing) or a move
cap (a draw). The clock: 40 moves in 40 x SECONDS, repeating, for both. GNU Shogi keeps it
itself (`level 40 M:SS`); koma's is kept here and sent with each `go btime B wtime W` (USI's
clock, as a GUI sends it), never `go movetime`. Each engine's thinking time is measured here
(from the command that hands it the move to its answer); a match whose engines' averages
differ by more than 10% is refused: its score is not printed as a result (exit status 2).

Example:
  scripts/openings.py --variant shogi --files 9 --ranks 9 --count 20 --out match/shogi-openings
  scripts/usi-match.py --engine /usr/games/gnushogi --games 40 --seconds 1 \\
      --openings match/shogi-openings.usi --out match/shogi

The games go to OUT.usi (one a line: the moves in USI, then the result and why). Standard
library and pyffish only.
"""
import argparse
import importlib.util
import os
import re
import queue
import subprocess
import sys
import threading
import time

spec = importlib.util.spec_from_file_location("xboard_match", os.path.join(os.path.dirname(__file__), "xboard-match.py"))
xboard_match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(xboard_match)

import pyffish as ff  # noqa: E402

VARIANT = "shogi"


def fsf(move):
    """A USI move (`7g7f`, `P*5e`, `8h2b+`) in Fairy-Stockfish's coordinates (`c3c4`, `P@e5`)."""
    def square(s):
        return f"{chr(ord('a') + 9 - int(s[0]))}{9 - (ord(s[1]) - ord('a'))}"

    if "*" in move:
        return f"{move[0]}@{square(move[2:4])}"
    return square(move[0:2]) + square(move[2:4]) + ("+" if move.endswith("+") else "")


class Line:
    """A child process spoken to a line at a time."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, daemon=True).start()

    def pump(self):
        for line in self.p.stdout:
            self.lines.put(line)
        self.lines.put("")

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def read(self, timeout):
        """The next line; "" at the end of the output, None after `timeout` seconds."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()


class Koma(Line):
    def __init__(self, koma):
        super().__init__([koma, "usi"])
        self.send("usi")
        self.send("isready")
        self.until("readyok")

    def until(self, word, timeout=60):
        deadline = time.time() + timeout
        while True:
            line = self.read(max(0.0, deadline - time.time()))
            if line is None or line == "":
                raise RuntimeError(f"koma: no `{word}`")
            if line.startswith(word):
                return line

    def move(self, moves, clock):
        """koma's move after `moves`, with `clock` (Black's and White's time left, in seconds)."""
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        black, white = (max(0, round(1000 * t)) for t in clock)
        self.send(f"go btime {black} wtime {white}")
        return self.until("bestmove", 30 + max(black, white) / 1000).split()[1]


class GnuShogi(Line):
    def __init__(self, command, seconds, opening):
        super().__init__(command.split())
        self.read(10)  # the banner
        total = int(40 * seconds)
        self.send(f"level 40 {total // 60}:{total % 60:02d}")
        # Moves are given in force mode until GNU Shogi's first turn, then `go` makes it play
        # the side to move, and from then on it answers each move it is given.
        self.send("force")
        self.forced = True
        for m in opening:
            self.send(m)

    def reply(self, move=None):
        """GNU Shogi's move, after `move` (koma's last move, if any)."""
        if move:
            self.send(move)
        if self.forced:
            self.send("force")
            self.send("go")
            self.forced = False
        deadline = time.time() + 120
        while True:
            line = self.read(max(0.0, deadline - time.time()))
            if line is None or line == "":
                raise RuntimeError("GNU Shogi: no move")
            line = line.strip()
            if line.startswith("Illegal move"):
                raise RuntimeError(f"GNU Shogi refused {move}: {line}")
            found = re.match(r"^\d+\.\s+\.\.\.\s+(\S+)", line)
            if found:
                return found.group(1)


def game_over(moves):
    """(result for Black: 1, 0.5 or 0, why) when the game has ended after `moves`, else None."""
    start = ff.start_fen(VARIANT)
    line = [fsf(m) for m in moves]
    black_to_move = len(moves) % 2 == 0
    if not ff.legal_moves(VARIANT, start, line):
        value = ff.game_result(VARIANT, start, line)
    else:
        ended, value = ff.is_optional_game_end(VARIANT, start, line)
        if not ended:
            ended, value = ff.is_immediate_game_end(VARIANT, start, line)
        if not ended:
            return None
    mover = 1 if value > 0 else 0 if value < 0 else 0.5
    return (mover if black_to_move else 1 - mover), ("no move" if value else "repetition")


def play(args, opening, koma_black, thinking):
    koma = Koma(args.koma)
    gnu = GnuShogi(args.engine, args.seconds, opening)
    moves = list(opening)
    start = ff.start_fen(VARIANT)
    unseen = None  # koma's last move, which GNU Shogi is told with its next turn
    session = 40 * args.seconds
    clock = [session, session]  # Black's and White's time left
    try:
        while True:
            over = game_over(moves)
            if over:
                return moves, over
            if len(moves) >= args.max_plies:
                return moves, (0.5, "move cap")
            black_to_move = len(moves) % 2 == 0
            koma_to_move = black_to_move == koma_black
            asked = time.monotonic()
            if koma_to_move:
                m = koma.move(moves, clock)
                if m == "resign":
                    return moves, (0 if koma_black else 1, "koma resigns")
                unseen = m
            else:
                m = gnu.reply(unseen)
            spent = time.monotonic() - asked
            thinking["koma" if koma_to_move else "gnushogi"].append(spent)
            mover = 0 if black_to_move else 1
            clock[mover] -= spent
            if (len(moves) // 2 + 1) % 40 == 0:
                clock[mover] += session
            if fsf(m) not in ff.legal_moves(VARIANT, start, [fsf(x) for x in moves]):
                return moves + [m], (0 if black_to_move else 1, f"illegal move {m}")
            moves.append(m)
    finally:
        koma.close()
        gnu.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--koma", default="target/release/koma")
    ap.add_argument("--engine", default="/usr/games/gnushogi")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="the clock's time per move on average: 40 moves in 40 x SECONDS")
    ap.add_argument("--openings", help="openings in USI, one a line (scripts/openings.py)")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--out", default="match/shogi")
    args = ap.parse_args()
    openings = [line.split() for line in open(args.openings)] if args.openings else [[]]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    wins = losses = draws = 0
    thinking = {"koma": [], "gnushogi": []}
    with open(args.out + ".usi", "w") as record:
        for n in range(args.games):
            koma_black = n % 2 == 0
            moves, (black_score, why) = play(args, openings[(n // 2) % len(openings)], koma_black, thinking)
            koma_score = black_score if koma_black else 1 - black_score
            wins += koma_score == 1
            losses += koma_score == 0
            draws += koma_score == 0.5
            side = "Black" if koma_black else "White"
            record.write(f"{' '.join(moves)} ; koma {side} {koma_score} ({why})\n")
            record.flush()
            print(f"game {n + 1}: koma as {side} scores {koma_score} ({why}, {len(moves)} plies)", flush=True)
    p, diff, error = xboard_match.elo(wins, losses, draws)
    times = {name: sum(ts) / len(ts) for name, ts in thinking.items() if ts}
    print("average thinking time per move: " + ", ".join(f"{name} {t:.2f} s" for name, t in sorted(times.items())))
    clock = f"40 moves in {40 * args.seconds:g} s"
    if not xboard_match.equal_time(times):
        sys.exit(f"not reported: the engines' thinking times differ by more than 10% "
                 f"(+{wins} -{losses} ={draws} on {clock} measures time, not play)")
    print(f"koma vs {args.engine} (shogi, {clock}): "
          f"+{wins} -{losses} ={draws}, {100 * p:.1f}%, Elo {diff:+.0f} ± {error:.0f}")


if __name__ == "__main__":
    main()
