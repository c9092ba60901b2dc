#!/usr/bin/env python3
"""Write tests/perft/{minishogi,judkins,sho,micro,kyoto,checkshogi,gorogoro,gorogoroplus,euroshogi,okisaki,dobutsu,antiminishogi,cannon}.perft from Fairy-Stockfish's move generator.

Fairy-Stockfish, as its Python module pyffish (`pip install pyffish`, version 0.0.90 when these
files were written), gives the legal moves; this script counts them ply by ply (no bulk counting,
nothing of koma used) from each game's start position and from positions reached in random legal
games (a fixed seed, so a rerun writes the same files). A Pawn drop that mates, which
Fairy-Stockfish generates and scores as a loss for the dropper, is left out where the rules forbid
it (not in Micro, Kyoto, Dobutsu and Cannon Shogi, whose rules allow it). Sho positions with a Crown Prince on the
board are added, found the same way, since random games rarely make one; for Goro Goro Plus,
EuroShogi, Okisaki, Anti-Minishogi and Cannon Shogi, positions made by hand for each special rule (HAND_MADE).
Only a Pawn dropped next to a King can check, so only such drops are asked about. Micro, Kyoto, Dobutsu,
Goro Goro (and Plus), EuroShogi, Okisaki and Cannon Shogi positions are counted from the position alone (its
FEN, no moves before it), as koma reads the SFEN: small boards repeat positions often, no
repetition rule should reach into a count, and replaying the game at every node is slow.

Check Shogi (`checkshogi`): the first check wins, so Fairy-Stockfish lists no move for a side in
check; whether a Pawn drop that checks also mates is then judged by the moves Shogi's rules
(`shogi`, the same pieces) give the side in check after the same moves. Its random positions
are drawn from games with no check, the position from a checking move being over.

Usage:  scripts/ffish_perft_gen.py [GAME ...]     (default: all of them)
"""
import multiprocessing
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
    "gorogoro": ("gorogoro", 4, 20, 3, DROP_MATE, []),
    "euroshogi": ("euroshogi", 4, 20, 3, DROP_MATE, []),
    "okisaki": ("okisakishogi", 4, 20, 3, DROP_MATE, []),
    "dobutsu": ("dobutsu", 6, 24, 4, [
        "Fairy-Stockfish's try is \"reached and unattacked\": a Lion standing on its far rank where",
        "no enemy piece attacks it wins, whoever is to move; the counts are under `option",
        "try=unattacked`, koma's name for that reading (the default, the rule text's, lets the",
        "opponent move once and wins if the Lion is not taken). A game over (a Lion captured or",
        "the try made) has no move: Fairy-Stockfish's `is_immediate_game_end` says when.",
        "Each position is counted from its FEN alone, without the moves before it.",
    ], ["try=unattacked"]),
    "gorogoroplus": ("gorogoroplus", 4, 20, 3, DROP_MATE + [
        "Fairy-Stockfish defines `gorogoroplus` in its variants.ini, not in pyffish itself: the",
        "script loads that section (VARIANTS_INI) before counting.",
    ], []),
    "antiminishogi": ("antiminishogi", 6, 24, 3, [
        "Fairy-Stockfish defines `antiminishogi` in its variants.ini, not in pyffish itself: the",
        "script loads that section (VARIANTS_INI) before counting. No piece is royal, so no move",
        "checks and no Pawn drop mates: the counts need no correction. A game over (a side left",
        "without pieces) has no move: Fairy-Stockfish's `is_immediate_game_end` says when.",
    ], []),
    "cannon": ("cannonshogi", 4, 20, 3, [
        "Fairy-Stockfish defines `cannonshogi` in its variants.ini, not in pyffish itself: the",
        "script loads that section (VARIANTS_INI) before counting. Its rules (pychess's too) allow",
        "a Pawn drop that mates, and two Pawns on a file: every legal move is counted.",
        "Each position is counted from its FEN alone, without the moves before it.",
    ], []),
}

