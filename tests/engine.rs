//! The computer player: it finds mates, takes what hangs, defends against mate, returns in
//! time on the largest boards, says so when it has no move, and plays whole games.

mod support;

use koma::engine::{
    DRAW_TIME, DrawAnswer, Info, Limits, MATE, Searcher, draw_answer, draw_limits, draw_positions, judge_draw, mate_in,
    search,
};
use koma::game::{Game, Move, Position};
use koma::notation::{read_sfen, write_sfen, write_usi};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::tables;

fn shogi(sfen: &str) -> Position {
    read_sfen(&tables("shogi", &[]), sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"))
}

/// Whether the side to move is checkmated.
fn checkmated(pos: &mut Position) -> bool {
    let side = pos.side_to_move();
    pos.royal_in_check(side) && pos.legal_moves().is_empty()
}

/// The moves of the side to move that checkmate at once (found by trying every move).
fn mates_in_one(pos: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let undo = pos.make(&m);
        if checkmated(pos) {
            out.push(m);
        }
        pos.unmake(&m, &undo);
    }
    out
}

/// Whether `m` checks and every reply allows a mate in one (found by trying every line).
fn forces_mate_in_two(pos: &mut Position, m: &Move) -> bool {
    let undo = pos.make(m);
    let side = pos.side_to_move();
    let replies = pos.legal_moves();
    let forced = pos.royal_in_check(side)
        && !replies.is_empty()
        && replies.iter().all(|r| {
            let undo = pos.make(r);
            let mates = !mates_in_one(pos).is_empty();
            pos.unmake(r, &undo);
            mates
        });
    pos.unmake(m, &undo);
    forced
}

fn usi(pos: &Position, m: Option<Move>) -> String {
    m.map_or("none".into(), |m| write_usi(pos, &m))
}

#[test]
fn finds_a_mate_in_one() {
    // White's King on 5a, a Black Pawn on 5c, a Gold in Black's hand: G*5b mates.
    let mut pos = shogi("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    let result = search(&pos, &Limits::depth(2));
    let best = result.best.expect("a move");
    assert_eq!(usi(&pos, Some(best)), "G*5b");
    assert_eq!(mate_in(result.score), Some(1), "score {}", result.score);
    let undo = pos.make(&best);
    assert!(checkmated(&mut pos));
    pos.unmake(&best, &undo);
}

#[test]
fn finds_a_mate_in_one_at_every_depth() {
    let pos = shogi("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    for depth in 1..=4 {
        let result = search(&pos, &Limits::depth(depth));
        assert_eq!(usi(&pos, result.best), "G*5b", "depth {depth}");
        assert_eq!(mate_in(result.score), Some(1), "depth {depth}");
    }
}

#[test]
fn takes_a_hanging_piece() {
    // White's Bishop on 2e is defended by nothing; Black's Rook on 2h takes it.
    let pos = shogi("4k4/9/9/9/7b1/9/9/7R1/4K4 b - 1");
    for depth in 1..=4 {
        let result = search(&pos, &Limits::depth(depth));
        assert_eq!(usi(&pos, result.best), "2h2e", "depth {depth}");
        assert!(result.score > 500, "depth {depth}: score {}", result.score);
    }
}

#[test]
fn prefers_the_undefended_piece() {
    // Black's Rook on 5e can take White's Gold on 5c (defended by the King on 5b, and by
    // nothing else) or White's Silver on 2e (defended by nothing).
    let pos = shogi("9/4k4/4g4/9/4R2s1/9/9/9/4K4 b - 1");
    let result = search(&pos, &Limits::depth(3));
    assert_eq!(usi(&pos, result.best), "5e2e");
}

#[test]
fn avoids_losing_its_king_in_one() {
    // White threatens G*5h, mate (the Pawn on 5g guards 5h). Most of Black's moves allow it.
    let mut pos = shogi("4k4/9/9/9/9/9/4p3P/9/4K3R b g 1");
    let careless = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            let undo = pos.make(m);
            let allows = !mates_in_one(&mut pos).is_empty();
            pos.unmake(m, &undo);
            allows
        })
        .count();
    assert!(
        careless > 3,
        "the position should set a trap ({careless} careless moves)"
    );
    for depth in 2..=4 {
        let result = search(&pos, &Limits::depth(depth));
        let best = result.best.expect("a move");
        let undo = pos.make(&best);
        let mates = mates_in_one(&mut pos);
        assert!(
            mates.is_empty(),
            "depth {depth}: {} allows {}",
            usi(&pos, Some(best)),
            usi(&pos, mates.first().copied())
        );
        pos.unmake(&best, &undo);
        assert!(mate_in(result.score).is_none(), "depth {depth}: score {}", result.score);
    }
}

