#!/usr/bin/env python3
"""Labels the quiet positions of games with a strong engine's score: Fairy-Stockfish's at a
fixed depth (`go depth N`), the oracle `scripts/tune.py --oracle` fits koma's evaluation to.

  scripts/tune_oracle.py --variant minishogi --koma target/release/koma \\
      --engine /work/peers/fsf/src/stockfish --depth 10 --out minishogi-fsf \\
      match/fsf-minishogi.usi match/kk-minishogi.usi ...

Reads usi-match.py's records (one game a line: the moves in USI, then `; koma SIDE SCORE`),
writes OUT.games (the games as `koma eval-terms` reads them, via scripts/tune_games.py, after
a first line saying where they came from; a game is known by its line), asks
`koma eval-terms VARIANT --skip SKIP` which of their positions are quiet, and writes
OUT.labels: per quiet position its game (the line of OUT.games), ply, and the engine's
score from Black's point of view (`oracle`, the engine's centipawns; a mate in n as
±(30000 − n)). Needs Fairy-Stockfish (any USI build with the variant; its version goes into
the labels' header) and koma; standard library only.

Fairy-Stockfish is spoken to in USI (`usi`, `setoption name UCI_Variant value NAME`), with
one thread, 16 MB of hash, its classical evaluation (`Use NNUE` off), and the hash cleared
(`usinewgame`) before each game. Each game's moves are first checked against the engine's
legal moves (`go perft 1`), ply by ply, and written as the engine writes them: a flip of
Kyoto's from its promoted face, which koma writes `+` (as either way), Fairy-Stockfish writes
`-`; a move it finds illegal stops the script, where the engine would otherwise go on scoring
the last position it could reach. Why an engine's score and not the games' results: a score
says how good each position is, a result only how one game ended, many moves later, and
mostly by what happened after the position (the games against Fairy-Stockfish were nearly
all lost whatever the position).
"""
import argparse
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("tune_games", os.path.join(HERE, "tune_games.py"))
tune_games = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tune_games)

# koma's name: Fairy-Stockfish's.
FSF_NAMES = {"shogi": "shogi", "minishogi": "minishogi", "judkins": "judkins",
             "kyoto": "kyotoshogi", "tori": "torishogi"}
MATE = 30000


class Engine:
    """A USI engine answering `go depth N`."""

    def __init__(self, path, variant):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.name = next((l.split(None, 2)[2] for l in self.wait("usiok") if l.startswith("id name")), path)
        for option in [f"UCI_Variant value {variant}", "Use NNUE value false", "Threads value 1", "Hash value 16"]:
            self.send(f"setoption name {option}")
        self.send("isready")
        self.wait("readyok")

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"the engine stopped before `{token}`")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def new_game(self):
        self.send("usinewgame")
        self.send("isready")
        self.wait("readyok")

    def legal(self, moves):
        """The legal moves after `moves`, as the engine writes them (`go perft 1`)."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go perft 1")
        return {l.split(":")[0] for l in self.wait("Nodes searched") if l.endswith(": 1")}

    def spelled(self, moves, game):
        """A game's moves as the engine writes them: koma writes a flip of Kyoto's `+` either
        way, Fairy-Stockfish `-` from the promoted face. A move the engine finds illegal stops
        the script (it would otherwise score a position the game never reached)."""
        out = []
        for ply, move in enumerate(moves):
            legal = self.legal(out)
            if move not in legal and move.endswith("+") and move[:-1] + "-" in legal:
                move = move[:-1] + "-"
            if move not in legal:
                sys.exit(f"game {game} (line {game} of the games), ply {ply + 1}: {move} is not a legal move for the engine")
            out.append(move)
        return out

    def score(self, moves, depth):
        """The score of the last complete iteration, for the side to move."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go depth {depth}")
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if words[:1] == ["info"] and "score" in words and "upperbound" not in words and "lowerbound" not in words:
                i = words.index("score")
                v = int(words[i + 2])
                score = v if words[i + 1] == "cp" else (MATE - abs(v)) * (1 if v > 0 else -1)
        return score

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--variant", required=True, choices=sorted(FSF_NAMES), help="koma's name of the game")
    ap.add_argument("--koma", required=True, help="koma's binary (for `koma eval-terms`)")
    ap.add_argument("--engine", required=True, help="Fairy-Stockfish's binary")
    ap.add_argument("--depth", type=int, default=10, help="the engine's depth (default 10)")
    ap.add_argument("--skip", type=int, default=4, help="leave out each game's first plies (default 4)")
    ap.add_argument("--out", required=True, help="writes OUT.games and OUT.labels")
    ap.add_argument("records", nargs="+", help="usi-match.py's records")
    args = ap.parse_args()

    games = [g for path in args.records for g in tune_games.usi_games(path)]
    engine = Engine(args.engine, FSF_NAMES[args.variant])
    # The first line says where the games came from; a game is then known by its line.
    header = f"# {args.variant}: {', '.join(map(os.path.basename, args.records))} (scripts/usi-match.py's records), by scripts/tune_oracle.py"
    text = header + "\n" + "".join(f"{result} {' '.join(moves)}\n" for result, moves in games)
    with open(args.out + ".games", "w") as f:
        f.write(text)
    terms = subprocess.run([args.koma, "eval-terms", args.variant, "--skip", str(args.skip)],
                           input=text, capture_output=True, text=True, check=True)
    quiet = {}
    for row in terms.stdout.splitlines():
        if row[:1].isdigit():
            game, ply = row.split("\t")[:2]
            quiet.setdefault(int(game), []).append(int(ply))
    total = sum(len(p) for p in quiet.values())
    done = 0
    with open(args.out + ".labels", "w") as f:
        f.write(f"# {engine.name} (Use NNUE false, 1 thread, 16 MB), go depth {args.depth}, on the quiet "
                f"positions (`koma eval-terms {args.variant} --skip {args.skip}`) of {', '.join(map(os.path.basename, args.records))}\n")
        f.write("game\tply\toracle\n")
        for game, plies in sorted(quiet.items()):
            moves = engine.spelled(games[game - 2][1], game)
            engine.new_game()
            for ply in plies:
                score = engine.score(moves[:ply], args.depth)
                done += 1
                if score is None:
                    continue
                black = score if ply % 2 == 0 else -score
                f.write(f"{game}\t{ply}\t{black}\n")
            f.flush()
            print(f"game {game}: {done}/{total} positions", file=sys.stderr, flush=True)
    engine.close()


if __name__ == "__main__":
    main()
