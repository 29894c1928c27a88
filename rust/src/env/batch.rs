//! The batched environment: N deals of one game stepped by one call, each row always holding a
//! decision (a deal that ends is dealt again at once), with every row's observation, legal
//! action indexes, seat to move, rewards and end written into caller-given buffers.
//!
//! What a family supplies is [`Family`]; the deals are dealt from seeds drawn as the Python
//! environment drew them (`random.Random(seed)` then `getrandbits(63)` per deal, with
//! CPython's generator ported in [`crate::pyrandom`]), so the same seed gives the same deals.

use crate::pyrandom::Mt19937;

/// What the batched environment needs from a family.
pub trait Family {
    type State;
    type Move: Copy;
    /// What the encoder folds from a deal's history (cards played, discards), kept up to date
    /// move by move, and anything else a deal carries beside its state.
    type Track: Clone;

    fn players(&self) -> usize;

    /// The length of an observation encoding.
    fn obs_size(&self) -> usize;

    /// The deal `game.new_deal(seed=seed)` gives.
    fn deal(&self, seed: u64) -> (Self::State, Self::Track);

    /// The seat to move, or a negative number once the deal is over.
    fn to_move(&self, state: &Self::State) -> i8;

    /// The legal moves of the seat to move, in the engine's order, into `out` (cleared first).
    fn legal_into(&self, state: &mut Self::State, out: &mut Vec<Self::Move>);

    /// The action index of `m`, a legal move of `state`.
    fn index(&self, state: &Self::State, m: Self::Move) -> i64;

    /// Applies `m`, a legal move of `state`, and notes it in `track`.
    fn apply(&self, state: &mut Self::State, track: &mut Self::Track, m: Self::Move);

    /// Each seat's return, the deal being over, into `out[..players]`.
    fn returns_into(&self, state: &Self::State, out: &mut [f64]);

    /// Writes `seat`'s observation encoding into `out[..obs_size]` (every entry).
    fn encode(&self, state: &Self::State, track: &Self::Track, seat: usize, out: &mut [f32]);
}

/// One row: its deal, the deal's seed and the action indexes played in it so far.
struct Row<F: Family> {
    state: F::State,
    track: F::Track,
    seed: u64,
    played: Vec<u32>,
}

/// The legal moves of every row, flat: row `i`'s at `moves[offsets[i]..offsets[i + 1]]`, with
/// their indexes alongside.
struct Legal<M> {
    moves: Vec<M>,
    indexes: Vec<i64>,
    offsets: Vec<usize>,
}

impl<M> Legal<M> {
    fn new() -> Legal<M> {
        Legal {
            moves: Vec::new(),
            indexes: Vec::new(),
            offsets: vec![0],
        }
    }

    fn clear(&mut self) {
        self.moves.clear();
        self.indexes.clear();
        self.offsets.clear();
        self.offsets.push(0);
    }

    fn row(&self, row: usize) -> std::ops::Range<usize> {
        self.offsets[row]..self.offsets[row + 1]
    }
}

/// Where a call writes each row's results; every entry is written. `obs` holds `rows ×
/// obs_size` entries, `player` and `done` one per row, `rewards` `rows × players`, `offsets`
/// `rows + 1`.
pub struct Out<'a> {
    pub obs: &'a mut [f32],
    pub player: &'a mut [i64],
    pub rewards: &'a mut [f32],
    pub done: &'a mut [bool],
    pub offsets: &'a mut [i64],
}

/// Why a call wrote nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// `reset` has not been called.
    NotReset,
    /// The buffers do not have the sizes [`Out`] says.
    Buffers,
    /// Not one action per row.
    Count,
    /// The action of this row is not one of its legal indexes.
    Illegal(usize),
}

/// N deals of one family's game.
pub struct Batch<F: Family> {
    family: F,
    size: usize,
    rows: Vec<Row<F>>,
    /// Draws each new deal's seed (`random.Random(seed)`).
    deals: Mt19937,
    legal: Legal<F::Move>,
    /// The next legal moves, built while the present ones are read (then swapped).
    next: Legal<F::Move>,
    scratch: Vec<F::Move>,
    /// Each row's choice: its place in the row's legal moves.
    chosen: Vec<usize>,
    returns: Vec<f64>,
    /// What rewards are divided by (1 for the variant's own scores).
    scale: f32,
}

impl<F: Family> Batch<F> {
    /// `size` rows (none dealt until [`Batch::reset`]); new deals' seeds from `deals`;
    /// rewards divided by `scale`.
    pub fn new(family: F, size: usize, deals: Mt19937, scale: f64) -> Batch<F> {
        let players = family.players();
        Batch {
            family,
            size,
            rows: Vec::with_capacity(size),
            deals,
            legal: Legal::new(),
            next: Legal::new(),
            scratch: Vec::with_capacity(64),
            chosen: Vec::with_capacity(size),
            returns: vec![0.0; players],
            scale: scale as f32,
        }
    }