#[test]
fn a_side_in_check_in_the_quiescence_search_answers_the_check() {
    // Minishogi. Black's Rook on 5e can take White's Silver on 5b; then White's Gold takes
    // the Pawn on 1d, mate (the Bishop on 3b guards 1d through 2c). Searched one ply, the
    // reply is a capture of the quiescence search, after which Black is in check: scored by
    // its standing material, the Silver looks won.
    let pos = read_sfen(&tables("minishogi", &[]), "2k2/s1b2/3g1/4P/R3K b - 1").expect("a position");
    let mut after = pos.clone();
    let bait = after
        .legal_moves()
        .into_iter()
        .find(|m| write_usi(&pos, m) == "5e5b")
        .expect("the Rook takes the Silver");
    after.make(&bait);
    assert_eq!(mates_in_one(&mut after).len(), 1, "the Gold's capture should mate");
    let result = search(&pos, &Limits::depth(1));
    assert_ne!(usi(&pos, result.best), "5e5b");
}

#[test]
fn finds_a_mate_in_two() {
    // Found by trying every line: each has exactly one first move that forces mate in two,
    // and no mate in one.
    for (sfen, solution) in [
        ("8k/6B2/8n/9/9/9/9/9/K8 b GS 1", "G*2a"),
        ("5p2k/6n1n/9/9/9/9/9/9/K8 b RB 1", "B*3c"),
        ("7k1/9/6l1R/9/9/9/9/9/K8 b G 1", "1c2c+"),
    ] {
        let mut pos = shogi(sfen);
        assert!(mates_in_one(&mut pos).is_empty(), "{sfen}: a mate in one");
        for depth in 3..=5 {
            let result = search(&pos, &Limits::depth(depth));
            let best = result.best.expect("a move");
            assert_eq!(usi(&pos, Some(best)), solution, "{sfen} at depth {depth}");
            assert!(forces_mate_in_two(&mut pos, &best), "{sfen}");
            assert_eq!(mate_in(result.score), Some(3), "{sfen} at depth {depth}");
            assert_eq!(result.pv.first(), Some(&best));
            assert!(result.pv.len() >= 3, "{sfen}: the line of the mate");
        }
    }
}

