//! Test support: the checks that the fuzz targets in `fuzz/` run on every input, and that
//! `tests/fuzz_corpus.rs` runs on the committed corpora, so that a regression shows up in
//! `cargo test` without a fuzzer; `tests/properties.rs` runs [`check_position`] too
//! ([`Depth::Exhaustive`]). The module exists only with the cargo feature `test-support`, which
//! the tests and `fuzz/` turn on: the shipped library has none of it.
//!
//! Each check takes arbitrary bytes, feeds them to one of koma's readers, and panics when a
//! property fails; an input that is merely wrong is answered with an error and passes. What
//! each reader must do:
//!
//! - [`variant_text`]: `.var` text through parse and compile. Every diagnostic's spans lie
//!   in its file on character boundaries, the report renders, the rules exist exactly when
//!   there is no error; a variant that compiles starts (its start and each handicap are
//!   positions), shows, and passes [`check_position`] on its start.
//! - [`sfen`]: a position string against a variant. A position that reads writes back to
//!   the same string and hash, and passes [`check_position`] (with sampled legality checks).
//! - [`move_text`]: move notation, TSA and USI, against a position reached by a random game.
//!   A move that reads is legal, and its TSA and USI forms read back to it.
//! - [`record`]: a game record: parse, then replay the way `koma play --load` does. What
//!   replays writes back as a record that reads and replays to the same game.
//! - [`format_text`]: `.var` text through `koma fmt`'s formatter. A text that formats
//!   parses as `koma check` reads it, and its layout parses too, into as many statements
//!   (the formatter checks their words itself), and formats to itself.
//! - [`positions`]: structure-aware: the bytes build a position (a random game from the
//!   start or a handicap, or pieces placed on the board and in hand) and [`check_position`]
//!   checks it in full.
//!
//! Everything here is deterministic: the same bytes give the same run.

use crate::compile::{self, Choice, Loader, MemoryLoader, Source};
pub use crate::game::random::SplitMix64;
use crate::game::{Game, LionCounting, Move, MoveTables, Position, PositionError, Setup};
use crate::notation::{
    parse_record, read_move, read_sfen, read_usi, replay, write_record, write_sfen, write_tsa, write_tsa_all, write_usi,
};
use crate::rules::{PieceId, Side, Square};
use crate::variant::Variant;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

/// A variant built for fuzzing, not shipped: every kind of movement on a 9 × 9 board with
/// drops, two royals, and the drop rules.
pub const MENAGERIE: &str = r#"variant "Menagerie"
board 9 x 9
piece K  "King"           sfen k royal promotes +K : step all
piece +K "Emperor"        royal : capture-unprotected anywhere
piece DE "Drunk Elephant" sfen e promotes +DE : step forward diagonal sideways
piece +DE "Crown Prince"  royal : step all
piece Ln "Lion"           sfen n : lion
piece HF "Horned Falcon"  sfen h : lion forward, slide diagonal sideways back
piece HM "Hook Mover"     sfen m : hook orthogonal
piece Ca "Capricorn"      sfen c : hook diagonal
piece Ky "Kylin"          sfen o promotes +Ky : step diagonal, jump 2 orthogonal
piece +Ky "Great Lion"    : lion 3
piece YN "Yari Knight"    sfen y promotes +YN : leap (-1, 2) (1, 2), slide forward
piece +YN "Lion Dog"      : lion 3 all
piece TS "Two Stepper"    sfen t promotes +TS : range 2 all, capture-only jump 3 forward
piece +TS "Mover"         : move-only slide all, capture-only step all
piece G  "Gold"           sfen g : step orthogonal forward-diagonal
piece P  "Pawn"           sfen p promotes +P : step forward
piece +P "Tokin"          : as G
setup
  g: P P P P P P P P P
  h: . HM Ky HF Ln YN TS Ca .
  i: . . G DE K G . . .
promotion zone 3
drops
drop-limit P 1 per file
no-drop-mate P
repetition 4 draw, perpetual-check loses
"#;

