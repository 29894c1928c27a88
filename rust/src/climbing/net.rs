//! The learned network of `parlour.bots.learned.dmc` as a playout policy: each seat plays the
//! legal move the network scores highest from that seat's observation, as the Python bot does.
//!
//! The network ([`Mlp`]) reads the observation encoding ([`Encoding`]) and features of the
//! move: a static part per action index (given as sparse rows, computed once by Python over the
//! whole index) and what the move leaves in hand, computed here exactly as
//! `ClimbingFeatures.rows` does.

use std::sync::Arc;

use super::combos::{MASK, Table};
use super::encoding::{ActionIndex, Encoding, played_by_seat};
use super::state::{MAX_SEATS, State};
use crate::sim::mlp::{self, Layers, Mlp, Network};

/// The features after the static ones: the hand-after-move block, then cards left / 13, goes
/// out, singles, pairs, triples and quads left / 6, rank groups broken / 4.
pub const AFTER: usize = 52 + 7;

/// A network's weights and the tables it reads.
#[derive(Clone, Debug)]
pub struct Net {
    encoding: Encoding,
    index: Arc<ActionIndex>,
    mlp: Mlp,
    /// The static features of action `i`: `cols[ptr[i]..ptr[i + 1]]` with their values.
    ptr: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f32>,
    /// The number of static features (the hand-after features follow them).
    statics: usize,
}

/// The weights and static features as Python holds them; [`Net::new`] checks them.
pub struct Weights {
    pub layers: Layers,
    pub ptr: Vec<usize>,
    pub cols: Vec<usize>,
    pub vals: Vec<f32>,
}

/// What a decision's moves read: the hand of the seat to move (and each seat's plays, for the
/// encoding).
#[derive(Default)]
pub struct Context {
    played: [u64; MAX_SEATS],
    hand: u64,
}

impl Net {
    /// The network for `table`'s rules at `players` seats, or why the weights do not fit them.
    pub fn new(table: &Table, players: usize, w: Weights) -> Result<Net, String> {
        let encoding = Encoding::new(&table.rules, players);
        let index = Arc::new(ActionIndex::new(table));
        let actions = index.size();
        let what = format!(
            ", w1a of 59 rows past the static features and a row of static features for each \
             of the {actions} actions"
        );
        let mlp = Mlp::new(w.layers, encoding.size(), &what)?;
        let statics = mlp.features().checked_sub(AFTER).unwrap_or(usize::MAX);
        let fits = statics != usize::MAX
            && w.ptr.len() == actions + 1
            && w.ptr.first() == Some(&0)
            && w.ptr.windows(2).all(|p| p[0] <= p[1])
            && w.ptr.last() == Some(&w.cols.len())
            && w.cols.len() == w.vals.len()
            && w.cols.iter().all(|&c| c < statics);
        if !fits {
            return Err(format!("the weights do not fit this game{what}"));
        }
        Ok(Net {
            encoding,
            index,
            mlp,
            ptr: w.ptr,
            cols: w.cols,
            vals: w.vals,
            statics,
        })
    }

    /// The seats of the deals it plays.
    pub fn players(&self) -> usize {
        self.encoding.players()
    }

    /// The first-layer rows of move `m` (index `i`) from `hand`, with their factors, in the
    /// order they are added: its static features, then what it leaves in hand.
    #[inline(always)]
    fn rows(&self, i: usize, m: u64, hand: u64, terms: &mut Vec<(f32, u32)>) {
        for k in self.ptr[i]..self.ptr[i + 1] {
            terms.push((self.vals[k], self.cols[k] as u32));
        }
        let after_at = self.statics as u32;
        let cards = m & MASK;
        let after = hand & !cards;
        let mut bits = after;
        while bits != 0 {
            terms.push((1.0, after_at + bits.trailing_zeros()));
            bits &= bits - 1;
        }
        let left = after.count_ones();
        // As numpy computes them: in f64, then stored as f32.
        terms.push(((f64::from(left) / 13.0) as f32, after_at + 52));
        if left == 0 && i != 0 {
            terms.push((1.0, after_at + 53));
        }
        let mut groups = [0u32; 5];
        let mut broken = 0u32;
        for r in 0..13 {
            let count = (after >> (4 * r) & 15).count_ones();
            groups[count as usize] += 1;
            let (held, taken) = (
                (hand >> (4 * r) & 15).count_ones(),
                (cards >> (4 * r) & 15).count_ones(),
            );
            broken += u32::from(taken > 0 && taken < held);
        }
        for (k, &g) in groups.iter().enumerate().skip(1) {
            if g > 0 {
                terms.push(((f64::from(g) / 6.0) as f32, after_at + 53 + k as u32));
            }
        }
        if broken > 0 {
            terms.push(((f64::from(broken) / 4.0) as f32, after_at + 58));
        }
    }
}

