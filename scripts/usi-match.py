#!/usr/bin/env python3
"""A match: `koma usi` against GNU Shogi (Debian `gnushogi`, which speaks its own line protocol)
or against Fairy-Stockfish (spoken to in UCI, its own protocol), or against another build of
koma (a command whose name begins with `koma`, spoken to in USI), N games alternating colours,
each opening of a file played twice with colours swapped, on one clock for both engines; then
the score and an Elo estimate with its error, beside each engine's average thinking time. A
benchmark, not a test: run it on a quiet machine.

The games: Shogi against either; Minishogi, Judkin's, Kyoto and Tori against Fairy-Stockfish
(`--variant`, koma's name; the script knows Fairy-Stockfish's name and the board's size).

The referee is neither engine: Fairy-Stockfish's move generator (`pip install pyffish`) checks
every move, and ends the game on mate, repetition (by the variant's rule as Fairy-Stockfish
reads it) or a move cap (a draw). A move of koma's is matched against the referee's legal
moves written in USI (`7g7f`, `P*5e`, `8h2b+`; a flip of Kyoto's written `+` either way, as
koma writes it); one that matches none loses the game.

The clock, the same for both, never a fixed time per move:
- by default 40 moves in 40 x SECONDS, repeating. GNU Shogi keeps it itself (`level 40 M:SS`);
  Fairy-Stockfish is sent `go wtime W btime B movestogo N`, koma `go btime B wtime W
  movestogo N` (UCI's word, which USI lacks and koma reads), from a clock kept here;
- with `--increment INC` (Fairy-Stockfish only): a base of 40 x SECONDS and INC seconds added
  after each move, sent to both as `binc`/`winc` (`winc`/`binc` in UCI).
Each engine's thinking time is measured here (from the command that hands it the move to its
answer) and taken from its clock; a match whose engines' averages differ by more than 10% is
refused: its score is not printed as a result (exit status 2).

Fairy-Stockfish plays with one thread, 16 MB of hash (koma's `USI_Hash` default) and its
classical evaluation (`Use NNUE` off) unless `--engine-option` says otherwise.

Examples:
  scripts/openings.py --variant shogi --files 9 --ranks 9 --count 20 --out match/shogi-openings
  scripts/usi-match.py --engine /usr/games/gnushogi --games 40 --seconds 1 \\
      --openings match/shogi-openings.usi --out match/shogi
  scripts/usi-match.py --engine ~/fsf/src/stockfish --variant minishogi --games 40 \\
      --seconds 0.25 --increment 0.1 --openings match/minishogi-openings.usi --out match/minishogi

The games go to OUT.usi (one a line: the moves in USI, then the result and why). Standard
library and pyffish only.
"""
import argparse
import collections
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

# koma's name: (Fairy-Stockfish's name, files, ranks).
GAMES = {
    "shogi": ("shogi", 9, 9),
    "minishogi": ("minishogi", 5, 5),
    "judkins": ("judkins", 6, 6),
    "kyoto": ("kyotoshogi", 5, 5),
    "tori": ("torishogi", 7, 7),
}


