//! Every shipped variant is played through `koma play` as a person plays it: twelve moves,
//! each picked from the legal moves and typed in the notation the prompt shows and reads,
//! then a resignation. (Each variant's own rules have their own tests; this is the front end.)

mod support;

use koma::game::{Game, Position};
use koma::notation::write_tsa;
use support::{koma_play, shipped, tables};

/// Twelve moves of `variant` in the prompt's notation, none of which ends the game.
fn typed_moves(variant: &str) -> Vec<String> {
    let mut game = Game::new(Position::start(tables(variant, &[])));
    let mut typed = Vec::new();
    for ply in 0..12usize {
        let legal = game.legal_moves();
        let keeps_going = (0..legal.len())
            .map(|i| legal[(ply * 7 + 3 + i) % legal.len()])
            .find(|m| {
                let mut next = game.clone();
                next.play(*m).is_ok() && next.outcome().is_none()
            });
        let Some(m) = keeps_going else { break };
        typed.push(write_tsa(game.position(), &m));
        game.play(m).expect("a legal move");
    }
    typed
}

#[test]
fn every_shipped_variant_is_played_at_the_prompt() {
    for variant in shipped() {
        let moves = typed_moves(variant);
        assert!(moves.len() >= 6, "{variant}: {moves:?}");
        let script = format!("{}\nresign\n", moves.join("\n"));
        let run = koma_play(&[variant, "--white", "human"], &script);
        let out = run.text();
        assert!(run.ok(), "{variant}: {out}");
        assert!(
            !out.contains("illegal") && !out.contains("not a move"),
            "{variant}: {moves:?}\n{out}"
        );
        let loser = if moves.len().is_multiple_of(2) {
            "Black"
        } else {
            "White"
        };
        assert!(out.contains(&format!("Game over: {loser} resigns")), "{variant}: {out}");
    }
}
