//! A climbing deal as simulation drives it: [`sim::Deal`] for [`State`], the greedy choice
//! being [`policy::greedy`] on the view of the seat to move.

use super::Scoring;
use super::combos::PASS;
use super::policy::{self, SeatView};
use super::state::State;
use crate::sim::{self, Rng};

impl sim::Deal for State {
    type Move = u64;

    fn players(&self) -> usize {
        State::players(self)
    }

    fn to_move(&self) -> i8 {
        self.current_player()
    }

    fn legal_into(&mut self, out: &mut Vec<u64>) {
        self.legal_actions(out);
    }

    /// Applies `m`; the climbing rules have no chance inside a deal, so `rng` is not drawn from.
    /// A move that is not legal (which the contract rules out) leaves the state as it was.
    fn play(&mut self, m: u64, _rng: &mut Rng) {
        let done = self.apply(m);
        debug_assert!(done.is_ok(), "{m:#x} is not legal here: {done:?}");
    }

    fn returns_into(&self, out: &mut [f64]) {
        let returns = self.returns();
        out[..returns.len()].copy_from_slice(returns);
    }

    /// Under placement scoring a seat's place, and so its points, is fixed when it goes out
    /// (and with them whether it won: every place's points are known), however the others
    /// play on for theirs.
    fn settled(&self, seat: usize) -> Option<(f64, bool)> {
        if self.is_over() {
            return Some(sim::result_over(self, seat));
        }
        let rules = &self.table().rules;
        if rules.scoring != Scoring::Placement {
            return None;
        }
        let place = self
            .finished()
            .iter()
            .position(|&s| usize::from(s) == seat)?;
        let points = |k: usize| rules.placement_points.get(k).map_or(0.0, |&p| f64::from(p));
        let mine = points(place);
        Some((mine, (0..self.players()).all(|k| points(k) <= mine)))
    }

