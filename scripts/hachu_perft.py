#!/usr/bin/env python3
"""Perft counts from HaChu, an independent Chu, Dai, Wa and Sho Shogi engine, for tests/perft/.

HaChu has no perft command: this script appends one (scripts/hachu_perft.c, which says what
it counts) to HaChu's own source, mends its `setboard` (which reads past the board field),
lets its root move list go on when the King can be taken (HaChu's search returns there at
once, leaving no list), builds it, and asks it for the counts of the positions below. For Sho it also mends two
defects of setting a position up: HaChu reads the letter N as a Lion (its Chu letters), which
Sho does not have, so its own `sho` start fails with "Unknown piece 'LN'" (here N is its Sho
Knight); and the King and Crown Prince it adds in place of missing ones are Chu's, whose values
do not mark them as Sho's royals (here they are the variant's own, where it has them; Chu, Dai
and Wa are unchanged). Nothing of koma is used: positions are given in koma's SFEN and translated here to
HaChu's FEN (its letters, White = the side moving first = koma's Black, files from the left).

Usage:  scripts/hachu_perft.py HACHU_C [VARIANT]
  HACHU_C: hachu.c from Debian's source package hachu 0.21-29-gdf26f4a-3
  (`apt-get source hachu`, the upstream tarball hachu_0.21-29-gdf26f4a.orig.tar.gz).
  VARIANT: only the positions of that koma variant (chu, dai, wa, sho, tenjiku).
Prints, per position, lines for tests/perft/VARIANT.perft (`position`, `option`, `perft`).

Wa's and Sho's positions besides their start come from random games (a fixed seed): the moves
are picked from the legal moves `koma moves` lists (KOMA, default `koma`, the binary), and the
position after them is written here from the moves; only the counts come from HaChu.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

SOURCE = "HaChu 0.21 (Debian hachu 0.21-29-gdf26f4a-3, with scripts/hachu_perft.c)"

# koma's piece token (Black's form) -> HaChu's FEN token, per variant (only the pieces used).
LETTERS = {
    "chu": {"K": "K", "N": "N", "+H": "+H", "H": "H", "G": "G", "P": "P", "+D": "+D", "Q": "Q"},
    "dai": {"K": "K", "G": "G", "P": "P", "H": "H", "+H": "+H", "[I]": "I", "[ST]": "U",
            "[EW]": "W", "[N]": "N", "[LN]": "L!", "N": "L!", "S": "S", "C": "C", "[CSW]": "C'"},
    # koma's Wa letters are HaChu's (its XBoard setup): every piece, promoted ones too.
    "wa": {t: t for t in [p + c for p in ["", "+"] for c in "PDUGWKVCLMHOEFSXR"]},
    # koma's Sho letters are HaChu's too (E the Drunk Elephant, +E the Crown Prince).
    "sho": {t: t for t in [p + c for p in ["", "+"] for c in "KRBEGSNLP"]},
    # Tenjiku: koma's abbreviations (its SFEN tokens `[FID]`) -> HaChu's letters (its tenIDs
    # table); a promoted piece is `+` and the letter of the piece it came from.
    "tenjiku": {f"{p}[{a.upper()}]": p + h for p in ["", "+"] for a, h in {
        "K": "K", "P": "P", "L": "L", "N": "N", "I": "I", "C": "C", "S": "S", "G": "G", "DE": "E",
        "FL": "F", "RC": "A", "BT": "T", "Ky": "O", "Ph": "X", "Ln": "L!", "FK": "Q", "SSo": "S'",
        "VSo": "V'", "B": "B", "DH": "H", "DK": "D", "WBf": "W!", "FiD": "D!", "LHk": "H!",
        "FEg": "Q'", "SM": "M", "VM": "V", "R": "R", "HF": "F!", "SE": "E!", "BGn": "B!",
        "RGn": "R!", "GGn": "Q!", "VGn": "V!", "Dg": "D'", "ChS": "C!"}.items()},
}

# koma's variant name -> HaChu's.
HACHU_NAME = {"chu": "chu", "dai": "dai", "wa": "wa-shogi", "sho": "sho", "tenjiku": "tenjiku"}

# Tenjiku under the options that are HaChu 0.21's reading: the Lion Hawk a Lion and a Bishop,
# no area moves, the Tetrarchs moving as the Chariot Soldier, the Free Eagle a Free King.
TENJIKU_HACHU = ["royal-capture=allowed", "lion-hawk=2", "area-moves=off", "tetrarchs=chariot", "free-eagle=queen"]
# The start of Tenjiku in koma's SFEN (HaChu's own start array misplaces pieces, so it is set
# up from this one).
TENJIKU_START = ("[l][n][fl][i][c][s][g][de][k][g][s][c][i][fl][n][l]/[rc]1[chs][chs]1[bt][ph][fk][ln][ky][bt]1[chs][chs]1[rc]/"
                 "[sso][vso][b][dh][dk][wbf][fid][feg][lhk][fid][wbf][dk][dh][b][vso][sso]/"
                 "[sm][vm][r][hf][se][bgn][rgn][vgn][ggn][rgn][bgn][se][hf][r][vm][sm]/" + "[p]" * 16 + "/4[dg]6[dg]4/"
                 "16/16/16/16/4[DG]6[DG]4/" + "[P]" * 16 + "/"
                 "[SM][VM][R][HF][SE][BGN][RGN][GGN][VGN][RGN][BGN][SE][HF][R][VM][SM]/"
                 "[SSO][VSO][B][DH][DK][WBF][FID][LHK][FEG][FID][WBF][DK][DH][B][VSO][SSO]/"
                 "[RC]1[CHS][CHS]1[BT][KY][LN][FK][PH][BT]1[CHS][CHS]1[RC]/"
                 "[L][N][FL][I][C][S][G][K][DE][G][S][C][I][FL][N][L] b - 1")

SHO_START = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1"
WA_START = "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH b - 1"

# (variant, koma SFEN, koma options, HaChu "Promote on entry", depth, note). HaChu plays
# capture-the-king: koma's counts to compare are under `royal-capture=allowed`.
POSITIONS = [
    # One pass: a Lion and a Horned Falcon that may both pass, with nothing to capture.
    ("chu", "k11/12/12/12/12/12/5N2+H3/12/12/12/12/11K b - 1", ["royal-capture=allowed"], 0, 2,
     "one pass: a Lion (7g) and a Horned Falcon (4g) may both pass"),
    # One pass in Dai: two promoted Dragon Horses (Horned Falcons).
    ("dai", "k14/15/15/15/15/15/15/4+H4+H5/15/15/15/15/15/15/14K b - 1", ["royal-capture=allowed", "promotion=entry"], 1, 2,
     "one pass: two Horned Falcons (promoted Dragon Horses) may both pass"),
    # A captured last royal ends the game: Black's Gold may take White's King at once.
    ("chu", "12/12/12/11p/12/12/5k6/5G6/12/12/12/11K b - 1", ["royal-capture=allowed"], 0, 3,
     "capture of the last royal: 7h takes the King on 7g; nothing is counted below it (White's Pawn on 1d would move)"),
    # Dai promotion=entry: captures that start or end in the zone promote; moves within or
    # leaving it without a capture do not.
    ("dai", "k14/15/15/4p3p6/4G3G6/15/15/15/15/15/15/15/15/15/14K b - 1", ["royal-capture=allowed", "promotion=entry"], 1, 2,
     "promotion=entry: Golds on 11e and 7e (in the zone) capture Pawns on 11d and 7d"),
    ("dai", "k14/15/15/15/6G8/6p8/15/15/15/15/15/15/15/15/14K b - 1", ["royal-capture=allowed", "promotion=entry"], 1, 2,
     "promotion=entry: a Gold on 9e (in the zone) captures out of it on 9f"),
    # Wa: HaChu plays it without drops, as koma's default (drops=off).
    ("wa", WA_START, ["royal-capture=allowed"], 0, 4, "the start"),
    # Sho: HaChu has no bare-king rule (koma's bare-king=none) and promotes as Shogi does
    # ("Promote on entry" off: a move that starts or ends in the zone).
    ("sho", SHO_START, ["bare-king=none", "royal-capture=allowed"], 0, 4, "the start"),
    # Sho's two royals: while a side has its King and Crown Prince, either may be left attacked
    # (the Gold on 5h attacks the King on 5i); with the Crown Prince alone, it is the royal.
    ("sho", "4k4/9/9/9/9/9/9/4g4/3+EK4 b - 1", ["bare-king=none", "royal-capture=allowed"], 0, 3,
     "two royals: Black's King (5i) attacked by a Gold, its Crown Prince (6i) beside it"),
    ("sho", "4k4/9/9/9/9/9/2g6/9/3+E5 b - 1", ["bare-king=none", "royal-capture=allowed"], 0, 3,
     "Black has no King: its Crown Prince (6i) is its royal"),
    ("tenjiku", TENJIKU_START, TENJIKU_HACHU, 0, 2, "the start, under HaChu 0.21's reading"),
]

# Positions from random games, per variant: the start, the koma options the games' moves are
# picked under, those the counts are compared under, how many, their depth, the plies of a game.
RANDOM = {
    "wa": (WA_START, [], ["royal-capture=allowed"], 20, 3, (10, 120)),
    "sho": (SHO_START, ["bare-king=none", "royal-capture=allowed"], ["bare-king=none", "royal-capture=allowed"],
            20, 3, (10, 120)),
    "tenjiku": (TENJIKU_START, TENJIKU_HACHU, TENJIKU_HACHU, 20, 2, (10, 80)),
}

# How many random games to play per variant, some positions being left out (see main).
CANDIDATES = {
    "tenjiku": 40,
}

# Tenjiku's burners, as koma's SFEN tokens (upper case): the Fire Demon and the promoted Water
# Buffalo.
BURNERS = {"[FID]", "+[WBF]"}


def koma_moves(koma, variant, options, sfen):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "variants", variant + ".var")
    command = [koma, "moves", path, "--sfen", sfen]
    for option in options:
        command += ["--option", option]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return out.stdout.split()


def play(sfen, move):
    """The SFEN after a USI move (no drops: Wa is played here without them, Sho and Tenjiku
    have none): the squares a Lion captures on before its destination are emptied, and in
    Tenjiku the move burns as HaChu's reading has it (a piece ending next to an enemy burner
    is removed; a burner that is not removed captures every enemy piece next to it)."""
    board, side, _hand, number = sfen.split()
    grid = []
    for rank in board.split("/"):
        row = []
        for token in re.findall(r"\d+|\+?(?:\[[A-Za-z]+\]|[A-Za-z])", rank):
            row += [None] * int(token) if token.isdigit() else [token]
        grid.append(row)
    width = len(grid[0])
    squares = [(width - int(f), ord(r) - 97) for f, r in re.findall(r"(\d+)([a-z])", move)]
    promote = move.endswith("+")
    (x1, y1), (x2, y2) = squares[0], squares[-1]
    piece = grid[y1][x1]
    grid[y1][x1] = None
    for x, y in squares[1:-1]:
        grid[y][x] = None
    grid[y2][x2] = ("+" + piece) if promote else piece
    black = lambda token: token.lstrip("+").lstrip("[")[0].isupper()
    mover = grid[y2][x2]
    near = [(x2 + dx, y2 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (dx, dy) != (0, 0) and 0 <= x2 + dx < width and 0 <= y2 + dy < len(grid)]
    enemies = [(x, y) for x, y in near if grid[y][x] and black(grid[y][x]) != black(mover)]
    if any(grid[y][x].upper() in BURNERS for x, y in enemies):
        grid[y2][x2] = None
    elif mover.upper() in BURNERS:
        for x, y in enemies:
            grid[y][x] = None
    ranks = []
    for row in grid:
        out, empty = "", 0
        for cell in row:
            if cell is None:
                empty += 1
                continue
            out += (str(empty) if empty else "") + cell
            empty = 0
        ranks.append(out + (str(empty) if empty else ""))
    return f"{'/'.join(ranks)} {'w' if side == 'b' else 'b'} - {int(number) + 1}"


def random_positions(variant):
    koma = os.environ.get("KOMA", "koma")
    rng = random.Random("koma-" + variant)
    start, picking, options, count, depth, (low, high) = RANDOM[variant]
    count = CANDIDATES.get(variant, count)
    found = []
    while len(found) < count:
        sfen, plies = start, rng.randint(low, high)
        for _ in range(plies):
            moves = koma_moves(koma, variant, picking, sfen)
            if not moves:
                break
            sfen = play(sfen, rng.choice(moves))
        else:
            found.append((variant, sfen, options, 0, depth, f"a random legal game of {plies} plies (seeded)"))
    return found


def hachu_fen(variant, sfen):
    board, side = sfen.split()[0:2]
    table = LETTERS[variant]
    ranks = []
    for rank in board.split("/"):
        out, i = "", 0
        while i < len(rank):
            m = re.match(r"\d+", rank[i:])
            if m:
                out += m.group(0)
                i += len(m.group(0))
                continue
            m = re.match(r"\+?(\[[A-Za-z]+\]|[A-Za-z])", rank[i:])
            token = m.group(0)
            i += len(token)
            black = token.upper() == token if token[-1] != "]" else token[token.index("[") + 1].isupper()
            letter = table[token.upper()]
            out += letter if black else letter.lower()
        ranks.append(out)
    return "/".join(ranks) + (" w" if side == "b" else " b") + " 0 1"


def build(hachu_c, workdir):
    source = open(hachu_c).read()
    perft = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "hachu_perft.c")).read()
    source = source.replace("int timeLeft; ", perft + "\nint timeLeft; ", 1)
    command = ('if(!strcmp(command, "perft")) { int d = atoi(inBuf + 6); '
               'printf("perft %d %lld\\n", d, Perft(d)); fflush(stdout); continue; }\n')
    source = source.replace('if(!strcmp(command, "quit"))', command + 'if(!strcmp(command, "quit"))', 1)
    # ListMoves lists the moves of a search of the root, which returns at once when the side
    # to move can take the King: in perft (perftRoot) the root goes on to list every move.
    source = source.replace("int flag;", "int flag, perftRoot;", 1)
    for line in ["if( p[king + 2].pos == ABSENT ) return INF; // we have an attack on his only King",
                 "if(k == ABSENT ? !tsume : attacks[2*k + stm]) return INF; // we have attack on Crown Prince"]:
        assert line in source
        source = source.replace(line, line.replace("return INF;", "if(!(perftRoot && !level)) return INF;"), 1)
    # HaChu's setboard reads the board field on past its end (a space is "Unknown piece ' '"):
    # end the field at the space, once the side to move has been read from it.
    # Sho's FEN letters: HaChu gives Sho Chu's (N = Lion); its N is the Knight.
    source = source.replace('V_SHO,     "sho",     shoArray,  chuIDs', 'V_SHO,     "sho",     shoArray,  shoIDs', 1)
    source = source.replace("char waIDs[]", 'char shoIDs[] =   "RVB C DKDEFLG DHGB..K L SMN KNP FKR S BT..VM..PH....";\nchar waIDs[]', 1)
    # The King and Crown Prince added where a side has none are the variant's own, if it has them.
    for royal in ["K", "CP"]:
        for side in ["WHITE", "BLACK"]:
            old = f'p[AddPiece({side}, LookUp("{royal}", V_CHU))].pos = ABSENT;'
            assert old in source
            source = source.replace(old, f'p[AddPiece({side}, LookUp("{royal}", currentVariant) ? LookUp("{royal}", currentVariant) : '
                                         f'LookUp("{royal}", V_CHU))].pos = ABSENT;', 1)
    source = source.replace("  SetUp(fen, currentVariant);",
                            "  if((p = strchr(fen, ' '))) *p = 0;\n  SetUp(fen, currentVariant);", 1)
    path = os.path.join(workdir, "hachu.c")
    open(path, "w").write(source)
    binary = os.path.join(workdir, "hachu-perft")
    subprocess.run(["gcc", "-O2", "-w", path, "-o", binary], check=True)
    return binary


def count(binary, variant, sfen, entry, depth):
    commands = ["xboard", "protover 2", "memory 1", f"variant {HACHU_NAME[variant]}", f"option Promote on entry={entry}",
                f"setboard {hachu_fen(variant, sfen)}"]
    commands += [f"perft {d}" for d in range(1, depth + 1)] + ["quit"]
    out = subprocess.run([binary], input="\n".join(commands) + "\n", capture_output=True, text=True, errors="replace",
                         check=True).stdout
    return [line.split()[1:] for line in out.splitlines() if line.startswith("perft ")]


def count_fresh(binary, variant, sfen, depth):
    """Tenjiku: HaChu 0.21's own perft goes wrong below the first ply (after a range-jump capture
    its move list differs from the list for the same position set up afresh), so a count is
    made of HaChu's move lists alone: ply 1 is its list of the position, ply 2 the sum of its
    lists of the positions after each move (each set up afresh with `setboard`; the positions
    after the moves are made here, by `play`, from the moves `koma moves` lists, which must
    be as many as HaChu's). Depth 1 or 2."""
    koma = os.environ.get("KOMA", "koma")
    moves = koma_moves(koma, variant, TENJIKU_HACHU, sfen)
    children = [sfen] + [play(sfen, m) for m in moves]
    # A side whose King and Crown Prince are gone has lost: nothing is counted below (as
    # scripts/hachu_perft.c counts it); HaChu is not asked, whose setup adds missing royals.
    def royal_left(child):
        board, side = child.split()[0:2]
        royals = ["[K]", "+[DE]"] if side == "b" else ["[k]", "+[de]"]
        return any(r in board for r in royals)
    asked = [child for child in children if royal_left(child)]
    commands = ["xboard", "protover 2", "memory 1", f"variant {HACHU_NAME[variant]}", "option Promote on entry=0"]
    for child in asked:
        commands += [f"setboard {hachu_fen(variant, child)}", "perft 1"]
    commands.append("quit")
    out = subprocess.run([binary], input="\n".join(commands) + "\n", capture_output=True, text=True, errors="replace",
                         check=True, timeout=120).stdout
    answers = iter(int(line.split()[2]) for line in out.splitlines() if line.startswith("perft "))
    counts = [next(answers) if royal_left(child) else 0 for child in children]
    assert counts[0] == len(moves), f"HaChu lists {counts[0]} moves, koma {len(moves)}: {sfen}"
    result = [["1", str(counts[0])]]
    if depth >= 2:
        result.append(["2", str(sum(counts[1:]))])
    return result


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    only = sys.argv[2] if len(sys.argv) == 3 else None
    positions = [p for p in POSITIONS if only in (None, p[0])]
    for variant in RANDOM:
        if only in (None, variant):
            positions += random_positions(variant)
    with tempfile.TemporaryDirectory() as workdir:
        binary = build(sys.argv[1], workdir)
        kept = {}
        for variant, sfen, options, entry, depth, note in positions:
            if variant == "tenjiku":
                # HaChu 0.21 crashes, or hangs, on some positions: those are left out, and more
                # random games are played in their place.
                try:
                    counted = count_fresh(binary, variant, sfen, depth)
                except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                    print(f"# left out (HaChu crashed or hung): {sfen}", file=sys.stderr)
                    continue
                kept[variant] = kept.get(variant, 0) + 1
                if kept[variant] > 1 + RANDOM[variant][3]:
                    continue
            else:
                counted = count(binary, variant, sfen, entry, depth)
            lines = [f"# {variant}: {note}. Source: {SOURCE}.", f"position {sfen}"]
            lines += [f"option {option}" for option in options]
            lines += [f"perft {d} {n}" for d, n in counted]
            print("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