    pub fn family(&self) -> &F {
        &self.family
    }

    /// The number of rows.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether the rows are dealt.
    pub fn is_reset(&self) -> bool {
        self.rows.len() == self.size
    }

    /// The seed of each row's deal.
    pub fn seeds(&self) -> impl Iterator<Item = u64> + '_ {
        self.rows.iter().map(|r| r.seed)
    }

    /// The action indexes played in `row`'s deal so far.
    pub fn played(&self, row: usize) -> Option<&[u32]> {
        self.rows.get(row).map(|r| r.played.as_slice())
    }

    /// Every row's legal indexes, flat (see [`Out`]'s `offsets`).
    pub fn legal_indexes(&self) -> &[i64] {
        &self.legal.indexes
    }

    fn fresh_row(&mut self) -> Row<F> {
        let seed = self.deals.getrandbits(63);
        let (state, track) = self.family.deal(seed);
        Row {
            state,
            track,
            seed,
            played: Vec::new(),
        }
    }

    fn check_out(&self, out: &Out<'_>) -> Result<(), Refused> {
        let n = self.size;
        let fits = out.obs.len() == n * self.family.obs_size()
            && out.player.len() == n
            && out.rewards.len() == n * self.family.players()
            && out.done.len() == n
            && out.offsets.len() == n + 1;
        if fits { Ok(()) } else { Err(Refused::Buffers) }
    }

    /// Fresh deals in every row, seeds drawn from `deals` when given (else the generator goes
    /// on); the rows' first decisions into `out` (rewards 0, nothing done).
    pub fn reset(&mut self, deals: Option<Mt19937>, out: Out<'_>) -> Result<(), Refused> {
        self.check_out(&out)?;
        if let Some(deals) = deals {
            self.deals = deals;
        }
        self.rows.clear();
        for _ in 0..self.size {
            let row = self.fresh_row();
            self.rows.push(row);
        }
        out.rewards.fill(0.0);
        out.done.fill(false);
        self.observe(out.obs, out.player, out.offsets);
        Ok(())
    }

    /// Plays one action index per row; a deal that ends is dealt again. Refused (with nothing
    /// changed) unless every row's action is legal there.
    pub fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), Refused> {
        if !self.is_reset() {
            return Err(Refused::NotReset);
        }
        self.check_out(&out)?;
        if actions.len() != self.size {
            return Err(Refused::Count);
        }
        self.chosen.clear();
        for (row, &a) in actions.iter().enumerate() {
            let legal = &self.legal.indexes[self.legal.row(row)];
            match legal.iter().position(|&i| i == a) {
                Some(j) => self.chosen.push(j),
                None => return Err(Refused::Illegal(row)),
            }
        }
        let players = self.family.players();
        let scale = self.scale;
        for row in 0..self.size {
            let at = self.legal.offsets[row] + self.chosen[row];
            let (m, index) = (self.legal.moves[at], self.legal.indexes[at]);
            let r = &mut self.rows[row];
            self.family.apply(&mut r.state, &mut r.track, m);
            r.played.push(index as u32);
            let rewards = &mut out.rewards[row * players..(row + 1) * players];
            let over = self.family.to_move(&r.state) < 0;
            out.done[row] = over;
            if over {
                self.family.returns_into(&r.state, &mut self.returns);
                for (x, &v) in rewards.iter_mut().zip(&self.returns) {
                    let v = v as f32;
                    *x = if scale == 1.0 { v } else { v / scale };
                }
                let mut fresh = self.fresh_row();
                std::mem::swap(&mut fresh.played, &mut self.rows[row].played);
                fresh.played.clear(); // the old deal's record, its allocation kept
                self.rows[row] = fresh;
            } else {
                rewards.fill(0.0);
            }
        }
        self.observe(out.obs, out.player, out.offsets);
        Ok(())
    }

    /// Every row's decision: its seat, its encoding and its legal moves (into `self.legal`).
    fn observe(&mut self, obs: &mut [f32], player: &mut [i64], offsets: &mut [i64]) {
        let size = self.family.obs_size();
        let next = &mut self.next;
        next.clear();
        for (row, r) in self.rows.iter_mut().enumerate() {
            let seat = self.family.to_move(&r.state).max(0) as usize;
            player[row] = seat as i64;
            self.family.encode(
                &r.state,
                &r.track,
                seat,
                &mut obs[row * size..(row + 1) * size],
            );
            self.family.legal_into(&mut r.state, &mut self.scratch);
            for &m in &self.scratch {
                next.indexes.push(self.family.index(&r.state, m));
            }
            next.moves.extend_from_slice(&self.scratch);
            next.offsets.push(next.moves.len());
        }
        for (o, &x) in offsets.iter_mut().zip(&next.offsets) {
            *o = x as i64;
        }
        std::mem::swap(&mut self.legal, &mut self.next);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::climbing::encoding::{ActionIndex, Env};
    use crate::climbing::{Rules, Table};

    fn batch(rows: usize) -> Batch<Env> {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let order: [u8; 52] = std::array::from_fn(|i| i as u8);
        let index = Arc::new(ActionIndex::new(&table));
        let env = Env::new(table, &order, 4, index).unwrap();
        Batch::new(env, rows, Mt19937::from_abs_seed(7), 1.0)
    }

    struct Buffers {
        obs: Vec<f32>,
        player: Vec<i64>,
        rewards: Vec<f32>,
        done: Vec<bool>,
        offsets: Vec<i64>,
    }

    impl Buffers {
        fn new(rows: usize, size: usize) -> Buffers {
            Buffers {
                obs: vec![f32::NAN; rows * size],
                player: vec![-9; rows],
                rewards: vec![f32::NAN; rows * 4],
                done: vec![true; rows],
                offsets: vec![-9; rows + 1],
            }
        }

        fn out(&mut self) -> Out<'_> {
            Out {
                obs: &mut self.obs,
                player: &mut self.player,
                rewards: &mut self.rewards,
                done: &mut self.done,
                offsets: &mut self.offsets,
            }
        }
    }

    #[test]
    fn every_row_is_a_decision_and_ended_deals_are_dealt_again() {
        let mut b = batch(6);
        let mut buf = Buffers::new(6, b.family().obs_size());
        assert_eq!(b.step(&[0; 6], buf.out()), Err(Refused::NotReset));
        b.reset(None, buf.out()).unwrap();
        let mut ended = 0;
        for _ in 0..400 {
            assert!(buf.obs.iter().all(|x| (0.0..=1.0).contains(x)));
            assert!(buf.player.iter().all(|p| (0..4).contains(p)));
            assert!(buf.offsets.windows(2).all(|w| w[0] < w[1]));
            let legal = b.legal_indexes().to_vec();
            // The last legal action of each row (the strongest play, or the pass).
            let actions: Vec<i64> = (0..6)
                .map(|r| legal[buf.offsets[r + 1] as usize - 1])
                .collect();
            b.step(&actions, buf.out()).unwrap();
            for row in 0..6 {
                let rewards = &buf.rewards[4 * row..4 * row + 4];
                if buf.done[row] {
                    ended += 1;
                    assert_eq!(rewards.iter().sum::<f32>(), 0.0); // the winner takes the rest
                    assert!(b.played(row).unwrap().is_empty());
                } else {
                    assert!(rewards.iter().all(|&r| r == 0.0));
                }
            }
        }
        assert!(ended > 6);
    }

    #[test]
    fn a_refused_step_changes_nothing() {
        let mut b = batch(3);
        let mut buf = Buffers::new(3, b.family().obs_size());
        b.reset(None, buf.out()).unwrap();
        let first: Vec<i64> = (0..3)
            .map(|r| b.legal_indexes()[buf.offsets[r] as usize])
            .collect();
        b.step(&first, buf.out()).unwrap();
        let (seeds, obs): (Vec<u64>, Vec<f32>) = (b.seeds().collect(), buf.obs.clone());
        let played: Vec<Vec<u32>> = (0..3).map(|r| b.played(r).unwrap().to_vec()).collect();
        let mut bad = vec![0, 0, 0];
        bad[0] = b.legal_indexes()[buf.offsets[0] as usize];
        bad[1] = b.legal_indexes()[buf.offsets[1] as usize];
        bad[2] = -1;
        let mut other = Buffers::new(3, b.family().obs_size());
        assert_eq!(b.step(&bad, other.out()), Err(Refused::Illegal(2)));
        assert_eq!(b.step(&bad[..2], other.out()), Err(Refused::Count));
        let mut small = Buffers::new(2, b.family().obs_size());
        assert_eq!(b.step(&bad, small.out()), Err(Refused::Buffers));
        assert_eq!(b.seeds().collect::<Vec<_>>(), seeds);
        assert_eq!(buf.obs, obs);
        for (r, p) in played.iter().enumerate() {
            assert_eq!(b.played(r).unwrap(), p.as_slice());
        }
        assert!(other.player.iter().all(|&p| p == -9)); // nothing written
    }
}
