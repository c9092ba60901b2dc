#!/usr/bin/env python3
"""A match in the real XBoard (under xvfb-run): `koma xboard` against another CECP engine
(HaChu on Chu, for one), N games alternating colours, on one clock for both engines, then the
score and an Elo estimate with its error, beside each engine's average thinking time. A
benchmark, not a test: run it on a quiet machine.

The clock is XBoard's own and the same for both: by default 40 moves in 40 x SECONDS,
repeating (`-timeControl`, `-movesPerSession`), or with `--increment` a base of 40 x SECONDS
and that increment a move (`-timeIncrement`). Never a fixed time per move (`-searchTime`, CECP
`st`): HaChu ignores `st` and plans from the clock, and a match where one engine thinks twice as
long as the other measures time, not play. Each engine's thinking time per move is read from
XBoard's own measurement (the PGN's move comments); a match whose engines' averages differ by
more than 10% is refused: its score is not printed as a result (exit status 2).

Pondering is off (`-xponder`: XBoard sends `easy`), so each engine thinks only on its own time
and the two never compete for a core (koma does not ponder; HaChu does when told `hard`).

Example (koma's Chu options as HaChu plays the game; openings from scripts/openings.py):
  scripts/xboard-match.py --engine /usr/games/hachu --variant chu --games 40 --seconds 1 \
      --koma-option royal-capture=allowed --koma-option promotion=renmei \
      --koma-option pawn-rule=none --engine-option 'Allow repeats=1' \
      --openings match/chu-openings.pgn --loss-score 1000 --max-moves 150 --out match/chu
Dai, which XBoard does not know: HaChu through scripts/hachu-relay.py (its piece letters and
its `setboard`), koma with HaChu's reading of the rules:
  scripts/xboard-match.py --engine "python3 scripts/hachu-relay.py --variant dai /usr/games/hachu" \
      --variant dai --games 40 --seconds 0.25 --increment 0.2 --koma-option royal-capture=allowed \
      --koma-option promotion=entry --koma-option repetition=forbidden \
      --openings match/dai-openings.pgn --loss-score 1000 --max-moves 150 --out match/dai

The PGN of the games and XBoard's log go to OUT.pgn and OUT.debug. Standard library only.
"""
import argparse
import math
import os
import re
import shlex
import subprocess
import sys


def elo(wins, losses, draws):
    """The Elo difference for a score, and its standard error (from the score's spread)."""
    n = wins + losses + draws
    p = (wins + draws / 2) / n
    # Each game's score is 1, 1/2 or 0: its variance around the mean.
    var = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    if p in (0.0, 1.0):
        return p, math.copysign(math.inf, p - 0.5), math.inf
    diff = -400 * math.log10(1 / p - 1)
    error = 400 / math.log(10) / (p * (1 - p)) * math.sqrt(var / n)
    return p, diff, error


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--koma", default="target/release/koma")
    ap.add_argument("--engine", required=True, help="the opponent's command (CECP)")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="the clock's time per move on average: 40 moves in 40 x SECONDS")
    ap.add_argument("--increment", type=float, default=0.0,
                    help="instead of 40 moves a session: a base of 40 x SECONDS and this many seconds a move")
    ap.add_argument("--koma-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE",
                    help="an option of the opponent's (its `feature option` name), such as 'Allow repeats=1'")
    ap.add_argument("--openings", help="a PGN of opening lines (scripts/openings.py): each played twice, colours swapped")
    ap.add_argument("--loss-score", type=int, default=0,
                    help="adjudicate a loss when both engines score the game beyond this many centipawns "
                         "for 6 plies in a row (0: never)")
    ap.add_argument("--max-moves", type=int, default=0,
                    help="adjudicate a draw after this many moves (0: never)")
    ap.add_argument("--out", default="match")
    ap.add_argument("--summarise", metavar="PGN",
                    help="play nothing: print the depths and koma's score swings of a match's saved PGN")
    args = ap.parse_args()
    koma = " ".join(
        [shlex.quote(os.path.abspath(args.koma)), "xboard", shlex.quote(args.variant)]
        + [f"--option {shlex.quote(o)}" for o in args.koma_option]
    )
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    command = [
        "xvfb-run", "-a", "/usr/games/xboard", "-fcp", koma, "-scp", args.engine,
        "-variant", args.variant, "-matchGames", str(args.games),
        "-timeControl", clock_text(40 * args.seconds), "-adjudicateDrawMoves", str(args.max_moves),
        "-saveGameFile", args.out + ".pgn", "-debugMode", "true", "-nameOfDebugFile", args.out + ".debug",
        "-popupExitMessage", "false", "-popupMoveErrors", "false", "-saveSettingsOnExit", "false", "-noGUI",
        "-xponder",
    ]
    if args.increment:
        command += ["-timeIncrement", str(args.increment)]
    else:
        command += ["-movesPerSession", "40"]
    if args.loss_score:
        command += ["-adjudicateLossThreshold", str(-abs(args.loss_score))]
    if args.engine_option:
        command += ["-secondOptions", ",".join(args.engine_option)]
    if args.openings:
        command += ["-lgf", os.path.abspath(args.openings), "-lgi", "-2"]
    if args.summarise:
        summarise(args.summarise)
        return
    run = subprocess.run(command, capture_output=True, text=True)
    found = re.search(r"final score (\d+)-(\d+)-(\d+)", run.stdout + run.stderr)
    if not found:
        sys.exit(f"no final score from XBoard:\n{run.stdout}\n{run.stderr}")
    wins, losses, draws = map(int, found.groups())
    p, diff, error = elo(wins, losses, draws)
    clock = (f"base {40 * args.seconds:g} s + {args.increment:g} s/move" if args.increment
             else f"40 moves in {40 * args.seconds:g} s")
    times = thinking_times(engine_moves(open(args.out + ".pgn").read()))
    print("average thinking time per move: " + ", ".join(f"{name} {t:.2f} s" for name, t in sorted(times.items())))
    summarise(args.out + ".pgn")
    if not equal_time(times):
        sys.exit(f"not reported: the engines' thinking times differ by more than 10% "
                 f"(+{wins} -{losses} ={draws} on {clock} measures time, not play)")
    print(f"koma vs {args.engine} ({args.variant}, {clock}): "
          f"+{wins} -{losses} ={draws}, {100 * p:.1f}%, Elo {diff:+.0f} ± {error:.0f}")


