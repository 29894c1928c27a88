//! The simulation of the trump games: the greedy policy, the deal as `sim::Deal` and the
//! worlds a seat's `Knowledge` deals.

use proptest::prelude::*;

use super::knowledge::TRIES;
use super::tests::{FORTY_FIVE, SPOIL_FIVE, card, cards, mask};
use super::*;
use crate::sim::{self, Deal, Rng};

fn rules(spoil: bool, silent_ace: bool, immediate_pickup: bool, jinking: bool) -> Rules {
    Rules {
        silent_ace,
        immediate_pickup,
        jinking: spoil && jinking,
        ..if spoil { SPOIL_FIVE } else { FORTY_FIVE }
    }
}

/// A shuffled deal of `players` seats.
fn deal(rng: &mut Rng, rules: Rules, players: usize, dealer: u8) -> State {
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut deck);
    let hands: Vec<u64> = (0..players)
        .map(|s| deck[s * 5..s * 5 + 5].iter().fold(0, |m, &c| m | 1 << c))
        .collect();
    State::new(
        rules,
        &hands,
        deck[players * 5],
        dealer,
        players as f64 + 3.0,
    )
    .unwrap()
}

/// A shuffled deal (as [`deal`]) where nobody has a turn to rob: ready for the opening lead.
fn deal_to_play(rng: &mut Rng, rules: Rules, players: usize, dealer: u8) -> State {
    loop {
        let s = deal(rng, rules, players, dealer);
        if s.phase() == Phase::Play {
            return s;
        }
    }
}

/// `state` after `moves` moves (fewer if it ends), each random or greedy at random.
fn advance(state: &mut State, moves: usize, rng: &mut Rng) {
    let mut legal = Vec::new();
    for _ in 0..moves {
        if state.is_over() {
            return;
        }
        state.legal_actions(&mut legal);
        let m = if rng.below(2) == 0 || legal.len() == 1 {
            legal[rng.below(legal.len() as u64) as usize]
        } else {
            Deal::greedy(state, &legal, rng)
        };
        state.apply(i64::from(m)).unwrap();
    }
}

fn greedy_of(state: &State, legal: &[u16]) -> u16 {
    greedy(&state.seen(state.current_player() as usize), legal).unwrap()
}

fn legal(state: &State) -> Vec<u16> {
    let mut out = Vec::new();
    state.legal_actions(&mut out);
    out
}

#[test]
fn greedy_robs_with_the_weakest_card_and_draws_trumps_with_a_sure_winner() {
    let hands = [
        mask("5S 3S 7D 8C 9H"),
        mask("KS 2D 3D 4D 5D"),
        mask("6S 7S 8S 9S 10S"),
        mask("AS 4C 6C 8H KC"),
    ];
    let mut s = State::new(FORTY_FIVE, &hands, card("2S"), 3, 0.0).unwrap();
    // 6C is the lowest plain card of P3's (AS 4C 6C 8H KC).
    let rob = greedy_of(&s, &legal(&s));
    assert_eq!(rob, ROB_BASE + u16::from(card("6C")));
    s.apply(i64::from(rob)).unwrap();
    // P0 leads 5S: no trump left out beats it.
    assert_eq!(greedy_of(&s, &legal(&s)), u16::from(card("5S")));
    s.apply(i64::from(card("5S"))).unwrap();
    s.apply(i64::from(card("KS"))).unwrap();
    // P2's partner has the trick with a trump nobody can beat: P2 plays its weakest, 10S.
    assert_eq!(greedy_of(&s, &legal(&s)), u16::from(card("10S")));
    s.apply(i64::from(card("10S"))).unwrap();
    // P3 cannot win it: its weakest legal card (trumps only: AS or 2S) is 2S.
    assert_eq!(legal(&s), [u16::from(card("2S")), u16::from(card("AS"))]);
    assert_eq!(greedy_of(&s, &legal(&s)), u16::from(card("2S")));
}