#[test]
fn no_legal_move_gives_no_move() {
    // White is checkmated: G*5b has been played.
    let pos = shogi("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    let result = search(&pos, &Limits::depth(3));
    assert_eq!(result.best, None);
    assert_eq!(result.score, -MATE);
    assert!(result.pv.is_empty());

    // Stalemate is a loss in Shogi: White's King on 1a is boxed in by Black's pieces
    // without being in check.
    let pos = shogi("8k/6G2/7+R1/9/9/9/9/9/K8 w - 1");
    assert!(!pos.royal_in_check(pos.side_to_move()));
    assert!(pos.legal_moves().is_empty(), "the position is stalemate");
    let result = search(&pos, &Limits::time(Duration::from_millis(50)));
    assert_eq!(result.best, None);
    assert_eq!(result.score, -MATE);
}

#[test]
fn the_position_is_left_as_it_was() {
    let t = tables("shogi", &[]);
    let pos = Position::start(t);
    let (before, hash) = (write_sfen(&pos), pos.hash());
    let result = search(&pos, &Limits::depth(4));
    assert_eq!(write_sfen(&pos), before);
    assert_eq!(pos.hash(), hash);
    assert_eq!(result.depth, 4);
    assert!(result.nodes > 30);
    assert!(pos.legal_moves().contains(&result.best.expect("a move")));
}

#[test]
fn a_node_limit_is_kept() {
    let pos = Position::start(tables("chu", &[]));
    let result = search(&pos, &Limits::nodes(2_000));
    assert!(result.nodes <= 2_000, "{} nodes", result.nodes);
    assert!(pos.legal_moves().contains(&result.best.expect("a move")));
}

/// REAL-TIME CHECK: this test measures wall-clock time. The machine may be loaded, so the
/// margin is generous (three times the limit); a failure here on a busy machine is not
/// necessarily a bug, but a search that ignores its time would fail it anywhere.
#[test]
fn returns_within_its_time_on_the_largest_boards() {
    let limit = Duration::from_millis(300);
    for variant in ["maka-dai-dai", "dai"] {
        let pos = Position::start(tables(variant, &[]));
        let started = Instant::now();
        let result = search(&pos, &Limits::time(limit));
        let elapsed = started.elapsed();
        assert!(
            elapsed < limit * 3,
            "{variant}: {elapsed:?} for a {limit:?} limit ({} nodes, depth {})",
            result.nodes,
            result.depth
        );
        let best = result.best.expect("a move");
        assert!(pos.legal_moves().contains(&best), "{variant}: an illegal move");
    }
}

/// A move's own time (CECP `st`, USI `go movetime`) is used to the end: the search does not
/// stop early to keep time for later moves, as it does on a clock. (A lower bound on the time,
/// which a loaded machine cannot break.)
#[test]
fn a_fixed_time_per_move_is_used_to_the_end() {
    let limit = Duration::from_millis(400);
    let pos = Position::start(tables("chu", &[]));
    let started = Instant::now();
    let limits = Limits {
        fixed_time: true,
        ..Limits::time(limit)
    };
    let result = search(&pos, &limits);
    assert!(
        started.elapsed() >= limit.mul_f64(0.9),
        "{:?} of {limit:?} (depth {})",
        started.elapsed(),
        result.depth
    );
    assert!(pos.legal_moves().contains(&result.best.expect("a move")));
}

/// On a clock the search starts no iteration unlikely to be half done within the move's
/// target, however long it may run to finish one: given 10 s at most and a target of 20 ms,
/// it answers long before the 10 s. (An upper bound far from the target, which a loaded
/// machine cannot break.)
#[test]
fn a_move_on_a_clock_starts_no_iteration_unlikely_to_end_near_its_target() {
    let most = Duration::from_secs(10);
    let pos = Position::start(tables("shogi", &[]));
    let started = Instant::now();
    let limits = Limits {
        target: Some(Duration::from_millis(20)),
        ..Limits::time(most)
    };
    let result = search(&pos, &limits);
    assert!(
        started.elapsed() < most / 2,
        "{:?} for a 20 ms target (depth {})",
        started.elapsed(),
        result.depth
    );
    assert!(pos.legal_moves().contains(&result.best.expect("a move")));
}

/// However few the nodes, a search with a legal move completes its first iteration (every
/// move searched one ply), on the largest board too: it never answers at depth 0.
#[test]
fn the_first_iteration_is_completed_whatever_the_node_limit() {
    for variant in ["shogi", "chu", "taikyoku"] {
        let pos = Position::start(tables(variant, &[]));
        let result = search(&pos, &Limits::nodes(1));
        assert_eq!(result.depth, 1, "{variant}: {} nodes", result.nodes);
        assert!(pos.legal_moves().contains(&result.best.expect("a move")), "{variant}");
    }
}

/// In Tai a side starts with two royals (Emperor and Crown Prince), and the Emperor, which
/// captures anything unprotected anywhere, often attacks the other side's Prince: that is no
/// check to answer (a side loses only with its last royal), so it neither extends the search
/// nor keeps its quiet moves from being pruned. Depth 4 from the start takes some twenty
/// thousand nodes (before: more than forty million).
#[test]
fn an_attacked_royal_beside_another_is_no_check_to_extend() {
    let pos = Position::start(tables("tai", &[]));
    let result = search(
        &pos,
        &Limits {
            depth: Some(4),
            ..Limits::nodes(200_000)
        },
    );
    assert_eq!(result.depth, 4, "{} nodes", result.nodes);
}

/// On the largest board, the quiescence search follows every capture for three plies, then
/// only the captures that take back on the last one's square, and quiet moves past the first
/// few near the leaves are pruned: depth 2 from Taikyoku's start takes some forty thousand
/// nodes (before: more than six million).
#[test]
fn taikyoku_reaches_depth_two_in_a_bounded_number_of_nodes() {
    let pos = Position::start(tables("taikyoku", &[]));
    let result = search(
        &pos,
        &Limits {
            depth: Some(2),
            ..Limits::nodes(200_000)
        },
    );
    assert_eq!(result.depth, 2, "{} nodes", result.nodes);
}

/// REAL-TIME CHECK (generous margin: ten times the bound): a draw offered on the largest
/// board is judged within its bound, and the bound is a second.
#[test]
fn a_draw_offer_on_taikyoku_is_judged_within_its_bound() {
    let bound = draw_limits(DRAW_TIME)
        .time
        .expect("the draw judgement has a time bound");
    assert!(bound <= Duration::from_secs(1), "{bound:?}");
    let pos = Position::start(tables("taikyoku", &[]));
    let started = Instant::now();
    // Judged, not given up: each search completes an iteration within the bound.
    assert_ne!(
        judge_draw(&mut Searcher::new(), &pos, DRAW_TIME),
        DrawAnswer::CannotJudge
    );
    assert!(started.elapsed() < bound * 10, "{:?}", started.elapsed());
}

/// A draw offered where the offerer stands better only by having the move is declined: at
/// Taikyoku's start, the same army on each side, a shallow search has the side to move ahead
/// (what its first move opens counts, the reply beyond the horizon does not), and koma to
/// move would stand as well. The searches are bounded by the judgement's depth alone, not its
/// time, so that the answer does not depend on how busy the machine is (the bound is tested
/// above).
#[test]
fn a_draw_is_declined_where_the_offerer_is_ahead_only_by_having_the_move() {
    let pos = Position::start(tables("taikyoku", &[]));
    let (as_it_stands, passed) = draw_positions(&pos);
    let depth = Limits {
        time: None,
        ..draw_limits(DRAW_TIME)
    };
    let mut searcher = Searcher::new();
    let offerer_to_move = searcher.search(&as_it_stands, &depth);
    let koma_to_move = searcher.search(&passed, &depth);
    assert_eq!(offerer_to_move.depth, 2);
    assert_eq!(draw_answer(&offerer_to_move, &koma_to_move), DrawAnswer::Declines);
}

/// A draw offered by a side a Rook ahead is accepted, whoever moves: Black, to move, has
/// taken White's Rook.
#[test]
fn a_draw_is_accepted_where_the_offerer_is_ahead_whoever_moves() {
    let pos = shogi("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1");
    assert_eq!(judge_draw(&mut Searcher::new(), &pos, DRAW_TIME), DrawAnswer::Accepts);
}

/// REAL-TIME CHECK (generous margin, as above): even a few milliseconds give a legal move.
#[test]
fn a_tiny_time_still_gives_a_legal_move() {
    let pos = Position::start(tables("maka-dai-dai", &[]));
    let started = Instant::now();
    let result = search(&pos, &Limits::time(Duration::from_millis(5)));
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "{:?}",
        started.elapsed()
    );
    assert!(pos.legal_moves().contains(&result.best.expect("a move")));
}