    /// The greedy policy on what the seat to move may see (its hand, the card counts and the
    /// table); it draws nothing from `rng`.
    fn greedy(&self, legal: &[u64], _rng: &mut Rng) -> u64 {
        let view = SeatView::of_mover(self);
        match policy::greedy(self.table(), &view, legal) {
            Some(i) => legal[i],
            None => PASS,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use crate::climbing::combos::{MASK, Table};
    use crate::climbing::rules::Rules;
    use crate::climbing::state::{Start, State};
    use crate::sim::{self, Deal, Rng};

    /// A fresh deal of `rules` from `rng`, the opening rule to play.
    pub(crate) fn fresh(table: &Arc<Table>, rng: &mut Rng) -> State {
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        let mut hands = vec![0u64; 4];
        for (i, &c) in deck.iter().enumerate() {
            hands[i % 4] |= 1 << c;
        }
        let start = Start {
            hands,
            table_seat: -1,
            ..Start::default()
        };
        State::new(table.clone(), &start).expect("a full deal")
    }

    pub(crate) fn all_rules() -> Vec<Rules> {
        let mut b8 = Rules::big_two();
        b8.pass_only_if_no_legal_play = true;
        let mut standard = Rules::pusoy_dos();
        standard.next_player_leads_after_out = false;
        vec![
            Rules::big_two_4card(),
            Rules::big_two(),
            Rules::pusoy_dos(),
            b8,
            standard,
        ]
    }

    #[test]
    fn greedy_playouts_end_and_return_what_the_rules_say() {
        for rules in all_rules() {
            let scoring = rules.scoring;
            let table = Arc::new(Table::new(rules));
            let mut rng = Rng::new(11);
            let mut legal = Vec::new();
            let mut returns = [0.0; 4];
            for _ in 0..300 {
                let mut deal = fresh(&table, &mut rng);
                sim::playout(&mut deal, &mut rng, &mut legal);
                assert!(deal.to_move() < 0 && deal.is_over());
                // Every card is still somewhere: in a hand or played.
                let held = deal.hands().iter().fold(0, |m, h| m | h);
                assert_eq!(held | deal.played(), MASK);
                assert_eq!(held & deal.played(), 0);
                deal.returns_into(&mut returns);
                let left: Vec<f64> = deal.hands().iter().map(|h| h.count_ones().into()).collect();
                let winner = usize::from(deal.finished()[0]);
                assert_eq!(left[winner], 0.0);
                match scoring {
                    // Zero-sum: the winner takes the others' cards.
                    crate::climbing::Scoring::Count => {
                        assert_eq!(returns.iter().sum::<f64>(), 0.0);
                        assert_eq!(returns[winner], left.iter().sum::<f64>());
                    }
                    crate::climbing::Scoring::Penalty => {
                        for (r, &l) in returns.iter().zip(&left) {
                            assert_eq!(-r, f64::from(crate::climbing::rules::penalty(l as u32)));
                        }
                    }
                    // Places 3, 2, 1, 0: every seat ends with one.
                    crate::climbing::Scoring::Placement => {
                        let mut sorted = returns;
                        sorted.sort_by(f64::total_cmp);
                        assert_eq!(sorted, [0.0, 1.0, 2.0, 3.0]);
                        assert_eq!(returns[winner], 3.0);
                    }
                }
            }
        }
    }

    #[test]
    fn a_settled_result_is_the_one_the_deal_ends_with() {
        let mut legal = Vec::new();
        for rules in all_rules() {
            let placement = rules.scoring == crate::climbing::Scoring::Placement;
            let table = Arc::new(Table::new(rules));
            let mut rng = Rng::new(3);
            let mut early = 0;
            for _ in 0..200 {
                let mut deal = fresh(&table, &mut rng);
                let mut settled = [None; 4];
                while deal.to_move() >= 0 {
                    for (seat, s) in settled.iter_mut().enumerate() {
                        if let Some(now) = deal.settled(seat) {
                            // Once settled, it stays as it was.
                            assert_eq!(*s.get_or_insert(now), now);
                        }
                    }
                    deal.legal_into(&mut legal);
                    let m = deal.greedy(&legal, &mut rng);
                    deal.play(m, &mut rng);
                }
                early += settled.iter().flatten().count();
                for (seat, s) in settled.iter().enumerate() {
                    let end = sim::result_over(&deal, seat);
                    assert_eq!(deal.settled(seat), Some(end));
                    assert!(s.is_none_or(|s| s == end), "{s:?} then {end:?}");
                }
            }
            // Placement settles the seats out before the last at once; the others only end.
            assert_eq!(early > 0, placement, "{early} seats settled early");
        }
    }

    #[test]
    fn a_rollout_stops_where_its_seat_is_placed_with_the_result_of_playing_on() {
        let table = Arc::new(Table::new(Rules::pusoy_dos()));
        let mut rng = Rng::new(8);
        let (mut legal, mut stopped) = (Vec::new(), 0);
        for game in 0..200 {
            let start = fresh(&table, &mut rng);
            let seat = game % 4;
            let (mut short, mut long) = (start.clone(), start);
            let got = sim::rollout(
                &mut short,
                &mut Rng::new(1),
                &mut legal,
                &sim::Greedy,
                &mut (),
                seat,
                0,
            );
            sim::playout(&mut long, &mut Rng::new(1), &mut legal);
            assert_eq!(got, sim::result_over(&long, seat));
            stopped += usize::from(!short.is_over());
        }
        assert!(stopped > 50, "{stopped} rollouts stopped before the end");
    }

    #[test]
    fn greedy_picks_a_legal_move_and_never_draws() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(5);
        let mut legal = Vec::new();
        for _ in 0..50 {
            let mut deal = fresh(&table, &mut rng);
            while deal.to_move() >= 0 {
                deal.legal_into(&mut legal);
                let mut before = rng.clone();
                let m = deal.greedy(&legal, &mut rng);
                assert!(legal.contains(&m));
                assert_eq!(before.next_u64(), rng.clone().next_u64());
                deal.play(m, &mut rng);
            }
        }
    }
}
