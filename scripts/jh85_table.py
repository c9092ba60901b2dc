#!/usr/bin/env python3
"""Write tests/destinations/taikyoku-jh85.txt from the engine jh85/taikyokushogi's own source.

jh85/taikyokushogi (MIT, https://github.com/jh85/taikyokushogi) defines its 301 kinds in
`src/pieces.rs`: a table `PIECE_DEFS` (abbreviation, name, Betza string, promotion) whose Betza
strings its own parser `parse_betza` reads, and hand-written moves in `manual_movement` that
take the place of the Betza string where one is given. This script reads that file, nothing of
koma: it reads the Betza strings as `parse_betza` does (transcribed below: direction letters,
ranges, the longest range kept per direction, jumps filtered by `jump_matches`), reads the
hand-written moves from the Rust text, and writes, for every kind of koma's
`variants/taikyoku.var` (matched to [JH]'s kind by its English name), the squares a lone piece
reaches on an empty board, in the format of tests/destinations/README.md. Moves are read as
[JH]'s move generator (`src/movegen.rs`) plays them on an empty board: a slide or a range
capture reaches along its line (a range capture on an empty board is a slide), a hook runs the
full line in each of its directions and may turn 90 degrees at any empty square, `area: 2` is
the Lion's two steps (the mark `lion`), and a capture without moving (`igui`) reaches no square.

koma's `+X` kinds (a setup kind made by promotion) move as `X`: their line repeats `X`'s.

Usage:  scripts/jh85_table.py JH85_REPOSITORY [COMMIT]   (COMMIT: default HEAD)
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VAR = os.path.join(HERE, "..", "variants", "taikyoku.var")
OUT = os.path.join(HERE, "..", "tests", "destinations", "taikyoku-jh85.txt")

# [JH]'s directions (src/types.rs): index, and the table's order F B L R FL FR BL BR.
DIRS = {"N": 0, "NE": 1, "E": 2, "SE": 3, "S": 4, "SW": 5, "W": 6, "NW": 7}
TABLE_ORDER = [DIRS[d] for d in ["N", "S", "W", "E", "NW", "NE", "SW", "SE"]]
N, NE, E, SE, S, SW, W, NW = range(8)

# Names that koma spells otherwise than [JH] (none known; kept to make a mismatch explicit).
NAME_ALIASES = {}


def source(repo, commit):
    text = subprocess.run(
        ["git", "-C", repo, "show", f"{commit}:src/pieces.rs"], check=True, capture_output=True, text=True
    ).stdout
    full = subprocess.run(
        ["git", "-C", repo, "rev-parse", commit], check=True, capture_output=True, text=True
    ).stdout.strip()
    return text, full


# ------------------------------------------------------------------ PIECE_DEFS

DEF = re.compile(
    r'PieceDef \{ abbrev: "([^"]+)", name: "([^"]+)", betza: (None|Some\("([^"]*)"\)), '
    r'promotes_to: (None|Some\("([^"]*)"\))'
)


def piece_defs(text):
    defs = [(m.group(1), m.group(2), m.group(4), m.group(6)) for m in DEF.finditer(text)]
    assert len(defs) == 301, f"expected 301 kinds in PIECE_DEFS, found {len(defs)}"
    return defs


# ------------------------------------------------------------------ parse_betza, transcribed


def mod_dirs(modifier):
    """get_mod_dirs: the directions a modifier allows (all when empty)."""
    if not modifier:
        return set(range(8))
    dirs, i = set(), 0
    while i < len(modifier):
        pair = modifier[i : i + 2]
        if pair in ("fl", "fr", "bl", "br"):
            dirs.add({"fl": NW, "fr": NE, "bl": SW, "br": SE}[pair])
            i += 2
            continue
        dirs |= {
            "f": {N, NE, NW},
            "b": {S, SE, SW},
            "l": {W, NW, SW},
            "r": {E, NE, SE},
            "s": {E, W},
            "v": {N, S},
        }.get(modifier[i], set())
        i += 1
    return dirs


def jump_matches(dr, dc, modifier, atom):
    if not modifier:
        return True
    if atom == "N":
        narrow = abs(dr) > abs(dc)
        return {
            "ff": dr < 0 and narrow,
            "bb": dr > 0 and narrow,
            "fs": dr < 0 and not narrow,
            "bs": dr > 0 and not narrow,
            "f": dr < 0,
            "b": dr > 0,
            "v": narrow,
            "s": not narrow,
        }.get(modifier, True)
    for b in modifier:
        if (
            (b == "f" and dr < 0)
            or (b == "b" and dr > 0)
            or (b == "l" and dc < 0)
            or (b == "r" and dc > 0)
            or (b == "s" and dr == 0)
            or (b == "v" and dc == 0)
        ):
            return True
    return False


STEP_ATOMS = {
    "W": ([N, E, S, W], 1),
    "F": ([NE, SE, SW, NW], 1),
    "K": (list(range(8)), 1),
    "R": ([N, E, S, W], 0),
    "B": ([NE, SE, SW, NW], 0),
    "Q": (list(range(8)), 0),
}
JUMP_ATOMS = {
    "D": [(-2, 0), (0, 2), (2, 0), (0, -2)],
    "A": [(-2, 2), (2, 2), (2, -2), (-2, -2)],
    "N": [(-2, 1), (-2, -1), (-1, 2), (-1, -2), (1, 2), (1, -2), (2, 1), (2, -1)],
    "H": [(-3, 0), (0, 3), (3, 0), (0, -3)],
    "G": [(-3, 3), (3, 3), (3, -3), (-3, -3)],
}


def parse_betza(notation):
    """A movement: slides {dir: range, 0 = any distance}, jumps [(dr, dc)] (dr < 0 forward)."""
    assert "(" not in notation
    slides, jumps, i = [], [], 0
    while i < len(notation):
        start = i
        while i < len(notation) and notation[i].islower():
            i += 1
        modifier = notation[start:i]
        if i >= len(notation):
            break
        atom = notation[i]
        i += 1
        digits = i
        while i < len(notation) and notation[i].isdigit():
            i += 1
        reach = int(notation[digits:i]) if digits < i else None
        if atom in STEP_ATOMS:
            base, base_range = STEP_ATOMS[atom]
            allowed = mod_dirs(modifier)
            slides += [(d, base_range if reach is None else reach) for d in base if d in allowed]
        elif atom in JUMP_ATOMS:
            jumps += [j for j in JUMP_ATOMS[atom] if jump_matches(*j, modifier, atom)]
    # The longest range per direction (0, any distance, the longest).
    best = {}
    for d, r in slides:
        if d not in best or r == 0 or (best[d] != 0 and r > best[d]):
            best[d] = r
    return {"slides": best, "jumps": jumps, "hook": None, "area": 0, "range_capture": set()}


# ------------------------------------------------------------------ manual_movement, read

ARM = re.compile(r'^\s*((?:"[^"]+"\s*\|?\s*)+)=> Some\(Movement \{(.*)\}\),\s*$')
TUPLE = re.compile(r"\((N|NE|E|SE|S|SW|W|NW) as u8,\s*(\d+)\)")
JUMP = re.compile(r"\((-?\d+),\s*(-?\d+)\)")
LION_JUMPS = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if max(abs(dr), abs(dc)) == 2]


def field(body, name, following):
    """The text of one field of a `Movement { … }` literal."""
    start = body.index(f"{name}:") + len(name) + 1
    end = body.index(f"{following}:", start) if following else len(body)
    return body[start:end].strip().rstrip(",")


def slides_of(text):
    slides = {}

    def add(d, r):
        # A direction given twice is generated twice: the longer reach counts.
        slides[d] = 0 if r == 0 or slides.get(d) == 0 else max(r, slides.get(d, 0))

    if "all_dirs_slide" in text:
        for d in range(8):
            add(d, 0)
    if "all_dirs_step" in text:
        for d in range(8):
            add(d, 1)
    for m in re.finditer(r"\(0\.\.8\)\.map\(\|d\| \(d as u8, (\d+)\)\)", text):
        for d in range(8):
            add(d, int(m.group(1)))
    for m in TUPLE.finditer(text):
        add(DIRS[m.group(1)], int(m.group(2)))
    return slides


def jumps_of(text, abbrev):
    choice = re.fullmatch(r'if abbrev == "([^"]+)" \{ (.*) \} else \{ (.*) \}', text)
    if choice:
        text = choice.group(2) if abbrev == choice.group(1) else choice.group(3)
    if text == "lion_jumps.clone()":
        return list(LION_JUMPS)
    assert text.startswith("vec!["), text
    return [(int(a), int(b)) for a, b in JUMP.findall(text)]


def range_capture_of(text):
    if text == "(0..8).map(|d| d as u8).collect()":
        return set(range(8))
    assert text.startswith("vec!["), text
    return {DIRS[d] for d in re.findall(r"\b(N|NE|E|SE|S|SW|W|NW) as u8", text)}


def manual_movements(text):
    body = text[text.index("fn manual_movement") :]
    body = body[: body.index("_ => None")]
    moves = {}
    for line in body.splitlines():
        m = ARM.match(line)
        if not m:
            assert "=> Some(Movement" not in line, f"an arm not read: {line.strip()}"
            continue
        fields = m.group(2)
        hook = field(fields, "hook", "area")
        for abbrev in re.findall(r'"([^"]+)"', m.group(1)):
            moves[abbrev] = {
                "slides": slides_of(field(fields, "slides", "jumps")),
                "jumps": jumps_of(field(fields, "jumps", "hook"), abbrev),
                "hook": None if hook == "None" else re.fullmatch(r"Some\(HookType::(\w+)\)", hook).group(1),
                "area": int(field(fields, "area", "range_capture")),
                "range_capture": range_capture_of(field(fields, "range_capture", "igui")),
            }
    return moves


# ------------------------------------------------------------------ the table


def codes_and_marks(mv):
    """The eight codes (table order) and the words after them, on an empty board."""
    reach = dict(mv["slides"])
    for d in mv["range_capture"]:
        reach[d] = 0  # a range capture on an empty board slides
    marks = []
    if mv["hook"]:
        # A hook runs the whole line in each of its directions, then may turn.
        for d in {"Orthogonal": [N, E, S, W], "Diagonal": [NE, SE, SW, NW]}[mv["hook"]]:
            reach[d] = 0
        marks.append("hook")
    codes = [(64 if reach[d] == 0 else reach[d]) if d in reach else 0 for d in TABLE_ORDER]
    jumps = mv["jumps"]
    if mv["area"]:
        assert mv["area"] == 2, "only the Lion's area of 2"
        jumps = [j for j in jumps if max(abs(j[0]), abs(j[1])) > 2]
        marks.append("lion")
    # [JH]'s (row, column) offsets, row decreasing forward, column increasing to the right.
    squares = sorted({(dc, -dr) for dr, dc in jumps})
    return codes, [f"({x},{y})" for x, y in squares] + marks


def koma_kinds():
    """koma's kinds in the order of variants/taikyoku.var: (abbreviation, name, moves as)."""
    kinds = []
    for line in open(VAR, encoding="utf-8"):
        m = re.match(r'piece (\S+)\s+"([^"]+)".*?:\s*(.*)$', line)
        if m:
            same = re.fullmatch(r"as (\S+)", m.group(3).strip())
            kinds.append((m.group(1), m.group(2), same.group(1) if same else None))
    return kinds


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    text, commit = source(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "HEAD")
    defs = piece_defs(text)
    manual = manual_movements(text)
    by_name = {}
    for abbrev, name, betza, _ in defs:
        if abbrev in manual:
            mv = manual[abbrev]
        elif betza is not None and "(" not in betza:
            mv = parse_betza(betza)
        else:
            sys.exit(f"{abbrev} ({name}): no move in [JH]'s source")
        by_name[name] = (abbrev, codes_and_marks(mv))
    unused = set(manual) - {a for a, _, _, _ in defs}
    assert not unused, f"hand-written moves of no kind: {unused}"

    lines = []
    for abbrev, name, same in koma_kinds():
        jh_name = NAME_ALIASES.get(name, name)
        if jh_name not in by_name:
            sys.exit(f"koma's {abbrev} ({name}) has no kind of that name in [JH]")
        jh_abbrev, (codes, rest) = by_name[jh_name]
        lines.append(" ".join([abbrev, *map(str, codes), *rest]) + f"  # [JH] {jh_abbrev}")
    names = {name for _, name, _ in koma_kinds()}
    missing = sorted(set(by_name) - {NAME_ALIASES.get(n, n) for n in names})
    assert not missing, f"[JH] kinds koma does not have: {missing}"

    header = [
        "# Taikyoku Shogi as jh85/taikyokushogi plays it: src/pieces.rs at commit "
        f"{commit[:7]} ({commit}),",
        "# written by scripts/jh85_table.py from that file alone (its Betza strings read as its own",
        "# parser reads them, its hand-written moves); koma's kinds matched to [JH]'s by name (the",
        "# comment names [JH]'s abbreviation). Format: tests/destinations/README.md.",
    ]
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(header + lines) + "\n")
    print(f"wrote {os.path.relpath(OUT)}: {len(lines)} kinds")


if __name__ == "__main__":
    main()