impl Network<State> for Net {
    type Context = Context;

    #[inline(always)]
    fn mlp(&self) -> &Mlp {
        &self.mlp
    }

    #[inline(always)]
    fn encode(&self, state: &State, cx: &mut Context, obs: &mut [f32]) {
        let n = self.encoding.players();
        let seat = mlp::seat_to_move(state, n);
        played_by_seat(state.history(), &mut cx.played);
        self.encoding.encode(state, seat, &cx.played[..n], obs);
        cx.hand = state.hands()[seat];
    }

    /// A move outside the variant's index cannot be scored.
    #[inline(always)]
    fn move_terms(&self, _: &State, m: u64, cx: &Context, terms: &mut Vec<(f32, u32)>) -> bool {
        let Some(i) = self.index.index(m) else {
            return false;
        };
        self.rows(i, m, cx.hand, terms);
        true
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::climbing::rules::Rules;
    use crate::sim::mlp::{self, NetPolicy};
    use crate::sim::{Deal, playout_to_leaf, playout_with};
    use crate::sim::{Inference, Policy, Rng};
    use crate::test_support::climbing::fresh;

    /// A network of small random weights with one static feature per action (its index / size).
    fn random_net(table: &Table, seed: u64) -> NetPolicy<Net> {
        random_net_of(table, seed, 16, 8)
    }

    /// The same with `h1` and `h2` units in the hidden layers.
    fn random_net_of(table: &Table, seed: u64, h1: usize, h2: usize) -> NetPolicy<Net> {
        let encoding = Encoding::new(&table.rules, 4);
        let actions = ActionIndex::new(table).size();
        let statics = 3;
        let mlp = Mlp::random(encoding.size(), statics + AFTER, h1, h2, seed);
        NetPolicy(Net {
            encoding,
            index: Arc::new(ActionIndex::new(table)),
            mlp,
            ptr: (0..=actions).collect(),
            cols: (0..actions).map(|i| i % statics).collect(),
            vals: (0..actions).map(|i| i as f32 / actions as f32).collect(),
            statics,
        })
    }

    /// The scores computed the plain way: every product of every layer, one move at a time.
    fn dense_scores(net: &Net, state: &State, legal: &[u64]) -> Vec<f32> {
        let n = net.encoding.players();
        let seat = state.current_player() as usize;
        let mut played = [0; MAX_SEATS];
        played_by_seat(state.history(), &mut played);
        let mut obs = vec![0.0; net.encoding.size()];
        net.encoding.encode(state, seat, &played[..n], &mut obs);
        let hand = state.hands()[seat];
        legal
            .iter()
            .map(|&m| {
                let Some(i) = net.index.index(m) else {
                    return f32::NEG_INFINITY;
                };
                let mut terms = Vec::new();
                net.rows(i, m, hand, &mut terms);
                net.mlp.dense(&obs, &terms)
            })
            .collect()
    }

    #[test]
    fn scores_are_the_dense_networks_on_every_path() {
        // 70 and 40 units: whole and partial blocks of 32 (the units that fire) and of 64 (the
        // sums in registers).
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let net = random_net_of(&table, 9, 70, 40);
        let mut rng = Rng::new(4);
        let (mut legal, mut s, mut checked) = (Vec::new(), mlp::Scratch::default(), 0);
        for _ in 0..10 {
            let mut deal = fresh(&table, &mut rng);
            while !deal.is_over() {
                deal.legal_into(&mut legal);
                let dense = dense_scores(&net, &deal, &legal);
                // Skipping the units that do not fire changes no score.
                mlp::scores_portable(&net.0, &deal, &legal, &mut s);
                assert_eq!(s.q, dense);
                // The path chosen for this processor gives the very same bits.
                let bits = |q: &[f32]| q.iter().map(|q| q.to_bits()).collect::<Vec<_>>();
                let portable = bits(&s.q);
                net.scores(&deal, &legal, &mut s);
                assert_eq!(bits(&s.q), portable);
                checked += legal.len();
                let m = legal[rng.below(legal.len() as u64) as usize];
                deal.play(m, &mut rng);
            }
        }
        assert!(checked > 1_000, "{checked} moves scored");
    }

    #[test]
    fn the_likelihoods_read_the_scores_in_points() {
        // A network whose outputs are worth 39 points each is as sharp at a temperature of
        // 39 points as the same weights worth one point each at a temperature of 1.
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let unit = random_net(&table, 5);
        let mut points = unit.clone();
        points.0.mlp.scale = 39.0;
        let mut rng = Rng::new(6);
        let (mut legal, mut checked) = (Vec::new(), 0);
        let mut deal = fresh(&table, &mut rng);
        let at = |temperature| Inference {
            draws: 1,
            temperature,
            uniform: 0.1,
        };
        while !deal.is_over() {
            deal.legal_into(&mut legal);
            if legal.len() > 1 {
                for &m in &legal {
                    let mut s = mlp::Scratch::default();
                    let a = unit.likelihood(&deal, &legal, m, &at(0.02), &mut s);
                    let b = points.likelihood(&deal, &legal, m, &at(0.78), &mut s);
                    let c = points.likelihood(&deal, &legal, m, &at(0.02), &mut s);
                    assert!((a - b).abs() < 1e-6, "{a} {b}");
                    checked += usize::from((a - c).abs() > 1e-3);
                }
            }
            let m = unit.choose(&deal, &legal, &mut rng, &mut mlp::Scratch::default());
            deal.play(m, &mut rng);
        }
        assert!(checked > 0, "the scale changed no likelihood");
    }

    #[test]
    fn the_likelihoods_of_the_moves_are_a_softmax_of_the_scores() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let net = random_net(&table, 5);
        let mut rng = Rng::new(4);
        let (mut legal, mut s) = (Vec::new(), mlp::Scratch::default());
        let sharp = Inference {
            draws: 8,
            temperature: 0.05,
            uniform: 0.1,
        };
        let flat = Inference {
            temperature: 1e9,
            ..sharp
        };
        let mut deal = fresh(&table, &mut rng);
        let mut checked = 0;
        while !deal.is_over() {
            deal.legal_into(&mut legal);
            if legal.len() > 1 {
                let best = net.choose(&deal, &legal, &mut rng, &mut s);
                let p = |m, inference| {
                    net.likelihood(&deal, &legal, m, inference, &mut mlp::Scratch::default())
                };
                let total: f64 = legal.iter().map(|&m| p(m, &sharp)).sum();
                assert!((total - 1.0).abs() < 1e-9, "{total}");
                for &m in &legal {
                    assert!(p(m, &sharp) <= p(best, &sharp));
                    assert!(p(m, &sharp) >= 0.1 / legal.len() as f64 - 1e-12);
                    assert!((p(m, &flat) - 1.0 / legal.len() as f64).abs() < 1e-6);
                }
                checked += 1;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            deal.play(m, &mut rng);
        }
        assert!(checked > 3, "{checked}");
    }

    #[test]
    fn network_playouts_end_legally_and_repeat_exactly() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let net = random_net(&table, 3);
        let mut rng = Rng::new(8);
        for _ in 0..20 {
            let start = fresh(&table, &mut rng);
            let mut results = Vec::new();
            for _ in 0..2 {
                let mut deal = start.clone();
                let mut legal = Vec::new();
                let mut scratch = mlp::Scratch::default();
                playout_with(&mut deal, &mut Rng::new(1), &mut legal, &net, &mut scratch);
                assert!(deal.is_over());
                let mut returns = [0.0; 4];
                deal.returns_into(&mut returns);
                results.push((returns, deal.history().to_vec()));
            }
            assert_eq!(results[0], results[1]);
        }
    }