def clock_text(seconds):
    """XBoard's `-timeControl` for a number of seconds: minutes, or minutes:seconds."""
    seconds = round(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def thinking_times(games):
    """Each engine's average thinking time per move, in seconds, over every game."""
    spent = {}
    for per_engine in games:
        for name, moves in per_engine.items():
            spent.setdefault(name, []).extend(t for _, _, t in moves if t is not None)
    return {name: sum(ts) / len(ts) for name, ts in spent.items() if ts}


def equal_time(times):
    """Whether the engines thought alike: the two averages within 10% of the larger."""
    if len(times) != 2:
        return False
    a, b = times.values()
    return abs(a - b) <= 0.1 * max(a, b)


def engine_moves(pgn):
    """Per game and engine name, the (score in centipawns, depth, seconds) of each move the
    engine commented in XBoard's PGN (`{+0.20/5 0.2}`: its own view of the score, its depth,
    and the time XBoard's clock measured it thinking, when given)."""
    games = []
    for text in pgn.split("[Event ")[1:]:
        names = {side: re.search(rf'\[{side} "([^"]*)"\]', text).group(1) for side in ("White", "Black")}
        movetext = re.sub(r"\[[^\]]*\]", "", "[" + text)
        tokens = re.findall(r"\{[^}]*\}|\S+", movetext)
        per_engine = {name: [] for name in names.values()}
        side = "Black"
        for token in tokens:
            if token.startswith("{"):
                found = re.match(r"\{([+-]?\d+\.\d+)/(\d+)(?:\s+(\d+(?:\.\d+)?))?", token)
                if found:
                    seconds = float(found.group(3)) if found.group(3) else None
                    per_engine[names[side]].append((round(100 * float(found.group(1))), int(found.group(2)), seconds))
            elif not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", token):
                side = "White" if side == "Black" else "Black"
        games.append(per_engine)
    return games


def summarise(path):
    """Each engine's average depth, and how much koma's score moves between its consecutive
    moves (the issue of wild score swings): the median, the 90th percentile, and how often it
    moves by more than 400 centipawns."""
    games = engine_moves(open(path).read())
    depths, swings = {}, []
    for per_engine in games:
        for name, moves in per_engine.items():
            depths.setdefault(name, []).extend(d for _, d, _ in moves)
            if "koma" in name:
                swings += [abs(b[0] - a[0]) for a, b in zip(moves, moves[1:]) if max(abs(a[0]), abs(b[0])) < 2000]
    for name, ds in sorted(depths.items()):
        if ds:
            print(f"{name}: depth {sum(ds) / len(ds):.1f} on average over {len(ds)} moves")
    if swings:
        swings.sort()
        big = sum(1 for s in swings if s > 400)
        print(f"koma's score from one of its moves to the next (both within 20 pawns): median {swings[len(swings) // 2]} cp, "
              f"90th percentile {swings[9 * len(swings) // 10]} cp, more than 400 cp {big} times in {len(swings)} "
              f"({100 * big / len(swings):.1f}%)")


if __name__ == "__main__":
    main()
