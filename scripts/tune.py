#!/usr/bin/env python3
"""Fits the evaluation's weights to the results of games, and writes a weights file.

  scripts/tune.py --start src/engine/weights.ron --out src/engine/weights.ron \\
      --fit "Shogi=shogi.tsv" --fit "Chu Shogi=chu.tsv" --default \\
      --games "Shogi=..." --games "Chu Shogi=..." --commit $(git rev-parse --short HEAD)

Each TERMS file is what `koma eval-terms` prints: per quiet position of a game, the game's
result for Black (1, 0.5, 0) and what each weight multiplies in the evaluation (from Black's
point of view), so that eval = material + sum(weight * term). The model is Texel's: the
expected result is sigmoid(K * eval) = 1 / (1 + 10^(-K * eval / 400)), the loss the mean
squared difference from the results. First K is fitted with the starting weights (golden
section), then the weights with K fixed, by coordinate search in whole units (each weight
moved by 32, 16, ..., 1 while the loss falls). A weight stays at 0 or above: each term's
sign is the evaluation's own (mobility counts for a side, attacks next to its royals and its
royals' advance against it), the fit says how much. K is not fitted again after the weights:
alternating the two let K fall and the positional weights grow without end (the declared
values stay, so the weights alone set the scale) while the held-out loss rose. Each fifth of
the games in turn is held out: the weights fitted on the other four fifths, its loss
compared before and after (cross-validation). The fit is a ridge regression: it pays for
moving a weight from where it started (`ridge` times the squared change of the evaluation
the weight makes, in pawns, over the positions' spread of its term); the ridge is the one of
0, 0.0001, 0.001, 0.01 whose fit does best on held-out games, and when none does better there
than the starting weights, the set is kept as it was (and said so). `--ridge R` (repeated)
gives the ridges to choose from instead.

`--fit NAME=FILES` fits the set of the variant declared as NAME (`variant "Chu Shogi"`;
FILES separated by commas) from that set's weights in `--start` (or its default);
`--default` also fits the default set on all the positions together, each variant with its
own K. Sets not fitted are kept as they are. Standard library only.
"""
import argparse
import contextlib
import datetime
import io
import math
import re
import sys

WEIGHTS = ["mobility", "royal_attack", "zone_percent", "protected_lion_percent",
           "hand_percent", "advance", "centre", "royal_advance", "king_danger"]
# The weights that shape king danger's sum (squared before `king_danger` weighs it): the
# evaluation is not linear in them, so they are not fitted, only kept.
SHAPE = ["danger_attacker", "danger_hand", "danger_weak", "danger_check"]


# --- A reader for the RON of a weights file (structs, maps, strings, numbers, Option) ---