# The sections of Fairy-Stockfish's src/variants.ini (commit of docs/sources.md) for the games
# pyffish does not build in, word for word.
VARIANTS_INI = """
[gorogoroplus:gorogoro]
startFen = sgkgs/5/1ppp1/1PPP1/5/SGKGS[LNln] w 0 1
lance = l
shogiKnight = n
promotedPieceType = l:g n:g

[antiminishogi:minishogi]
king = -
commoner = k
mustCapture = true
stalemateValue = win
extinctionValue = win
extinctionPieceTypes = *
extinctionPseudoRoyal = false
castling = false

[cannonshogi:shogi]
dropNoDoubled = -
shogiPawnDropMateIllegal = false
soldier = p
cannon = u
customPiece1 = a:pR
customPiece2 = c:mBcpB
customPiece3 = i:pB
customPiece4 = w:mRpRmFpB2
customPiece5 = f:mBpBmWpR2
promotedPieceType = u:w a:w c:f i:f p:g
startFen = lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[-] w 0 1
"""
# Positions made by hand, one or more for each special rule a game has that the start and
# random games rarely reach: (what it shows, in one or two lines, Fairy-Stockfish's FEN,
# depth). Counted like the random positions (from the FEN alone).
HAND_MADE = {
    "gorogoroplus": [
        ("The starting hand's Lance and Knight dropped, never where they could not move.",
         "2k2/5/5/5/5/2K2[LNln] w 0 1", 3),
        ("A Knight leaping into the two-rank zone, where it must promote (no move from there).",
         "2k2/5/5/1N3/5/2K2[] w 0 1", 3),
        ("A Pawn drop on c5 would mate: left out.", "1lkn1/1p1p1/2G2/5/5/2K2[P] w 0 1", 3),
    ],
    "euroshogi": [
        ("The Knight's forward leaps and sideways steps; promotion compulsory in the zone.",
         "4k3/8/8/8/3N4/8/8/4K3[] w 0 1", 3),
        ("A Rook entering the three-rank zone, where every promotion is compulsory.",
         "4k3/8/8/8/8/8/R7/4K3[] w 0 1", 3),
        ("A Pawn drop on a7 would mate: left out.", "kn6/1p6/G7/8/8/8/8/4K3[P] w 0 1", 3),
    ],
    "okisaki": [
        ("A Queen and a Knight in each hand, dropped anywhere they can move from.",
         "4k5/10/10/10/10/10/10/10/10/4K5[QNqn] w 0 1", 2),
        ("A Knight (the chess Knight) leaping into the zone: promotion optional.",
         "4k5/10/10/4N5/10/10/10/10/10/4K5[] w 0 1", 3),
        ("A Pawn drop on a9 would mate: left out.", "kn8/1p8/G9/10/10/10/10/10/10/4K5[P] w 0 1", 3),
    ],
    "antiminishogi": [
        ("Compulsory capture: the Rook must take the Pawn; the Gold in hand may not be dropped.",
         "k4/5/2p2/2R2/4K[G] w 0 1", 4),
        ("Compulsory capture: of two captures either may be made, nothing else.",
         "k4/1p3/R1p2/5/4K[] w 0 1", 4),
        ("Extinction: White must take Black's last piece, and Black, with none left, has won.",
         "k4/5/5/1g3/2K2[] b 0 1", 3),
        ("Extinction: Black, to move, has no piece left: the game is over, no move.",
         "k4/5/5/5/5[] w 0 1", 2),
    ],
    "cannon": [
        ("The Gold Cannon (xiangqi's): slides to move; captures only over one screen, its own or an",
         "enemy piece, never the unscreened piece, never past the first piece beyond the screen.",
         "4k4/9/4p4/9/4P4/9/p3U1gp1/9/4K4[] w 0 1", 3),
        ("The Silver Cannon (janggi's): moves and captures only over a screen; it may hop over and",
         "take cannons.", "k8/9/4a4/9/9/4U4/1P2A1p1c/9/4K4[] w 0 1", 3),
        ("The Copper and Iron Cannons: the Gold and Silver Cannons along the diagonals.", "",
         "4k4/9/2p3p2/9/4C4/9/2I3P2/9/4K4[] w 0 1", 3),
        ("The flying cannons (promoted): a hop of 2 over a piece next to them, steps that do not",
         "capture.", "3k5/9/9/3pP4/4+U4/3P1p3/2P6/2+C6/4K4[] w 0 1", 3),
        ("A cannon's check through a screen (the Pawn on e4): a Gold dropped between is a second",
         "screen, which blocks; the screen stepping off the line ends the check.",
         "k8/9/4u4/9/9/4P4/9/9/4K4[G] w 0 1", 3),
        ("The Pawn steps forward or sideways; a Pawn dropped may mate (a8), and may be dropped on",
         "the last rank.", "k8/9/G8/9/9/9/9/9/1R2K4[P] w 0 1", 3),
    ],
}
FREE_DROPS = {"micro", "kyoto", "dobutsu", "cannon"}
# Games whose positions may be over before any move (a Lion taken, the try made): such a node
# has no move, as Fairy-Stockfish's `is_immediate_game_end` says; their options hold at the
# start too.
ENDS_BEFORE_MOVING = {"dobutsu", "antiminishogi"}
# (tests/perft/dobutsu.perft opens with a section of koma's own counts under the default reading,
# kept by hand: a rerun of this script drops it, and it must be added back.)
# Games whose random positions are counted from their FEN alone, as koma reads them: the
# FREE_DROPS games, and the later ones (no rule of theirs looks at the moves before a
# position within three plies, and replaying the game at every node is slow).
FROM_FEN = FREE_DROPS | {"gorogoro", "gorogoroplus", "euroshogi", "okisaki", "antiminishogi", "cannon"}
FREE_DROP_VARIANTS = {GAMES[name][0] for name in FREE_DROPS}
ENDS_BEFORE_MOVING_VARIANTS = {GAMES[name][0] for name in ENDS_BEFORE_MOVING}
CROWN_PRINCE_POSITIONS = 6

# Where the first check ends the game, the variant whose legal moves say whether a check mates.
MATE_JUDGE = {"checkshogi": "shogi"}


