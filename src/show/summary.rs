//! The one-screen summary of a variant's rules: board, options, pieces, setup, promotion,
//! drops, movement rules, how the game ends, handicaps and the start position.

use super::lookup::abbrev_and_name;
use super::piece::last_ranks;
use crate::rules::{
    Extinction, FlipEvent, LionDefence, LionRole, PieceId, PieceKind, PromotionEvent, Repetition, RepetitionEffect,
    Rules, Side, Square, Try, TryReading, Verdict, rank_name,
};
use std::collections::BTreeMap;

pub(super) fn summary(rules: &Rules) -> String {
    let rows: Vec<(&str, Vec<String>)> = vec![
        ("board", vec![board_line(rules)]),
        ("options", option_lines(rules)),
        ("pieces", vec![kinds_line(rules)]),
        ("moves", movement_rule_lines(rules)),
        ("setup", vec![setup_line(rules)]),
        ("promotion", promotion_lines(rules)),
        ("drops", drop_lines(rules)),
        ("royal", vec![royal_line(rules)]),
        ("game end", end_lines(rules)),
        ("handicaps", handicap_lines(rules)),
    ];
    let mut lines = vec![rules.name.clone()];
    for (label, texts) in rows {
        for (i, text) in texts.iter().enumerate() {
            lines.push(format!("  {:<11}{text}", if i == 0 { label } else { "" }));
        }
    }
    lines.push(String::new());
    lines.extend(start_position(rules));
    lines.join("\n") + "\n"
}

fn board_line(rules: &Rules) -> String {
    let b = rules.board;
    format!(
        "{} x {}: files {}..1 from the left, ranks a..{} from the top; Black below, moving first",
        b.files,
        b.ranks,
        b.files,
        rank_name(b.ranks)
    )
}

fn option_lines(rules: &Rules) -> Vec<String> {
    if rules.options.is_empty() {
        return vec!["none".into()];
    }
    rules
        .options
        .iter()
        .map(|(name, option)| {
            let others: Vec<&str> = option
                .values
                .iter()
                .filter(|v| **v != option.chosen)
                .map(String::as_str)
                .collect();
            let description = option
                .description
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            format!("{name} = {} (or {}){description}", option.chosen, others.join(" | "))
        })
        .collect()
}

fn kinds_line(rules: &Rules) -> String {
    let in_setup = |id: PieceId| rules.start_pieces().any(|(_, piece)| piece == id);
    let promoted = |id: PieceId| rules.pieces.iter().any(|p| p.promotion.to == Some(id));
    // Under a flip rule a promoted face turns back into its unpromoted one.
    let turned_back =
        |id: PieceId| rules.flip.is_some() && rules.pieces.iter().any(|p| p.promotion.reverts_to == Some(id));
    let start = rules.piece_ids().filter(|&id| in_setup(id)).count();
    let later = rules
        .piece_ids()
        .filter(|&id| !in_setup(id) && (promoted(id) || turned_back(id)))
        .count();
    let other = rules.pieces.len() - start - later;
    let by = if rules.flip.is_some() {
        "by turning over"
    } else {
        "by promotion"
    };
    let mut text = format!("{} kinds: {start} in the setup, {later} more {by}", rules.pieces.len());
    if other > 0 {
        text += &format!(", {other} in neither");
    }
    text
}

fn setup_line(rules: &Rules) -> String {
    let count = |side: Side| rules.setup.iter().filter(|p| p.side == side).count();
    let (black, white) = (count(Side::Black), count(Side::White));
    let board = if black == white {
        format!("{} a side", pieces(black))
    } else {
        format!("Black {}, White {}", pieces(black), pieces(white))
    };
    let (black_hand, white_hand) = (hand_text(rules, Side::Black), hand_text(rules, Side::White));
    match (black_hand.is_empty() && white_hand.is_empty(), black_hand == white_hand) {
        (true, _) => board,
        (false, true) => format!("{board}; in hand at the start: {black_hand} a side"),
        (false, false) => format!(
            "{board}; in hand at the start: Black {}, White {}",
            or_none(black_hand),
            or_none(white_hand)
        ),
    }
}

