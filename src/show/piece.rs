//! One piece's section: its title, the facts of its promotion, drops and lion rules, and
//! its diagram with the legend.

use super::diagram::Diagram;
use super::lookup::abbrev_and_name;
use super::summary::{abbrevs_where, ordinal};
use crate::rules::{FlipEvent, LionRole, Movement, Offset, PieceId, PieceKind, Rules};
use std::collections::BTreeMap;

pub(super) fn piece_section(rules: &Rules, id: PieceId) -> String {
    let piece = rules.piece(id);
    let mut lines = vec![title(piece)];
    lines.extend(piece_facts(rules, id).into_iter().map(|f| format!("    {f}")));
    let diagram = Diagram::of(piece);
    lines.extend(diagram.rows());
    lines.extend(diagram.legend(format!("@  {}, forward is up", piece.abbrev)));
    lines.join("\n") + "\n"
}

pub(super) fn title(piece: &PieceKind) -> String {
    let mut parts = vec![piece.abbrev.clone(), piece.name.clone()];
    parts.extend(piece.kanji.clone());
    if piece.value > 0 {
        parts.push(format!("value {}", piece.value));
    }
    if piece.royal {
        parts.push("royal".into());
    }
    parts.join("  ")
}

/// Promotion, reverting, drops and lion rules, one fact per line.
pub(super) fn piece_facts(rules: &Rules, id: PieceId) -> Vec<String> {
    let piece = rules.piece(id);
    let promotion = &piece.promotion;
    let mut facts: Vec<String> = promotion
        .to
        .map(|to| format!("promotes to {}", abbrev_and_name(rules.piece(to))))
        .into_iter()
        .collect();
    let from = abbrevs_where(rules, |p| p.promotion.to == Some(id));
    if !from.is_empty() {
        facts.push(format!("promoted from {from}"));
    }
    if let (Some(event), Some(back)) = (rules.flip, promotion.reverts_to) {
        let when = match event {
            FlipEvent::Capture => "capture",
            FlipEvent::Move => "move",
        };
        facts.push(format!(
            "turns back into {} on its next {when}",
            rules.piece(back).abbrev
        ));
    }
    if facts.is_empty() {
        facts.push("does not promote".into());
    }
    if promotion.to.is_some() && promotion.forced_ranks > 0 {
        facts.push(format!("must promote on {}", last_ranks(promotion.forced_ranks)));
    }
    if promotion.declined_waits_for_last_rank {
        facts.push("once it declines to promote on entering the zone, promotes only on the last rank".into());
    }
    if promotion.last_rank_optional {
        facts.push("may promote on any move to the last rank, and may decline there (staying without a move)".into());
    }
    facts.extend(last_rank_fact(piece));
    facts.extend(beyond_facts(piece));
    facts.extend(hop_facts(piece));
    if let Some(n) = piece.piece_limit {
        facts.push(format!(
            "at most {n} unpromoted of a side on a file, after a move or a drop"
        ));
    }
    if rules.drops {
        facts.extend(drop_facts(rules, piece));
    }
    facts.extend(lion_fact(rules, piece));
    if let Some(rank) = piece.jump_rank {
        let sweeps = piece.moves.iter().any(|m| matches!(m, Movement::RangeCapture { .. }));
        let word = if sweeps { "range capture" } else { "range jump" };
        facts.push(format!(
            "jump rank {rank} (1 the highest): a {word} passes only pieces ranked below it"
        ));
    }
    if piece.burns {
        facts.push(
            "burns: after its move every enemy piece next to it is captured, and an enemy piece that ends its \
             move next to it is burnt"
                .into(),
        );
    }
    facts
}

/// The moves a piece has only from its last rank (not drawn on its diagram).
fn last_rank_fact(piece: &PieceKind) -> Option<String> {
    let moves: Vec<String> = piece
        .moves
        .iter()
        .filter(|m| m.from_last_rank())
        .map(|m| match *m {
            Movement::Ride { dir, max: None, .. } => format!("slide ({}, {})", dir.dx, dir.dy),
            Movement::Ride { dir, max: Some(n), .. } => format!("up to {n} along ({}, {})", dir.dx, dir.dy),
            Movement::Leap { to, .. } => format!("leap to ({}, {})", to.dx, to.dy),
            Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => String::new(),
        })
        .collect();
    (!moves.is_empty()).then(|| format!("from its last rank only, also: {}", moves.join(", ")))
}

