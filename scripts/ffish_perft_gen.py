#!/usr/bin/env python3
"""Write tests/perft/{minishogi,judkins,sho,micro,kyoto,checkshogi}.perft from Fairy-Stockfish's move generator.

Fairy-Stockfish, as its Python module pyffish (`pip install pyffish`, version 0.0.90 when these
files were written), gives the legal moves; this script counts them ply by ply (no bulk counting,
nothing of koma used) from each game's start position and from positions reached in random legal
games (a fixed seed, so a rerun writes the same files). A Pawn drop that mates, which
Fairy-Stockfish generates and scores as a loss for the dropper, is left out where the rules forbid
it (not in Micro and Kyoto, whose rules allow it). Sho positions with a Crown Prince on the
board are added, found the same way, since random games rarely make one. Micro and Kyoto
positions are counted from the position alone (its FEN, no moves before it), as koma reads
the SFEN: their small boards repeat positions often, and no repetition rule should reach
into a count.

Check Shogi (`checkshogi`): the first check wins, so Fairy-Stockfish lists no move for a side in
check; whether a Pawn drop that checks also mates is then judged by the moves Shogi's rules
(`shogi`, the same pieces) give the side in check after the same moves. Its random positions
are drawn from games with no check, the position from a checking move being over.

Usage:  scripts/ffish_perft_gen.py [GAME ...]     (default: all six)
"""
import os
import random
import sys

import pyffish as ff

PERFT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "perft")

DROP_MATE = [
    "One correction, the rules': Fairy-Stockfish generates a Pawn drop that mates (and scores it",
    "as a loss for the dropper); the rules forbid it, so it is left out of every count.",
]

# koma's name -> (Fairy-Stockfish's name, start depths, random positions, depth, header notes,
#                 the koma options that select Fairy-Stockfish's reading for the random positions)
# Games in FREE_DROPS allow a Pawn drop that mates; the others' counts leave it out.
GAMES = {
    "minishogi": ("minishogi", 5, 20, 3, DROP_MATE, []),
    "judkins": ("judkins", 4, 20, 3, DROP_MATE, []),
    "checkshogi": ("checkshogi", 4, 24, 3, DROP_MATE + [
        "The first check wins: Fairy-Stockfish lists no move for a side in check, and a count",
        "goes no deeper than the checking move. A Pawn drop that checks is left out when it",
        "mates by Shogi's rules (the moves the side in check would have were the game not over).",
    ], []),
    "sho": ("shoshogi", 4, 20, 3, [
        "Fairy-Stockfish's `shoshogi` has no bare-king rule (SV's Sho.rul has one): the positions",
        "from random games are counted with `option bare-king=none`, Fairy-Stockfish's reading.",
        "The start counts need no option: no side can be bared within four plies.",
        "Both make the King and the Crown Prince royal pieces that must all be captured: while",
        "a side has both, either may be left attacked (Fairy-Stockfish: extinction pseudo-royals).",
    ], ["bare-king=none"]),
    "micro": ("micro", 5, 24, 3, [
        "Fairy-Stockfish writes a piece's two faces as in koma's micro.var: the Lance, Rook,",
        "Bishop and Pawn are the faces held in hand; the Silver is `+l`, the Gold `+r`, the",
        "Tokin `+b`, the Knight `+p`. A promotion is a flip, so the counts need no option.",
    ], []),
    "kyoto": ("kyotoshogi", 5, 24, 3, [
        "Fairy-Stockfish writes a piece's two faces as in koma's kyoto.var: the Pawn, Silver,",
        "Knight and Lance are the faces held in hand; the Rook is `+p`, the Bishop `+s`, the",
        "Gold `+n`, the Tokin `+l`. A promotion is a flip, so the counts need no option.",
    ], []),
}
FREE_DROPS = {"micro", "kyoto"}
FREE_DROP_VARIANTS = {GAMES[name][0] for name in FREE_DROPS}
CROWN_PRINCE_POSITIONS = 6