def parse_ron(text):
    tokens = re.findall(r'//[^\n]*|"(?:\\.|[^"\\])*"|[-+0-9.eE]+|[A-Za-z_][A-Za-z_0-9]*|[(){}\[\]:,]', text)
    tokens = [t for t in tokens if not t.startswith("//")]
    pos = 0

    def value():
        nonlocal pos
        t = tokens[pos]
        pos += 1
        if t == "(" or t == "{":
            close = ")" if t == "(" else "}"
            out = {}
            while tokens[pos] != close:
                key = tokens[pos]
                pos += 1
                key = key[1:-1] if key.startswith('"') else key
                assert tokens[pos] == ":", f"expected ':' after {key}"
                pos += 1
                out[key] = value()
                if tokens[pos] == ",":
                    pos += 1
            pos += 1
            return out
        if t.startswith('"'):
            return t[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        if t == "None":
            return None
        if t == "Some":
            assert tokens[pos] == "("
            pos += 1
            v = value()
            assert tokens[pos] == ")"
            pos += 1
            return v
        return float(t) if re.search(r"[.eE]", t) else int(t)

    return value()


def ron_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ron_option(x):
    return "None" if x is None else f"Some({x})"


def write_set(name, s, indent):
    pad = " " * indent
    w = s["weights"]
    src = s["source"]
    lines = [f"{pad}{name}: (", f"{pad}    weights: ("]
    lines += [f"{pad}        {k}: {w.get(k, 0)}," for k in WEIGHTS + SHAPE]
    for key in ["values", "hand_values"]:
        if w.get(key):
            lines += [f"{pad}        {key}: {{"]
            lines += [f"{pad}            {ron_string(kind)}: {v}," for kind, v in w[key].items()]
            lines += [f"{pad}        }},"]
    lines += [f"{pad}    ),", f"{pad}    source: ("]
    lines += [f"{pad}        games: {ron_string(src['games'])},",
              f"{pad}        positions: {src['positions']},",
              f"{pad}        k: {ron_option(src.get('k'))},",
              f"{pad}        ridge: {ron_option(src.get('ridge'))},",
              f"{pad}        loss_before: {ron_option(src.get('loss_before'))},",
              f"{pad}        loss_after: {ron_option(src.get('loss_after'))},",
              f"{pad}        held_out_before: {ron_option(src.get('held_out_before'))},",
              f"{pad}        held_out_after: {ron_option(src.get('held_out_after'))},",
              f"{pad}        date: {ron_string(src['date'])},",
              f"{pad}        commit: {ron_string(src['commit'])},",
              f"{pad}    ),", f"{pad}),"]
    return lines


HEADER = """// The evaluation's weights (src/engine/weights.rs says what each one weighs), in the units of
// the declared piece values (a Pawn is 100 in every shipped variant). `default` serves every
// variant without a set of its own in `variants`, keyed by the name its file declares. Each
// set says where it came from: the games, the quiet positions fitted, the fit's K (expected
// result 1 / (1 + 10^(-K * eval / 400))) and ridge, its loss (mean squared error against the
// results) with the weights it started from and after, the same on held-out games (5-fold
// cross-validation), the date and koma's commit.
// Written by scripts/tune.py; docs/strength.md, "Tuning", says how to re-tune.
"""


def write_ron(data):
    lines = ["("] + write_set("default", data["default"], 4) + ["    variants: {"]
    for name, s in data.get("variants", {}).items():
        lines += write_set(ron_string(name), s, 8)
    lines += ["    },", ")"]
    return HEADER + "\n".join(lines) + "\n"


# --- The data ---

class Data:
    """The positions of one variant: results, material, and the weighted terms by name. With
    `values`, the values of the kinds on the board and in hand are fitted too: the material
    is counted from the kind columns (`board:NAME`, `hand:NAME`, started from the values the
    `# values` line says the evaluation used), and `hand_percent` gives way to a value in
    hand per kind. With `labels` (scripts/tune_oracle.py's, one file per table), each
    position's result is the oracle's expected result instead of the game's, and the
    positions it did not score are left out."""

    def __init__(self, paths, values=False, labels=None, oracle_k=None):
        self.result, self.material, self.game, self.start = [], [], [], {}
        self.names = list(WEIGHTS)
        self.terms = {k: [] for k in WEIGHTS}
        self.oracle, self.oracle_k = [], oracle_k
        for i, path in enumerate(paths):
            scores = read_labels(labels[i]) if labels else None
            with open(path) as f:
                header = f.readline().rstrip("\n").split("\t")
                if header[0] == "# values":
                    self.start.update((name, int(v)) for name, _, v in (c.rpartition("=") for c in header[1:]))
                    header = f.readline().rstrip("\n").split("\t")
                col = {name: i for i, name in enumerate(header)}
                missing = [k for k in ["game", "ply", "result", "material"] + WEIGHTS if k not in col]
                if missing:
                    sys.exit(f"{path}: not a `koma eval-terms` table (no column {', '.join(missing)})")
                if values:
                    kinds = [c for c in header if c.startswith(("board:", "hand:"))]
                    if not kinds or any(k not in self.start for k in kinds):
                        sys.exit(f"{path}: no kind columns with their values (`# values`): written by an older koma")
                    for k in kinds:
                        self.terms.setdefault(k, [0.0] * len(self.result))
                for n, line in enumerate(f, 2):
                    cells = line.rstrip("\n").split("\t")
                    key = (cells[col["game"]], cells[col["ply"]])
                    if scores is not None and key not in scores:
                        continue
                    try:
                        self.result.append(float(cells[col["result"]]))
                        self.material.append(0.0 if values else float(cells[col["material"]]))
                        for k in self.terms:
                            self.terms[k].append(float(cells[col[k]]) if k in col else 0.0)
                    except (ValueError, IndexError):
                        sys.exit(f"{path}:{n}: not a row of numbers")
                    if scores is not None:
                        self.oracle.append(scores[key])
                    self.game.append((path, cells[col["game"]]))
        if values:
            self.names = [k for k in WEIGHTS if k != "hand_percent"] + [k for k in self.terms if ":" in k]
            self.terms["hand_percent"] = [0.0] * len(self.result)
        if labels and len(self.result):
            if self.oracle_k is None:
                self.oracle_k = fit_k(self.oracle, self.result)
            self.result = [sigmoid(self.oracle_k, e) for e in self.oracle]

    def __len__(self):
        return len(self.result)

    def split(self, index):
        """The rows of `index`, as a new Data."""
        part = Data([])
        part.names, part.start, part.oracle_k = self.names, self.start, self.oracle_k
        part.result = [self.result[i] for i in index]
        part.material = [self.material[i] for i in index]
        part.terms = {k: [v[i] for i in index] for k, v in self.terms.items()}
        part.game = [self.game[i] for i in index]
        return part

    def evals(self, w):
        return [m + sum(w[k] * self.terms[k][i] for k in self.names) for i, m in enumerate(self.material)]


def read_labels(path):
    """scripts/tune_oracle.py's labels: {(game, ply): the oracle's score for Black}."""
    scores = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith(("#", "game")):
                continue
            try:
                game, ply, score = line.split()
                scores[(game, ply)] = int(score)
            except ValueError:
                sys.exit(f"{path}:{n}: not a label (game, ply, score)")
    return scores


def folds(data, n=5):
    """The data split by game into `n` parts: [(all but part i, part i)]."""
    games = sorted(set(data.game))
    out = []
    for i in range(n):
        test = set(games[i::n])
        out.append((data.split([j for j, g in enumerate(data.game) if g not in test]),
                    data.split([j for j, g in enumerate(data.game) if g in test])))
    return out


def sigmoid(k, e):
    x = max(-50.0, min(50.0, -k * e / 400))
    return 1 / (1 + 10 ** x)


def loss_of(evals, results, k):
    return sum((r - sigmoid(k, e)) ** 2 for e, r in zip(evals, results)) / max(1, len(results))


def fit_k(evals, results):
    """The K with the least loss (golden-section search)."""
    lo, hi = 0.01, 5.0
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss_of(evals, results, a), loss_of(evals, results, b)
    for _ in range(40):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss_of(evals, results, a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss_of(evals, results, b)
    return (lo + hi) / 2


class Fit:
    """The loss over several variants' positions, each with its own K, weights shared, plus
    the ridge penalty: `ridge` times the sum over the weights of (the weight's change from
    `start` times its term's spread over the positions, in pawns) squared."""

    def __init__(self, datasets, ks, w, start=None, ridge=0.0):
        self.datasets, self.ks = datasets, ks
        self.evals = [d.evals(w) for d in datasets]
        self.n = sum(len(d) for d in datasets)
        self.w, self.start, self.ridge = dict(w), start or dict(w), ridge
        self.names = datasets[0].names
        self.spread = {k: spread([v for d in datasets for v in d.terms[k]]) for k in self.names}

    def penalty(self, w):
        return self.ridge * sum(((w[k] - self.start[k]) * self.spread[k] / 100) ** 2 for k in self.names)

    def data_loss(self, shift=None):
        """The mean squared error, with weight `shift[0]` moved by `shift[1]` if given."""
        total = 0.0
        for d, k, evals in zip(self.datasets, self.ks, self.evals):
            if shift:
                t = d.terms[shift[0]]
                total += sum((r - sigmoid(k, e + shift[1] * ti)) ** 2 for e, r, ti in zip(evals, d.result, t))
            else:
                total += sum((r - sigmoid(k, e)) ** 2 for e, r in zip(evals, d.result))
        return total / max(1, self.n)

    def loss(self, shift=None):
        w = dict(self.w)
        if shift:
            w[shift[0]] += shift[1]
        return self.data_loss(shift) + self.penalty(w)

    def move(self, name, step):
        self.w[name] += step
        for d, evals in zip(self.datasets, self.evals):
            t = d.terms[name]
            for i in range(len(evals)):
                evals[i] += step * t[i]


def spread(values):
    """The standard deviation."""
    mean = sum(values) / max(1, len(values))
    return math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values)))


