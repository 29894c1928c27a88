//! The learned network of `parlour.bots.learned.dmc` for the trump games, as a playout policy:
//! each seat plays the legal move the network scores highest from that seat's observation, as
//! the Python bot does.
//!
//! The network ([`Mlp`]) reads the observation encoding ([`Encoding`]) and the move's features,
//! computed here exactly as `parlour.bots.learned.trump.TrumpFeatures.rows` does: the move's
//! entry in the action index, then what its card means in the deal (trump or not, its place in
//! the trump or plain order, and for a card played to a trick whether it leads, follows, takes
//! the trick as it stands, whether a partner holds the trick, whether it is the trick's last
//! card, and the trumps and cards of its suit left in hand).

use super::encoding::{ACTIONS, Encoding, index, played_by_seat};
use super::{
    ACE_OF_TRUMPS, MAX_SEATS, PLAIN_MASK, POWER, ROB_BASE, Scoring, State, TRUMP_BASE, TRUMP_MASK,
};
use crate::sim::mlp::{self, Layers, Mlp, Network};

/// Places in the trump order: 14 trumps (13 when hearts are trumps) and a silent ace below them.
const TRUMP_PLACES: u32 = 15;
/// The columns after the action index, as `trump.COLUMNS` orders them.
const TRUMP: u32 = ACTIONS as u32;
const TRUMP_PLACE: u32 = TRUMP + 1;
const PLAIN_PLACE: u32 = TRUMP_PLACE + TRUMP_PLACES;
const LEADS: u32 = PLAIN_PLACE + 13;
const FOLLOWS: u32 = LEADS + 1;
const TAKES: u32 = LEADS + 2;
const PARTNER_HOLDS: u32 = LEADS + 3;
const LAST: u32 = LEADS + 4;
const TRUMPS_AFTER: u32 = LEADS + 5;
const SUIT_AFTER: u32 = LEADS + 6;
/// The number of move features.
pub const FEATURES: usize = SUIT_AFTER as usize + 1;

/// A network's weights and the tables it reads.
#[derive(Clone, Debug)]
pub struct Net {
    encoding: Encoding,
    mlp: Mlp,
    /// The scores before the deal that the encoding is given: those of a match's start, as in
    /// self-play (Python zeroes the weights of those entries: see `QNet.deal_only`).
    scores: Vec<f64>,
    /// Two sides (Forty-Five): the seats two, four … places on are partners.
    sides: bool,
    /// `trump_place[demoted][trump][card]`, `plain_place[trump][card]`: the card's place in
    /// the trump order (highest first, a silent ace last) or its plain suit's.
    trump_place: [[[u8; 52]; 4]; 2],
    plain_place: [[u8; 52]; 4],
}

/// What a decision's moves read: the seat to move (and each seat's plays, for the encoding).
#[derive(Default)]
pub struct Context {
    played: [u64; MAX_SEATS],
    seat: usize,
}

/// The places of every card in the trump and plain orders, from the power tables: a trump's
/// power is `TRUMP_BASE` + (trumps − place), a plain card's (cards of its suit − place).
fn places() -> ([[[u8; 52]; 4]; 2], [[u8; 52]; 4]) {
    let mut trump_place = [[[0u8; 52]; 4]; 2];
    let mut plain_place = [[0u8; 52]; 4];
    for t in 0..4 {
        let power = &POWER[0][t];
        let trumps = power.iter().filter(|&&p| p > TRUMP_BASE).count() as u8;
        for c in 0..52 {
            let p = power[c];
            if p > TRUMP_BASE {
                trump_place[0][t][c] = TRUMP_BASE + trumps - p;
            } else {
                let suit = (0..52).filter(|&o| o % 4 == c % 4 && power[o] < TRUMP_BASE);
                plain_place[t][c] = suit.count() as u8 - p;
            }
        }
        trump_place[1][t] = trump_place[0][t];
        trump_place[1][t][usize::from(ACE_OF_TRUMPS[t])] = (TRUMP_PLACES - 1) as u8;
    }
    (trump_place, plain_place)
}

