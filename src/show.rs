//! Piece diagrams and a rules summary (placeholder until the diagram renderer lands).

use crate::rules::Rules;

pub fn show(rules: &Rules, _piece: Option<&str>) -> Result<String, String> {
    Ok(format!("{}\n", rules.name))
}
