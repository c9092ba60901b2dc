//! The command line: `koma check`, `fmt`, `compile`, `show`, the commands that play, and `serve`.

mod args;
mod bench;
mod board;
mod check;
mod fmt;
#[cfg(feature = "lsp")]
mod lsp;
mod move_input;
mod play;
mod play_rules;
mod protocol;
mod search_bench;
#[cfg(feature = "serve")]
mod serve;
mod terminal;
mod tune;
mod usi;
mod xboard;

use clap::{Parser, Subcommand};
use koma::compile::Choice;
use koma::variant::Variant;
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
        /// Variant files (paths, or names of shipped variants such as `chu`), or directories (the .var files in them).
        #[arg(required = true)]
        variants: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: check::Format,
        #[command(flatten)]
        options: args::Options,
    },
    /// Rewrite variant files in the canonical layout (aligned columns, comments kept), or with
    /// `--check` only say which would change (exit status 1; 2 when a file does not parse).
    Fmt {
        /// Variant files, or directories (the .var files in them).
        #[arg(required = true)]
        files: Vec<String>,
        /// Write nothing: name each file that is not formatted, with its first differing line.
        #[arg(long)]
        check: bool,
    },
    /// Print a variant's compiled rules as RON.
    Compile {
        #[command(flatten)]
        variant: args::Variant,
        #[command(flatten)]
        options: args::Options,
    },
    /// Count the legal move sequences of DEPTH plies (the count is the last line).
    Perft {
        #[command(flatten)]
        variant: args::Variant,
        /// How many plies deep to count (the work grows about as the number of moves to this power).
        depth: u32,
        #[command(flatten)]
        start: args::Start,
        /// First print each root move (USI) with its count.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        counting: args::Counting,
        #[command(flatten)]
        options: args::Options,
    },
    /// List the legal moves of a position, one per line, sorted.
    Moves {
        #[command(flatten)]
        variant: args::Variant,
        #[command(flatten)]
        start: args::Start,
        /// Only the moves of the piece on this square, or `hand` for drops.
        #[arg(long)]
        from: Option<String>,
        #[command(flatten)]
        counting: args::Counting,
        /// How moves are written: USI (`7g7f`, the default, for programs) or the Shogi Association's
        /// notation of the rule texts (`P-7f`, what `koma play` shows and reads).
        #[arg(long, value_enum, default_value = "usi")]
        format: play_rules::MoveFormat,
        #[command(flatten)]
        options: args::Options,
    },
    /// Play a game at the terminal, against another person or koma (`help` lists the commands).
    Play(play::Settings),
    /// Be an engine for USI GUIs (Shogi GUIs): speak USI on standard input and output.
    Usi {
        /// The variant to start with (the option `USI_Variant` or `VariantFile` changes it).
        #[arg(default_value = "shogi")]
        variant: String,
        #[command(flatten)]
        options: args::Options,
        #[command(flatten)]
        weights: args::Weights,
    },
    /// Be an engine for XBoard and WinBoard (CECP, protocol version 2).
    Xboard {
        /// The variant to start with; a `.var` file given here is offered to XBoard by its name.
        #[arg(default_value = "shogi")]
        variant: String,
        #[command(flatten)]
        options: args::Options,
        #[command(flatten)]
        weights: args::Weights,
    },
    /// Print each piece's moves in XBetza, as `koma xboard` defines them for XBoard.
    Betza {
        #[command(flatten)]
        variant: args::Variant,
        #[command(flatten)]
        options: args::Options,
    },
    /// Write a variant's pieces (kanji, or abbreviations) as images XBoard reads with
    /// `-pieceImageDirectory`, and print the command that starts XBoard with them.
    XboardPieces {
        #[command(flatten)]
        variant: args::Variant,
        /// The directory to write the images to (made if missing).
        dir: std::path::PathBuf,
        /// Abbreviations on every piece, even where the variant gives kanji.
        #[arg(long)]
        abbreviations: bool,
        #[command(flatten)]
        options: args::Options,
    },
    /// Measure perft speed on every shipped variant (release build, one thread).
    Bench {
        /// One ply less everywhere, for a quick look.
        #[arg(long)]
        quick: bool,
        /// Measure the search instead: nodes per second of fixed-depth searches of the start
        /// and two middle-game positions of Shogi, Chu and Dai, then the depth reached in a
        /// fixed time on every shipped variant, from the start and from a middle game.
        #[arg(long)]
        search: bool,
        /// The time of each timed search of `--search`, in seconds (0.01 to 3600).
        #[arg(long, value_name = "SECONDS", default_value = "1", requires = "search", value_parser = play::parse_time)]
        seconds: f64,
    },
    /// Be a Language Server Protocol server on standard input and output, for editors: koma's
    /// diagnostics as you type, hover, go to definition, completion and document symbols.
    #[cfg(feature = "lsp")]
    Lsp,
    /// Draw each piece's moves (or one piece's) and summarise the variant's rules.
    Show {
        #[command(flatten)]
        variant: args::Variant,
        /// A piece abbreviation (`Ln`, `+DH`) or name; all pieces when omitted.
        piece: Option<String>,
        #[command(flatten)]
        options: args::Options,
        /// Write the pieces' move diagrams as an SVG picture to this file (the drawing the
        /// board in the browser shows) instead of printing them.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
    /// Play koma against itself, one weights file against another, and write the games, one a
    /// line (for tuning the evaluation: docs/strength.md).
    #[command(hide = true)]
    Selfplay(tune::SelfPlay),
    /// Print the result and the evaluation's terms of each quiet position of games read from
    /// standard input, one a line (for tuning the evaluation: docs/strength.md).
    #[command(hide = true)]
    EvalTerms(tune::EvalTerms),
    /// Serve a board in the browser, on this computer only (127.0.0.1): play or inspect any
    /// variant with the mouse. Open the address it prints.
    #[cfg(feature = "serve")]
    Serve {
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Variant files (or shipped variants) to offer besides the shipped ones.
        variants: Vec<String>,
    },
    /// `koma lsp` or `koma serve` in a koma built without that feature: says how to get it.
    #[cfg(not(all(feature = "lsp", feature = "serve")))]
    #[command(external_subcommand)]
    Missing(Vec<String>),
}