#[test]
fn greedy_holds_off_an_opponent_on_two_tricks_and_jinks_with_two_sure_winners() {
    let trick = [card("4H")];
    let plays: Vec<u16> = cards("5H 9H KH").iter().map(|&c| u16::from(c)).collect();
    let mut seen = Seen {
        seat: 0,
        players: 3,
        phase: Phase::Play,
        trump: 3,
        demoted: false,
        hand: mask("5H 9H KH 2C 3C"),
        outstanding: DECK & !mask("5H 9H KH 2C 3C 4H 2S"),
        leader: 2,
        trick: &trick,
        tricks_won: &[0, 1, 0],
        partnership: false,
    };
    // The cheapest card that takes the trick.
    assert_eq!(greedy(&seen, &plays), Some(u16::from(card("5H"))));
    // P1, still to play, has two tricks: take it with the best card.
    seen.tricks_won = &[0, 2, 0];
    assert_eq!(greedy(&seen, &plays), Some(u16::from(card("KH"))));
    // Jinking: JS and AH are two sure winners once 5S is not out.
    seen.phase = Phase::Jink;
    seen.hand = mask("JS AH 2C");
    seen.outstanding = DECK & !mask("JS AH 2C 2S");
    assert_eq!(greedy(&seen, &[JINK, STOP]), Some(STOP));
    seen.outstanding &= !mask("5S");
    assert_eq!(greedy(&seen, &[JINK, STOP]), Some(JINK));
    // A play with no card among the moves has no choice.
    seen.phase = Phase::Play;
    assert_eq!(greedy(&seen, &[]), None);
    assert_eq!(greedy(&seen, &[KEEP]), None);
}

#[test]
fn playouts_end_and_return_what_the_rules_say() {
    let mut rng = Rng::new(11);
    let mut legal = Vec::new();
    let mut returns = [0.0; MAX_SEATS];
    for i in 0..2_000u64 {
        let spoil = i % 2 == 0;
        let players = if spoil {
            2 + (i as usize / 2) % 9
        } else {
            [2, 4, 6][i as usize % 3]
        };
        let r = rules(spoil, i % 3 == 0, i % 5 == 0, i % 7 < 4);
        let mut s = deal(&mut rng, r, players, (i % players as u64) as u8);
        let pool = s.pool();
        sim::playout(&mut s, &mut rng, &mut legal);
        assert!(s.is_over() && Deal::to_move(&s) < 0);
        Deal::returns_into(&s, &mut returns);
        for seat in 0..players {
            // Spoil Five is won by the pool's taker alone; Forty-Five by the side ahead.
            let best = returns[..players].iter().all(|&v| v <= returns[seat]);
            let won = if spoil { s.taker() == seat as i8 } else { best };
            assert_eq!(Deal::won(&s, seat), won);
        }
        let returns = &returns[..players];
        if spoil {
            // Everyone paid the ante; the taker takes the pool (a jink's extras cancel out).
            let taken = if s.taker() >= 0 { pool } else { 0.0 };
            assert_eq!(returns.iter().sum::<f64>(), taken - players as f64);
        } else {
            let won: u32 = s
                .tricks_won()
                .iter()
                .step_by(2)
                .map(|&k| u32::from(k))
                .sum();
            let points = [0.0, 0.0, 0.0, 5.0, 5.0, 10.0];
            for (seat, &r) in returns.iter().enumerate() {
                let side = if seat % 2 == 0 { won } else { 5 - won };
                assert_eq!(r, points[side as usize]);
            }
        }
    }
}

/// Everything `seat` sees of `state`, and the cards it cannot see.
fn everything_seen(state: &State, seat: usize) -> (Observed, Vec<u8>, Vec<u8>, Vec<f64>, u64) {
    (
        Observed::of(state, seat),
        state.trick_winners().to_vec(),
        state.tricks_won().to_vec(),
        state.returns(),
        state.hidden_from(seat),
    )
}