/// A variant built for fuzzing, not shipped: Chu's rules (deferral, the Pawn's rule, Lion
/// trading, counter-strike, bare king) on a 7 × 7 board.
pub const COURT: &str = r#"variant "Court"
board 7 x 7
piece K  "King"           sfen k royal : step all
piece DE "Drunk Elephant" sfen e promotes +DE : step forward diagonal sideways
piece +DE "Crown Prince"  royal : step all
piece Ln "Lion"           sfen n : lion
piece Ky "Kylin"          sfen o promotes +Ky : step diagonal, jump 2 orthogonal
piece +Ky "Lion"          : as Ln
piece GB "Go-Between"     sfen i promotes +GB : step vertical
piece +GB "Elephant"      : as DE
piece B  "Bishop"         sfen b promotes +B : slide diagonal
piece +B "Horned Falcon"  : lion forward, slide diagonal sideways back
piece P  "Pawn"           sfen p promotes +P : step forward
piece +P "Tokin"          : step orthogonal forward-diagonal
setup
  e: P P P P P P P
  f: . B GB Ln Ky . .
  g: . . DE K . . .
promotion zone 2
deferral
declined-waits-for-last-rank P
lion-trading Ln +Ky bridge-excludes P GB
counter-strike Ln +Ky
bare-king
stalemate draw
repetition 3 starter-varies
"#;

/// The variants the position, move and record checks play on: every shipped variant, some
/// with their other options, and the two built here. Name and options. New ones go last.
pub const VARIANTS: &[(&str, &[&str])] = &[
    ("shogi", &[]),
    ("yari", &[]),
    ("tori", &[]),
    ("chu", &[]),
    ("dai", &[]),
    ("maka-dai-dai", &[]),
    ("menagerie", &[]),
    ("court", &[]),
    ("chu", &["royal-capture=allowed", "promotion=renmei", "pawn-rule=none"]),
    ("dai", &["royal-capture=allowed", "promotion=entry"]),
    (
        "maka-dai-dai",
        &[
            "teaching-king=2",
            "lion-dog=lion",
            "donkey=also-step",
            "self-check=legal",
            "capture-promotion=optional",
            "deva=srz",
            "emperor-protects=never",
        ],
    ),
    (
        "yari",
        &["promotion=end-in-zone", "repetition=threefold-draw", "stalemate=loss"],
    ),
    ("tori", &["repetition=fourfold"]),
    ("minishogi", &[]),
    ("judkins", &[]),
    ("sho", &[]),
    ("sho", &["bare-king=none"]),
    ("micro", &[]),
    ("kyoto", &[]),
    ("checkshogi", &[]),
    ("annan", &[]),
    ("wa", &[]),
    ("wa", &["drops=on"]),
    ("whale", &[]),
    ("whale", &["dolphin-retreat=two"]),
    ("whale", &["dolphin-file-limit=moves-and-drops"]),
    ("heian", &[]),
    ("heian", &["setup=heiansho"]),
    ("heian-dai", &[]),
    ("heian-dai", &["flying-dragon=dai"]),
    ("heian-dai", &["last-rank=wikipedia"]),
    ("gorogoro", &[]),
    ("gorogoroplus", &[]),
    ("euroshogi", &[]),
    ("okisaki", &[]),
    ("dobutsu", &[]),
    ("dobutsu", &["try=unattacked"]),
    ("antiminishogi", &[]),
    ("cannon", &[]),
];

/// The loader the checks compile with: the shipped variants and the two built here, never
/// the disk.
pub fn loader() -> MemoryLoader {
    MemoryLoader {
        files: vec![
            ("menagerie.var".into(), MENAGERIE.into()),
            ("court.var".into(), COURT.into()),
        ],
    }
}

/// The move tables of [`VARIANTS`]`[index]`, compiled once.
pub fn tables(index: usize) -> Arc<MoveTables> {
    static CACHE: OnceLock<Vec<OnceLock<Arc<MoveTables>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| VARIANTS.iter().map(|_| OnceLock::new()).collect());
    let index = index % VARIANTS.len();
    cache[index]
        .get_or_init(|| {
            let (name, options) = VARIANTS[index];
            let choices: Vec<Choice> = options.iter().map(|o| o.parse().expect("NAME=VALUE")).collect();
            compiled_tables(name, &choices).unwrap_or_else(|e| panic!("{name} {options:?} does not compile:\n{e}"))
        })
        .clone()
}