    /// The network's moves from `start` by hand, counting `seat`'s real choices: the position
    /// of its `turns`-th (never, for 0) with the network's value of it, or the deal's end.
    fn walk_by_hand(
        net: &NetPolicy<Net>,
        start: &State,
        seat: usize,
        turns: u32,
    ) -> (State, Option<f64>) {
        let (mut walk, mut seen) = (start.clone(), 0);
        let (mut legal, mut s) = (Vec::new(), mlp::Scratch::default());
        while !walk.is_over() {
            walk.legal_into(&mut legal);
            if legal.len() > 1 && walk.current_player() as usize == seat {
                seen += 1;
                if seen == turns {
                    net.scores(&walk, &legal, &mut s);
                    let best = s.q.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    return (walk, Some(f64::from(best) * net.mlp.scale));
                }
            }
            let m = if legal.len() == 1 {
                legal[0]
            } else {
                net.choose(&walk, &legal, &mut Rng::new(0), &mut s)
            };
            walk.play(m, &mut Rng::new(0));
        }
        (walk, None)
    }

    #[test]
    fn a_rollout_to_a_leaf_stops_at_the_seats_chosen_turn_and_takes_its_value() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut net = random_net(&table, 6);
        net.0.mlp.scale = 39.0;
        let mut rng = Rng::new(5);
        let (mut legal, mut s) = (Vec::new(), mlp::Scratch::default());
        let (mut leaves, mut ended) = (0, 0);
        for game in 0..30 {
            let start = fresh(&table, &mut rng);
            // Some turns the seat may never reach: the deal ends first; 0 never stops it.
            let (seat, turns) = (game / 4 % 4, [1, 2, 5, 30][game % 4]);
            for turns in [turns, 0] {
                let mut deal = start.clone();
                let got = playout_to_leaf(
                    &mut deal,
                    &mut Rng::new(1),
                    &mut legal,
                    &net,
                    &mut s,
                    seat,
                    turns,
                );
                let (walk, value) = walk_by_hand(&net, &start, seat, turns);
                assert_eq!(got, value);
                assert_eq!(deal.history(), walk.history());
                assert_eq!(got.is_none(), deal.is_over());
                match (got, turns) {
                    (Some(_), _) => leaves += 1,
                    (None, 0) => {}
                    (None, _) => ended += 1,
                }
            }
            // A policy without values plays to the end.
            let mut greedy = start.clone();
            let none = playout_to_leaf(
                &mut greedy,
                &mut Rng::new(1),
                &mut legal,
                &crate::sim::Greedy,
                &mut (),
                seat,
                1,
            );
            assert!(none.is_none() && greedy.is_over());
        }
        assert!(
            leaves > 10 && ended > 0,
            "{leaves} leaves, {ended} deals ended first"
        );
    }

    #[test]
    fn the_choice_is_the_best_score_and_ignores_hidden_hands() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let net = random_net(&table, 5);
        let mut rng = Rng::new(2);
        let mut deal = fresh(&table, &mut rng);
        let mut legal = Vec::new();
        let mut s = mlp::Scratch::default();
        deal.legal_into(&mut legal);
        net.scores(&deal, &legal, &mut s);
        let scores = s.q.clone();
        assert_eq!(scores.len(), legal.len());
        let pick = net.choose(&deal, &legal, &mut rng, &mut s);
        let best = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(scores[legal.iter().position(|&m| m == pick).unwrap()], best);
        // Another seat's hand swapped with a third's: the mover's scores do not change.
        let mover = deal.current_player() as usize;
        let (a, b) = ((mover + 1) % 4, (mover + 2) % 4);
        let mut hands = deal.hands().to_vec();
        hands.swap(a, b);
        let start = crate::climbing::state::Start {
            hands,
            table_seat: -1,
            ..Default::default()
        };
        let swapped = State::new(table.clone(), &start).unwrap();
        assert_eq!(swapped.current_player(), deal.current_player());
        net.scores(&swapped, &legal, &mut s);
        assert_eq!(s.q, scores);
    }

    #[test]
    fn static_features_that_do_not_fit_the_index_are_refused() {
        let table = Table::new(Rules::big_two_4card());
        let good = random_net(&table, 1);
        let weights = |cols: Vec<usize>| Weights {
            layers: Layers {
                w1o: good.mlp.w1o.clone(),
                w1a: good.mlp.w1a.clone(),
                b1: good.mlp.b1.clone(),
                w2: good.mlp.w2.clone(),
                b2: good.mlp.b2.clone(),
                w3: good.mlp.w3.clone(),
                b3: 0.0,
                scale: 1.0,
            },
            ptr: good.ptr.clone(),
            cols,
            vals: good.vals.clone(),
        };
        assert!(Net::new(&table, 4, weights(good.cols.clone())).is_ok());
        let mut bad = good.cols.clone();
        bad[0] = 99; // past the 3 static features
        let err = Net::new(&table, 4, weights(bad)).unwrap_err();
        assert!(err.contains("do not fit"), "{err}");
        let mut short = weights(good.cols.clone());
        short.ptr.pop();
        assert!(Net::new(&table, 4, short).is_err());
        // the layers' own shapes are checked by Mlp::new
        let mut wrong = weights(good.cols.clone());
        wrong.layers.w1o.pop();
        assert!(Net::new(&table, 4, wrong).is_err());
    }
}