/// Checks one world dealt from `knowledge` (of `seat` in `state`).
fn check_world(state: &State, seat: usize, knowledge: &Knowledge, world: &World) {
    let w = &world.state;
    let n = state.players();
    // The strongest check: the seat sees exactly what it saw, and not one card more.
    assert_eq!(everything_seen(w, seat), everything_seen(state, seat));
    assert_eq!(w.seen(seat), state.seen(seat));
    // Every card is somewhere, once.
    let (played, turn_up, discards, stock) = w.zones();
    let mut all = 0u64;
    let mut count = 0;
    for m in w
        .hands()
        .iter()
        .copied()
        .chain([played, turn_up, discards, stock])
    {
        assert_eq!(all & m, 0);
        all |= m;
        count += m.count_ones();
    }
    assert_eq!((all, count), (DECK, 52));
    // No seat holds a card it showed it lacks (but a dealer's robbed turned ace joins the
    // hand after trick 1, whatever it showed then).
    let up_bit = 1u64 << state.turn_up();
    for s in (0..n).filter(|&s| s != seat) {
        assert_eq!(w.hands()[s] & knowledge.forbidden()[s] & !up_bit, 0, "P{s}");
    }
    // The robbed turn-up is in the robber's hand until played (or it waits for trick 1).
    let up = state.turn_up();
    let ace = ACE_OF_TRUMPS[usize::from(state.trump())];
    if state.robber() >= 0 && !state.pending_ace() && state.played() >> up & 1 == 0 {
        assert_eq!(w.hands()[state.robber() as usize] >> up & 1, 1);
    }
    // The seat that robbed or announced was dealt the ace of trumps; without the silent option
    // a deal whose robbing nobody took has it in the pack.
    if up != ace {
        let holder = if state.robber() >= 0 {
            state.robber()
        } else {
            state.keeper()
        };
        if holder >= 0 {
            assert_eq!(world.hands[holder as usize] >> ace & 1, 1);
        } else if !state.rules().silent_ace && state.phase() != Phase::Rob {
            assert!(world.hands[..n].iter().all(|h| h >> ace & 1 == 0));
        }
    }
    // The world replays from its deal.
    let mut again = knowledge.start(world);
    for &(_, v) in knowledge.history() {
        let v = if v == HIDDEN_ROB {
            ROB_BASE + world.discard as u16
        } else {
            v
        };
        again.apply(i64::from(v)).unwrap();
    }
    assert_eq!(&again, w);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn sampled_worlds_show_each_seat_what_it_saw(
        seed: u64,
        players in 2usize..=10,
        spoil: bool,
        silent_ace: bool,
        immediate_pickup: bool,
        jinking: bool,
        dealer in 0u8..10,
    ) {
        let players = if spoil { players } else { [2, 4, 6][players % 3] };
        let r = rules(spoil, silent_ace, immediate_pickup, jinking);
        let mut rng = Rng::new(seed);
        let mut state = deal(&mut rng, r, players, dealer % players as u8);
        let mut legal = Vec::new();
        loop {
            for seat in 0..players {
                let knowledge = Knowledge::of(&state, seat).unwrap();
                prop_assert_eq!(knowledge.unseen() & state.hands()[seat], 0);
                // The matching, which random tries fall back on, finds a world as well.
                let matched = knowledge.matched_world();
                prop_assert!(matched.is_some());
                check_world(&state, seat, &knowledge, &matched.unwrap());
                for _ in 0..3 {
                    let world = knowledge.sample_world(&mut rng).unwrap();
                    check_world(&state, seat, &knowledge, &world);
                    if seat as i8 == state.current_player() {
                        // The policy reads what the seat sees: the same choice in every world.
                        state.legal_actions(&mut legal);
                        if legal.len() > 1 {
                            let mut w = world.state.clone();
                            prop_assert_eq!(
                                Deal::greedy(&w, &legal, &mut rng),
                                Deal::greedy(&state, &legal, &mut rng)
                            );
                            sim::playout(&mut w, &mut rng, &mut legal);
                            prop_assert!(w.is_over());
                        }
                    }
                }
            }
            if state.is_over() {
                break;
            }
            advance(&mut state, 1 + rng.below(3) as usize, &mut rng);
        }
    }

    /// Whatever a caller passes as an observation: a knowledge or a reason, never a panic; and
    /// a knowledge only of what replays.
    #[test]
    fn junk_observations_are_refused_without_panicking(
        hand_sizes in prop::collection::vec(0u8..8, 0..12),
        seat in 0usize..12,
        current in -2i8..12,
        hand: u64,
        phase in 0u8..4,
        dealer in 0u8..12,
        turn_up in 0u8..60,
        announced in -2i8..12,
        robber in -2i8..12,
        ace_pending: bool,
        ace_demoted: bool,
        history in prop::collection::vec((0u8..12, 0u16..140), 0..70),
        silent_ace: bool,
    ) {
        let seen = Observed {
            seat,
            current_player: current,
            hand: hand & (DECK | 1 << 60),
            hand_sizes,
            phase: [Phase::Rob, Phase::Play, Phase::Jink, Phase::Over][usize::from(phase)],
            dealer,
            turn_up,
            announced,
            robber,
            ace_pending,
            ace_demoted,
            history,
            pool: 4.0,
        };
        if let Ok(knowledge) = Knowledge::new(rules(false, silent_ace, false, false), &seen) {
            let world = knowledge.world(&mut Rng::new(1));
            prop_assert_eq!(Observed::of(&world.state, seat), seen);
        }
    }
}

