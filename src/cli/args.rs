//! The settings several commands share, each declared and described once and flattened into
//! the commands that take it (clap `Args` structs).

use clap::Args;
use koma::compile::Choice;

/// The variant a command works on.
#[derive(Args)]
pub struct Variant {
    #[arg(help = variant_help(""))]
    pub variant: String,
}

/// The help of a variant argument: the shipped variants, as the loader lists them, or the
/// path of a `.var` file; then `more`.
pub fn variant_help(more: &str) -> String {
    let names: Vec<&str> = koma::compile::source::SHIPPED.iter().map(|&(name, _)| name).collect();
    format!(
        "A shipped variant ({}) or the path of a `.var` file{more}",
        names.join(", ")
    )
}

/// The options of the variant chosen on the command line.
#[derive(Args)]
pub struct Options {
    /// Choose an option of the variant, as NAME=VALUE (may be repeated; `koma show VARIANT` lists them).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub choices: Vec<Choice>,
}

/// The position a command starts from.
#[derive(Args)]
pub struct Start {
    /// Start from this position instead of the variant's start, in SFEN (as lishogi and Fairy-Stockfish write it).
    #[arg(long)]
    pub sfen: Option<String>,
    /// Then play these moves, in USI separated by spaces (`7g7f 3c3d`), each checked for legality.
    #[arg(long, value_name = "USI MOVES")]
    pub moves: Option<String>,
}

/// How Lion moves are counted.
#[derive(Args)]
pub struct Counting {
    /// Count Lion moves per path, as lishogi does.
    #[arg(long)]
    pub paths: bool,
}

impl Counting {
    /// The Lion counting `--paths` asks for.
    pub fn lion(&self) -> koma::game::LionCounting {
        if self.paths {
            koma::game::LionCounting::Paths
        } else {
            koma::game::LionCounting::Distinct
        }
    }
}

/// The evaluation's weights.
#[derive(Args)]
pub struct Weights {
    /// Evaluate with the weights in this file instead of koma's own (the form of koma's
    /// `src/engine/weights.ron`: a default set and sets by variant name; docs/strength.md).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
}

impl Weights {
    /// The weights file chosen, or koma's own; on an error, its report (file, line, what is
    /// wrong) on standard error.
    pub fn load(&self) -> Result<std::sync::Arc<koma::engine::WeightFile>, ()> {
        let Some(path) = &self.weights else {
            return Ok(koma::engine::WeightFile::built_in());
        };
        koma::engine::WeightFile::load(path)
            .map(std::sync::Arc::new)
            .map_err(|e| {
                eprint!("{}", render(&e, super::colour(&std::io::stderr())));
            })
    }
}

/// A miette diagnostic drawn over its source, coloured or not.
pub fn render(diagnostic: &dyn miette::Diagnostic, colour: bool) -> String {
    let theme = if colour {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = miette::GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .render_report(&mut out, diagnostic);
    out
}

/// Reads who plays a side (`--black`, `--white`), offering the players `--help` lists.
pub fn player() -> impl clap::builder::TypedValueParser<Value = koma::variant::Player> {
    use clap::builder::TypedValueParser;
    let names = koma::variant::Player::ALL.map(koma::variant::Player::name);
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<koma::variant::Player>())
}
