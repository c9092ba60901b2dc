//! A piece's moves in XBetza, the move notation XBoard's `piece` command reads, generated
//! from the compiled movement tables: steps and slides (`W`, `F`, `R`, `B`), range limits
//! (`W2`), jumps and leaps (`D`, `N`, `A`…), Lion moves (`KNADcaKmabK`), Lion power along a
//! line (`fDfWfcavW`), hook moves (`RmasR`), each with its directions (`f`, `vs`, `fl`…) and
//! modality (`m` moves only, `c` captures only).
//!
//! XBetza cannot say everything koma's tables can: a move to any square, Lion moves of more
//! than two steps, leaps no atom names, and capturing only unprotected pieces. For those the
//! description is marked inexact, and the GUI learns the moves from koma's `highlight`
//! answers instead.

use crate::rules::{Mode, Movement, Offset, PieceKind};
use indexmap::IndexMap;

/// A piece's moves in XBetza, and whether the description is exact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Betza {
    /// The XBetza text (`KNADcaKmabK`).
    pub text: String,
    /// Whether the text says every move; when not, XBoard learns the moves from highlights.
    pub exact: bool,
}

/// The XBetza of one piece.
pub fn betza(piece: &PieceKind) -> Betza {
    // Steps, slides and leaps, grouped by what they do apart from direction.
    let mut groups: IndexMap<(char, String, &'static str), Vec<Offset>> = IndexMap::new();
    let mut extra = Vec::new();
    // Hops to any distance, grouped as the steps are: the hopper slide `pR` or `pB`.
    let mut hops: IndexMap<(char, &'static str), Vec<Offset>> = IndexMap::new();
    let mut exact = true;
    for movement in &piece.moves {
        // XBetza has no move that depends on the rank: XBoard learns those from highlights.
        if movement.from_last_rank() {
            exact = false;
            continue;
        }
        match *movement {
            // XBetza has no slide that jumps its first squares: XBoard learns it from highlights.
            Movement::Ride { beyond: 1.., .. } => exact = false,
            Movement::Ride { dir, max, mode, .. } => {
                let unit = unit_atom(dir);
                let (atom, range) = match (unit, max) {
                    (Some(atom), Some(1)) => (atom, String::new()),
                    (Some('W'), None) => ('R', String::new()),
                    (Some('F'), None) => ('B', String::new()),
                    (Some(atom), None) => (atom, "0".into()),
                    (Some(atom), Some(n)) => (atom, n.to_string()),
                    (None, _) => {
                        exact = false;
                        continue;
                    }
                };
                exact &= mode != Mode::CaptureUnprotected;
                groups.entry((atom, range, modality(mode))).or_default().push(dir);
            }
            Movement::Leap { to, mode, .. } => match leap_atom(to) {
                Some(atom) => {
                    exact &= mode != Mode::CaptureUnprotected;
                    groups
                        .entry((atom, String::new(), modality(mode)))
                        .or_default()
                        .push(to);
                }
                None => exact = false,
            },
            Movement::AreaLion { steps, mode } => {
                exact &= steps == 2 && mode == Mode::Any;
                extra.push(format!("{}KNADcaKmabK", modality(mode)));
            }
            Movement::LineLion { dir, steps, mode } => {
                exact &= steps == 2 && mode == Mode::Any;
                match unit_atom(dir) {
                    Some(atom) => {
                        let d = directions(atom, &[dir]).join("");
                        let jump = if atom == 'W' { 'D' } else { 'A' };
                        let m = modality(mode);
                        extra.push(format!("{d}{m}{jump}{d}{m}{atom}{d}cav{atom}"));
                    }
                    None => exact = false,
                }
            }
            // A hook that turns to one side only is not written (XBoard then takes koma's moves).
            Movement::Hook { only_turn: Some(_), .. } => exact = false,
            Movement::Hook {
                dir,
                mode,
                only_turn: None,
            } => match unit_atom(dir) {
                Some(atom) => {
                    let slider = if atom == 'W' { 'R' } else { 'B' };
                    let d = directions(atom, &[dir]).join("");
                    extra.push(format!("{d}{}{slider}mas{slider}", modality(mode)));
                }
                None => exact = false,
            },
            // A hop to any distance is XBetza's hopper slide (`pR`: the Janggi cannon's move,
            // `mRcpR` the xiangqi cannon with its slide); one of limited reach is not written.
            Movement::Hop { dir, max: None, mode } => match unit_atom(dir) {
                Some(atom) => {
                    exact &= mode != Mode::CaptureUnprotected;
                    hops.entry((atom, modality(mode))).or_default().push(dir);
                }
                None => exact = false,
            },
            Movement::Hop { max: Some(_), .. } => exact = false,
            // Area moves, range jumps, range captures, igui and passing slides are not in XBetza:
            // XBoard learns them from highlights.
            Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::RangeCapture { .. }
            | Movement::Igui { .. }
            | Movement::Passing { .. } => exact = false,
        }
    }
    let mut text = String::new();
    for ((atom, range, mode), dirs) in &groups {
        let kind = if matches!(atom, 'R' | 'B') {
            if *atom == 'R' { 'W' } else { 'F' }
        } else {
            *atom
        };
        for d in directions(kind, dirs) {
            text.push_str(&format!("{d}{mode}{atom}{range}"));
        }
    }
    for ((atom, mode), dirs) in &hops {
        let slider = if *atom == 'W' { 'R' } else { 'B' };
        for d in directions(*atom, dirs) {
            text.push_str(&format!("{d}{mode}p{slider}"));
        }
    }
    for e in extra {
        text.push_str(&e);
    }
    Betza { text, exact }
}

/// The modality prefix: none, `m` or `c`. Capturing only unprotected pieces is not in
/// XBetza: it is written as a plain move.
fn modality(mode: Mode) -> &'static str {
    match mode {
        Mode::Any | Mode::CaptureUnprotected => "",
        Mode::MoveOnly => "m",
        Mode::CaptureOnly => "c",
    }
}

/// The step atom of a unit direction: `W` orthogonal, `F` diagonal.
fn unit_atom(dir: Offset) -> Option<char> {
    match (dir.dx.unsigned_abs(), dir.dy.unsigned_abs()) {
        (0, 1) | (1, 0) => Some('W'),
        (1, 1) => Some('F'),
        _ => None,
    }
}

/// The atom of a leap: `W`, `F`, `D`, `N`, `A`, `H`, `C`, `Z`, `G`.
fn leap_atom(to: Offset) -> Option<char> {
    let (a, b) = (to.dx.unsigned_abs(), to.dy.unsigned_abs());
    match (a.min(b), a.max(b)) {
        (0, 1) => Some('W'),
        (1, 1) => Some('F'),
        (0, 2) => Some('D'),
        (1, 2) => Some('N'),
        (2, 2) => Some('A'),
        (0, 3) => Some('H'),
        (1, 3) => Some('C'),
        (2, 3) => Some('Z'),
        (3, 3) => Some('G'),
        _ => None,
    }
}

/// A direction by its signs: file, rank, and whether it is wider than high (oblique leaps).
type Dir = (i8, i8, bool);
/// Two directions named together (`v`), and one alone (`f`).
type Pair = (&'static str, [Dir; 2]);
type Single = (&'static str, Dir);

/// The direction prefixes that together name `dirs` (all of the same atom), as few as
/// XBetza allows: none for every direction, pairs (`v`, `s`, `f`, `b`, `l`, `r`, `ff`…),
/// then single directions.
fn directions(atom: char, dirs: &[Offset]) -> Vec<String> {
    let sign = |o: &Offset| (o.dx.signum(), o.dy.signum(), o.dx.abs() > o.dy.abs());
    let mut left: Vec<Dir> = dirs.iter().map(sign).collect();
    left.sort();
    left.dedup();
    let (all, pairs, singles): (usize, &[Pair], &[Single]) = match atom {
        'W' | 'D' | 'H' => (
            4,
            &[
                ("v", [(0, 1, false), (0, -1, false)]),
                ("s", [(-1, 0, true), (1, 0, true)]),
            ],
            &[
                ("f", (0, 1, false)),
                ("b", (0, -1, false)),
                ("l", (-1, 0, true)),
                ("r", (1, 0, true)),
            ],
        ),
        'F' | 'A' | 'G' => (
            4,
            &[
                ("f", [(-1, 1, false), (1, 1, false)]),
                ("b", [(-1, -1, false), (1, -1, false)]),
            ],
            &[
                ("fl", (-1, 1, false)),
                ("fr", (1, 1, false)),
                ("bl", (-1, -1, false)),
                ("br", (1, -1, false)),
            ],
        ),
        _ => (
            8,
            &[
                ("ff", [(-1, 1, false), (1, 1, false)]),
                ("bb", [(-1, -1, false), (1, -1, false)]),
                ("fs", [(-1, 1, true), (1, 1, true)]),
                ("bs", [(-1, -1, true), (1, -1, true)]),
            ],
            &[
                ("ffl", (-1, 1, false)),
                ("ffr", (1, 1, false)),
                ("bbl", (-1, -1, false)),
                ("bbr", (1, -1, false)),
                ("fsl", (-1, 1, true)),
                ("fsr", (1, 1, true)),
                ("bsl", (-1, -1, true)),
                ("bsr", (1, -1, true)),
            ],
        ),
    };
    if left.len() == all {
        return vec![String::new()];
    }
    let mut out = Vec::new();
    for (name, pair) in pairs {
        if pair.iter().all(|d| left.contains(d)) {
            left.retain(|d| !pair.contains(d));
            out.push(name.to_string());
        }
    }
    for (name, d) in singles {
        if left.contains(d) {
            out.push(name.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(list: &[(i8, i8)]) -> Vec<Offset> {
        list.iter().map(|&(dx, dy)| Offset::new(dx, dy)).collect()
    }

    #[test]
    fn direction_sets_are_named_by_pairs_then_singles() {
        assert_eq!(directions('W', &dirs(&[(0, 1), (0, -1), (1, 0), (-1, 0)])), [""]);
        assert_eq!(directions('W', &dirs(&[(0, 1), (0, -1)])), ["v"]);
        assert_eq!(directions('W', &dirs(&[(0, 1), (1, 0), (-1, 0)])), ["s", "f"]);
        assert_eq!(directions('F', &dirs(&[(1, 1), (-1, 1), (1, -1)])), ["f", "br"]);
        assert_eq!(directions('N', &dirs(&[(1, 2), (-1, 2)])), ["ff"]);
    }
}
