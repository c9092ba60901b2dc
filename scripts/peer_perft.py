#!/usr/bin/env python3
"""Times koma's perft against its peers', Fairy-Stockfish and mcr, and writes the table into
docs/performance.md (between the `peer-perft` markers; the table it replaces is kept below them).

A benchmark, never a test. Each peer is built from its public source outside this repository:

    git clone https://github.com/fairy-stockfish/Fairy-Stockfish fsf
    (cd fsf/src && make -j2 build ARCH=x86-64-bmi2 largeboards=yes)    # the fastest build here
    git clone https://github.com/ywzvennu/mcr
    (cd mcr/cli && cargo build --release)                              # target/release/mcr
    cargo build --release                                              # koma, in this checkout

    scripts/peer_perft.py --koma target/release/koma --fsf fsf/src/stockfish \\
        --mcr mcr/target/release/mcr --runs 3 --write docs/performance.md

Every program counts the start position of each game the others share with koma, at the
depth the table below gives, in a process of its own: one run of each program, then the next
round, alternating (so that a change in the machine's load falls on all of them alike); the
figure is the median of the runs' CPU time (user + system, from the kernel's accounting of the
child process, so other programs running at the same time slow it less than the wall clock),
start-up and the variant's compilation included. The node counts must agree: where a peer
counts differently the row says so, and gives a ratio only where the table below names the
rule the peers read otherwise (Fairy-Stockfish and mcr list a mating Pawn drop as legal). All
three count the last ply in bulk.
"""

import argparse
import datetime
import os
import re
import resource
import statistics
import subprocess
import sys
import time

# koma's name, the game, Fairy-Stockfish's UCI_Variant, mcr's `fairy` name (None: that peer
# lacks it), the depth (the deepest that runs in a few seconds for every program that plays the
# game), koma's options for the peers' reading of a contested rule, and the rule a peer's count
# reads otherwise. Left out: Tenjiku and Goro Goro for mcr, whose games differ from the others'
# (Tenjiku 424,582 positions at depth 3 against koma's and SV's 383,418; Goro Goro 1,438 at
# depth 2 against koma's and Fairy-Stockfish's 250).
GAMES = [
    ("shogi", "Shogi", "shogi", "shogi", 5),
    ("yari", "Yari", "yarishogi", "yarishogi", 5),
    ("tori", "Tori", "torishogi", "tori", 6),
    ("minishogi", "Minishogi", "minishogi", "minishogi", 6),
    ("judkins", "Judkin's", "judkins", "judkins", 6, [], "a mating Pawn drop, which the peers list"),
    ("kyoto", "Kyoto", "kyotoshogi", "kyotoshogi", 6),
    ("micro", "Micro", "micro", "micro", 7),
    ("sho", "Sho", "shoshogi", "shoshogi", 5),
    ("checkshogi", "Check Shogi", "checkshogi", "checkshogi", 5),
    ("euroshogi", "EuroShogi", "euroshogi", "euroshogi", 5),
    ("gorogoro", "Goro Goro", "gorogoro", None, 6),
    ("okisaki", "Okisaki", "okisakishogi", "okisakishogi", 4),
    ("dobutsu", "Dobutsu", "dobutsu", "dobutsu", 8, ["try=unattacked"]),
    ("wa", "Wa", None, "washogi", 4),
    ("chu", "Chu", None, "chu", 4),
    ("dai", "Dai", None, "dai", 4),
]

MARK_BEGIN = "<!-- peer-perft:begin -->"
MARK_END = "<!-- peer-perft:end -->"


