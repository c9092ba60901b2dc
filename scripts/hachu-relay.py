#!/usr/bin/env python3
"""A CECP relay between XBoard and HaChu 0.21 (Debian `hachu`) for a game XBoard does not
know itself (Dai Shogi): it passes every line through unchanged, except the position of
`setboard`, whose piece letters it rewrites from koma's to HaChu's and whose fields after the
board it drops. A match tool, not part of koma.

Why: XBoard 4.9 does not know Dai Shogi. Playing it, XBoard takes the variant's pieces and
letters from the first engine's `setup` (koma's) and hands the position to the second engine
in those letters. HaChu 0.21 knows Dai itself, under the letters of XBoard's "Alien Edition"
(HaChu's `daiIDs` table), and refuses koma's (`Unknown piece ' ' in setup`). Moves are written
by squares alone (a promotion adds `+`), so the position is the only thing to translate.

HaChu 0.21's `setboard` also reads the board field on past its end (the space before the side
to move is "Unknown piece"): the relay sends the board alone, which HaChu sets up with the first
player (XBoard's `w`) to move. XBoard sends a game's start position so, and the opening's moves
after it; a position with the second player to move cannot be handed to HaChu, and the relay
says so on its standard error.

The tables map koma's XBoard letter of a kind (printed in its `setup` command: a kind's SFEN
letter, else the first free of its abbreviation's initial, that letter with `'` or `!`, ...)
to the engine's; a promoted kind is `+` and its base's letter in both. Letters not listed are
the same in both. `--verify KOMA` checks a table: koma's start position, translated, must be
the engine's own start position (HaChu's `daiArray`).

Usage (as XBoard's second engine):
  scripts/xboard-match.py --engine "python3 scripts/hachu-relay.py --variant dai /usr/games/hachu" ...
  scripts/hachu-relay.py --variant dai --verify target/release/koma
Standard library only.
"""
import argparse
import re
import subprocess
import sys
import threading

# koma's XBoard letter -> HaChu 0.21's, per variant.
LETTERS = {
    "dai": {
        "N": "L!",   # Lion (koma: Chu's SFEN letter n)
        "I": "P'",   # Go-Between (koma: Chu's SFEN letter i)
        "V'": "X'",  # Violent Ox
        "F'": "F'",  # Flying Dragon
        "A'": "A'",  # Angry Boar
        "C'": "C'",  # Cat Sword
        "E'": "W",   # Evil Wolf
        "I'": "I",   # Iron General
        "S'": "U",   # Stone General
        "N'": "N",   # Knight
    },
}

# The engine's own start position (its board alone), to verify a table against.
ENGINE_START = {
    "dai": "lnuicsgkgsciunl/a1c'1f1tet1f1c'1a/1x'1a'1wxl!ow1a'1x'1/rf'mvbhdqdhbvmf'r/"
           "ppppppppppppppp/4p'5p'4/15/15/15/4P'5P'4/PPPPPPPPPPPPPPP/"
           "RF'MVBHDQDHBVMF'R/1X'1A'1WOL!XW1A'1X'1/A1C'1F1TET1F1C'1A/LNUICSGKGSCIUNL",
}

TOKEN = re.compile(r"(\+?)([A-Za-z])(['!]?)")


def translate(board, table):
    """The board part of a FEN with each piece's letter replaced by the engine's."""
    def one(m):
        promoted, letter, mark = m.groups()
        key = letter.upper() + mark
        new = table.get(key, key)
        return promoted + (new if letter.isupper() else new.lower())
    return TOKEN.sub(one, board)


def rewrite(line, table):
    """A line from XBoard as the engine must read it."""
    if not line.startswith("setboard "):
        return line
    fen = line[len("setboard "):].split(" ")
    if len(fen) > 1 and fen[1] != "w":
        print(f"hachu-relay: HaChu cannot be given a position with {fen[1]} to move: {line}", file=sys.stderr)
    return "setboard " + translate(fen[0], table)


def relay(engine, table):
    """Runs the engine, passing XBoard's lines to it (rewritten) and its lines back."""
    child = subprocess.Popen(engine, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)

    def back():
        for out in child.stdout:
            sys.stdout.write(out)
            sys.stdout.flush()

    threading.Thread(target=back, daemon=True).start()
    for line in sys.stdin:
        try:
            child.stdin.write(rewrite(line.rstrip("\n"), table) + "\n")
            child.stdin.flush()
        except BrokenPipeError:
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    sys.exit(child.wait())


def verify(koma, variant, table):
    """Whether koma's start position, translated, is the engine's own."""
    out = subprocess.run([koma, "xboard", variant], input=f"xboard\nprotover 2\nvariant {variant}\nquit\n",
                         capture_output=True, text=True).stdout
    setup = next((l for l in out.splitlines() if l.startswith("setup ")), None)
    if setup is None:
        sys.exit(f"koma sent no setup for {variant}")
    board = setup.split(") ", 1)[1].split(" ")[1]
    mine = translate(board, table)
    if mine != ENGINE_START[variant]:
        sys.exit(f"the table does not agree:\n koma, translated: {mine}\n the engine's:      {ENGINE_START[variant]}")
    print(f"{variant}: koma's start position, translated, is the engine's")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", required=True, choices=sorted(LETTERS))
    ap.add_argument("--verify", metavar="KOMA", help="check the table against koma's start position and exit")
    ap.add_argument("engine", nargs="?", help="the engine's command")
    args = ap.parse_args()
    table = LETTERS[args.variant]
    if args.verify:
        verify(args.verify, args.variant, table)
    elif args.engine:
        relay(args.engine, table)
    else:
        ap.error("give the engine's command, or --verify KOMA")


if __name__ == "__main__":
    main()