/// Compiles a variant by name with [`loader`]; the rendered report when it has errors.
fn compiled_tables(name: &str, choices: &[Choice]) -> Result<Arc<MoveTables>, String> {
    let loader = loader();
    let source = loader.load(name, None)?;
    let compiled = compile::compile(source, &loader, choices);
    match compiled.rules {
        Some(rules) => Ok(Arc::new(MoveTables::new(rules))),
        None => Err(compiled.report.render(false)),
    }
}

/// Reads the fuzzer's bytes as choices: each read takes what it needs; once the bytes run
/// out, the project's generator ([`SplitMix64`]), seeded by them, goes on (so that samples
/// still differ). Tests that want random choices without bytes start from a seed
/// ([`Bytes::from_seed`]).
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
    random: SplitMix64,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        let seed = data.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
        });
        Bytes {
            data,
            at: 0,
            random: SplitMix64::new(seed),
        }
    }

    /// Choices drawn from the generator alone, seeded by `seed`.
    pub fn from_seed(seed: u64) -> Bytes<'static> {
        Bytes {
            data: &[],
            at: 0,
            random: SplitMix64::new(seed),
        }
    }

    pub fn byte(&mut self) -> u8 {
        if let Some(&b) = self.data.get(self.at) {
            self.at += 1;
            return b;
        }
        (self.random.next_u64() >> 56) as u8
    }

    /// A number below `n` (0 when `n` is 0), from two bytes (four when `n` is above 2^16).
    pub fn below(&mut self, n: usize) -> usize {
        let mut v = usize::from(self.byte()) << 8 | usize::from(self.byte());
        if n > 1 << 16 {
            v = v << 16 | usize::from(self.byte()) << 8 | usize::from(self.byte());
        }
        if n == 0 { 0 } else { v % n }
    }

    /// True with a chance of `percent` in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// What is left, and none of it for later reads.
    pub fn rest(&mut self) -> &'a [u8] {
        let rest = &self.data[self.at..];
        self.at = self.data.len();
        rest
    }
}

/// How thoroughly [`check_position`] checks a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Every candidate move through `is_legal`: those it accepts are exactly the legal
    /// moves. Every legal move through `check_legal`, made and unmade (SFEN and hash).
    Exhaustive,
    /// Every legal move through `is_legal` and `check_legal`, a sample of other candidate
    /// moves.
    Full,
    /// Every legal move made and unmade; `is_legal` and notation on a sample.
    Sampled,
}

