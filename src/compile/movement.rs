//! Lowering a piece's move clauses into [`Movement`] entries.
//!
//! Directions are words from the mover's point of view; each becomes an [`Offset`]
//! (`dx` to the mover's right, `dy` forward). Distances are checked against the board.

use super::Ctx;
use super::diagnostic::{Check, Label};
use super::suggest::{did_you_mean_or, did_you_mean_or_list};
use crate::parse::ast::{Clause, Modifier, MovementSyntax, Spanned};
use crate::parse::keywords;
use crate::rules::{BoardSize, KingSteps, MAX_AREA_STEPS, MAX_LION_STEPS, Mode, Movement, Offset};

/// The offsets a direction word stands for, if it is one.
fn offsets_of(word: &str) -> Option<Vec<Offset>> {
    keywords::directions()
        .find(|(w, _)| *w == word)
        .map(|(_, offsets)| offsets.iter().map(|&(dx, dy)| Offset::new(dx, dy)).collect())
}

/// The word for a single direction (`forward`), or `None` for any other offset.
fn direction_name(offset: Offset) -> Option<&'static str> {
    keywords::directions()
        .find(|(_, offsets)| *offsets == [(offset.dx, offset.dy)])
        .map(|(w, _)| w)
}

/// What a clause lowers to: movements, or a reference to another piece's moves.
pub enum Lowered {
    Moves(Vec<Movement>),
    As(Spanned<String>),
}