def coordinate_search(fit, w, active):
    """Moves each weight by 32, 16, ..., 1 units (a kind's value from 128) while the loss
    falls, never below 0."""
    best = fit.loss()
    for step in [128, 64, 32, 16, 8, 4, 2, 1]:
        improved = True
        while improved:
            improved = False
            for name in active:
                if step > 32 and ":" not in name:
                    continue
                for s in (step, -step):
                    if w[name] + s < 0:
                        continue
                    trial = fit.loss((name, s))
                    if trial < best - 1e-9:
                        best = trial
                        fit.move(name, s)
                        w[name] += s
                        improved = True
                        print(f"  step {step:2}: {name} = {w[name]}  loss {best:.6f}", file=sys.stderr)
                        break
    return best


# With --values: the kind whose value on the board stays (`board:NAME`), setting the scale, and
# the rounds of fitting the weights then K again (K and the values are otherwise degenerate).
ANCHOR = None
ROUNDS = 1


def fit_weights(datasets, start, ridge, log=True):
    """K per dataset for the starting weights, then the weights (and, with an anchor, K again
    and the weights again, ROUNDS times): (weights, ks, loss before, loss after), the losses
    without the penalty."""
    w = dict(start)
    ks = [fit_k(d.evals(w), d.result) for d in datasets]
    before = Fit(datasets, ks, w, start, ridge).data_loss()
    # Only the weights some position's terms move, and not the anchor.
    active = [k for k in datasets[0].names
              if k != ANCHOR and any(any(v != 0 for v in d.terms[k]) for d in datasets)]
    for round in range(ROUNDS if ANCHOR else 1):
        if round:
            ks = [fit_k(d.evals(w), d.result) for d in datasets]
        fit = Fit(datasets, ks, w, start, ridge)
        with contextlib.redirect_stderr(sys.stderr if log else io.StringIO()):
            coordinate_search(fit, w, active)
    return w, ks, before, fit.data_loss()