/// Checks one position: its hash, its SFEN round trip, and its legal moves: each is unique,
/// passes the independent check `is_legal`, makes a position whose hash is right and
/// unmakes back to this one (SFEN and hash); candidate moves `is_legal` accepts are legal,
/// and `check_legal` agrees; legal moves' TSA and USI forms read back to them; the game's
/// result is known. `choose` picks the samples.
pub fn check_position(pos: &mut Position, depth: Depth, choose: &mut Bytes) {
    let sfen = write_sfen(pos);
    let hash = pos.hash();
    assert_eq!(hash, pos.full_hash(), "incremental hash of {sfen}");
    let back = read_sfen(pos.tables(), &sfen).unwrap_or_else(|e| panic!("{sfen} does not read back: {e}"));
    assert_eq!(write_sfen(&back), sfen, "SFEN round trip");
    assert_eq!(back.hash(), hash, "hash after the SFEN round trip of {sfen}");

    check_null_move(pos, &sfen);
    let legal = pos.legal_moves();
    let unique: HashSet<Move> = legal.iter().copied().collect();
    assert_eq!(unique.len(), legal.len(), "a legal move twice in {sfen}");
    let sample = |choose: &mut Bytes, i: usize| {
        depth != Depth::Sampled || legal.len() <= 8 || choose.below(legal.len()) < 8 || i == 0
    };
    for (i, m) in legal.iter().enumerate() {
        if sample(choose, i) {
            assert!(pos.is_legal(m), "{m:?} generated but not legal by is_legal in {sfen}");
            let why = pos.check_legal(m).err();
            assert!(why.is_none(), "{m:?} generated but check_legal says {why:?} in {sfen}");
        }
        let undo = pos.make(m);
        assert_eq!(pos.hash(), pos.full_hash(), "hash after {m:?} in {sfen}");
        pos.unmake(m, &undo);
        assert_eq!(pos.hash(), hash, "hash after unmaking {m:?} in {sfen}");
        if depth == Depth::Exhaustive || i % 16 == 0 {
            assert_eq!(write_sfen(pos), sfen, "position after unmaking {m:?}");
        }
    }

    // Candidates: every piece to every square, Lion paths, every drop (a superset of the
    // legal moves); all of them or a sample, each agreed on by is_legal, check_legal and
    // the list.
    let candidates = pos.candidate_moves();
    if depth == Depth::Exhaustive {
        check_every_candidate(pos, &candidates, &legal, &sfen);
    }
    let samples = if depth == Depth::Sampled { 6 } else { 24 };
    for _ in 0..samples.min(candidates.len()) {
        let c = candidates[choose.below(candidates.len())];
        let listed = unique.contains(&c);
        assert_eq!(
            pos.is_legal(&c),
            listed,
            "is_legal({c:?}) against the legal moves of {sfen}"
        );
        assert_eq!(pos.check_legal(&c).is_ok(), listed, "check_legal({c:?}) in {sfen}");
    }

    // Notation: the TSA and USI forms of a few legal moves read back to the moves (reading
    // one generates the legal moves again: a sample keeps this linear).
    let tsa = write_tsa_all(pos, &legal);
    let notation_samples = if depth == Depth::Sampled { 2 } else { 4 };
    for _ in 0..notation_samples.min(legal.len()) {
        let i = choose.below(legal.len());
        let (m, text) = (&legal[i], &tsa[i]);
        let read = read_move(pos, text).unwrap_or_else(|e| panic!("{text} ({m:?}) does not read back in {sfen}: {e}"));
        assert_eq!(read, *m, "{text} reads back as another move in {sfen}");
        let usi = write_usi(pos, m);
        let read = read_usi(pos, &usi).unwrap_or_else(|e| panic!("{usi} ({m:?}) does not read back in {sfen}: {e}"));
        assert_eq!(read, *m, "{usi} reads back as another move in {sfen}");
    }

    let game = Game::new(pos.clone());
    let result = game.outcome();
    if legal.is_empty() {
        assert!(result.is_some(), "no legal move but the game goes on in {sfen}");
    }
}

/// Every candidate move through `is_legal`: the moves it accepts are exactly the `legal` ones.
/// The null move changes the side to move and nothing on the board (the hands stay too:
/// the SFEN after taking it back is the same), keeps the hash right, and takes back to the
/// same position and hash.
fn check_null_move(pos: &mut Position, sfen: &str) {
    let hash = pos.hash();
    let side = pos.side_to_move();
    let undo = pos.make_null();
    let after = write_sfen(pos);
    assert_eq!(
        after.split(' ').next(),
        sfen.split(' ').next(),
        "the board after a null move in {sfen}"
    );
    assert_eq!(
        pos.side_to_move(),
        side.opponent(),
        "the side to move after a null move in {sfen}"
    );
    assert_eq!(pos.hash(), pos.full_hash(), "hash after a null move in {sfen}");
    pos.unmake_null(&undo);
    assert_eq!(write_sfen(pos), sfen, "position after unmaking a null move");
    assert_eq!(pos.hash(), hash, "hash after unmaking a null move in {sfen}");
}

fn check_every_candidate(pos: &mut Position, candidates: &[Move], legal: &[Move], sfen: &str) {
    let accepted: HashSet<Move> = candidates.iter().copied().filter(|c| pos.is_legal(c)).collect();
    let missing: Vec<&Move> = legal.iter().filter(|m| !accepted.contains(m)).collect();
    assert!(
        missing.is_empty(),
        "generated but not among the candidates is_legal accepts: {missing:?} in {sfen}"
    );
    let listed: HashSet<&Move> = legal.iter().collect();
    let extra: Vec<&Move> = accepted.iter().filter(|c| !listed.contains(c)).collect();
    assert!(
        extra.is_empty(),
        "legal by is_legal but not generated: {extra:?} in {sfen}"
    );
}