def timed(argv, stdin_text=None):
    """Runs argv to its end; returns (stdout, CPU seconds of the child, wall seconds). The
    children run one at a time, so the growth of RUSAGE_CHILDREN is this child's own use."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(argv, input=stdin_text, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc.stdout, cpu, wall


def last_number(text, pattern):
    found = re.findall(pattern, text)
    if not found:
        raise RuntimeError(f"no count in the output: {text.strip()[-300:]}")
    return int(found[-1].replace(",", ""))


def koma(path, variant, depth, options=()):
    argv = [path, "perft", variant, str(depth)]
    for option in options:
        argv += ["--option", option]
    out, cpu, _ = timed(argv)
    return last_number(out, r"(\d[\d,]*)\s*$"), cpu


def fsf(path, variant, depth):
    script = f"uci\nsetoption name UCI_Variant value {variant}\nposition startpos\ngo perft {depth}\nquit\n"
    out, cpu, _ = timed([path], script)
    return last_number(out, r"Nodes searched: (\d+)"), cpu


def mcr(path, variant, depth):
    out, cpu, _ = timed([path, "fairy", "perft", variant, "startpos", str(depth)])
    return last_number(out, r"(\d+) nodes"), cpu


def machine():
    model = "unknown processor"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0]
    return f"{model}, {os.cpu_count()} cores, load average {load:.1f} at the start"


def git_head(path):
    try:
        return subprocess.run(
            ["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def rate(nodes, cpu):
    per = nodes / cpu if cpu > 0 else float("inf")
    return f"{per / 1e6:.1f} M" if per >= 1e6 else f"{per / 1e3:.0f} k"


def measure(args):
    programs = [("koma", koma, args.koma)]
    if args.fsf:
        programs.append(("fsf", fsf, args.fsf))
    if args.mcr:
        programs.append(("mcr", mcr, args.mcr))
    rows = []
    for name, label, fsf_name, mcr_name, depth, *options in GAMES:
        if args.only and name not in args.only:
            continue
        koma_options = options[0] if options else []
        differs = options[1] if len(options) > 1 else None
        peers = {"koma": name, "fsf": fsf_name, "mcr": mcr_name}
        times = {p: [] for p, _, _ in programs if peers[p]}
        counts = {}
        for _ in range(args.runs):
            for prog, run, path in programs:
                if not peers[prog]:
                    continue
                extra = (koma_options,) if prog == "koma" else ()
                nodes, cpu = run(path, peers[prog], depth, *extra)
                counts.setdefault(prog, nodes)
                times[prog].append(cpu)
        med = {p: statistics.median(t) for p, t in times.items()}
        rows.append((label, depth, counts, med, differs))
        print(label, depth, counts, {p: round(t, 3) for p, t in med.items()}, file=sys.stderr)
    return rows


def table(rows, args):
    head = "| game | depth | koma nodes | koma CPU s | FSF CPU s | koma/FSF speed | mcr CPU s | koma/mcr speed |"
    lines = [head, "|---|---|---|---|---|---|---|---|"]
    for label, depth, counts, med, differs in rows:
        k = counts["koma"]
        cells = [label, str(depth), f"{k:,}", f"{med['koma']:.2f} ({rate(k, med['koma'])}/s)"]
        for peer in ("fsf", "mcr"):
            if peer not in med:
                cells += ["—", "—"]
            elif counts[peer] != k and differs:
                ratio = med[peer] / med["koma"]
                cells += [f"{med[peer]:.2f}", f"{ratio:.2f} (counts {counts[peer]:,}: {differs})"]
            elif counts[peer] != k:
                cells += [f"{med[peer]:.2f}", f"counts {counts[peer]:,}"]
            else:
                cells += [f"{med[peer]:.2f}", f"{med[peer] / med['koma']:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    today = datetime.date.today().isoformat()
    intro = (
        f"`scripts/peer_perft.py`, {today}: koma {args.koma_version or git_head('.')}, Fairy-Stockfish "
        f"{args.fsf_version or git_head(os.path.dirname(os.path.dirname(args.fsf or '.')))}, mcr "
        f"{args.mcr_version or 'unknown'}; {machine()}. The median of {args.runs} runs of each "
        "program, alternating, by CPU time (start-up included). A speed above 1 means koma is "
        "faster."
    )
    return "\n".join([intro, "", *lines])


def write(path, text):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    if MARK_BEGIN not in doc or MARK_END not in doc:
        raise SystemExit(f"{path} has no {MARK_BEGIN} … {MARK_END} section to replace")
    before, rest = doc.split(MARK_BEGIN, 1)
    earlier, after = rest.split(MARK_END, 1)
    # Benchmark records are never rewritten (CONTRIBUTING.md): the table this one replaces
    # goes below it, newest first.
    earlier = earlier.strip()
    kept = f"\n\nThe table before it:\n\n{earlier}" if earlier else ""
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{before}{MARK_BEGIN}\n{text}\n{MARK_END}{kept}{after}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--koma", required=True, help="koma's release binary")
    parser.add_argument("--koma-version", help="the commit koma's binary was built from (default: HEAD)")
    parser.add_argument("--fsf", help="Fairy-Stockfish's binary (built largeboards=yes)")
    parser.add_argument("--fsf-version", help="its commit and build, for the table")
    parser.add_argument("--mcr", help="mcr's CLI binary")
    parser.add_argument("--mcr-version", help="its commit, for the table")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="koma variant names to time (default: all)")
    parser.add_argument("--write", help="the Markdown file whose peer-perft section to replace (the table it held is kept below it)")
    args = parser.parse_args()
    text = table(measure(args), args)
    print(text)
    if args.write:
        write(args.write, text)


if __name__ == "__main__":
    main()
