//! What the page is sent: a game's position (pieces, hands, last move, result, SFEN), its
//! legal moves with the squares the page lights up, and a variant's summary. Everything the
//! page knows of the rules comes from here.

use super::store::Entry;
use indexmap::IndexMap;
use koma::game::{LionCounting, Move, Position, Sq};
use koma::notation::{describe_taken, distinct_move, played_text, result_token, write_sfen, write_tsa, write_usi};
use koma::rules::{PieceId, Rules, Side};
use koma::variant::Player;
use serde::Serialize;

#[derive(Serialize)]
pub struct GameView {
    pub id: u64,
    pub variant: String,
    pub title: String,
    pub files: u8,
    pub ranks: u8,
    /// Moves played.
    pub ply: usize,
    pub turn: Side,
    pub pieces: Vec<PieceOnBoard>,
    /// Each side's hand: Black's, then White's.
    pub hands: [Vec<InHand>; 2],
    pub drops: bool,
    pub last: Option<LastMove>,
    pub result: Option<ResultView>,
    pub sfen: String,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    pub players: [Player; 2],
    /// A note for the player (koma declined a draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How a piece kind is drawn.
#[derive(Serialize)]
pub struct Face {
    pub abbrev: String,
    pub name: String,
    pub kanji: Option<String>,
    /// A promoted kind (some kind promotes to it); under a flip rule, where a piece has two
    /// faces and is shown by the one it shows, none is.
    pub promoted: bool,
}

#[derive(Serialize)]
pub struct PieceOnBoard {
    pub square: String,
    pub file: u8,
    pub rank: u8,
    pub side: Side,
    #[serde(flatten)]
    pub face: Face,
}

#[derive(Serialize)]
pub struct InHand {
    #[serde(flatten)]
    pub face: Face,
    pub count: u32,
}

#[derive(Serialize)]
pub struct LastMove {
    pub from: Option<String>,
    pub to: String,
    /// Squares captured on before `to` (a Lion's first step).
    pub via: Vec<String>,
}

#[derive(Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub reason: String,
}

pub fn face(rules: &Rules, id: PieceId) -> Face {
    let piece = rules.piece(id);
    Face {
        abbrev: piece.abbrev.clone(),
        name: piece.name.clone(),
        kanji: piece.kanji.clone(),
        promoted: rules.flip.is_none() && rules.pieces.iter().any(|p| p.promotion.to == Some(id)),
    }
}

/// The result of a game, if it is over: as declared (a resignation, an agreed draw), else as
/// the rules decide.
pub fn result(entry: &mut Entry) -> Option<ResultView> {
    entry.game.outcome().map(|outcome| ResultView {
        result: result_token(Some(&outcome)).to_string(),
        reason: outcome.to_string(),
    })
}

pub fn game_view(id: u64, entry: &mut Entry) -> GameView {
    let result = result(entry);
    let moves = played_moves(entry);
    let pos = entry.game.position();
    let rules = &pos.rules();
    let geo = pos.geometry();
    let pieces = rules
        .board
        .squares()
        .filter_map(|square| {
            let piece = pos.piece_at(square)?;
            Some(PieceOnBoard {
                square: square.to_string(),
                file: square.file,
                rank: square.rank,
                side: piece.side(),
                face: face(rules, piece.kind()),
            })
        })
        .collect();
    let hand = |side: Side| -> Vec<InHand> {
        rules
            .piece_ids()
            .filter_map(|id| {
                let count = pos.in_hand(side, id);
                (count > 0).then(|| InHand {
                    face: face(rules, id),
                    count,
                })
            })
            .collect()
    };
    let name = |sq: Sq| geo.square(sq).to_string();
    let last = entry.game.moves().last().map(|m| LastMove {
        from: m.from.map(name),
        to: name(m.to),
        via: m.via_squares().map(name).collect(),
    });
    GameView {
        id,
        variant: entry.variant.clone(),
        title: rules.name.clone(),
        files: rules.board.files,
        ranks: rules.board.ranks,
        ply: entry.game.len(),
        turn: pos.side_to_move(),
        pieces,
        hands: [hand(Side::Black), hand(Side::White)],
        drops: rules.drops,
        last,
        result,
        sfen: write_sfen(pos),
        moves,
        players: entry.players,
        note: None,
    }
}

/// A move played: in the rule texts' notation, and what it took besides its destination.
#[derive(Serialize)]
pub struct PlayedMove {
    pub text: String,
    /// `taking 16 pieces: White's P-18b, …` for a range capture, burning or a Lion's double
    /// capture; none for a move that takes at most the piece on its destination.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken: Option<String>,
}

