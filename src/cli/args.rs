//! The settings several commands share, each declared and described once and flattened into
//! the commands that take it (clap `Args` structs).

use clap::Args;
use koma::compile::Choice;

/// The variant a command works on.
#[derive(Args)]
pub struct Variant {
    /// A shipped variant (shogi, yari, tori, chu, dai, maka-dai-dai, minishogi,
    /// judkins, sho, micro, kyoto, checkshogi, annan, wa, whale, heian, heian-dai, dai-dai,
    /// tai) or the path of a `.var` file.
    pub variant: String,
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
