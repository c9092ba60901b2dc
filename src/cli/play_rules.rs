//! `koma perft` and `koma moves`: the interpreter's move generation from the command line.

use koma::compile::Choice;
use koma::game::{LionCounting, Position, Tables, perft, perft_divide};
use koma::notation::{legal_usi, read_sfen, write_usi};
use std::process::ExitCode;
use std::sync::Arc;

/// Compiles a variant and sets up a position (the start, or `sfen`).
pub fn position(variant: &str, options: &[Choice], sfen: Option<&str>) -> Result<Position, ExitCode> {
    let mut result = Err(ExitCode::FAILURE);
    super::with_rules(variant, options, |rules| {
        let tables = Arc::new(Tables::new(rules.clone()));
        result = match sfen {
            None => Ok(Position::start(tables)),
            Some(text) => read_sfen(&tables, text).map_err(|e| {
                eprintln!("error: bad position: {e}");
                ExitCode::FAILURE
            }),
        };
        ExitCode::SUCCESS
    });
    result
}

pub fn perft_command(
    variant: &str,
    options: &[Choice],
    depth: u32,
    sfen: Option<&str>,
    divide: bool,
    paths: bool,
) -> ExitCode {
    let mut pos = match position(variant, options, sfen) {
        Ok(pos) => pos,
        Err(code) => return code,
    };
    let counting = if paths {
        LionCounting::Paths
    } else {
        LionCounting::Distinct
    };
    if divide {
        let mut lines: Vec<(String, u64)> = perft_divide(&mut pos, depth, counting)
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
        println!("{}", perft(&mut pos, depth, counting));
    }
    ExitCode::SUCCESS
}

pub fn moves_command(
    variant: &str,
    options: &[Choice],
    sfen: Option<&str>,
    from: Option<&str>,
    paths: bool,
) -> ExitCode {
    let mut pos = match position(variant, options, sfen) {
        Ok(pos) => pos,
        Err(code) => return code,
    };
    let counting = if paths {
        LionCounting::Paths
    } else {
        LionCounting::Distinct
    };
    for m in legal_usi(&mut pos, counting) {
        let keep = match from {
            None => true,
            Some("hand") => m.contains('*'),
            Some(square) => m.starts_with(square) && !m[square.len()..].starts_with(|c: char| c.is_ascii_lowercase()),
        };
        if keep {
            println!("{m}");
        }
    }
    ExitCode::SUCCESS
}