/// The moves played, as the game kept them.
fn played_moves(entry: &Entry) -> Vec<PlayedMove> {
    let pos = entry.game.position();
    entry
        .game
        .played()
        .iter()
        .map(|played| PlayedMove {
            text: played_text(pos, played),
            taken: describe_taken(pos, played),
        })
        .collect()
}

/// A legal move, with what the page needs to let it be made with the mouse.
#[derive(Serialize)]
pub struct MoveView {
    /// What to send back to play it.
    pub usi: String,
    /// In the rule texts' notation.
    pub text: String,
    /// The start square; none for a drop.
    pub from: Option<String>,
    pub to: String,
    /// For a drop: the kind taken from the hand (its abbreviation); `text` says the face it
    /// is dropped on, which under `drops either-face` may be the promoted one.
    pub drop: Option<String>,
    /// The squares a Lion's first step may go to on the way (the move is made by clicking
    /// one, then `to`); empty for a move made by clicking `to` alone.
    pub middles: Vec<String>,
    /// The squares it captures on.
    pub captures: Vec<String>,
    pub promote: bool,
}

#[derive(Serialize)]
pub struct MovesView {
    pub ply: usize,
    pub moves: Vec<MoveView>,
}

/// The legal moves (none once the game is over), koma's distinct moves, each with the
/// middle squares of the paths that make it.
pub fn moves_view(entry: &mut Entry) -> MovesView {
    let ply = entry.game.len();
    if result(entry).is_some() {
        return MovesView { ply, moves: vec![] };
    }
    let legal = entry.game.legal_moves();
    let pos = entry.game.position();
    let mut middles: IndexMap<Move, Vec<Sq>> = legal.iter().map(|&m| (m, Vec::new())).collect();
    let mut paths = Vec::new();
    pos.legal_moves_into(&mut paths, LionCounting::Paths);
    for path in paths.iter().filter(|p| !p.is_drop()) {
        if let Some(middle) = path.via[0]
            && let Some(m) = distinct_move(pos, &legal, path)
            && let Some(list) = middles.get_mut(&m)
            && !list.contains(&middle)
        {
            list.push(middle);
        }
    }
    let moves = middles.into_iter().map(|(m, mids)| move_view(pos, &m, &mids)).collect();
    MovesView { ply, moves }
}

fn move_view(pos: &Position, m: &Move, middles: &[Sq]) -> MoveView {
    let geo = pos.geometry();
    let name = |sq: Sq| geo.square(sq).to_string();
    // Every piece the move takes (all of a range capture's line).
    let captures = pos.taken(m).map(name).collect();
    let rules = &pos.rules();
    MoveView {
        usi: write_usi(pos, m),
        from: m.from.map(name),
        to: name(m.to),
        drop: m.drop.map(|kind| {
            let in_hand = pos.tables().kind(kind).unpromoted;
            rules.pieces[in_hand.index()].abbrev.clone()
        }),
        middles: middles.iter().map(|&s| name(s)).collect(),
        captures,
        promote: m.promote,
        text: write_tsa(pos, m),
    }
}

/// A variant's summary: what the page offers for a new game.
#[derive(Serialize)]
pub struct VariantView {
    pub key: String,
    pub title: String,
    pub files: u8,
    pub ranks: u8,
    pub drops: bool,
    /// Options: their values and the one chosen.
    pub options: IndexMap<String, OptionView>,
    pub handicaps: Vec<String>,
    pub pieces: Vec<Face>,
}

#[derive(Serialize)]
pub struct OptionView {
    pub description: Option<String>,
    pub values: Vec<String>,
    pub chosen: String,
}

pub fn variant_view(key: &str, rules: &Rules) -> VariantView {
    VariantView {
        key: key.to_string(),
        title: rules.name.clone(),
        files: rules.board.files,
        ranks: rules.board.ranks,
        drops: rules.drops,
        options: rules
            .options
            .iter()
            .map(|(name, o)| {
                let view = OptionView {
                    description: o.description.clone(),
                    values: o.values.clone(),
                    chosen: o.chosen.clone(),
                };
                (name.clone(), view)
            })
            .collect(),
        handicaps: rules.handicaps.iter().map(|h| h.name.clone()).collect(),
        pieces: rules.piece_ids().map(|id| face(rules, id)).collect(),
    }
}