class Referee:
    """Fairy-Stockfish's move generator for one game, and the two notations: USI's (`7g7f`,
    `P*5e`; files counted from the right, ranks lettered from the top) and Fairy-Stockfish's
    (`c3c4`, `P@e5`; files lettered from the left, ranks counted from the bottom; a flip of
    Kyoto's from its promoted face written `-`)."""

    def __init__(self, variant):
        self.name, self.files, self.ranks = GAMES[variant]
        self.start = ff.start_fen(self.name)

    def square(self, s):
        return f"{self.files - (ord(s[0]) - ord('a'))}{chr(ord('a') + self.ranks - int(s[1:]))}"

    def usi(self, move):
        """A Fairy-Stockfish move in USI."""
        if "@" in move:
            piece, square = move.split("@")
            return f"{piece}*{self.square(square)}"
        found = re.fullmatch(r"([a-z]\d+)([a-z]\d+)([+-]?)", move)
        if not found:
            raise RuntimeError(f"a move of Fairy-Stockfish's koma cannot read: {move}")
        return self.square(found.group(1)) + self.square(found.group(2)) + ("+" if found.group(3) else "")

    def legal(self, line):
        """The legal moves after `line` (Fairy-Stockfish's moves), keyed by their USI."""
        moves = {}
        for m in ff.legal_moves(self.name, self.start, line):
            key = self.usi(m)
            if key in moves:
                raise RuntimeError(f"two moves written {key} in USI: {moves[key]} and {m}")
            moves[key] = m
        return moves

    def game_over(self, line):
        """(result for Black: 1, 0.5 or 0, why) when the game has ended after `line`, else None."""
        black_to_move = len(line) % 2 == 0
        if not ff.legal_moves(self.name, self.start, line):
            value = ff.game_result(self.name, self.start, line)
        else:
            ended, value = ff.is_optional_game_end(self.name, self.start, line)
            if not ended:
                ended, value = ff.is_immediate_game_end(self.name, self.start, line)
            if not ended:
                return None
        mover = 1 if value > 0 else 0 if value < 0 else 0.5
        return (mover if black_to_move else 1 - mover), ("no move" if value else "repetition")


class Line:
    """A child process spoken to a line at a time."""

    def __init__(self, argv):
        self.name = os.path.basename(argv[0])
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

    def until(self, word, timeout=60):
        """The next line that begins with `word`, skipping others; an error after `timeout`
        seconds or at the end of the output."""
        deadline = time.time() + timeout
        while True:
            line = self.read(max(0.0, deadline - time.time()))
            if line is None or line == "":
                raise RuntimeError(f"{self.name}: no `{word}`")
            if line.startswith(word):
                return line

    def best(self, moves, go, clock):
        """The engine's best move from the start position after `moves`, asked with `go`."""
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(go)
        return self.until("bestmove", 30 + max(clock.left)).split()[1]

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
    def __init__(self, koma, variant):
        super().__init__([koma, "usi", variant])
        self.send("usi")
        self.send("isready")
        self.until("readyok")

    def move(self, moves, clock):
        """koma's move after `moves` (in USI), on `clock`."""
        black, white = clock.millis()
        inc = round(1000 * clock.increment)
        extra = f" binc {inc} winc {inc}" if inc else f" movestogo {clock.to_go(len(moves))}"
        return self.best(moves, f"go btime {black} wtime {white}{extra}", clock)


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


class Uci(Line):
    """Fairy-Stockfish in UCI, its own protocol: its moves in its own notation, the clock's
    `wtime` the first player's (Black's in shogi)."""

    def __init__(self, command, variant, options):
        super().__init__(command.split())
        self.send("uci")
        self.until("uciok")
        for name, value in [("UCI_Variant", variant), ("Threads", "1"), ("Hash", "16"),
                            ("Ponder", "false"), ("Use NNUE", "false")] + options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")
        self.send("ucinewgame")

    def reply(self, line, clock):
        """The engine's move after `line` (Fairy-Stockfish's moves), on `clock`."""
        black, white = clock.millis()
        if clock.increment:
            inc = round(1000 * clock.increment)
            go = f"go wtime {black} btime {white} winc {inc} binc {inc}"
        else:
            go = f"go wtime {black} btime {white} movestogo {clock.to_go(len(line))}"
        return self.best(line, go, clock)