/// A side's pieces in hand at the start, as `L N` (empty for none).
fn hand_text(rules: &Rules, side: Side) -> String {
    let held: Vec<&str> = rules
        .hand
        .iter()
        .filter(|h| h.side == side)
        .map(|h| rules.piece(h.piece).abbrev.as_str())
        .collect();
    held.join(" ")
}

fn or_none(text: String) -> String {
    if text.is_empty() { "none".into() } else { text }
}

fn pieces(n: usize) -> String {
    if n == 1 {
        "1 piece".into()
    } else {
        format!("{n} pieces")
    }
}

fn promotion_lines(rules: &Rules) -> Vec<String> {
    let mut lines: Vec<String> = rules
        .promotion
        .iter()
        .map(|t| {
            let duty = if t.compulsory { "compulsory" } else { "optional" };
            format!("{duty} on {}", event_text(&t.when))
        })
        .collect();
    if let Some(event) = rules.flip {
        let when = match event {
            FlipEvent::Capture => "capture",
            FlipEvent::Move => "move on the board",
        };
        lines.push(format!(
            "flip: a two-faced piece turns over on every {when}, both ways (a promoted piece turns back)"
        ));
    }
    if lines.is_empty() {
        lines.push("none".into());
    }
    if rules.deferral {
        lines.push(
            "deferral: a piece that declines on entering may not promote on its next move unless it captures".into(),
        );
    }
    let forced = rank_groups(rules, |p| {
        if p.promotion.to.is_some() {
            p.promotion.forced_ranks
        } else {
            0
        }
    });
    if !forced.is_empty() {
        lines.push(format!("must promote: {forced}"));
    }
    let waits = abbrevs_where(rules, |p| p.promotion.declined_waits_for_last_rank);
    if !waits.is_empty() {
        lines.push(format!("{waits}: once declined on entering, only on the last rank"));
    }
    let last_rank = abbrevs_where(rules, |p| p.promotion.last_rank_optional);
    if !last_rank.is_empty() {
        lines.push(format!(
            "{last_rank}: may promote on any move to the last rank, or decline and stay"
        ));
    }
    lines
}

fn event_text(event: &PromotionEvent) -> String {
    match *event {
        PromotionEvent::Capture => "any capture".into(),
        PromotionEvent::Zone {
            depth,
            enter,
            within,
            leave,
            capture,
        } => {
            let ways: Vec<&str> = [(enter, "enters"), (within, "moves within"), (leave, "leaves")]
                .into_iter()
                .filter_map(|(on, word)| on.then_some(word))
                .collect();
            let moves = format!("a move that {} the far {depth} ranks", or_list(&ways));
            match (ways.is_empty(), capture) {
                (_, false) => moves,
                (true, true) => format!("a capture starting or ending in the far {depth} ranks"),
                (false, true) => format!("{moves}, or a capture starting or ending in them"),
            }
        }
    }
}