# Where the first check ends the game, the variant whose legal moves say whether a check mates.
MATE_JUDGE = {"checkshogi": "shogi"}


def pawn_drop_mate(variant, fen, moves, move):
    """Fairy-Stockfish generates a Pawn drop that mates and scores it as a loss for the
    dropper; the rules of these games forbid the drop, so it is not counted."""
    if not move.startswith("P@") or not ff.gives_check(variant, fen, moves + [move]):
        return False
    judge = MATE_JUDGE.get(variant, variant)
    return not ff.legal_moves(judge, fen, moves + [move])


def legal_moves(variant, fen, moves):
    if variant in FREE_DROP_VARIANTS:
        return ff.legal_moves(variant, fen, moves)
    return [m for m in ff.legal_moves(variant, fen, moves) if not pawn_drop_mate(variant, fen, moves, m)]


def perft(variant, fen, moves, depth):
    legal = legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def perft_from_position(name, variant, start, moves, depth):
    """Perft after `moves`: for FREE_DROPS games from the position's FEN alone (no history)."""
    if name in FREE_DROPS:
        return perft(variant, ff.get_fen(variant, start, moves), [], depth)
    return perft(variant, start, moves, depth)


def random_position(variant, rng, wanted=None):
    """The moves of a random legal game of 10 to 120 plies, or None if it ended first or
    `wanted` (a test of the FEN) never held."""
    start = ff.start_fen(variant)
    moves, length = [], rng.randint(10, 120)
    while len(moves) < length:
        legal = ff.legal_moves(variant, start, moves)
        if not legal:
            return None
        moves.append(rng.choice(legal))
        if wanted and wanted(ff.get_fen(variant, start, moves)) and ff.legal_moves(variant, start, moves):
            return moves
    return None if wanted else moves


def sfen(variant, moves):
    """The position after `moves` as an SFEN (Black moves first, `b`), as koma reads it."""
    return ff.get_fen(variant, ff.start_fen(variant), moves, False, True)


def positions(variant, rng, count, wanted=None):
    found = []
    while len(found) < count:
        moves = random_position(variant, rng, wanted)
        # Where the first check ends the game, a game that ends on a check is drawn again.
        over = variant in MATE_JUDGE and moves is not None and not ff.legal_moves(variant, ff.start_fen(variant), moves)
        if moves is not None and not over:
            found.append(moves)
    return found


def write(name):
    variant, start_depth, count, depth, notes, options = GAMES[name]
    rng = random.Random(f"koma-{name}")
    start = ff.start_fen(variant)
    version = ".".join(map(str, ff.version()))
    lines = [
        f"# {name} perft. Format: `position start` or `position SFEN`, then `perft DEPTH NODES` lines;",
        "# `option NAME=VALUE` applies to the position it follows.",
        f"# Source of every number: Fairy-Stockfish (pyffish {version}, variant `{variant}`), its legal",
        "# moves counted ply by ply; written by scripts/ffish_perft_gen.py (docs/positions-and-counting.md).",
    ] + [f"# {note}" for note in notes] + ["", "position start"]
    lines += [f"perft {d} {perft(variant, start, [], d)}" for d in range(1, start_depth + 1)]
    lines += ["", f"# Positions from random legal games (seeded), counted by Fairy-Stockfish."]
    games = positions(variant, rng, count)
    if name == "sho":
        games += positions(variant, rng, CROWN_PRINCE_POSITIONS, lambda fen: "+E" in fen.split()[0])
    for moves in games:
        lines.append(f"position {sfen(variant, moves)}")
        lines += [f"option {option}" for option in options]
        lines += [f"perft {d} {perft_from_position(name, variant, start, moves, d)}" for d in range(1, depth + 1)]
        print(name, lines[-1], flush=True)
    with open(os.path.join(PERFT_DIR, f"{name}.perft"), "w") as out:
        out.write("\n".join(lines) + "\n")


def main():
    for name in sys.argv[1:] or GAMES:
        write(name)


if __name__ == "__main__":
    main()