/// Plays a game against itself at a low depth; it must end by a result of the rules or
/// reach the ply cap, every move legal.
fn self_play(variant: &str, depth: u32, cap: usize) -> Game {
    let mut game = Game::new(Position::start(tables(variant, &[])));
    let mut searcher = Searcher::new();
    while game.len() < cap {
        if game.outcome().is_some() {
            break;
        }
        let pos = game.position().clone();
        let result = searcher.search(&pos, &Limits::depth(depth));
        let best = result.best.expect("a game without a result has a legal move");
        game.play(best).unwrap_or_else(|e| {
            panic!(
                "{variant}: {} after {} plies is illegal: {e}",
                usi(&pos, Some(best)),
                game.len()
            )
        });
    }
    game
}

#[test]
fn plays_a_game_of_tori_against_itself() {
    let game = self_play("tori", 2, 300);
    assert!(game.outcome().is_some() || game.len() == 300);
}

#[test]
fn plays_a_game_of_yari_against_itself() {
    let game = self_play("yari", 2, 300);
    assert!(game.outcome().is_some() || game.len() == 300);
}

#[test]
fn plays_a_short_game_of_chu_against_itself() {
    let game = self_play("chu", 1, 40);
    assert!(!game.is_empty());
}

#[test]
fn searcher_learns_between_moves() {
    // Searching the same position twice with one searcher reuses the table: the second
    // search of equal depth visits fewer nodes.
    let pos = Position::start(tables("shogi", &[]));
    let mut searcher = Searcher::new();
    let first = searcher.search(&pos, &Limits::depth(5));
    let second = searcher.search(&pos, &Limits::depth(5));
    assert!(second.nodes < first.nodes, "{} then {}", first.nodes, second.nodes);
    // A position of another variant is searched from scratch.
    let tori = Position::start(tables("tori", &[]));
    let result = searcher.search(&tori, &Limits::depth(3));
    assert!(tori.legal_moves().contains(&result.best.expect("a move")));
}