impl Ctx {
    /// Lowers one clause. Mistakes are reported; what is still meaningful is kept.
    pub(super) fn lower_clause(&mut self, clause: &Clause, source: usize, board: BoardSize) -> Lowered {
        let mode = self.mode(clause, source);
        let from_last_rank = self.last_rank_only(clause, source);
        let longest = board.files.max(board.ranks);
        let beyond = self.beyond(clause, source, longest);
        if let Some(pieces) = self.passing(clause, source, longest, beyond, from_last_rank) {
            return Lowered::Moves(self.passing_moves(clause, source, longest, pieces, mode));
        }
        let movement = &clause.movement;
        let moves = match &movement.node {
            MovementSyntax::As(abbrev) => return Lowered::As(abbrev.clone()),
            MovementSyntax::Step(dirs) => self
                .directions(dirs, source)
                .into_iter()
                .map(|dir| Movement::Ride {
                    dir,
                    max: Some(1),
                    mode,
                    from_last_rank,
                    beyond,
                })
                .collect(),
            MovementSyntax::Slide(dirs) => self
                .directions(dirs, source)
                .into_iter()
                .map(|dir| Movement::Ride {
                    dir,
                    max: None,
                    mode,
                    from_last_rank,
                    beyond,
                })
                .collect(),
            MovementSyntax::Range(n, dirs) => {
                let max = self.distance(n, 1, longest, source, "a range");
                self.directions(dirs, source)
                    .into_iter()
                    .map(|dir| Movement::Ride {
                        dir,
                        max: Some(max),
                        mode,
                        from_last_rank,
                        beyond,
                    })
                    .collect()
            }
            MovementSyntax::Jump(n, dirs) => {
                let k = self.distance(n, 1, longest, source, "a jump") as i8;
                self.directions(dirs, source)
                    .into_iter()
                    .map(|dir| Movement::Leap {
                        to: dir.scale(k),
                        mode,
                        from_last_rank,
                    })
                    .collect()
            }
            MovementSyntax::Leap(offsets) => {
                let mut seen: std::collections::HashMap<(i64, i64), &Spanned<(i64, i64)>> =
                    std::collections::HashMap::new();
                let mut moves = Vec::new();
                for offset in offsets {
                    if let Some(first) = seen.get(&offset.node) {
                        let (x, y) = offset.node;
                        let labels = Label::again("given", offset.span.clone(), first.span.clone());
                        self.report(
                            Check::EmptyClause,
                            source,
                            format!("the leap ({x}, {y}) is given twice in this clause"),
                            labels,
                            Some("each offset may appear once per clause".into()),
                        );
                        continue;
                    }
                    seen.insert(offset.node, offset);
                    if let Some(to) = self.leap(offset, board, source) {
                        moves.push(Movement::Leap {
                            to,
                            mode,
                            from_last_rank,
                        });
                    }
                }
                moves
            }
            MovementSyntax::Lion(steps, dirs) => {
                let steps = match steps {
                    Some(n) if n.node > u32::from(MAX_LION_STEPS) => {
                        self.error_in(
                            Check::Limit,
                            source,
                            n.span.clone(),
                            format!(
                                "a lion move of {} steps is past koma's limit of {MAX_LION_STEPS}",
                                n.node
                            ),
                            &format!("at most {MAX_LION_STEPS}"),
                            Some(format!(
                                "koma plays lion moves of up to {MAX_LION_STEPS} steps (the Teaching King's); \
                                 a longer reach is `range` or `slide`"
                            )),
                        );
                        MAX_LION_STEPS
                    }
                    Some(n) => self.distance(n, 2, longest, source, "a lion move"),
                    None => 2,
                };
                if dirs.is_empty() {
                    vec![Movement::AreaLion { steps, mode }]
                } else {
                    self.directions(dirs, source)
                        .into_iter()
                        .map(|dir| Movement::LineLion { dir, steps, mode })
                        .collect()
                }
            }
            MovementSyntax::Hook(dirs, turning) => {
                let firsts = self.directions(dirs, source);
                let turns = turning
                    .as_ref()
                    .map(|t| (self.directions(&t.node, source), t.span.clone()));
                match turns {
                    None => firsts
                        .into_iter()
                        .map(|dir| Movement::Hook {
                            dir,
                            only_turn: None,
                            mode,
                        })
                        .collect(),
                    Some((turns, span)) => self.turning_hooks(&firsts, &turns, span, mode, source),
                }
            }
            MovementSyntax::Anywhere => vec![Movement::Anywhere { mode }],
            MovementSyntax::Area(n, dirs) => {
                let steps = self.area_steps(n, longest, source);
                let dirs = KingSteps::of(&self.directions(dirs, source));
                vec![Movement::Area { steps, dirs, mode }]
            }
            MovementSyntax::RangeJump(dirs) => self
                .directions(dirs, source)
                .into_iter()
                .map(|dir| Movement::RangeJump { dir, mode })
                .collect(),
            MovementSyntax::RangeCapture(dirs) => {
                let mode = self.range_capture_mode(clause, source, mode);
                self.directions(dirs, source)
                    .into_iter()
                    .map(|dir| Movement::RangeCapture { dir, mode })
                    .collect()
            }
            MovementSyntax::Igui(dirs) => {
                if mode == Mode::MoveOnly {
                    self.igui_moves_only(clause, source);
                }
                self.directions(dirs, source)
                    .into_iter()
                    .map(|dir| Movement::Igui { dir, mode })
                    .collect()
            }
            MovementSyntax::Hop(most, dirs) => {
                if self.hop_before_a_move(dirs, source) {
                    return Lowered::Moves(vec![]);
                }
                let max = most.as_ref().map(|n| self.hop_reach(n, longest, source));
                self.directions(dirs, source)
                    .into_iter()
                    .map(|dir| Movement::Hop { dir, max, mode })
                    .collect()
            }
            MovementSyntax::Unknown(word) => {
                // A word followed by a move stands where a modifier stands (`screened slide …`).
                let text = self.sink.sources[source].text.get(movement.span.clone()).unwrap_or("");
                let before_a_move = text
                    .split_whitespace()
                    .nth(1)
                    .is_some_and(|next| keywords::movements().any(|m| m == next));
                let help = did_you_mean_or(word, keywords::clause_starts(), || {
                    if before_a_move {
                        format!(
                            "a word before a move is a modifier, one of: {} (`passing N`: the move may pass over \
                             up to N pieces; `beyond N`: it starts past N jumped squares)",
                            keywords::modifiers().collect::<Vec<_>>().join(", ")
                        )
                    } else {
                        format!(
                            "a move is one of: {}",
                            keywords::movements().collect::<Vec<_>>().join(", ")
                        )
                    }
                });
                let span = movement.span.start..movement.span.start + word.len();
                self.error_in(
                    Check::UnknownMovement,
                    source,
                    span,
                    format!("`{word}` is not a kind of move"),
                    "unknown move",
                    Some(help),
                );
                vec![]
            }
        };
        Lowered::Moves(moves)
    }