def king_files_and_ranks(variant, fen, moves):
    """The (file letter, rank number) of each King on the board after `moves`."""
    board = ff.get_fen(variant, fen, moves).split("[")[0].split(" ")[0]
    kings, ranks = [], board.split("/")
    for row, text in enumerate(ranks):
        file, digits = 0, ""
        for char in text:
            if char.isdigit():
                digits += char
                continue
            file += int(digits or 0)
            digits = ""
            if char in "kK":
                kings.append((chr(ord("a") + file), len(ranks) - row))
            if char != "+":
                file += 1
    return kings


def next_to_a_king(move, kings):
    """Whether a drop lands on a King's file on a rank next to it: the only squares from which
    a dropped Pawn (which attacks the square in front of it) can give check."""
    file, rank = move[2], int(move[3:])
    return any(file == king_file and abs(rank - king_rank) == 1 for king_file, king_rank in kings)


def pawn_drop_mate(variant, fen, moves, move, kings):
    """Fairy-Stockfish generates a Pawn drop that mates and scores it as a loss for the
    dropper; the rules of these games forbid the drop, so it is not counted. Only a drop next
    to a King can check, so only those are asked about."""
    if not move.startswith("P@") or not next_to_a_king(move, kings):
        return False
    if not ff.gives_check(variant, fen, moves + [move]):
        return False
    judge = MATE_JUDGE.get(variant, variant)
    return not ff.legal_moves(judge, fen, moves + [move])


def legal_moves(variant, fen, moves):
    if variant in ENDS_BEFORE_MOVING_VARIANTS and ff.is_immediate_game_end(variant, fen, moves)[0]:
        return []
    if variant in FREE_DROP_VARIANTS:
        return ff.legal_moves(variant, fen, moves)
    legal = ff.legal_moves(variant, fen, moves)
    if not any(m.startswith("P@") for m in legal):
        return legal
    kings = king_files_and_ranks(variant, fen, moves)
    return [m for m in legal if not pawn_drop_mate(variant, fen, moves, m, kings)]


def perft(variant, fen, moves, depth):
    legal = legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def perft_root_move(job):
    variant, fen, move, depth = job
    return perft(variant, fen, [move], depth - 1)


def perft_in_parallel(variant, fen, depth):
    """The same count as `perft`, with the root moves shared among processes (KOMA_JOBS, by
    default the number of processors): deep start counts take pyffish minutes."""
    if depth == 1:
        return perft(variant, fen, [], 1)
    jobs = [(variant, fen, move, depth) for move in legal_moves(variant, fen, [])]
    with multiprocessing.Pool(int(os.environ.get("KOMA_JOBS", os.cpu_count() or 1))) as pool:
        return sum(pool.map(perft_root_move, jobs))


def perft_from_position(name, variant, start, moves, depth):
    """Perft after `moves`: for FROM_FEN games from the position's FEN alone (no history)."""
    if name in FROM_FEN:
        return perft(variant, ff.get_fen(variant, start, moves), [], depth)
    return perft(variant, start, moves, depth)


def random_position(variant, rng, wanted=None):
    """The moves of a random legal game of 10 to 120 plies, or None if it ended first or
    `wanted` (a test of the FEN) never held."""
    start = ff.start_fen(variant)
    moves, length = [], rng.randint(10, 120)
    while len(moves) < length:
        legal = ff.legal_moves(variant, start, moves)
        if not legal or (variant in ENDS_BEFORE_MOVING_VARIANTS and ff.is_immediate_game_end(variant, start, moves)[0]):
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
    if name in ENDS_BEFORE_MOVING:
        lines += [f"option {option}" for option in options]
    lines += [f"perft {d} {perft_in_parallel(variant, start, d)}" for d in range(1, start_depth + 1)]
    lines += ["", f"# Positions from random legal games (seeded), counted by Fairy-Stockfish."]
    games = positions(variant, rng, count)
    if name == "sho":
        games += positions(variant, rng, CROWN_PRINCE_POSITIONS, lambda fen: "+E" in fen.split()[0])
    for moves in games:
        lines.append(f"position {sfen(variant, moves)}")
        lines += [f"option {option}" for option in options]
        lines += [f"perft {d} {perft_from_position(name, variant, start, moves, d)}" for d in range(1, depth + 1)]
        print(name, lines[-1], flush=True)
    if name in HAND_MADE:
        lines += ["", "# Positions made by hand, one or more for each special rule, counted by Fairy-Stockfish."]
    for entry in HAND_MADE.get(name, []):
        *note, fen, hand_depth = entry
        lines += [f"# {line}" for line in note if line]
        lines.append(f"position {ff.get_fen(variant, fen, [], False, True)}")
        lines += [f"option {option}" for option in options]
        lines += [f"perft {d} {perft(variant, fen, [], d)}" for d in range(1, hand_depth + 1)]
        print(name, lines[-1], flush=True)
    with open(os.path.join(PERFT_DIR, f"{name}.perft"), "w") as out:
        out.write("\n".join(lines) + "\n")


def main():
    ff.load_variant_config(VARIANTS_INI)
    for name in sys.argv[1:] or GAMES:
        write(name)


if __name__ == "__main__":
    main()