/// Plays up to `plies` moves from `pos`, each picked by `choose`, stopping when the side
/// to move has no legal move or a side has lost its last royal piece.
pub fn random_position(mut pos: Position, plies: usize, choose: &mut Bytes) -> Position {
    let had_royals = [Side::Black, Side::White].map(|s| !pos.royal_squares(s).is_empty());
    let mut moves = Vec::new();
    for _ in 0..plies {
        if [Side::Black, Side::White]
            .iter()
            .any(|&s| had_royals[s.index()] && pos.royal_squares(s).is_empty())
        {
            break;
        }
        pos.legal_moves_into(&mut moves, LionCounting::Distinct);
        if moves.is_empty() {
            break;
        }
        let m = moves[choose.below(moves.len())];
        pos.make(&m);
    }
    pos
}

/// As [`random_position`], as a game (each move checked by [`Game::play`]).
pub fn random_game(pos: Position, plies: usize, choose: &mut Bytes) -> Game {
    let had_royals = [Side::Black, Side::White].map(|s| !pos.royal_squares(s).is_empty());
    let mut game = Game::new(pos);
    for _ in 0..plies {
        let pos = game.position();
        if [Side::Black, Side::White]
            .iter()
            .any(|&s| had_royals[s.index()] && pos.royal_squares(s).is_empty())
        {
            break;
        }
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[choose.below(moves.len())];
        game.play(m)
            .unwrap_or_else(|e| panic!("a legal move {m:?} is refused: {e}"));
    }
    game
}

// ---------------------------------------------------------------- the checks

/// `.var` text through the formatter (see the module's documentation).
pub fn format_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(formatted) = crate::format::format(&text) else {
        return;
    };
    let (before, errors) = crate::parse::parse(&text);
    assert!(
        errors.is_empty(),
        "a text that does not parse was formatted: {errors:?}"
    );
    let (after, errors) = crate::parse::parse(&formatted);
    assert!(errors.is_empty(), "the layout does not parse: {errors:?}\n{formatted}");
    assert_eq!(
        before.statements.len(),
        after.statements.len(),
        "the layout has other statements"
    );
    assert_eq!(
        crate::format::format(&formatted).as_ref(),
        Ok(&formatted),
        "formatting twice changes the text"
    );
}

/// `.var` text through parse and compile (see the module's documentation).
pub fn variant_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut loader = loader();
    loader.files.push(("fuzz.var".into(), text.to_string()));
    loader.files.push((
        "lib.var".into(),
        "piece G \"Gold\" : step orthogonal forward-diagonal\nuse \"fuzz\": P\n".into(),
    ));
    let source = Source {
        name: "fuzz.var".into(),
        text: Arc::from(text.as_ref()),
    };
    let compiled = compile::compile(source, &loader, &[]);
    let report = &compiled.report;
    for d in &report.diagnostics {
        let text = &d.source.text;
        for l in &d.labels {
            assert!(
                l.span.start <= l.span.end && l.span.end <= text.len(),
                "{}: span {:?} outside {} bytes ({})",
                d.source.name,
                l.span,
                text.len(),
                d.message
            );
            assert!(
                text.is_char_boundary(l.span.start) && text.is_char_boundary(l.span.end),
                "span {:?} not on characters ({})",
                l.span,
                d.message
            );
            let _ = d.source.line_column(l.span.start);
        }
        assert!(!d.message.is_empty(), "a diagnostic without a message");
    }
    assert!(
        report.diagnostics.len() <= 2 * compile::MAX_DIAGNOSTICS + 1,
        "{} diagnostics",
        report.diagnostics.len()
    );
    let rendered = report.render(false);
    assert_eq!(
        compiled.rules.is_some(),
        !report.has_errors(),
        "tables exactly when no error"
    );
    let Some(rules) = compiled.rules else {
        assert!(!rendered.is_empty(), "errors but nothing rendered");
        return;
    };
    let _ = rules.to_ron();
    crate::show::show(&rules, None).unwrap_or_else(|e| panic!("show: {e}"));
    let handicaps: Vec<String> = rules.handicaps.iter().map(|h| h.name.clone()).collect();
    let t = Arc::new(MoveTables::new(rules));
    let mut choose = Bytes::new(data);
    let mut start = Position::start(t.clone());
    // A variant's own start is played even where the side to move can take the other's
    // royal at once; as a position string it is refused, so it is not checked as one.
    match Position::from_setup(t.clone(), &start.to_setup()) {
        Ok(_) => check_position(&mut start, Depth::Sampled, &mut choose),
        Err(PositionError::OpponentInCheck) => {
            let _ = start.legal_moves();
        }
        Err(e) => panic!("the start is not a position: {e}"),
    }
    for name in handicaps.iter().take(4) {
        let pos = Position::handicap(t.clone(), name);
        assert!(pos.is_some(), "handicap {name:?} is not a position");
    }
}