class Clock:
    """Both sides' time left, in seconds: 40 moves in `session` seconds, repeating, or a base
    of `session` seconds and `increment` seconds a move."""

    def __init__(self, session, increment):
        self.session = session
        self.increment = increment
        self.left = [session, session]  # Black's, White's

    def millis(self):
        """Black's and White's time left, in whole milliseconds (none below 0)."""
        return tuple(max(0, round(1000 * t)) for t in self.left)

    def to_go(self, plies):
        """The moves the side to move has left in this session."""
        return 40 - (plies // 2) % 40

    def spend(self, plies, seconds):
        """The side to move after `plies` plies thought `seconds`."""
        mover = plies % 2
        self.left[mover] -= seconds
        if self.increment:
            self.left[mover] += self.increment
        elif (plies // 2 + 1) % 40 == 0:
            self.left[mover] += self.session


def opponent(args, opening, referee):
    """The opponent's process, and its name."""
    if args.protocol == "gnushogi":
        return GnuShogi(args.engine, args.seconds, opening), "gnushogi"
    if args.protocol == "koma":
        return Koma(args.engine, args.variant), "other koma"
    options = [tuple(o.split("=", 1)) for o in args.engine_option]
    return Uci(args.engine, referee.name, options), os.path.basename(args.engine.split()[0])


def play(args, referee, opening, koma_black, thinking):
    koma = Koma(args.koma, args.variant)
    other, name = opponent(args, opening, referee)
    moves = list(opening)  # in USI
    line = []  # the same moves, in Fairy-Stockfish's notation
    for m in opening:
        legal = referee.legal(line)
        if m not in legal:
            raise RuntimeError(f"the opening's move {m} is not legal")
        line.append(legal[m])
    unseen = None  # koma's last move, which GNU Shogi is told with its next turn
    clock = Clock(40 * args.seconds, args.increment)
    try:
        while True:
            over = referee.game_over(line)
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
            elif args.protocol == "gnushogi":
                m = other.reply(unseen)
            elif args.protocol == "koma":
                m = other.move(moves, clock)
                if m == "resign":
                    return moves, (1 if koma_black else 0, "the other koma resigns")
            else:
                m = referee.usi(other.reply(line, clock))
            spent = time.monotonic() - asked
            thinking["koma" if koma_to_move else name].append(spent)
            clock.spend(len(moves), spent)
            legal = referee.legal(line)
            if m not in legal:
                return moves + [m], (0 if black_to_move else 1, f"illegal move {m}")
            moves.append(m)
            line.append(legal[m])
    finally:
        koma.close()
        other.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--koma", default="target/release/koma")
    ap.add_argument("--engine", default="/usr/games/gnushogi",
                    help="the opponent's command: GNU Shogi, another koma, or Fairy-Stockfish (UCI)")
    ap.add_argument("--variant", default="shogi", choices=sorted(GAMES), help="koma's name of the game")
    ap.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option of Fairy-Stockfish's, such as 'Use NNUE=true'")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="the clock's time per move on average: 40 moves in 40 x SECONDS")
    ap.add_argument("--increment", type=float, default=0.0,
                    help="instead of 40 moves a session: a base of 40 x SECONDS and this many seconds a move")
    ap.add_argument("--openings", help="openings in USI, one a line (scripts/openings.py)")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--out", default="match/shogi")
    args = ap.parse_args()
    engine = os.path.basename(args.engine.split()[0])
    args.protocol = "gnushogi" if "gnushogi" in engine else "koma" if engine.startswith("koma") else "uci"
    if args.protocol == "gnushogi" and (args.variant != "shogi" or args.increment):
        sys.exit("GNU Shogi plays Shogi only, on 40 moves a session (no --increment)")
    referee = Referee(args.variant)
    openings = [line.split() for line in open(args.openings)] if args.openings else [[]]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    wins = losses = draws = 0
    thinking = collections.defaultdict(list)
    with open(args.out + ".usi", "w") as record:
        for n in range(args.games):
            koma_black = n % 2 == 0
            opening = openings[(n // 2) % len(openings)]
            moves, (black_score, why) = play(args, referee, opening, koma_black, thinking)
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
    if args.increment:
        clock = f"{40 * args.seconds:g} s + {args.increment:g} s a move"
    else:
        clock = f"40 moves in {40 * args.seconds:g} s"
    if not xboard_match.equal_time(times):
        sys.exit(f"not reported: the engines' thinking times differ by more than 10% "
                 f"(+{wins} -{losses} ={draws} on {clock} measures time, not play)")
    print(f"koma vs {args.engine} ({args.variant}, {clock}): "
          f"+{wins} -{losses} ={draws}, {100 * p:.1f}%, Elo {diff:+.0f} ± {error:.0f}")


if __name__ == "__main__":
    main()
