//! The command line: `koma check`, `compile`, `show` and the commands that play.

mod bench;
mod board;
mod check;
mod play;
mod play_rules;
mod protocol;
mod usi;
mod xboard;

use clap::{Parser, Subcommand};
use koma::compile::{self, Choice, Compiled};
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "koma",
    version,
    about = "A data-driven rules interpreter for the shogi family of games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate variant files: every error and warning, with where and why.
    Check {
        /// Variant files (paths, or names of shipped variants such as `chu`).
        #[arg(required = true)]
        variants: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: check::Format,
        /// An option of the variant, as NAME=VALUE (may be repeated).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Print a variant's compiled tables as RON.
    Compile {
        variant: String,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Count the legal move sequences of DEPTH plies (the count is the last line).
    Perft {
        variant: String,
        depth: u32,
        /// Start from this position (SFEN) instead of the variant's start.
        #[arg(long)]
        sfen: Option<String>,
        /// First print each root move (USI) with its count.
        #[arg(long)]
        divide: bool,
        /// Count Lion moves per path, as lishogi does.
        #[arg(long)]
        paths: bool,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// List the legal moves of a position, one per line, sorted.
    Moves {
        variant: String,
        #[arg(long)]
        sfen: Option<String>,
        /// Only the moves of the piece on this square, or `hand` for drops.
        #[arg(long)]
        from: Option<String>,
        /// Count Lion moves per path, as lishogi does.
        #[arg(long)]
        paths: bool,
        /// How moves are written: USI (`7g7f`) or the Shogi Association's notation (`P-7f`).
        #[arg(long, value_enum, default_value = "usi")]
        format: play_rules::MoveFormat,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Play a game at the terminal, against another person or koma (`help` lists the commands).
    Play {
        /// The variant: a shipped name (`shogi`, `chu`) or a `.var` file. Not needed to continue
        /// a record (`--load`, or `--record` on an existing game), which names its variant.
        #[arg(required_unless_present_any = ["load", "record"])]
        variant: Option<String>,
        /// Who plays Black (the first player).
        #[arg(long, value_enum, default_value = "human")]
        black: play::Player,
        /// Who plays White.
        #[arg(long, value_enum, default_value = "koma")]
        white: play::Player,
        /// koma's search depth (default 3).
        #[arg(long)]
        depth: Option<u32>,
        /// koma's time per move, in seconds (instead of a depth).
        #[arg(long)]
        time: Option<f64>,
        /// Start with this handicap (White's pieces removed, White moves first).
        #[arg(long)]
        handicap: Option<String>,
        /// Start from this position (SFEN) instead of the variant's start.
        #[arg(long)]
        sfen: Option<String>,
        /// Continue a saved game record (it names its variant and options).
        #[arg(long)]
        load: Option<std::path::PathBuf>,
        /// Keep the game in this record file, saved after every move. A file that already holds a
        /// game is continued (it is loaded), unless `--overwrite` is given.
        #[arg(long)]
        record: Option<std::path::PathBuf>,
        /// With `--record`: start a new game that replaces the game in the file.
        #[arg(long, requires = "record")]
        overwrite: bool,
        /// Stop after this many moves (for games koma plays against itself).
        #[arg(long)]
        max_moves: Option<usize>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Be an engine for USI GUIs (Shogi GUIs): speak USI on standard input and output.
    Usi {
        /// The variant to start with (the option `USI_Variant` or `VariantFile` changes it).
        #[arg(default_value = "shogi")]
        variant: String,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Be an engine for XBoard and WinBoard (CECP, protocol version 2).
    Xboard {
        /// The variant to start with; a `.var` file given here is offered to XBoard by its name.
        #[arg(default_value = "shogi")]
        variant: String,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Print each piece's moves in XBetza, as `koma xboard` defines them for XBoard.
    Betza {
        variant: String,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Measure perft speed on every shipped variant (release build, one thread).
    Bench {
        /// One ply less everywhere, for a quick look.
        #[arg(long)]
        quick: bool,
    },
    /// Draw each piece's moves (or one piece's) and summarise the variant's rules.
    Show {
        variant: String,
        /// A piece abbreviation (`Ln`, `+DH`) or name; all pieces when omitted.
        piece: Option<String>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            variants,
            format,
            options,
        } => check::run(&variants, format, &options),
        Command::Compile { variant, options } => with_rules(&variant, &options, |rules| {
            println!("{}", rules.to_ron());
            ExitCode::SUCCESS
        }),
        Command::Perft {
            variant,
            depth,
            sfen,
            divide,
            paths,
            options,
        } => play_rules::perft_command(&variant, &options, depth, sfen.as_deref(), divide, paths),
        Command::Moves {
            variant,
            sfen,
            from,
            paths,
            format,
            options,
        } => play_rules::moves_command(&variant, &options, sfen.as_deref(), from.as_deref(), paths, format),
        Command::Bench { quick } => bench::run(quick),
        Command::Play {
            variant,
            black,
            white,
            depth,
            time,
            handicap,
            sfen,
            load,
            record,
            overwrite,
            max_moves,
            options,
        } => play::run(play::Settings {
            variant,
            options,
            black,
            white,
            depth,
            time,
            handicap,
            sfen,
            load,
            record,
            overwrite,
            max_moves,
        }),
        Command::Usi { variant, options } => usi::run(&variant, &options),
        Command::Xboard { variant, options } => xboard::run(&variant, &options),
        Command::Betza { variant, options } => xboard::betza_command(&variant, &options),
        Command::Show {
            variant,
            piece,
            options,
        } => with_rules(&variant, &options, |rules| {
            match koma::show::show(rules, piece.as_deref()) {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            }
        }),
    }
}

/// Whether to colour output written to stderr/stdout.
pub fn colour(stream_is_terminal: bool) -> bool {
    stream_is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Compiles a variant; on errors prints the report and fails, otherwise runs `then`.
fn with_rules(variant: &str, options: &[Choice], then: impl FnOnce(&koma::rules::Rules) -> ExitCode) -> ExitCode {
    let Compiled { rules, report } = compile::compile_named(variant, options);
    if !report.diagnostics.is_empty() && rules.is_none() {
        eprint!("{}", report.render(colour(std::io::stderr().is_terminal())));
    }
    match rules {
        Some(rules) => then(&rules),
        None => {
            eprintln!("error: {}", report.summary(variant));
            ExitCode::FAILURE
        }
    }
}