/// A position string against a variant: the first byte picks the variant, the rest is the
/// string (see the module's documentation).
pub fn sfen(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let t = tables(usize::from(bytes.byte()));
    let text = String::from_utf8_lossy(bytes.rest());
    match read_sfen(&t, &text) {
        Ok(mut pos) => {
            let mut choose = Bytes::new(data);
            check_position(&mut pos, Depth::Sampled, &mut choose);
        }
        Err(e) => {
            assert!(e.at <= text.len(), "error at {} past the end ({e})", e.at);
            assert!(!e.to_string().is_empty());
        }
    }
}

/// Move notation: the first byte picks the variant, the next how many random moves lead to
/// the position, the next two pick those moves; the rest is move text, a move per line.
/// Each line is read as TSA (or USI, which `read_move` also takes) and as USI; a move that
/// reads must be legal and its written forms must read back to it; it is then played.
pub fn move_text(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let t = tables(usize::from(bytes.byte()));
    let plies = usize::from(bytes.byte() % 32);
    let seed = [bytes.byte(), bytes.byte()];
    let text = String::from_utf8_lossy(bytes.rest()).into_owned();
    let mut game = random_game(Position::start(t), plies, &mut Bytes::new(&seed.repeat(plies)));
    for line in text.lines().take(16) {
        let legal = game.legal_moves();
        let pos = game.position();
        if let Ok(m) = read_usi(pos, line) {
            assert!(legal.contains(&m), "USI {line:?} read as {m:?}, not legal");
        }
        match read_move(pos, line) {
            Ok(m) => {
                assert!(legal.contains(&m), "{line:?} read as {m:?}, not legal");
                let tsa = write_tsa(pos, &m);
                assert_eq!(read_move(pos, &tsa).ok(), Some(m), "{line:?} written {tsa:?}");
                let usi = write_usi(pos, &m);
                assert_eq!(read_usi(pos, &usi).ok(), Some(m), "{line:?} written {usi:?}");
                if game.outcome().is_none() {
                    game.play(m)
                        .unwrap_or_else(|e| panic!("{line:?} is legal but refused: {e}"));
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

/// The variants compiled for records, by variant name and options (a few at most).
fn record_tables(name: &str, choices: &[Choice]) -> Result<Arc<MoveTables>, String> {
    type Compiled = (String, Result<Arc<MoveTables>, String>);
    static CACHE: OnceLock<Mutex<Vec<Compiled>>> = OnceLock::new();
    let key = format!("{name}{choices:?}");
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Some((_, found)) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == key)
    {
        return found.clone();
    }
    let found = compiled_tables(name, choices);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= 32 {
        drop(cache.remove(0));
    }
    cache.push((key, found.clone()));
    found
}

/// A game record: parsed, then replayed as `koma play --load` does (the `Variant` tag names
/// a variant of [`loader`], never a file on disk); what replays is written and read again,
/// with the same tags and options.
pub fn record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let record = match parse_record(&text) {
        Ok(record) => record,
        Err(e) => {
            assert!(
                e.line >= 1 && e.line <= text.lines().count().max(1),
                "error on line {} ({e})",
                e.line
            );
            return;
        }
    };
    let variant = record.tags.get("Variant").cloned().unwrap_or_default();
    let Ok(choices) = record
        .options
        .iter()
        .map(|v| v.parse::<Choice>())
        .collect::<Result<Vec<_>, _>>()
    else {
        return;
    };
    let Ok(t) = record_tables(&variant, &choices) else {
        return;
    };
    let start = match record.tags.get("Handicap") {
        Some(name) => Position::handicap(t.clone(), name),
        None => Some(Position::start(t.clone())),
    };
    let Some(mut start) = start else { return };
    if let Some(sfen) = record.tags.get("SFEN") {
        match read_sfen(&t, sfen) {
            Ok(pos) => start = pos,
            Err(_) => return,
        }
    }
    let mut game = Variant::game_from(start.clone());
    let replayed = replay(&mut game, &record);
    match &replayed {
        Ok(()) => assert_eq!(game.len(), record.moves.len()),
        Err(e) => assert_eq!(
            e.ply,
            Some(game.len() + 1),
            "the failing move is the one after those kept ({e})"
        ),
    }
    let written = write_record(&record.tags, &record.options, &game);
    let again = parse_record(&written).unwrap_or_else(|e| panic!("a written record does not read: {e}\n{written}"));
    assert_eq!(again.moves.len(), game.len(), "{written}");
    assert_eq!(again.tags, record.tags, "tags written as\n{written}");
    assert_eq!(again.options, record.options, "options written as\n{written}");
    let mut second = Game::new(start);
    replay(&mut second, &again).unwrap_or_else(|e| panic!("a written record does not replay: {e}\n{written}"));
    assert_eq!(second.position().hash(), game.position().hash(), "{written}");
    assert_eq!(write_sfen(second.position()), write_sfen(game.position()));
}

/// Structure-aware positions: the first byte picks the variant, the second how the position
/// is built: a random game from the start or a handicap, or pieces placed at random on the
/// board and in hand. The position is checked by [`check_position`], in full.
pub fn positions(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let index = usize::from(bytes.byte());
    let t = tables(index);
    let how = bytes.byte();
    let pos = match how % 4 {
        0 | 1 => {
            let plies = usize::from(bytes.byte() % 64);
            let start = if how % 4 == 1 && !t.rules().handicaps.is_empty() {
                let h = &t.rules().handicaps[bytes.below(t.rules().handicaps.len())];
                Position::handicap(t.clone(), &h.name).expect("a compiled handicap is a position")
            } else {
                Position::start(t.clone())
            };
            random_position(start, plies, &mut bytes)
        }
        _ => match placed(&t, &mut bytes) {
            Some(pos) => pos,
            None => return,
        },
    };
    let mut pos = pos;
    let big = t.geometry().len() > 100;
    let depth = if big { Depth::Sampled } else { Depth::Full };
    check_position(&mut pos, depth, &mut bytes);
}

/// A setup from bytes: the royals of the start (so that most setups are valid), then pieces
/// of any kind on any square, some promoted, some in hand; either side to move.
fn placed(t: &Arc<MoveTables>, bytes: &mut Bytes) -> Option<Position> {
    let rules = &t.rules();
    let mut setup = Setup {
        pieces: Vec::new(),
        hands: Vec::new(),
        side_to_move: if bytes.byte().is_multiple_of(2) {
            Side::Black
        } else {
            Side::White
        },
        move_number: 1 + u32::from(bytes.byte()),
        lion_capture: None,
        deferred: [None; 2],
    };
    let squares: Vec<Square> = rules.board.squares().collect();
    let mut taken = HashSet::new();
    for p in rules.setup.iter().filter(|p| rules.piece(p.piece).royal) {
        setup.pieces.push((p.square, p.side, p.piece, false));
        taken.insert(p.square);
    }
    let count = usize::from(bytes.byte() % 40);
    for _ in 0..count {
        let square = squares[bytes.below(squares.len())];
        let kind = PieceId(bytes.below(rules.pieces.len()) as u16);
        let flags = bytes.byte();
        let side = if flags & 1 == 0 { Side::Black } else { Side::White };
        if flags & 2 != 0 && rules.drops {
            let base = t.kind(kind).hand;
            setup.hands.push((side, base, 1 + u32::from(flags >> 6)));
        } else if taken.insert(square) {
            setup
                .pieces
                .push((square, side, kind, flags & 4 != 0 && flags & 8 != 0));
        }
    }
    let extra = bytes.byte();
    if extra & 1 != 0 && !rules.drops {
        setup.lion_capture = Some(squares[bytes.below(squares.len())]);
    }
    if extra & 2 != 0 && !setup.pieces.is_empty() {
        let (square, side, _, _) = setup.pieces[bytes.below(setup.pieces.len())];
        setup.deferred[side.index()] = Some(square);
    }
    Position::from_setup(t.clone(), &setup).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fuzzing_variant_compiles() {
        for i in 0..VARIANTS.len() {
            let t = tables(i);
            let mut pos = Position::start(t);
            check_position(&mut pos, Depth::Sampled, &mut Bytes::new(&[]));
        }
    }
}