    /// The hooks of `hook DIRS turning TURNS`: from each first leg, the turns among `turns`
    /// at 90° to it. A turn at 90° to no first leg, or a first leg with no turn, is reported.
    fn turning_hooks(
        &mut self,
        firsts: &[Offset],
        turns: &[Offset],
        span: crate::parse::ast::Span,
        mode: Mode,
        source: usize,
    ) -> Vec<Movement> {
        let name = |o: Offset| direction_name(o).unwrap_or("?");
        if let Some(&stray) = turns
            .iter()
            .find(|t| !firsts.iter().any(|f| f.perpendiculars().contains(t)))
        {
            self.error_in(
                Check::ContradictoryClause,
                source,
                span.clone(),
                format!("a hook turns by 90°, and {} is at 90° to none of its first legs", name(stray)),
                "a turn no first leg can take",
                Some("after `turning`, name directions at 90° to the first legs: `hook forward-diagonal turning forward-diagonal`".into()),
            );
            return vec![];
        }
        let mut moves = vec![];
        for &dir in firsts {
            let allowed: Vec<Offset> = dir.perpendiculars().into_iter().filter(|p| turns.contains(p)).collect();
            match allowed.as_slice() {
                [] => {
                    self.error_in(
                        Check::ContradictoryClause,
                        source,
                        span.clone(),
                        format!(
                            "the hook's first leg along {} may not turn: no direction after `turning` is at 90° to it",
                            name(dir)
                        ),
                        "no turn for that leg",
                        Some(format!(
                            "a leg that never turns is a slide: write `slide {}` as its own clause",
                            name(dir)
                        )),
                    );
                    return vec![];
                }
                [only] => moves.push(Movement::Hook {
                    dir,
                    only_turn: Some(*only),
                    mode,
                }),
                _ => moves.push(Movement::Hook {
                    dir,
                    only_turn: None,
                    mode,
                }),
            }
        }
        moves
    }