RIDGES = [0.0, 0.0001, 0.001, 0.01]


def fit_set(label, datasets, start, ridges=RIDGES):
    """Chooses the ridge by 5-fold cross-validation (by game), then fits the set on all the
    positions with it: returns (weights, ks, loss before, loss after, positions, held-out
    losses before and after), or the starting weights when no ridge fits better held-out
    positions than they do."""
    n = sum(len(d) for d in datasets)
    print(f"{label}: {n} positions of {sum(len(set(d.game)) for d in datasets)} games", file=sys.stderr)
    split = [folds(d) for d in datasets]
    held = {}
    for ridge in ridges:
        before = after = 0.0
        for i in range(5):
            fitted, tests = [s[i][0] for s in split], [s[i][1] for s in split]
            wi, ki, _, _ = fit_weights(fitted, start, ridge, log=False)
            m = sum(len(t) for t in tests)
            before += Fit(tests, ki, start).data_loss() * m / n
            after += Fit(tests, ki, wi).data_loss() * m / n
        held[ridge] = (before, after)
        print(f"{label}: ridge {ridge}: held-out loss (5-fold, by game) {before:.6f} -> {after:.6f}")
    ridge = min(ridges, key=lambda r: held[r][1])
    if held[ridge][1] >= held[ridge][0]:
        print(f"{label}: no ridge fits held-out positions better than the starting weights: kept")
        return None
    w, ks, before, after = fit_weights(datasets, start, ridge)
    print(f"{label}: ridge {ridge}; K {', '.join(f'{k:.4f}' for k in ks)}; loss {before:.6f} -> {after:.6f}")
    print(f"{label}: weights " + ", ".join(f"{k} {start[k]} -> {w[k]}" for k in datasets[0].names))
    return w, ks, before, after, n, held[ridge], ridge


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--start", required=True, help="the weights file to start from")
    ap.add_argument("--out", required=True, help="the weights file to write")
    ap.add_argument("--fit", action="append", default=[], metavar="NAME=FILES",
                    help="fit the set of variant NAME on these `koma eval-terms` tables")
    ap.add_argument("--default", action="store_true", help="also fit the default set on all the tables")
    ap.add_argument("--games", action="append", default=[], metavar="NAME=TEXT",
                    help="what the games of NAME were, for the set's provenance")
    ap.add_argument("--commit", required=True, help="koma's commit that wrote the tables")
    ap.add_argument("--oracle", action="append", default=[], metavar="NAME=LABELS",
                    help="fit NAME to scripts/tune_oracle.py's scores (one labels file per table of --fit) "
                         "instead of the games' results")
    ap.add_argument("--values", action="store_true",
                    help="also fit each kind's value on the board and in hand (the sets of --fit; the tables "
                         "written by `koma eval-terms --weights START`)")
    ap.add_argument("--anchor", metavar="KIND",
                    help="with --values: keep this kind's value on the board, and fit K again after the weights")
    ap.add_argument("--rounds", type=int, default=3, help="with --anchor: rounds of K then weights (default 3)")
    ap.add_argument("--ridge", type=float, action="append",
                    help="the ridges to choose from by cross-validation (default: " + ", ".join(map(str, RIDGES)) + ")")
    args = ap.parse_args()
    data = parse_ron(open(args.start).read())
    data.setdefault("variants", {})
    for s in [data["default"], *data["variants"].values()]:
        s["weights"] = {**{k: 0 for k in WEIGHTS + SHAPE}, **s["weights"]}  # weights a file leaves out are 0
    games = dict(g.split("=", 1) for g in args.games)
    today = datetime.date.today().isoformat()
    global ANCHOR, ROUNDS
    if args.anchor:
        if not args.values:
            sys.exit("--anchor keeps a kind's value while --values fits the others")
        ANCHOR, ROUNDS = "board:" + args.anchor, args.rounds
    if args.values and args.default:
        sys.exit("--values fits the sets of variants; the default set serves every variant and values no kind")
    oracles = dict(o.split("=", 1) for o in args.oracle)
    fits = []
    for spec in args.fit:
        name, _, files = spec.partition("=")
        if not files:
            sys.exit(f"--fit {spec}: expected NAME=FILES")
        labels = oracles[name].split(",") if name in oracles else None
        if labels and len(labels) != len(files.split(",")):
            sys.exit(f"--oracle {name}: one labels file per table of --fit")
        fits.append((name, Data(files.split(","), values=args.values, labels=labels)))
        if labels:
            print(f"{name}: the oracle's K (fitted to the games' results) {fits[-1][1].oracle_k:.4f}")

    def provenance(text, ks, fitted):
        _, _, before, after, n, (held_before, held_after), ridge = fitted
        return {"games": text, "positions": n, "k": None if len(ks) > 1 else round(ks[0], 4),
                "ridge": ridge, "loss_before": round(before, 6), "loss_after": round(after, 6),
                "held_out_before": round(held_before, 6), "held_out_after": round(held_after, 6),
                "date": today, "commit": args.commit}

    for name, d in fits:
        start = {**data["variants"].get(name, data["default"])["weights"], **d.start}
        fitted = fit_set(name, [d], start, args.ridge or RIDGES)
        if fitted:
            w, ks = fitted[0], fitted[1]
            if args.values:
                w["values"] = {k.split(":", 1)[1]: v for k, v in w.items() if k.startswith("board:")}
                w["hand_values"] = {k.split(":", 1)[1]: v for k, v in w.items() if k.startswith("hand:")}
            w = {k: v for k, v in w.items() if ":" not in k}
            text = games.get(name, "")
            if d.oracle_k is not None:
                text += f" (results: the oracle's scores as 1 / (1 + 10^(-{d.oracle_k:.4f} * score / 400)))"
            data["variants"][name] = {"weights": w, "source": provenance(text, ks, fitted)}
    if args.default and fits:
        start = data["default"]["weights"]
        fitted = fit_set("default", [d for _, d in fits], start, args.ridge or RIDGES)
        if fitted:
            w, ks = fitted[0], fitted[1]
            text = "all of: " + "; ".join(f"{name}: {games.get(name, '')}" for name, _ in fits)
            text += " (K per variant: " + ", ".join(f"{name} {k:.4f}" for (name, _), k in zip(fits, ks)) + ")"
            data["default"] = {"weights": w, "source": provenance(text, ks, fitted)}
    with open(args.out, "w") as f:
        f.write(write_ron(data))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
