//! Options: the `option` statements declared, the values chosen for a game (`--option`), and
//! the `when` guards that make a statement or move clause depend on them.

use super::diagnostic::{Check, Label};
use super::suggest::{did_you_mean, did_you_mean_or, suggest};
use super::{Choice, Ctx};
use crate::parse::ast::{File, Guard, Span, Statement};
use crate::rules::GameOption;
use indexmap::IndexMap;

/// The options declared, by name, in order of declaration.
pub(super) type Options = IndexMap<String, OptionState>;

/// An option as declared, with the value in force.
pub(super) struct OptionState {
    pub(super) option: GameOption,
    span: Span,
    /// Some `when` names it.
    used: bool,
}

impl Ctx {
    pub(super) fn declare_options(&mut self, file: &File, choices: &[Choice]) {
        for statement in &file.statements {
            let Statement::Option(decl) = &statement.node else {
                continue;
            };
            if let Some(previous) = self.options.get(&decl.name.node) {
                let labels = Label::again("declared", decl.name.span.clone(), previous.span.clone());
                self.report(
                    Check::DuplicateOption,
                    0,
                    format!("option `{}` is declared twice", decl.name.node),
                    labels,
                    Some("declare an option once, with all its values: `option NAME = A | B`".into()),
                );
                continue;
            }
            let mut values: Vec<String> = Vec::new();
            for value in &decl.values {
                if values.contains(&value.node) {
                    self.error(
                        Check::DuplicateOption,
                        value.span.clone(),
                        format!("option `{}` lists `{}` twice", decl.name.node, value.node),
                        "listed again",
                        Some("list each value once".into()),
                    );
                } else {
                    values.push(value.node.clone());
                }
            }
            let chosen = values[0].clone();
            let option = GameOption {
                description: decl.description.clone(),
                values,
                chosen,
            };
            self.options.insert(
                decl.name.node.clone(),
                OptionState {
                    option,
                    span: decl.name.span.clone(),
                    used: false,
                },
            );
        }
        for choice in choices {
            let Some(state) = self.options.get_mut(&choice.name) else {
                let known: Vec<&str> = self.options.keys().map(String::as_str).collect();
                let help = did_you_mean_or(&choice.name, known.iter().copied(), || {
                    if known.is_empty() {
                        "this variant has no options".to_string()
                    } else {
                        format!("its options are: {}", known.join(", "))
                    }
                });
                self.report(
                    Check::UnknownOption,
                    0,
                    format!(
                        "--option {}={}: this variant has no option `{}`",
                        choice.name, choice.value, choice.name
                    ),
                    vec![],
                    Some(help),
                );
                continue;
            };
            if state.option.values.contains(&choice.value) {
                state.option.chosen = choice.value.clone();
            } else {
                let help = format!("`{}` is one of: {}", choice.name, state.option.values.join(", "));
                let span = state.span.clone();
                let message = format!(
                    "--option {}={}: option `{}` has no value `{}`",
                    choice.name, choice.value, choice.name, choice.value
                );
                let label = format!("declared with {}", state.option.values.join(" | "));
                self.error(Check::UnknownOptionValue, span, message, &label, Some(help));
            }
        }
    }

    /// Whether a statement or clause with this guard is in force; reports a bad guard.
    pub(super) fn active(&mut self, guard: &Option<Guard>, source: usize) -> bool {
        let Some(guard) = guard else { return true };
        let Some(state) = self.options.get_mut(&guard.option.node) else {
            let meant = suggest(&guard.option.node, self.options.keys().map(String::as_str));
            let mut labels = vec![Label {
                span: guard.option.span.clone(),
                text: "unknown option".into(),
            }];
            let help = match meant {
                Some(meant) => {
                    if source == 0 {
                        labels.push(Label {
                            span: self.options[meant].span.clone(),
                            text: format!("`{meant}` is declared here"),
                        });
                    }
                    did_you_mean(meant)
                }
                None if self.options.is_empty() => {
                    "declare it first: `option NAME \"description\" = VALUE | VALUE`".to_string()
                }
                None => format!(
                    "the options are: {}",
                    self.options.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
                ),
            };
            self.report(
                Check::UnknownOption,
                source,
                format!("no option `{}` is declared", guard.option.node),
                labels,
                Some(help),
            );
            return false;
        };
        state.used = true;
        let option = state.option.clone();
        let declared = state.span.clone();
        for value in &guard.values {
            if !option.values.contains(&value.node) {
                let help = Some(did_you_mean_or(
                    &value.node,
                    option.values.iter().map(String::as_str),
                    || format!("`{}` is one of: {}", guard.option.node, option.values.join(", ")),
                ));
                let mut labels = vec![Label {
                    span: value.span.clone(),
                    text: "not a value of the option".into(),
                }];
                if source == 0 {
                    labels.push(Label {
                        span: declared.clone(),
                        text: format!("declared with {}", option.values.join(" | ")),
                    });
                }
                self.report(
                    Check::UnknownOptionValue,
                    source,
                    format!("option `{}` has no value `{}`", guard.option.node, value.node),
                    labels,
                    help,
                );
            }
        }
        guard.values.iter().any(|v| v.node == option.chosen)
    }

    /// Warns of each option that no `when` names: choosing it changes nothing.
    pub(super) fn unused_options(&mut self) {
        let unused: Vec<(String, Span)> = self
            .options
            .iter()
            .filter(|(_, state)| !state.used)
            .map(|(name, state)| (name.clone(), state.span.clone()))
            .collect();
        for (name, span) in unused {
            self.report(
                Check::UnusedOption,
                0,
                format!("option `{name}` is declared, but no `when` names it: choosing it changes nothing"),
                vec![Label {
                    span,
                    text: "never used".into(),
                }],
                Some(format!(
                    "add `when {name} = VALUE` to the rules or move clauses it governs, or remove the option"
                )),
            );
        }
    }
}