#[test]
fn unseen_cards_are_dealt_about_uniformly() {
    // A Forty-Five deal whose ace of trumps nobody was dealt, at the opening lead: P0 sees its
    // five cards and the turn-up, and knows the ace is in the pack; each of the other 45 cards
    // lies in each other seat's hand with probability 5/45.
    let mut rng = Rng::new(3);
    let state = deal_to_play(&mut rng, FORTY_FIVE, 4, 3);
    let ace = ACE_OF_TRUMPS[usize::from(state.trump())];
    let knowledge = Knowledge::of(&state, 0).unwrap();
    assert_eq!(knowledge.unseen().count_ones(), 45);
    assert_eq!(knowledge.unseen() >> ace & 1, 0);
    let samples = 18_000;
    let mut counts = [[0u32; 4]; 52];
    for _ in 0..samples {
        let world = sim::Knowledge::sample(&knowledge, &mut rng);
        for (seat, &h) in world.hands().iter().enumerate() {
            let mut h = h;
            while h != 0 {
                counts[h.trailing_zeros() as usize][seat] += 1;
                h &= h - 1;
            }
        }
    }
    // 2,000 expected, with a standard deviation of about 42: 10% either side is about 5 of them.
    let expected = samples / 9;
    let mut checked = 0;
    for (c, by_seat) in counts.iter().enumerate() {
        if knowledge.unseen() >> c & 1 == 0 {
            // Seen by P0 (its hand, the turn-up) or known to lie in the pack (the ace).
            assert_eq!(by_seat[1..], [0, 0, 0], "card {c}");
            continue;
        }
        for &k in &by_seat[1..] {
            assert!(
                k.abs_diff(expected) < expected / 10,
                "card {c}: {by_seat:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 45 * 3);
}

/// Hidden hands that random dealing rarely finds (9 tries in 1,000 here): in a 9-seat Spoil
/// Five deal, the unseen cards split into groups of 5, and each other seat allowed only its own
/// group and the next (the last seat the first group), so that the seats must all take their
/// own group or all the next.
#[test]
fn the_matching_finds_hands_that_random_tries_rarely_do() {
    let mut rng = Rng::new(3);
    let state = deal_to_play(&mut rng, SPOIL_FIVE, 9, 0);
    let knowledge = Knowledge::of(&state, 0).unwrap();
    let mut unseen = knowledge.unseen();
    let mut groups = [0u64; 8];
    for g in groups.iter_mut() {
        for _ in 0..5 {
            let c = unseen.trailing_zeros();
            unseen &= !(1 << c);
            *g |= 1 << c;
        }
    }
    // Seat 0 knows its own hand; seat s may hold groups s - 1 and s (mod 8).
    let mut forbid: Vec<u64> = (0..9)
        .map(|s: usize| match s {
            0 => 0,
            _ => DECK & !(groups[s - 1] | groups[s % 8]),
        })
        .collect();
    let tight = knowledge.forbidding(&forbid);
    let found = (0..TRIES)
        .filter(|_| tight.try_world(&mut rng).is_some())
        .count();
    assert!(found < TRIES / 10, "random tries found {found} of {TRIES}");
    let world = tight.matched_world().expect("the matching finds hands");
    for (s, (hand, no)) in world.hands.iter().zip(&forbid).enumerate().skip(1) {
        assert_eq!(hand & no, 0, "P{s}");
        assert_eq!(hand.count_ones(), 5, "P{s}");
    }
    assert_eq!(Observed::of(&world.state, 0), Observed::of(&state, 0));
    // With one seat allowed fewer cards than it holds, no hands exist, and none are made up.
    forbid[4] |= groups[4] | 1 << groups[3].trailing_zeros();
    let impossible = Knowledge::of(&state, 0).unwrap().forbidding(&forbid);
    assert_eq!(impossible.matched_world(), None);
}

#[test]
fn a_seat_that_showed_a_void_is_dealt_none_of_the_suit() {
    // Spoil Five, three seats, spades trumps; nobody holds the ace of spades (it is in the
    // pack): P1 leads KH, P2 neither follows nor trumps (2D), P0 (who knows) follows with 3H.
    let hands = [
        mask("3H 4C 5C 6C 7C"),
        mask("KH 8C 9C 10C JC"),
        mask("2S 2D 3D 4D 5D"),
    ];
    let mut s = State::new(SPOIL_FIVE, &hands, card("9S"), 0, 3.0).unwrap();
    for c in ["KH", "2D", "3H"] {
        s.apply(i64::from(card(c))).unwrap();
    }
    let knowledge = Knowledge::of(&s, 0).unwrap();
    let hearts = PLAIN_MASK[3][2];
    assert_eq!(knowledge.forbidden()[2], hearts);
    assert_eq!(knowledge.forbidden()[1], 0);
    let mut rng = Rng::new(5);
    let mut p1_hearts = 0;
    for _ in 0..500 {
        let world = knowledge.sample_world(&mut rng).unwrap();
        check_world(&s, 0, &knowledge, &world);
        assert_eq!(world.state.hands()[2] & hearts, 0);
        p1_hearts += (world.state.hands()[1] & hearts).count_ones();
    }
    assert!(p1_hearts > 0, "P1 may hold hearts");
}

#[test]
fn the_weight_hook_sees_each_world_with_its_deal() {
    let mut rng = Rng::new(8);
    let mut state = deal(&mut rng, rules(true, true, false, true), 5, 2);
    advance(&mut state, 9, &mut rng);
    let knowledge = Knowledge::of(&state, 1).unwrap();
    let (world, weight) = knowledge.sample_weighted(&mut Rng::new(4), |k, w| {
        // A weight from replaying the other seats' moves in the world as dealt: here, simply
        // how many moves replay.
        let mut s = k.start(w);
        let mut moves = 0.0;
        for &(_, v) in k.history() {
            let v = if v == HIDDEN_ROB {
                ROB_BASE + w.discard as u16
            } else {
                v
            };
            moves += f64::from(u8::from(s.apply(i64::from(v)).is_ok()));
        }
        moves
    });
    assert_eq!(weight, knowledge.history().len() as f64);
    assert_eq!(world, knowledge.world(&mut Rng::new(4)));
    check_world(&state, 1, &knowledge, &world);
}

#[test]
fn a_search_over_sampled_worlds_is_the_same_on_any_number_of_threads() {
    use crate::sim::Greedy;
    use crate::sim::search::{Settings, race};
    let mut rng = Rng::new(21);
    let mut state = deal(&mut rng, FORTY_FIVE, 4, 1);
    let mut legal = Vec::new();
    loop {
        advance(&mut state, 1, &mut rng);
        state.legal_actions(&mut legal);
        if legal.len() > 1 {
            break;
        }
    }
    let knowledge = Knowledge::of(&state, state.current_player() as usize).unwrap();
    let priors = vec![0.0; legal.len()];
    let settings = |threads| Settings {
        iterations: Some(400),
        time_limit: None,
        min_worlds: 8,
        confidence: 2.0,
        indifference: 0.0,
        prior_weight: 0.0,
        threads,
        inference: None,
        leaf_after: None,
        opponents: None,
    };
    let one = race(&knowledge, &legal, &priors, &settings(1), 7, &Greedy).unwrap();
    assert_eq!(
        race(&knowledge, &legal, &priors, &settings(3), 7, &Greedy),
        Some(one.clone())
    );
    assert!(one.iterations <= 400 && one.worlds >= 8);
    // Forty-Five's returns are a side's points: 0, 5 or 10.
    for tally in &one.tallies {
        assert!(tally.values.iter().all(|v| [0.0, 5.0, 10.0].contains(v)));
        assert!(tally.wins <= tally.values.len() as u64);
    }
    // A move the seat cannot make is refused.
    let refused = race(
        &knowledge,
        &[legal[0], STOP],
        &[0.0, 0.0],
        &settings(1),
        7,
        &Greedy,
    );
    assert_eq!(refused, None);
}
