//! The batched environment: N deals of one game stepped by one call, each row always holding a
//! decision (a deal that ends is dealt again at once), with every row's observation, legal
//! action indexes, seat to move, rewards and end written into caller-given buffers.
//!
//! What a family supplies is [`Family`]; the deals are dealt from seeds drawn as the Python
//! environment drew them (`random.Random(seed)` then `getrandbits(63)` per deal, with
//! CPython's generator ported in [`crate::pyrandom`]), so the same seed gives the same deals.

use rayon::prelude::*;

use crate::pyrandom::Mt19937;

/// What the batched environment needs from a family. Rows are stepped on several threads,
/// so a family and its deals are shared and sent between them.
pub trait Family: Sync {
    type State: Send;
    type Move: Copy + Send + Sync;
    /// What the encoder folds from a deal's history (cards played, discards), kept up to date
    /// move by move, and anything else a deal carries beside its state.
    type Track: Clone + Send;

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

/// The most seats a deal has, over every family (a return is written through a buffer of
/// this many on the stack).
const MAX_PLAYERS: usize = 16;

/// One row: its deal, the deal's seed, the action indexes played in it so far, and its legal
/// moves now with their indexes (kept per row, so that rows are observed independently).
struct Row<F: Family> {
    state: F::State,
    track: F::Track,
    seed: u64,
    played: Vec<u32>,
    moves: Vec<F::Move>,
    indexes: Vec<i64>,
    /// The seed of the deal this row is to be dealt next, when its deal has just ended.
    redeal: Option<u64>,
}

impl<F: Family> Row<F> {
    fn dealt(family: &F, seed: u64) -> Row<F> {
        let (state, track) = family.deal(seed);
        Row {
            state,
            track,
            seed,
            played: Vec::new(),
            moves: Vec::with_capacity(64),
            indexes: Vec::with_capacity(64),
            redeal: None,
        }
    }
}

/// A row with its choice, and where its rewards and end are written.
type Played<'a, F> = ((&'a mut Row<F>, &'a usize), (&'a mut [f32], &'a mut bool));

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

/// N deals of one family's game, stepped on one thread or several: every row is stepped on
/// its own (its deal, its part of each array), and the one thing the rows share, the
/// generator of new deals' seeds, is drawn from in row order between the parallel parts, so
/// the results do not depend on the number of threads.
pub struct Batch<F: Family> {
    family: F,
    size: usize,
    rows: Vec<Row<F>>,
    /// Draws each new deal's seed (`random.Random(seed)`).
    deals: Mt19937,
    /// Every row's legal indexes, flat: row `i`'s at `indexes[offsets[i]..offsets[i + 1]]`.
    indexes: Vec<i64>,
    offsets: Vec<usize>,
    /// Each row's choice: its place in the row's legal moves.
    chosen: Vec<usize>,
    /// What rewards are divided by (1 for the variant's own scores).
    scale: f32,
    /// The threads rows are stepped on; `None`: the calling thread alone.
    pool: Option<rayon::ThreadPool>,
}

impl<F: Family> Batch<F> {
    /// `size` rows (none dealt until [`Batch::reset`]); new deals' seeds from `deals`;
    /// rewards divided by `scale`; stepped on `threads` threads (1: the calling thread).
    pub fn new(family: F, size: usize, deals: Mt19937, scale: f64, threads: usize) -> Batch<F> {
        let pool = if threads > 1 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        } else {
            None
        };
        Batch {
            family,
            size,
            rows: Vec::with_capacity(size),
            deals,
            indexes: Vec::new(),
            offsets: vec![0],
            chosen: Vec::with_capacity(size),
            scale: scale as f32,
            pool,
        }
    }

    pub fn family(&self) -> &F {
        &self.family
    }