/// A repetition made by continuous checks loses for the checker (Shogi): the engine, a Rook
/// down against three Golds in hand, does not repeat its checks to escape into a draw.
#[test]
fn the_engine_does_not_repeat_a_perpetual_check() {
    let mut pos = shogi("8k/9/9/9/7R1/9/9/9/4K4 b 3g 1");
    for text in ["2e1e", "1a2a", "1e2e", "2a1a"] {
        let m = koma::notation::read_usi(&pos, text).expect("a move");
        pos.make(&m);
    }
    let repeat = koma::notation::read_usi(&pos, "2e1e").expect("a move");
    for depth in 1..=3 {
        let result = search(&pos, &Limits::depth(depth));
        assert_ne!(result.best, Some(repeat), "depth {depth}: {}", usi(&pos, result.best));
    }
}

/// REAL-TIME CHECK (generous margin, as above): a search with no limit but its stop flag,
/// stopped from another thread, returns at once with a legal move.
#[test]
fn the_stop_flag_ends_a_search_from_another_thread() {
    stops_promptly_with_a_legal_move(1);
}

/// Searches the Chu start on `threads` threads with no limit but the stop flag, sets the flag
/// from this thread after 300 ms, and checks that the search returned within 500 ms with a
/// legal move.
fn stops_promptly_with_a_legal_move(threads: usize) {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        depth: Some(60),
        stop: Some(stop.clone()),
        ..Limits::default()
    };
    let searching = std::thread::spawn(move || {
        let pos = Position::start(tables("chu", &[]));
        let mut searcher = Searcher::new();
        searcher.set_threads(threads);
        let result = searcher.search(&pos, &limits);
        (pos.legal_moves().contains(&result.best.expect("a move")), result.depth)
    });
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (legal, depth) = searching.join().expect("the search thread ends");
    assert!(asked.elapsed() < Duration::from_millis(500), "{:?}", asked.elapsed());
    assert!(legal);
    assert!(depth < 60);
}

#[test]
fn progress_is_told_of_each_completed_iteration() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let limits = Limits {
        depth: Some(4),
        progress: Some(Arc::new(move |info: &Info| log.lock().unwrap().push(info.clone()))),
        ..Limits::default()
    };
    let pos = Position::start(tables("shogi", &[]));
    let result = search(&pos, &limits);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.iter().map(|i| i.depth).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert!(
        seen.windows(2)
            .all(|w| w[0].nodes <= w[1].nodes && w[0].time <= w[1].time)
    );
    let last = seen.last().expect("four iterations");
    assert_eq!((last.score, &last.pv), (result.score, &result.pv));
    assert_eq!(last.pv.first().copied(), result.best);
    assert!(last.nps() > 0);
}

/// Static exchange evaluation: a Pawn defended by three Rooks on its rank, attacked by
/// three Rooks on its file. Taking it starts an exchange of six captures on one square
/// that ends with White's last Rook taking Black's last: Black gives a Rook for a Pawn.
/// The quiescence search follows the exchange to its end, so no depth takes the Pawn.
#[test]
fn follows_an_exchange_on_one_square_to_its_end() {
    let sfen = "k11/12/12/12/12/3rrrp5/6R5/6R5/6R5/12/12/11K b - 1";
    let pos = support::position("chu", &[], sfen);
    let pawn = pos.geometry().index(support::sq("6f"));
    for depth in 1..=3 {
        let result = search(&pos, &Limits::depth(depth));
        let best = result.best.expect("a move");
        assert_ne!(
            best.to,
            pawn,
            "depth {depth}: {} gives a Rook for a Pawn",
            usi(&pos, Some(best))
        );
        assert!(result.score < 100, "depth {depth}: score {}", result.score);
    }
}