    /// The first modifier `word` of the clause, if given; a second one is reported.
    fn modifier_once<'c>(&mut self, clause: &'c Clause, source: usize, word: &str) -> Option<&'c Spanned<Modifier>> {
        let mut given = clause.modifiers.iter().filter(|m| m.node.word() == word);
        let first = given.next()?;
        if let Some(again) = given.next() {
            let labels = Label::again("given", again.span.clone(), first.span.clone());
            let help = Some(format!("say `{word}` once"));
            self.report(
                Check::EmptyClause,
                source,
                "the same modifier is given twice".into(),
                labels,
                help,
            );
        }
        Some(first)
    }

    /// Whether the clause is `from-last-rank`: reported where it cannot apply (a movement
    /// that is not a fixed run of squares, or another piece's moves) or is given twice.
    fn last_rank_only(&mut self, clause: &Clause, source: usize) -> bool {
        let Some(first) = self.modifier_once(clause, source, "from-last-rank") else {
            return false;
        };
        let unrolled = matches!(
            clause.movement.node,
            MovementSyntax::Step(_)
                | MovementSyntax::Slide(_)
                | MovementSyntax::Range(..)
                | MovementSyntax::Jump(..)
                | MovementSyntax::Leap(_)
        );
        if !unrolled && !matches!(clause.movement.node, MovementSyntax::Unknown(_)) {
            let labels = vec![
                Label {
                    span: first.span.clone(),
                    text: "only from the last rank".into(),
                },
                Label {
                    span: clause.movement.span.clone(),
                    text: "not a step, slide, range, jump or leap".into(),
                },
            ];
            self.report(
                Check::ContradictoryClause,
                source,
                "`from-last-rank` applies to steps, slides, ranges, jumps and leaps".into(),
                labels,
                Some(
                    "write the moves allowed from the last rank as their own clause, such as \
                     `from-last-rank slide back-diagonal`"
                        .into(),
                ),
            );
            return false;
        }
        true
    }

    /// How many squares the clause jumps before its run starts (`beyond N`; 0 without it):
    /// reported where it cannot apply (anything but a slide, or a range longer than N), where
    /// N is 0 or leaves no square of the board, or where it is given twice.
    fn beyond(&mut self, clause: &Clause, source: usize, longest: u8) -> u8 {
        let Some(first) = self.modifier_once(clause, source, "beyond") else {
            return 0;
        };
        let Modifier::Beyond(n) = first.node else {
            return 0;
        };
        if !self.count_fits(first, n, longest, source) {
            return 0;
        }
        let fits = match &clause.movement.node {
            MovementSyntax::Slide(_) | MovementSyntax::Unknown(_) => true,
            MovementSyntax::Range(max, _) => max.node > n || max.node == 0,
            _ => false,
        };
        if !fits {
            let labels = vec![
                Label {
                    span: first.span.clone(),
                    text: format!("jumps the first {n} squares"),
                },
                Label {
                    span: clause.movement.span.clone(),
                    text: format!("not a slide or a range of more than {n}"),
                },
            ];
            self.report(
                Check::ContradictoryClause,
                source,
                format!("`beyond {n}` applies to slides and to ranges of more than {n} squares"),
                labels,
                Some(format!(
                    "it makes a slide or range start on square {}, jumping the first {n}: `beyond {n} slide \
                     diagonal`, `beyond {n} range {} sideways`",
                    n + 1,
                    n + 2
                )),
            );
            return 0;
        }
        n as u8
    }

    /// How many pieces the clause may pass (`passing N`), if it is given: reported where it
    /// cannot apply (anything but a slide or a range of 2 or more, or together with `beyond`
    /// or `from-last-rank`), where N is 0 or more than a line of the board holds, or where it
    /// is given twice.
    fn passing(&mut self, clause: &Clause, source: usize, longest: u8, beyond: u8, last_rank: bool) -> Option<u8> {
        let first = self.modifier_once(clause, source, "passing")?;
        let Modifier::Passing(n) = first.node else {
            return None;
        };
        if !self.count_fits(first, n, longest, source) {
            return None;
        }
        let movement = &clause.movement;
        let misfit = match &movement.node {
            // Reported as an unknown move.
            MovementSyntax::Unknown(_) => return None,
            MovementSyntax::Slide(_) => None,
            MovementSyntax::Range(max, _) if max.node != 1 => None,
            MovementSyntax::Hop(..) => Some((
                movement.span.clone(),
                "passes exactly one piece already",
                "`passing` cannot go with `hop`: a hop passes exactly one piece, its screen",
            )),
            _ => Some((
                movement.span.clone(),
                "not a slide or a range of 2 or more",
                "`passing` applies to slides and to ranges of at least 2 squares",
            )),
        };
        let other = clause
            .modifiers
            .iter()
            .find(|m| matches!(m.node, Modifier::Beyond(_) | Modifier::FromLastRank))
            .filter(|_| beyond > 0 || last_rank);
        let misfit = misfit.or(other.map(|other| {
            (
                other.span.clone(),
                "not with `passing`",
                "`passing` cannot go with `beyond` or `from-last-rank`",
            )
        }));
        let Some((span, text, message)) = misfit else {
            return Some(n as u8);
        };
        let help = if matches!(movement.node, MovementSyntax::Hop(..)) {
            "a cannon is `hop DIRS` alone (`capture-only hop orthogonal`); `passing N` lets a slide or range \
             pass over up to N pieces and also take the first piece it meets: `passing 1 slide orthogonal`"
        } else {
            "it lets a slide or range pass over pieces on its line from the first square on, from \
             every square, to an empty square or an enemy beyond them: `passing 3 slide vertical`, \
             `passing 3 range 5 forward`"
        };
        let labels = vec![
            Label {
                span: first.span.clone(),
                text: format!("passes over up to {n} pieces"),
            },
            Label {
                span,
                text: text.into(),
            },
        ];
        self.report(
            Check::ContradictoryClause,
            source,
            message.into(),
            labels,
            Some(help.into()),
        );
        None
    }

    /// Whether the number of `beyond N` or `passing N` is at least 1 and leaves a square to
    /// end on along the longest line of the board; reported if not.
    fn count_fits(&mut self, modifier: &Spanned<Modifier>, n: u32, longest: u8, source: usize) -> bool {
        let word = modifier.node.word();
        let most = u32::from(longest).saturating_sub(2);
        let (message, text, help) = if n == 0 {
            let (message, help) = match modifier.node {
                Modifier::Beyond(_) => (
                    "`beyond 0` jumps no square",
                    "`beyond N` starts a slide or range on square N + 1; for one from the first square, leave it out",
                ),
                _ => (
                    "`passing 0` passes no piece",
                    "`passing N` lets a slide or range pass over up to N pieces; for one that stops at the first, leave it out",
                ),
            };
            (message.to_string(), "at least 1".to_string(), help.to_string())
        } else if n > most {
            (
                format!("`{word} {n}` leaves no square to end on along a line of {longest} squares"),
                format!("at most {most}"),
                format!("on this board `{word}` takes at most {most}, leaving a square to end on"),
            )
        } else {
            return true;
        };
        self.error_in(
            Check::BadDistance,
            source,
            modifier.span.clone(),
            message,
            &text,
            Some(help),
        );
        false
    }

    /// The movements of a `passing N` clause: one per direction.
    fn passing_moves(&mut self, clause: &Clause, source: usize, longest: u8, pieces: u8, mode: Mode) -> Vec<Movement> {
        let (max, dirs) = match &clause.movement.node {
            MovementSyntax::Slide(dirs) => (None, dirs),
            MovementSyntax::Range(n, dirs) => (Some(self.distance(n, 1, longest, source, "a range")), dirs),
            _ => return vec![],
        };
        self.directions(dirs, source)
            .into_iter()
            .map(|dir| Movement::Passing { dir, max, pieces, mode })
            .collect()
    }

    /// `move-only igui`: igui only captures.
    fn igui_moves_only(&mut self, clause: &Clause, source: usize) {
        let modifier = clause
            .modifiers
            .iter()
            .find(|m| m.node == Modifier::MoveOnly)
            .map_or(clause.movement.span.clone(), |m| m.span.clone());
        let labels = vec![
            Label {
                span: modifier,
                text: "never captures".into(),
            },
            Label {
                span: clause.movement.span.clone(),
                text: "only captures, without moving".into(),
            },
        ];
        self.report(
            Check::ContradictoryClause,
            source,
            "`igui` captures without moving: a move-only igui does nothing".into(),
            labels,
            Some("leave out `move-only`; igui takes a piece on the adjacent square and stays".into()),
        );
    }

    /// The mode of a `range-capture` clause: `move-only` (it takes every piece it passes, so
    /// it cannot promise not to capture) and `capture-unprotected` (which pieces it takes is
    /// not one choice) are reported, and read as no modifier.
    fn range_capture_mode(&mut self, clause: &Clause, source: usize, mode: Mode) -> Mode {
        let (word, why) = match mode {
            Mode::Any | Mode::CaptureOnly => return mode,
            Mode::MoveOnly => ("move-only", "never captures"),
            Mode::CaptureUnprotected => ("capture-unprotected", "captures only unprotected pieces"),
        };
        let modifier = clause
            .modifiers
            .iter()
            .find(|m| matches!(m.node, Modifier::MoveOnly | Modifier::CaptureUnprotected))
            .map_or(clause.movement.span.clone(), |m| m.span.clone());
        let labels = vec![
            Label {
                span: modifier,
                text: why.into(),
            },
            Label {
                span: clause.movement.span.clone(),
                text: "captures every piece it passes over".into(),
            },
        ];
        self.report(
            Check::ContradictoryClause,
            source,
            format!("`{word}` cannot apply to `range-capture`, which takes every piece it passes over"),
            labels,
            Some(
                "leave it out: `range-capture DIRS` moves and captures; `capture-only range-capture DIRS` \
                 must take at least one piece"
                    .into(),
            ),
        );
        Mode::Any
    }

    /// Whether `hop` is followed by a move (`hop slide orthogonal`), as if it were a modifier:
    /// reported, with the ways of writing what was probably meant.
    fn hop_before_a_move(&mut self, dirs: &[Spanned<String>], source: usize) -> bool {
        let Some(word) = dirs.first().filter(|w| keywords::movements().any(|m| m == w.node)) else {
            return false;
        };
        self.error_in(
            Check::UnknownDirection,
            source,
            word.span.clone(),
            format!("`{}` is not a direction: `hop` is a move of its own", word.node),
            "a move, where a direction stands",
            Some(
                "`hop DIRS` passes over exactly one piece (a cannon: `hop orthogonal`, or \
                 `move-only slide orthogonal, capture-only hop orthogonal`); a slide that may pass over \
                 up to N pieces is `passing N slide DIRS`"
                    .into(),
            ),
        );
        true
    }

    /// The reach of `hop N`: at least 2 (a square for the screen, one beyond it to land on)
    /// and within the board.
    fn hop_reach(&mut self, n: &Spanned<u32>, longest: u8, source: usize) -> u8 {
        if n.node < 2 {
            self.error_in(
                Check::BadDistance,
                source,
                n.span.clone(),
                format!(
                    "a hop of at most {} square{} has no room to land beyond its screen",
                    n.node,
                    if n.node == 1 { "" } else { "s" }
                ),
                "at least 2",
                Some(
                    "`hop N` lands at most N squares from the piece, beyond the one piece it passes over: \
                     `hop 2 diagonal` hops a piece on the next square to the square behind it"
                        .into(),
                ),
            );
            return 2;
        }
        self.distance(n, 2, longest, source, "a hop")
    }

    /// The steps of an area move: at least 1, at most [`MAX_AREA_STEPS`].
    fn area_steps(&mut self, n: &Spanned<u32>, longest: u8, source: usize) -> u8 {
        if n.node > u32::from(MAX_AREA_STEPS) {
            self.error_in(
                Check::Limit,
                source,
                n.span.clone(),
                format!(
                    "an area move of {} steps is past koma's limit of {MAX_AREA_STEPS}",
                    n.node
                ),
                &format!("at most {MAX_AREA_STEPS}"),
                Some(format!(
                    "koma plays area moves of up to {MAX_AREA_STEPS} king steps; a longer reach is `range` or `slide`"
                )),
            );
            return MAX_AREA_STEPS;
        }
        self.distance(n, 1, longest, source, "an area move")
    }

    fn mode(&mut self, clause: &Clause, source: usize) -> Mode {
        let mut mode = Mode::Any;
        let modes: Vec<(&Spanned<Modifier>, Mode)> = clause
            .modifiers
            .iter()
            .filter_map(|m| match m.node {
                Modifier::MoveOnly => Some((m, Mode::MoveOnly)),
                Modifier::CaptureOnly => Some((m, Mode::CaptureOnly)),
                Modifier::CaptureUnprotected => Some((m, Mode::CaptureUnprotected)),
                Modifier::FromLastRank | Modifier::Beyond(_) | Modifier::Passing(_) => None,
            })
            .collect();
        for (i, &(m, wanted)) in modes.iter().enumerate() {
            if i > 0 {
                let first = modes[0].0;
                let (check, message, text) = if wanted == mode {
                    (
                        Check::EmptyClause,
                        "the same modifier is given twice",
                        "given again here",
                    )
                } else {
                    (
                        Check::ContradictoryClause,
                        "a clause cannot be both of these",
                        "contradicts the first",
                    )
                };
                let labels = vec![
                    Label {
                        span: m.span.clone(),
                        text: text.into(),
                    },
                    Label {
                        span: first.span.clone(),
                        text: "first modifier".into(),
                    },
                ];
                self.report(
                    check,
                    source,
                    message.into(),
                    labels,
                    Some(
                        "a clause takes one of move-only (never captures), capture-only (only captures) or \
                         capture-unprotected; for a piece that moves one way and captures another, write two \
                         clauses"
                            .into(),
                    ),
                );
                continue;
            }
            mode = wanted;
        }
        mode
    }

    /// The offsets of a direction list, reporting unknown and repeated words.
    fn directions(&mut self, words: &[Spanned<String>], source: usize) -> Vec<Offset> {
        let mut out: Vec<Offset> = Vec::new();
        // The word each direction came from, for a second label on a repeat.
        let mut from: Vec<&Spanned<String>> = Vec::new();
        for word in words {
            let Some(dirs) = offsets_of(&word.node) else {
                let words = keywords::directions().map(|(w, _)| w);
                let help = did_you_mean_or_list(&word.node, words, "directions are");
                self.error_in(
                    Check::UnknownDirection,
                    source,
                    word.span.clone(),
                    format!("`{}` is not a direction", word.node),
                    "unknown direction",
                    Some(help),
                );
                continue;
            };
            for dir in dirs.iter() {
                if let Some(i) = out.iter().position(|d| d == dir) {
                    let name = direction_name(*dir).unwrap_or("?");
                    let earlier = from[i];
                    let text = if earlier.node == name {
                        format!("`{name}` first given here")
                    } else {
                        format!("`{}` already includes {name}", earlier.node)
                    };
                    let labels = vec![
                        Label {
                            span: word.span.clone(),
                            text: "repeats a direction".into(),
                        },
                        Label {
                            span: earlier.span.clone(),
                            text,
                        },
                    ];
                    self.report(
                        Check::EmptyClause,
                        source,
                        format!("the direction {name} is given twice in this clause"),
                        labels,
                        Some("each direction may appear once per clause".into()),
                    );
                    // One report for a group that repeats several directions.
                    break;
                } else {
                    out.push(*dir);
                    from.push(word);
                }
            }
        }
        out
    }

    /// A distance that must lie in `min..longest`; reports and clamps one that does not.
    fn distance(&mut self, n: &Spanned<u32>, min: u32, longest: u8, source: usize, what: &str) -> u8 {
        let longest = u32::from(longest);
        let squares = |k: u32| format!("{k} square{}", if k == 1 { "" } else { "s" });
        if n.node < min {
            let (message, help) = if min == 1 {
                (
                    format!("{what} of {} goes nowhere", squares(n.node)),
                    "the distance is at least 1; for one square write `step`".to_string(),
                )
            } else {
                (
                    format!("a lion move of {} is a single step", squares(n.node)),
                    format!("a lion move takes at least {min} steps; for one step write `step`"),
                )
            };
            self.error_in(
                Check::BadDistance,
                source,
                n.span.clone(),
                message,
                &format!("at least {min}"),
                Some(help),
            );
            return min as u8;
        }
        if n.node >= longest {
            let message = format!(
                "{what} of {} goes off a board {} long from every square",
                squares(n.node),
                squares(longest)
            );
            let help = if what == "a jump" {
                format!("on this board a jump is at most {} squares", longest - 1)
            } else {
                format!(
                    "on this board the distance is at most {}; `slide` moves any distance",
                    longest - 1
                )
            };
            self.error_in(
                Check::BadDistance,
                source,
                n.span.clone(),
                message,
                &format!("at most {}", longest - 1),
                Some(help),
            );
            return (longest - 1) as u8;
        }
        n.node as u8
    }

    fn leap(&mut self, offset: &Spanned<(i64, i64)>, board: BoardSize, source: usize) -> Option<Offset> {
        let (x, y) = offset.node;
        if (x, y) == (0, 0) {
            self.error_in(
                Check::EmptyClause,
                source,
                offset.span.clone(),
                "a leap of (0, 0) goes nowhere".into(),
                "stays on its square",
                Some("the offset is (squares to the right, squares forward)".into()),
            );
            return None;
        }
        if x.unsigned_abs() >= u64::from(board.files) || y.unsigned_abs() >= u64::from(board.ranks) {
            let message = format!(
                "a leap of ({x}, {y}) goes off the {} × {} board from every square",
                board.files, board.ranks
            );
            self.error_in(
                Check::BadDistance,
                source,
                offset.span.clone(),
                message,
                "too far",
                Some(format!(
                    "the offset is (squares to the right, squares forward): at most {} sideways and {} forward or back",
                    board.files - 1,
                    board.ranks - 1
                )),
            );
            return None;
        }
        Some(Offset::new(x as i8, y as i8))
    }
}