/// A command this build of koma leaves out (`serve`, `lsp`: Cargo features, on by default), or
/// one that does not exist.
#[cfg(not(all(feature = "lsp", feature = "serve")))]
fn missing(command: &str) -> ExitCode {
    if command == "serve" || command == "lsp" {
        eprintln!(
            "error: this koma was built without `koma {command}` (Cargo feature `{command}`); \
             `cargo install --path .` builds it with every feature"
        );
    } else {
        eprintln!(
            "error: unrecognized subcommand '{}' (`koma help` lists the commands)",
            koma::notation::excerpt(command, 40)
        );
    }
    ExitCode::from(2)
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            variants,
            format,
            options,
        } => check::run(&variants, format, &options.choices),
        Command::Fmt { files, check } => fmt::run(&files, check),
        Command::Compile { variant, options } => with_variant(&variant.variant, &options.choices, |compiled| {
            println!("{}", compiled.rules().to_ron());
            ExitCode::SUCCESS
        }),
        Command::Perft {
            variant,
            depth,
            start,
            divide,
            counting,
            options,
        } => play_rules::perft_command(&variant, &options, &start, depth, divide, &counting),
        Command::Moves {
            variant,
            start,
            from,
            counting,
            format,
            options,
        } => play_rules::moves_command(&variant, &options, &start, from.as_deref(), &counting, format),
        Command::Bench {
            quick, search: false, ..
        } => bench::run(quick),
        Command::Bench {
            quick,
            search: true,
            seconds,
        } => search_bench::run(quick, seconds),
        #[cfg(feature = "lsp")]
        Command::Lsp => lsp::run(),
        Command::Play(settings) => play::run(settings),
        Command::Usi {
            variant,
            options,
            weights,
        } => match weights.load() {
            Ok(weights) => usi::run(&variant, &options.choices, weights),
            Err(()) => ExitCode::FAILURE,
        },
        Command::Xboard {
            variant,
            options,
            weights,
        } => match weights.load() {
            Ok(weights) => xboard::run(&variant, &options.choices, weights),
            Err(()) => ExitCode::FAILURE,
        },
        Command::Betza { variant, options } => xboard::betza_command(&variant.variant, &options.choices),
        Command::XboardPieces {
            variant,
            dir,
            abbreviations,
            options,
        } => xboard::pieces_command(&variant.variant, &options.choices, &dir, abbreviations),
        #[cfg(feature = "serve")]
        Command::Serve { port, variants } => serve::run(port, &variants),
        #[cfg(not(all(feature = "lsp", feature = "serve")))]
        Command::Missing(words) => missing(&words[0]),
        Command::Selfplay(settings) => tune::selfplay(&settings),
        Command::EvalTerms(settings) => tune::eval_terms(&settings),
        Command::Show {
            variant,
            piece,
            options,
            svg: Some(path),
        } => with_variant(&variant.variant, &options.choices, |compiled| {
            show_svg(compiled.rules(), piece.as_deref(), &path)
        }),
        Command::Show {
            variant,
            piece,
            options,
            svg: None,
        } => with_variant(&variant.variant, &options.choices, |compiled| {
            match koma::show::show(compiled.rules(), piece.as_deref()) {
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

/// Whether to colour output written to `stream`, by anstream's reading of the conventions: a
/// terminal that supports colour, unless `NO_COLOR` is set (or `CLICOLOR=0`); `CLICOLOR_FORCE`
/// colours even a pipe.
pub fn colour<S: anstream::stream::RawStream>(stream: &S) -> bool {
    anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never
}

/// `koma show --svg FILE`: the diagrams written to FILE.
fn show_svg(rules: &koma::rules::Rules, piece: Option<&str>, path: &std::path::Path) -> ExitCode {
    let written = koma::show::show_svg(rules, piece).and_then(|svg| koma::files::save_atomic(path, &svg));
    match written {
        Ok(()) => {
            println!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Compiles a variant; on errors prints the report and fails, otherwise runs `then`.
fn with_variant(name: &str, options: &[Choice], then: impl FnOnce(&Variant) -> ExitCode) -> ExitCode {
    match Variant::named(name, options) {
        Ok(variant) => then(&variant),
        Err(report) => {
            eprint!("{}", report.render(colour(&std::io::stderr())));
            eprintln!("error: {}", report.summary(name));
            ExitCode::FAILURE
        }
    }
}