impl Net {
    /// The network for deals of `scoring` at `players` seats (`score_scale` and `scores` as
    /// the encoding takes them), or why the weights do not fit.
    pub fn new(
        scoring: Scoring,
        players: usize,
        score_scale: f64,
        scores: Vec<f64>,
        layers: Layers,
    ) -> Result<Net, String> {
        let encoding = Encoding::new(scoring, players, score_scale);
        if !(2..=MAX_SEATS).contains(&players) || scores.len() != encoding.score_entries() {
            return Err(format!(
                "no trump deal of {players} seats with {} scores before it",
                scores.len()
            ));
        }
        let what = format!(", and w1a of {FEATURES} rows");
        let mlp = Mlp::new(layers, encoding.size(), &what)?;
        if mlp.features() != FEATURES {
            return Err(format!("the weights do not fit this game{what}"));
        }
        let (trump_place, plain_place) = places();
        Ok(Net {
            encoding,
            mlp,
            scores,
            sides: matches!(scoring, Scoring::Sides { .. }),
            trump_place,
            plain_place,
        })
    }

    /// The seats of the deals it plays.
    pub fn players(&self) -> usize {
        self.encoding.players()
    }

    /// The first-layer rows of move `m` (index `i`) of `seat`, with their values.
    #[inline(always)]
    fn rows(&self, state: &State, seat: usize, i: usize, m: u16, terms: &mut Vec<(f32, u32)>) {
        terms.push((1.0, i as u32));
        let card = match m {
            0..52 => usize::from(m),
            _ if (ROB_BASE..ROB_BASE + 52).contains(&m) => usize::from(m - ROB_BASE),
            _ => return, // keep, silent, jink, stop: the index entry alone
        };
        let t = usize::from(state.trump());
        let demoted = usize::from(state.demoted());
        let power = &POWER[demoted][t];
        let p = power[card];
        let trump = p >= TRUMP_BASE;
        if trump {
            terms.push((1.0, TRUMP));
            let place = self.trump_place[demoted][t][card];
            terms.push((1.0, TRUMP_PLACE + u32::from(place)));
        } else {
            terms.push((1.0, PLAIN_PLACE + u32::from(self.plain_place[t][card])));
        }
        if m >= 52 {
            return; // a rob: its discard described, no trick
        }
        let trick = state.trick();
        let n = self.encoding.players();
        let Some(&led) = trick.first() else {
            terms.push((1.0, LEADS));
            terms.push((1.0, TAKES));
            hand_after(state.hands()[seat], card, t, terms);
            return;
        };
        let led_suit = led % 4;
        if !trump && power[usize::from(led)] < TRUMP_BASE && card % 4 == usize::from(led_suit) {
            terms.push((1.0, FOLLOWS));
        }
        let (mut best, mut at) = (0, 0);
        for (k, &c) in trick.iter().enumerate() {
            let q = power[usize::from(c)];
            if (q >= TRUMP_BASE || c % 4 == led_suit) && q > best {
                (best, at) = (q, k);
            }
        }
        if (trump || card % 4 == usize::from(led_suit)) && p > best {
            terms.push((1.0, TAKES));
        }
        let holder = (usize::from(state.leader()) + at) % n;
        let apart = (holder + n - seat) % n;
        if self.sides && apart != 0 && apart.is_multiple_of(2) {
            terms.push((1.0, PARTNER_HOLDS));
        }
        if trick.len() == n - 1 {
            terms.push((1.0, LAST));
        }
        hand_after(state.hands()[seat], card, t, terms);
    }
}