/// However the search is cut short (at once by its flag, by a node or time limit of
/// nothing, at the first depth), it returns a legal move when there is one, also when the
/// side to move is in check.
#[test]
fn a_legal_move_whatever_stops_the_search() {
    let stopped = Arc::new(AtomicBool::new(true));
    let cut_short = [
        Limits::depth(0),
        Limits::depth(1),
        Limits::nodes(0),
        Limits::nodes(1),
        Limits::time(Duration::ZERO),
        Limits {
            stop: Some(stopped),
            ..Limits::default()
        },
    ];
    let positions = [
        Position::start(tables("chu", &[])),
        Position::start(tables("shogi", &[])),
        // White's King is in check from the Gold.
        shogi("4k4/4G4/9/4P4/9/9/9/9/4K4 w - 1"),
    ];
    for pos in positions {
        let legal = pos.legal_moves();
        for limits in &cut_short {
            let best = search(&pos, limits).best;
            assert!(
                best.is_some_and(|m| legal.contains(&m)),
                "{limits:?} on {}: {}",
                write_sfen(&pos),
                usi(&pos, best)
            );
        }
    }
}

/// Chu under `repetition=forbidden` (HaChu's rule): in a quiet ending where shuffling is all
/// there is, the engine playing both sides never makes a position occur twice, and every
/// move it chooses is legal.
#[test]
fn the_engine_never_repeats_where_repetition_is_forbidden() {
    let tables = tables("chu", &["repetition=forbidden"]);
    let mut pos = read_sfen(&tables, "g5k5/12/12/12/12/12/12/12/12/12/12/G5K5 b - 1").expect("a position");
    let mut searcher = Searcher::new();
    let mut seen = std::collections::HashSet::new();
    seen.insert(pos.hash());
    for ply in 0..40 {
        let result = searcher.search(&pos, &Limits::depth(2));
        let Some(m) = result.best else {
            break;
        };
        assert!(pos.legal_moves().contains(&m), "ply {ply}: {}", usi(&pos, Some(m)));
        pos.make(&m);
        assert!(seen.insert(pos.hash()), "ply {ply}: a position occurred again");
    }
}

/// Lazy SMP: a search on two threads returns a legal move, and counts the helper's nodes.
#[test]
fn two_threads_return_a_legal_move() {
    let pos = Position::start(tables("chu", &[]));
    let mut searcher = Searcher::new();
    searcher.set_threads(2);
    assert_eq!(searcher.threads(), 2);
    let result = searcher.search(&pos, &Limits::depth(4));
    assert!(pos.legal_moves().contains(&result.best.expect("a move")));
    assert_eq!(result.depth, 4);
    // Another search with the same searcher (the shared table kept) is as legal.
    let again = searcher.search(&pos, &Limits::nodes(2_000));
    assert!(pos.legal_moves().contains(&again.best.expect("a move")));
}

/// REAL-TIME CHECK (generous margin, as above): a two-thread search stopped from another
/// thread returns at once, its helper stopped with it.
#[test]
fn two_threads_stop_promptly() {
    stops_promptly_with_a_legal_move(2);
}

/// A range capture that takes several pieces is weighed by all of them: Taikyoku's Great
/// General sweeps White's two Pawns and Free King on its file rather than take the first
/// Pawn alone.
#[test]
fn range_capture_is_weighed_by_every_piece_it_takes() {
    use koma::game::Setup;
    use koma::rules::Side;
    let tables = tables("taikyoku", &[]);
    let rules = tables.rules();
    let piece = |square: &str, side: Side, abbrev: &str| {
        let kind = rules.piece_by_abbrev(abbrev).expect("a Taikyoku piece");
        (support::sq(square), side, kind, false)
    };
    let setup = Setup {
        pieces: vec![
            piece("36aj", Side::Black, "K"),
            piece("36a", Side::White, "K"),
            piece("18r", Side::Black, "GG"),
            piece("18q", Side::White, "P"),
            piece("18p", Side::White, "P"),
            piece("18o", Side::White, "FK"),
        ],
        hands: vec![],
        side_to_move: Side::Black,
        move_number: 1,
        lion_capture: None,
        deferred: [None, None],
    };
    for depth in 1..=2 {
        let mut pos = Position::from_setup(tables.clone(), &setup).expect("a position");
        let result = search(&pos, &Limits::depth(depth));
        let best = result.best.expect("a move");
        pos.make(&best);
        for square in ["18q", "18p", "18o"] {
            let owner = pos.piece_at(support::sq(square)).map(|p| p.side());
            assert_ne!(owner, Some(Side::White), "depth {depth}: {square} taken");
        }
        assert!(result.score > 1000, "depth {depth}: score {}", result.score);
    }
}