fn or_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `N on the last 2 ranks; L, P on the last rank` for a per-piece number of last ranks.
fn rank_groups(rules: &Rules, ranks: impl Fn(&PieceKind) -> u8) -> String {
    let mut groups: BTreeMap<u8, Vec<&str>> = BTreeMap::new();
    for piece in &rules.pieces {
        let n = ranks(piece);
        if n > 0 {
            groups.entry(n).or_default().push(&piece.abbrev);
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .rev()
        .map(|(&n, abbrevs)| format!("{} on {}", abbrevs.join(", "), last_ranks(n)))
        .collect();
    parts.join("; ")
}

pub(super) fn abbrevs_where(rules: &Rules, test: impl Fn(&PieceKind) -> bool) -> String {
    let abbrevs: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| test(p))
        .map(|p| p.abbrev.as_str())
        .collect();
    abbrevs.join(", ")
}

fn drop_lines(rules: &Rules) -> Vec<String> {
    if !rules.drops {
        return vec!["none: captured pieces leave the game".into()];
    }
    let mut lines = vec!["captured pieces go to the capturer's hand, unpromoted, and may be dropped".into()];
    if rules.drop_either_face {
        lines.push("on either face: unpromoted, or promoted".into());
    }
    let dead = rank_groups(rules, |p| p.drop.banned_ranks());
    if !dead.is_empty() {
        lines.push(format!("not where it could never move: {dead}"));
    }
    for piece in rules.pieces.iter().filter(|p| p.drop.per_file.is_some()) {
        let n = piece.drop.per_file.unwrap_or_default();
        lines.push(format!("{}: at most {n} unpromoted of a side on a file", piece.abbrev));
    }
    let no_mate = abbrevs_where(rules, |p| p.drop.no_drop_mate);
    if !no_mate.is_empty() {
        lines.push(format!("{no_mate}: may not be dropped to give immediate mate"));
    }
    lines
}

/// Rules about how every piece moves (none for most variants).
fn movement_rule_lines(rules: &Rules) -> Vec<String> {
    if rules.moves_as_piece_behind {
        vec!["a piece with a piece of its side directly behind it moves and attacks as that piece".into()]
    } else {
        vec![]
    }
}

fn royal_line(rules: &Rules) -> String {
    let royals: Vec<String> = rules.pieces.iter().filter(|p| p.royal).map(abbrev_and_name).collect();
    if royals.is_empty() {
        "none".into()
    } else {
        royals.join(", ")
    }
}

/// The try, in words: where, and when it wins.
fn try_line(rule: Try) -> String {
    let zone = if rule.depth == 1 {
        "its far rank".to_string()
    } else {
        format!("its far {} ranks", rule.depth)
    };
    let when = match rule.reading {
        TryReading::Reached => "at once",
        TryReading::Unattacked => "at once where no enemy piece attacks it (whoever is to move)",
        TryReading::UnlessTaken => "unless the opponent takes it with the next move",
    };
    format!("the try: a royal piece on {zone} wins, {when}")
}

/// Extinction, in words: which pieces, and what losing them means.
fn extinction_line(rules: &Rules, rule: &Extinction) -> String {
    let verdict = match rule.verdict {
        Verdict::Win => "wins",
        Verdict::Draw => "draws",
        Verdict::Loss => "loses",
    };
    if rule.kinds.is_empty() {
        return format!("extinction: a side left with no piece, on the board or in hand, {verdict}");
    }
    let kinds: Vec<String> = rule.kinds.iter().map(|&k| abbrev_and_name(rules.piece(k))).collect();
    format!(
        "extinction: a side left with no piece of one of {} (on the board or in hand, promoted or not) {verdict}",
        kinds.join(", ")
    )
}

fn end_lines(rules: &Rules) -> Vec<String> {
    let end = &rules.end;
    let has_royals = rules.pieces.iter().any(|p| p.royal);
    let mut lines = vec![if !has_royals {
        "no royal piece: no check, no checkmate".into()
    } else if end.royal_capture_allowed {
        "capture every royal of the other side; a move may leave one's last royal capturable (and lose)".into()
    } else {
        "checkmate: capture every royal of the other side; no move may leave one's last royal capturable".into()
    }];
    let stalemate = match end.stalemate {
        Verdict::Win => "wins",
        Verdict::Draw => "draws",
        Verdict::Loss => "loses",
    };
    if end.check_wins {
        lines.push("first check wins: a side whose royal is attacked when it is to move has lost".into());
    }
    if let Some(rule) = end.try_rule {
        lines.push(try_line(rule));
    }
    if let Some(rule) = &end.extinction {
        lines.push(extinction_line(rules, rule));
    }
    if rules.must_capture {
        lines.push("capture compulsory: while a side can capture, it must (a drop is no capture)".into());
    }
    lines.push(format!("stalemate: the side with no legal move {stalemate}"));
    if end.bare_king {
        lines.push("bare king: a side left with only royals loses, unless it bares the other at once (draw)".into());
    }
    lines.push(
        end.repetition
            .as_ref()
            .map_or("repetition: no rule".into(), repetition_text),
    );
    if end.lion_trading {
        let bridges = abbrevs_where(rules, |p| p.lion == LionRole::WeakBridge);
        lines.push(format!(
            "lion trading: a Lion may not take a protected Lion two squares away unless it first captures a piece other than {}",
            if bridges.is_empty() { "none".into() } else { bridges }
        ));
        lines.push(
            match end.lion_defence {
                LionDefence::Defended => "lion protection: the pieces the move takes first still defend",
                LionDefence::AfterMove => "lion protection: only a piece that could recapture after the move defends",
            }
            .into(),
        );
    }
    if rules.capture_unprotected_protects {
        lines.push(
            "protection: a capture-unprotected mover protects where it could take back a capturer left unprotected"
                .into(),
        );
    }
    if end.counter_strike {
        lines.push(
            "counter-strike: after a non-Lion takes a Lion, the other side may not take a Lion with a non-Lion at once"
                .into(),
        );
    }
    let lions = abbrevs_where(rules, |p| p.lion == LionRole::Lion);
    if end.lion_trading || end.counter_strike {
        lines.push(format!("Lions for these rules: {lions}"));
    }
    lines
}

fn repetition_text(repetition: &Repetition) -> String {
    let n = repetition.count;
    let mut text = match repetition.effect {
        RepetitionEffect::Draw => format!("repetition: the {} occurrence of a position draws", ordinal(n)),
        RepetitionEffect::Illegal => format!("repetition: no move may make a position occur a {} time", ordinal(n)),
        RepetitionEffect::StarterVaries => {
            format!(
                "repetition: before a {} occurrence, who started the cycle must vary",
                ordinal(n)
            )
        }
    };
    if repetition.perpetual_check_loses {
        text += "; perpetual check loses";
    }
    text
}

pub(super) fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn handicap_lines(rules: &Rules) -> Vec<String> {
    if rules.handicaps.is_empty() {
        return vec!["none".into()];
    }
    let mut lines: Vec<String> = rules
        .handicaps
        .iter()
        .map(|h| {
            let squares: Vec<String> = h.squares.iter().map(Square::to_string).collect();
            format!("{}: {}", h.name, squares.join(" "))
        })
        .collect();
    lines.push("(White's pieces on these squares are removed; White moves first)".into());
    lines
}

/// The starting position: files numbered from the right, ranks lettered down the right
/// side; Black's pieces as written, White's in lower case.
fn start_position(rules: &Rules) -> Vec<String> {
    let board = rules.board;
    let width = rules
        .setup
        .iter()
        .map(|p| rules.piece(p.piece).abbrev.chars().count())
        .chain([board.files.to_string().len()])
        .max()
        .unwrap_or(1);
    let cell = |text: String| format!("{text:>width$}");
    let files: Vec<String> = (1..=board.files).rev().map(|f| cell(f.to_string())).collect();
    let mut lines = vec![files.join(" ")];
    for rank in 1..=board.ranks {
        let squares: Vec<String> = (1..=board.files)
            .rev()
            .map(|file| cell(occupant(rules, Square::new(file, rank))))
            .collect();
        lines.push(format!("{}  {}", squares.join(" "), rank_name(rank)));
    }
    lines.push("Black's pieces (below) as written, White's in lower case".into());
    lines
}

fn occupant(rules: &Rules, square: Square) -> String {
    match rules.setup.iter().find(|p| p.square == square) {
        Some(p) if p.side == Side::White => rules.piece(p.piece).abbrev.to_lowercase(),
        Some(p) => rules.piece(p.piece).abbrev.clone(),
        None => ".".into(),
    }
}