/// The trumps and the cards of the played card's plain suit that `hand` keeps after it, / 5
/// (with trumps `t`).
#[inline(always)]
fn hand_after(hand: u64, card: usize, t: usize, terms: &mut Vec<(f32, u32)>) {
    let hand = hand & !(1 << card);
    let trumps = (hand & TRUMP_MASK[t]).count_ones();
    let suit = (hand & PLAIN_MASK[t][card % 4]).count_ones();
    for (count, column) in [(trumps, TRUMPS_AFTER), (suit, SUIT_AFTER)] {
        if count > 0 {
            terms.push((count as f32 / 5.0, column));
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
        cx.seat = mlp::seat_to_move(state, n);
        played_by_seat(state.history(), &mut cx.played);
        self.encoding
            .encode(state, cx.seat, &cx.played[..n], &self.scores, obs);
    }

    /// A move outside the index cannot be scored.
    #[inline(always)]
    fn move_terms(&self, state: &State, m: u16, cx: &Context, terms: &mut Vec<(f32, u32)>) -> bool {
        let Some(i) = index(m) else {
            return false;
        };
        self.rows(state, cx.seat, i, m, terms);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::mlp::{self, NetPolicy};
    use crate::sim::{Deal, Rng, playout_with};
    use crate::test_support::trump::{FORTY_FIVE, SPOIL_FIVE};
    use crate::trump::Rules;

    fn random_net(rules: Rules, seed: u64) -> Net {
        let encoding = Encoding::new(rules.scoring, 4, 70.0);
        let mut net = Net::new(
            rules.scoring,
            4,
            70.0,
            vec![0.0; encoding.score_entries()],
            Layers {
                w1o: vec![0.0; encoding.size()],
                w1a: vec![0.0; FEATURES],
                b1: vec![0.0],
                w2: vec![0.0],
                b2: vec![0.0],
                w3: vec![0.0],
                b3: 0.0,
                scale: 1.0,
            },
        )
        .expect("weights of the right shapes");
        // 70 and 40 units: whole and partial blocks of the products
        net.mlp = Mlp::random(encoding.size(), FEATURES, 70, 40, seed);
        net
    }

    fn fresh(rules: Rules, rng: &mut Rng) -> State {
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut deck);
        let hands: Vec<u64> = (0..4)
            .map(|s| deck[s * 5..s * 5 + 5].iter().fold(0, |m, &c| m | 1 << c))
            .collect();
        State::new(rules, &hands, deck[20], 3, 4.0).expect("a deal")
    }

    #[test]
    fn scores_are_the_dense_networks() {
        let mut rng = Rng::new(3);
        let (mut legal, mut s, mut checked) = (Vec::new(), mlp::Scratch::default(), 0);
        for rules in [FORTY_FIVE, SPOIL_FIVE] {
            let net = random_net(rules, 5);
            for _ in 0..30 {
                let mut deal = fresh(rules, &mut rng);
                while !deal.is_over() {
                    deal.legal_into(&mut legal);
                    net.scores(&deal, &legal, &mut s);
                    let seat = deal.current_player() as usize;
                    let obs = s.obs().to_vec();
                    for (k, &m) in legal.iter().enumerate() {
                        let mut terms = Vec::new();
                        net.rows(&deal, seat, index(m).unwrap(), m, &mut terms);
                        assert_eq!(s.q[k], net.mlp.dense(&obs, &terms));
                    }
                    checked += legal.len();
                    let m = legal[rng.below(legal.len() as u64) as usize];
                    Deal::play(&mut deal, m, &mut rng);
                }
            }
        }
        assert!(checked > 500, "{checked} moves scored");
    }

    #[test]
    fn network_playouts_end_legally_and_repeat_exactly() {
        let mut rng = Rng::new(8);
        for rules in [FORTY_FIVE, SPOIL_FIVE] {
            let net = random_net(rules, 2);
            for _ in 0..20 {
                let start = fresh(rules, &mut rng);
                let mut results = Vec::new();
                for _ in 0..2 {
                    let mut deal = start.clone();
                    let (mut legal, mut scratch) = (Vec::new(), mlp::Scratch::default());
                    playout_with(
                        &mut deal,
                        &mut Rng::new(1),
                        &mut legal,
                        &NetPolicy(net.clone()),
                        &mut scratch,
                    );
                    assert!(deal.is_over());
                    results.push(deal.history().to_vec());
                }
                assert_eq!(results[0], results[1]);
            }
        }
    }
}
