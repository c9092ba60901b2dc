//! `koma perft` and `koma moves`: the interpreter's move generation from the command line.

use super::args;
use koma::compile::Choice;
use koma::game::{LionCounting, Move, Position, perft, perft_divide};
use koma::notation::{read_usi, write_tsa_all, write_usi};
use koma::rules::Square;
use koma::variant::Start;
use std::process::ExitCode;

/// Compiles a variant and sets up a position (the start, or `sfen`).
pub fn position(variant: &str, options: &[Choice], sfen: Option<&str>) -> Result<Position, ExitCode> {
    let mut result = Err(ExitCode::FAILURE);
    super::with_variant(variant, options, |compiled| {
        let start = sfen.map_or(Start::Initial, |text| Start::Sfen(text.to_string()));
        result = compiled.position(&start).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        });
        ExitCode::SUCCESS
    });
    result
}

/// The position a command starts from: the start or `--sfen`, then the `--moves` played on it.
fn start_position(variant: &args::Variant, options: &args::Options, start: &args::Start) -> Result<Position, ExitCode> {
    let mut pos = position(&variant.variant, &options.choices, start.sfen.as_deref())?;
    for (number, text) in start.moves.iter().flat_map(|m| m.split_whitespace()).enumerate() {
        let m = read_usi(&pos, text).map_err(|e| {
            eprintln!("error: --moves, move {}: {e}", number + 1);
            ExitCode::FAILURE
        })?;
        pos.make(&m);
    }
    Ok(pos)
}

pub fn perft_command(
    variant: &args::Variant,
    options: &args::Options,
    start: &args::Start,
    depth: u32,
    divide: bool,
    counting: &args::Counting,
) -> ExitCode {
    let pos = match start_position(variant, options, start) {
        Ok(pos) => pos,
        Err(code) => return code,
    };
    let counting = counting.lion();
    if let Some(warning) = work_warning(&pos, depth, counting) {
        eprintln!("{warning}");
    }
    if divide {
        let mut lines: Vec<(String, u64)> = perft_divide(&pos, depth, counting)
            .into_iter()
            .map(|(m, n)| (write_usi(&pos, &m), n))
            .collect();
        lines.sort();
        let total: u64 = lines.iter().map(|(_, n)| n).sum();
        for (m, n) in lines {
            println!("{m} {n}");
        }
        println!("{total}");
    } else {
        println!("{}", perft(&pos, depth, counting));
    }
    ExitCode::SUCCESS
}

/// Above this many estimated positions (10^10: about an hour at a few million a second), perft warns.
const HUGE_WORK_LOG10: f64 = 10.0;

/// A warning when perft to `depth` would visit more than 10^[`HUGE_WORK_LOG10`] positions,
/// estimated from the count at two plies: the moves per ply there, to the power `depth`.
fn work_warning(pos: &Position, depth: u32, counting: LionCounting) -> Option<String> {
    if depth <= 4 {
        return None;
    }
    let two_plies = perft(pos, 2, counting).max(4) as f64;
    let per_ply = two_plies.sqrt();
    let log10 = f64::from(depth) * per_ply.log10();
    (log10 > HUGE_WORK_LOG10).then(|| {
        format!(
            "warning: perft {depth} visits about 10^{log10:.0} positions (about {per_ply:.0} moves a ply here); \
             at a few million a second it may run for hours, or far longer (Ctrl-C stops it)"
        )
    })
}

/// How `koma moves` writes moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MoveFormat {
    /// USI: `7g7f`, `7g6f7g`, `P*5e`.
    #[default]
    Usi,
    /// The Shogi Association's notation of the rule texts: `P-7f`, `Lnx!6f`, `P*5e`.
    Tsa,
}

pub fn moves_command(
    variant: &args::Variant,
    options: &args::Options,
    start: &args::Start,
    from: Option<&str>,
    counting: &args::Counting,
    format: MoveFormat,
) -> ExitCode {
    let pos = match start_position(variant, options, start) {
        Ok(pos) => pos,
        Err(code) => return code,
    };
    let counting = counting.lion();
    let geo = pos.geometry();
    let keep: Box<dyn Fn(&Move) -> bool> = match from {
        None => Box::new(|_| true),
        Some("hand") => Box::new(|m: &Move| m.is_drop()),
        Some(text) => match Square::parse(text).filter(|&s| pos.rules().board.contains(s)) {
            Some(square) => {
                let sq = geo.index(square);
                Box::new(move |m: &Move| m.from == Some(sq))
            }
            None => {
                eprintln!("error: --from takes a square of the board (such as 7g) or `hand`, not `{text}`");
                return ExitCode::FAILURE;
            }
        },
    };
    let mut moves = Vec::new();
    pos.legal_moves_into(&mut moves, counting);
    moves.retain(|m| keep(m));
    let mut lines: Vec<String> = match format {
        MoveFormat::Usi => moves.iter().map(|m| write_usi(&pos, m)).collect(),
        MoveFormat::Tsa => write_tsa_all(&pos, &moves),
    };
    lines.sort();
    for line in lines {
        println!("{line}");
    }
    ExitCode::SUCCESS
}