/// The moves that start past jumped squares (`beyond N`), in words: the diagram marks the
/// squares they reach as it marks slides and ranges, and not the squares they jump.
fn beyond_facts(piece: &PieceKind) -> Vec<String> {
    let mut groups: BTreeMap<(u8, Option<u8>), Vec<Offset>> = BTreeMap::new();
    for movement in piece.moves.iter().filter(|m| !m.from_last_rank()) {
        if let Movement::Ride {
            dir,
            max,
            beyond: beyond @ 1..,
            ..
        } = *movement
        {
            groups.entry((beyond, max)).or_default().push(dir);
        }
    }
    groups
        .into_iter()
        .map(|((beyond, max), dirs)| {
            let clause = match max {
                None => format!("beyond {beyond} slide {}", direction_words(&dirs)),
                Some(n) => format!("beyond {beyond} range {n} {}", direction_words(&dirs)),
            };
            let jumped = if beyond == 1 {
                "square".to_string()
            } else {
                format!("{beyond} squares")
            };
            format!(
                "{clause}: jumps the first {jumped}, whatever stands there, and goes on from the {}",
                ordinal(beyond + 1)
            )
        })
        .collect()
}

/// The hops, in words: the diagram marks where they land as if a screen stood next to the
/// piece, and where a hop and another move reach one square it shows one mark for both.
fn hop_facts(piece: &PieceKind) -> Vec<String> {
    let mut groups: BTreeMap<(Option<u8>, &'static str), Vec<Offset>> = BTreeMap::new();
    for movement in &piece.moves {
        if let Movement::Hop { dir, max, mode } = *movement {
            let does = match mode {
                crate::rules::Mode::Any => "moves or captures",
                crate::rules::Mode::MoveOnly => "moves (never captures)",
                crate::rules::Mode::CaptureOnly => "captures only",
                crate::rules::Mode::CaptureUnprotected => "moves, or captures an unprotected piece,",
            };
            groups.entry((max, does)).or_default().push(dir);
        }
    }
    groups
        .into_iter()
        .map(|((max, does), dirs)| {
            let reach = max.map_or(String::new(), |n| format!(" {n}"));
            let within = max.map_or(String::new(), |n| format!(", at most {n} squares away"));
            format!(
                "hop{reach} {}: {does} by passing over exactly one piece of either side (the screen), \
                 landing beyond it{within}",
                direction_words(&dirs)
            )
        })
        .collect()
}

/// Directions in the language's words: the one word for all of them, or a word for each.
fn direction_words(dirs: &[Offset]) -> String {
    let wanted: Vec<(i8, i8)> = dirs.iter().map(|d| (d.dx, d.dy)).collect();
    let same = |offsets: &[(i8, i8)]| offsets.len() == wanted.len() && offsets.iter().all(|o| wanted.contains(o));
    if let Some((word, _)) = crate::parse::keywords::directions().find(|(_, offsets)| same(offsets)) {
        return word.to_string();
    }
    let words: Vec<&str> = wanted
        .iter()
        .filter_map(|o| {
            crate::parse::keywords::directions()
                .find(|(_, offsets)| *offsets == [*o])
                .map(|(word, _)| word)
        })
        .collect();
    words.join(" ")
}

fn drop_facts(rules: &Rules, piece: &PieceKind) -> Vec<String> {
    let drop = &piece.drop;
    let mut facts = Vec::new();
    if let Some(to) = piece.captured_as.or(piece.promotion.reverts_to) {
        facts.push(format!("when captured, goes to the hand as {}", rules.piece(to).abbrev));
    }
    if drop.banned_ranks() > 0 {
        facts.push(format!("may not be dropped on {}", last_ranks(drop.banned_ranks())));
    }
    if let Some(n) = drop.per_file {
        facts.push(format!("at most {n} unpromoted of a side on a file"));
    }
    if drop.no_drop_mate {
        facts.push("may not be dropped to give immediate mate".into());
    }
    facts
}

fn lion_fact(rules: &Rules, piece: &PieceKind) -> Option<String> {
    let in_force = rules.end.lion_trading || rules.end.counter_strike;
    match piece.lion {
        LionRole::Lion if in_force => Some("counts as a Lion for the lion-capture rules".into()),
        LionRole::WeakBridge if in_force => Some("a weak bridge for the lion-trading rule".into()),
        _ => None,
    }
}

pub(super) fn last_ranks(n: u8) -> String {
    if n == 1 {
        "the last rank".into()
    } else {
        format!("the last {n} ranks")
    }
}