    /// The number of rows.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of threads rows are stepped on.
    pub fn threads(&self) -> usize {
        self.pool
            .as_ref()
            .map_or(1, rayon::ThreadPool::current_num_threads)
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
        &self.indexes
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
        let seeds: Vec<u64> = (0..self.size).map(|_| self.deals.getrandbits(63)).collect();
        let family = &self.family;
        let deal = |&seed: &u64| Row::dealt(family, seed);
        self.rows = match &self.pool {
            Some(pool) => pool.install(|| seeds.par_iter().map(deal).collect()),
            None => seeds.iter().map(deal).collect(),
        };
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
        for (row, (r, &a)) in self.rows.iter().zip(actions).enumerate() {
            match r.indexes.iter().position(|&i| i == a) {
                Some(j) => self.chosen.push(j),
                None => return Err(Refused::Illegal(row)),
            }
        }
        let players = self.family.players();
        let (family, scale) = (&self.family, self.scale);
        // Each row plays its move; an ended deal writes its returns.
        let play = |((r, &j), (rewards, done)): Played<'_, F>| {
            let m = r.moves[j];
            family.apply(&mut r.state, &mut r.track, m);
            r.played.push(r.indexes[j] as u32);
            *done = family.to_move(&r.state) < 0;
            if *done {
                let mut returns = [0.0; MAX_PLAYERS];
                family.returns_into(&r.state, &mut returns[..players]);
                for (x, &v) in rewards.iter_mut().zip(&returns) {
                    let v = v as f32;
                    *x = if scale == 1.0 { v } else { v / scale };
                }
            } else {
                rewards.fill(0.0);
            }
        };
        match &self.pool {
            Some(pool) => pool.install(|| {
                self.rows
                    .par_iter_mut()
                    .zip(self.chosen.par_iter())
                    .zip(
                        out.rewards
                            .par_chunks_mut(players)
                            .zip(out.done.par_iter_mut()),
                    )
                    .for_each(play)
            }),
            None => self
                .rows
                .iter_mut()
                .zip(self.chosen.iter())
                .zip(out.rewards.chunks_mut(players).zip(out.done.iter_mut()))
                .for_each(play),
        }
        // The next deals' seeds, in row order as the rows ended.
        for (r, &done) in self.rows.iter_mut().zip(out.done.iter()) {
            if done {
                r.redeal = Some(self.deals.getrandbits(63));
            }
        }
        self.observe(out.obs, out.player, out.offsets);
        Ok(())
    }

    /// Every row's decision (a row whose deal ended dealt again first): its seat, its
    /// encoding and its legal moves.
    fn observe(&mut self, obs: &mut [f32], player: &mut [i64], offsets: &mut [i64]) {
        let size = self.family.obs_size();
        let family = &self.family;
        let decide = |(r, (obs, player)): (&mut Row<F>, (&mut [f32], &mut i64))| {
            if let Some(seed) = r.redeal.take() {
                let (state, track) = family.deal(seed);
                (r.state, r.track, r.seed) = (state, track, seed);
                r.played.clear(); // the old deal's record, its allocation kept
            }
            let seat = family.to_move(&r.state).max(0) as usize;
            *player = seat as i64;
            family.encode(&r.state, &r.track, seat, obs);
            family.legal_into(&mut r.state, &mut r.moves);
            r.indexes.clear();
            for &m in &r.moves {
                r.indexes.push(family.index(&r.state, m));
            }
        };
        match &self.pool {
            Some(pool) => pool.install(|| {
                self.rows
                    .par_iter_mut()
                    .zip(obs.par_chunks_mut(size).zip(player.par_iter_mut()))
                    .for_each(decide)
            }),
            None => self
                .rows
                .iter_mut()
                .zip(obs.chunks_mut(size).zip(player.iter_mut()))
                .for_each(decide),
        }
        self.indexes.clear();
        self.offsets.clear();
        self.offsets.push(0);
        for r in &self.rows {
            self.indexes.extend_from_slice(&r.indexes);
            self.offsets.push(self.indexes.len());
        }
        for (o, &x) in offsets.iter_mut().zip(&self.offsets) {
            *o = x as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::climbing::encoding::{ActionIndex, Env};
    use crate::climbing::{Rules, Table};

    fn batch(rows: usize) -> Batch<Env> {
        batch_on(rows, 1)
    }

    fn batch_on(rows: usize, threads: usize) -> Batch<Env> {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let order: [u8; 52] = std::array::from_fn(|i| i as u8);
        let index = Arc::new(ActionIndex::new(&table));
        let env = Env::new(table, &order, 4, index).unwrap();
        Batch::new(env, rows, Mt19937::from_abs_seed(7), 1.0, threads)
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
    fn the_same_arrays_on_one_thread_or_three() {
        let (mut one, mut three) = (batch_on(37, 1), batch_on(37, 3));
        assert_eq!((one.threads(), three.threads()), (1, 3));
        let size = one.family().obs_size();
        let (mut a, mut b) = (Buffers::new(37, size), Buffers::new(37, size));
        one.reset(None, a.out()).unwrap();
        three.reset(None, b.out()).unwrap();
        let mut ended = 0;
        for step in 0..300usize {
            assert_eq!(a.obs, b.obs);
            assert_eq!((&a.player, &a.rewards), (&b.player, &b.rewards));
            assert_eq!((&a.done, &a.offsets), (&b.done, &b.offsets));
            assert_eq!(one.legal_indexes(), three.legal_indexes());
            ended += a.done.iter().filter(|&&d| d).count();
            // A varied legal action in each row.
            let legal = one.legal_indexes().to_vec();
            let actions: Vec<i64> = (0..37)
                .map(|r| {
                    let (lo, hi) = (a.offsets[r] as usize, a.offsets[r + 1] as usize);
                    legal[lo + (step * 7 + r) % (hi - lo)]
                })
                .collect();
            one.step(&actions, a.out()).unwrap();
            three.step(&actions, b.out()).unwrap();
        }
        assert!(ended > 37, "{ended} deals ended");
        assert!(one.seeds().eq(three.seeds()));
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
