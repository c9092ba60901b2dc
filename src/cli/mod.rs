//! The command line: `koma check`, `compile`, `show`, the commands that play, and `serve`.

mod bench;
mod board;
mod check;
mod move_input;
mod play;
mod play_rules;
mod serve;
mod terminal;

use clap::{Parser, Subcommand};
use koma::compile::{self, Choice, Compiled};
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
        /// Choose an option of the variant, as NAME=VALUE (may be repeated; `koma show VARIANT` lists them).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Print a variant's compiled tables as RON.
    Compile {
        /// A shipped variant (shogi, yari, tori, chu, dai, maka-dai-dai) or the path of a `.var` file.
        variant: String,
        /// Choose an option of the variant, as NAME=VALUE (may be repeated; `koma show VARIANT` lists them).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Count the legal move sequences of DEPTH plies (the count is the last line).
    Perft {
        /// A shipped variant (shogi, yari, tori, chu, dai, maka-dai-dai) or the path of a `.var` file.
        variant: String,
        /// How many plies deep to count (the work grows about as the number of moves to this power).
        depth: u32,
        /// Start from this position instead of the variant's start, in SFEN (as lishogi and Fairy-Stockfish write it).
        #[arg(long)]
        sfen: Option<String>,
        /// First print each root move (USI) with its count.
        #[arg(long)]
        divide: bool,
        /// Count Lion moves per path, as lishogi does.
        #[arg(long)]
        paths: bool,
        /// Choose an option of the variant, as NAME=VALUE (may be repeated; `koma show VARIANT` lists them).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// List the legal moves of a position, one per line, sorted.
    Moves {
        /// A shipped variant (shogi, yari, tori, chu, dai, maka-dai-dai) or the path of a `.var` file.
        variant: String,
        /// Start from this position instead of the variant's start, in SFEN (as lishogi and Fairy-Stockfish write it).
        #[arg(long)]
        sfen: Option<String>,
        /// Only the moves of the piece on this square, or `hand` for drops.
        #[arg(long)]
        from: Option<String>,
        /// Count Lion moves per path, as lishogi does.
        #[arg(long)]
        paths: bool,
        /// How moves are written: USI (`7g7f`, the default, for programs) or the Shogi Association's
        /// notation of the rule texts (`P-7f`, what `koma play` shows and reads).
        #[arg(long, value_enum, default_value = "usi")]
        format: play_rules::MoveFormat,
        /// Choose an option of the variant, as NAME=VALUE (may be repeated; `koma show VARIANT` lists them).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
    },
    /// Play a game at the terminal, against another person or koma (`help` lists the commands).
    Play {
        /// A shipped variant (shogi, yari, tori, chu, dai, maka-dai-dai) or the path of a `.var`
        /// file. Not needed to continue a record (`--load`, or `--record` on an existing game),
        /// which names its variant.
        #[arg(required_unless_present_any = ["load", "record"])]
        variant: Option<String>,
        /// Who plays Black (the first player).
        #[arg(long, value_enum, default_value = "human")]
        black: play::Player,
        /// Who plays White.
        #[arg(long, value_enum, default_value = "koma")]
        white: play::Player,
        /// koma's search depth, 1 to 64 plies (default: 3, and at most 10 s per move).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=play::MAX_DEPTH))]
        depth: Option<u32>,
        /// koma's time per move, in seconds, 0.01 to 3600 (instead of a depth, or with one).
        #[arg(long, value_name = "SECONDS", value_parser = play::parse_time, allow_negative_numbers = true)]
        time: Option<f64>,
        /// Start with this handicap (White's pieces removed, White moves first).
        #[arg(long)]
        handicap: Option<String>,
        /// Start from this position instead of the variant's start, in SFEN (as lishogi and Fairy-Stockfish write it).
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
        /// How the board is drawn: wide (White's pieces marked `v`), compact (White's in lower
        /// case, in strips of files if still too wide), or auto: wide when it fits the terminal
        /// (its width, or COLUMNS; 80 when output is not a terminal), else compact.
        #[arg(long, value_enum, default_value = "auto")]
        layout: play::Layout,
        /// Choose an option of the variant, as NAME=VALUE (may be repeated; `koma show VARIANT` lists them).
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
        /// A shipped variant (shogi, yari, tori, chu, dai, maka-dai-dai) or the path of a `.var` file.
        variant: String,
        /// A piece abbreviation (`Ln`, `+DH`) or name; all pieces when omitted.
        piece: Option<String>,
        /// Choose an option of the variant, as NAME=VALUE (may be repeated; `koma show VARIANT` lists them).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<Choice>,
        /// Write the pieces' move diagrams as an SVG picture to this file (the drawing the
        /// board in the browser shows) instead of printing them.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
    /// Serve a board in the browser, on this computer only (127.0.0.1): play or inspect any
    /// variant with the mouse. Open the address it prints.
    Serve {
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Variant files (or shipped variants) to offer besides the shipped ones.
        variants: Vec<String>,
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
            layout,
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
            layout,
        }),
        Command::Serve { port, variants } => serve::run(port, &variants),
        Command::Show {
            variant,
            piece,
            options,
            svg: Some(path),
        } => with_rules(&variant, &options, |rules| show_svg(rules, piece.as_deref(), &path)),
        Command::Show {
            variant,
            piece,
            options,
            svg: None,
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
fn with_rules(variant: &str, options: &[Choice], then: impl FnOnce(&koma::rules::Rules) -> ExitCode) -> ExitCode {
    let Compiled { rules, report } = compile::compile_named(variant, options);
    if !report.diagnostics.is_empty() && rules.is_none() {
        eprint!("{}", report.render(colour(&std::io::stderr())));
    }
    match rules {
        Some(rules) => then(&rules),
        None => {
            eprintln!("error: {}", report.summary(variant));
            ExitCode::FAILURE
        }
    }
}
