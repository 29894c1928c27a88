//! The batched environment: N deals of one game stepped by one call, each row always holding a
//! decision (a deal that ends is dealt again at once), with every row's observation, legal
//! action indexes, seat to move, rewards and end written into caller-given buffers.
//!
//! What a family supplies is [`Family`]; what the Python face calls, for any family, is
//! [`Batched`] (every `Batch<F>` is one). The deals are dealt from seeds drawn as the Python
//! environment drew them (`random.Random(seed)` then `getrandbits(63)` per deal, with
//! CPython's generator ported in [`crate::pyrandom`]), so the same seed gives the same deals.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use super::crew::{Crew, Waiter};
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

/// On several threads a call's rows are split into about this many parts a thread, taken by
/// whichever thread is free: a thread that starts late (waking a sleeping thread takes tens
/// of microseconds) finds less to do rather than holding the others up.
const PARTS_PER_THREAD: usize = 16;

/// The fewest rows in a part.
const MIN_PART: usize = 16;

/// One row: its deal, the deal's seed, the action indexes played in it so far, and its legal
/// moves now with their indexes (kept per row, so that rows are observed independently).
struct Row<F: Family> {
    state: F::State,
    track: F::Track,
    seed: u64,
    played: Vec<u32>,
    moves: Vec<F::Move>,
    indexes: Vec<i64>,
    /// The place of this call's action in `indexes`.
    chosen: usize,
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
            chosen: 0,
        }
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

/// A part of a call's rows with its share of every array: `offsets` are its rows' ends in
/// `legal` (its rows' legal indexes, flat), made global once every part is done.
struct Part<'a, F: Family> {
    first: usize,
    rows: &'a mut [Row<F>],
    actions: &'a [i64],
    obs: &'a mut [f32],
    player: &'a mut [i64],
    rewards: &'a mut [f32],
    done: &'a mut [bool],
    offsets: &'a mut [i64],
    legal: &'a mut Vec<i64>,
}

/// The stages of a call, each finished in every part before the next starts: check the
/// actions (so that a refused call changes nothing), play them, then deal the ended rows
/// again and observe every row (an ended row's seed is known once every part has counted
/// the rows that ended before it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Check,
    Play,
    Observe,
}

const STAGES: [Stage; 3] = [Stage::Check, Stage::Play, Stage::Observe];

/// How the threads of one call share its parts and wait for each other. Each thread has its
/// own run of parts, the same in every call (so its rows stay in its core's cache), and takes
/// from the others' runs when its own are done.
struct Shared {
    threads: usize,
    parts: usize,
    /// Per stage and thread, the next part of that thread's run to take.
    next: Vec<AtomicUsize>,
    /// Per stage, the parts finished.
    finished: [AtomicUsize; 3],
    /// The first row whose action is illegal (`usize::MAX`: none).
    illegal: AtomicUsize,
    /// Set when a thread panicked, so that no other waits on a part it held.
    failed: AtomicBool,
    /// The threads waiting for a stage's last parts.
    waiter: Waiter,
}

impl Shared {
    fn new(threads: usize, parts: usize) -> Shared {
        Shared {
            threads,
            parts,
            next: (0..3 * threads).map(|_| AtomicUsize::new(0)).collect(),
            finished: Default::default(),
            illegal: AtomicUsize::new(usize::MAX),
            failed: AtomicBool::new(false),
            waiter: Waiter::default(),
        }
    }
}

impl Shared {
    /// The next part for `thread` to take at stage `s`, if any is left.
    fn take(&self, s: usize, thread: usize) -> Option<usize> {
        let (n, t) = (self.parts, self.threads);
        (0..t).map(|k| (thread + k) % t).find_map(|run| {
            let (start, end) = (run * n / t, (run + 1) * n / t);
            let p = start + self.next[s * t + run].fetch_add(1, Ordering::Relaxed);
            (p < end).then_some(p)
        })
    }
}

/// Waits until `ready` (spinning a little, then sleeping: [`Waiter`]); false if a thread
/// panicked.
fn wait_for(shared: &Shared, ready: impl Fn() -> bool) -> bool {
    shared
        .waiter
        .wait_until(|| shared.failed.load(Ordering::SeqCst) || ready());
    !shared.failed.load(Ordering::SeqCst)
}

/// Marks the call failed, and wakes the threads waiting on it, if the thread holding it
/// unwinds.
struct FailOnPanic<'a>(&'a Shared);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.failed.store(true, Ordering::SeqCst);
            self.0.waiter.wake();
        }
    }
}

/// N deals of one family's game, stepped on one thread or several: every row is stepped on
/// its own (its deal, its part of each array), and the one thing the rows share, the
/// generator of new deals' seeds, is drawn ahead and handed out by each ended row's rank
/// among the rows that ended, so the results do not depend on the number of threads.
pub struct Batch<F: Family> {
    family: F,
    size: usize,
    rows: Vec<Row<F>>,
    /// Draws each new deal's seed (`random.Random(seed)`).
    deals: Mt19937,
    /// The next `size` seeds of `deals`, drawn ahead (a call deals at most `size` rows).
    ahead: VecDeque<u64>,
    /// Rows per part, and each part's legal indexes, flat.
    part: usize,
    legal: Vec<Vec<i64>>,
    /// Each part's rows that ended in this call.
    ended: Vec<AtomicUsize>,
    /// What rewards are divided by (1 for the variant's own scores).
    scale: f32,
    /// The threads that step rows beside the calling thread; `None`: the calling thread alone.
    crew: Option<Crew>,
}

impl<F: Family> Batch<F> {
    /// `size` rows (none dealt until [`Batch::reset`]); new deals' seeds from `deals`;
    /// rewards divided by `scale`; stepped on `threads` threads (1: the calling thread).
    pub fn new(family: F, size: usize, deals: Mt19937, scale: f64, threads: usize) -> Batch<F> {
        let crew = if threads > 1 {
            Crew::new(threads - 1)
        } else {
            None
        };
        let parts = if crew.is_some() {
            (threads * PARTS_PER_THREAD)
                .min(size.div_ceil(MIN_PART))
                .max(1)
        } else {
            1
        };
        let part = size.div_ceil(parts).max(1);
        let parts = size.div_ceil(part).max(1);
        Batch {
            family,
            size,
            rows: Vec::with_capacity(size),
            deals,
            ahead: VecDeque::with_capacity(size),
            part,
            legal: vec![Vec::new(); parts],
            ended: (0..parts).map(|_| AtomicUsize::new(0)).collect(),
            scale: scale as f32,
            crew,
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
        self.crew.as_ref().map_or(1, Crew::threads)
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
    pub fn legal_indexes(&self) -> Vec<i64> {
        self.legal.concat()
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

    /// Draws seeds until `size` are waiting.
    fn draw_ahead(&mut self) {
        while self.ahead.len() < self.size {
            self.ahead.push_back(self.deals.getrandbits(63));
        }
    }

    /// Fresh deals in every row, seeds drawn from `deals` when given (else the generator goes
    /// on); the rows' first decisions into `out` (rewards 0, nothing done).
    pub fn reset(&mut self, deals: Option<Mt19937>, out: Out<'_>) -> Result<(), Refused> {
        self.check_out(&out)?;
        if let Some(deals) = deals {
            self.deals = deals;
            self.ahead.clear();
        }
        self.draw_ahead();
        let family = &self.family;
        self.rows = self
            .ahead
            .drain(..)
            .map(|seed| Row::dealt(family, seed))
            .collect();
        self.draw_ahead();
        out.rewards.fill(0.0);
        out.done.fill(false);
        self.run(None, out);
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
        match self.run(Some(actions), out) {
            usize::MAX => Ok(()),
            row => Err(Refused::Illegal(row)),
        }
    }

    /// One call over every part, on every thread: the actions (if any) checked and played,
    /// then every row observed. Returns the first row whose action is illegal (nothing then
    /// changed), or `usize::MAX`.
    fn run(&mut self, actions: Option<&[i64]>, out: Out<'_>) -> usize {
        let (size, players) = (self.family.obs_size(), self.family.players());
        let (part, threads) = (self.part, self.threads());
        let first = if actions.is_some() {
            Stage::Check
        } else {
            Stage::Observe
        };
        for ended in &self.ended {
            ended.store(0, Ordering::Relaxed);
        }
        let Out {
            obs,
            player,
            rewards,
            done,
            offsets,
        } = out;
        offsets[0] = 0;
        let actions = actions.unwrap_or(&[]);
        let parts: Vec<Mutex<Part<'_, F>>> = self
            .rows
            .chunks_mut(part)
            .zip(obs.chunks_mut(part * size))
            .zip(player.chunks_mut(part))
            .zip(rewards.chunks_mut(part * players))
            .zip(done.chunks_mut(part))
            .zip(offsets[1..].chunks_mut(part))
            .zip(self.legal.iter_mut())
            .enumerate()
            .map(
                |(p, ((((((rows, obs), player), rewards), done), offsets), legal))| {
                    let first = p * part;
                    let actions = actions.get(first..first + rows.len()).unwrap_or(&[]);
                    Mutex::new(Part {
                        first,
                        rows,
                        actions,
                        obs,
                        player,
                        rewards,
                        done,
                        offsets,
                        legal,
                    })
                },
            )
            .collect();
        let shared = Shared::new(threads, parts.len());
        let family = &self.family;
        let (ended, seeds, scale) = (
            &self.ended,
            self.ahead.make_contiguous() as &[u64],
            self.scale,
        );
        let stage_of = |stage: Stage, p: usize| {
            let mut part = parts[p].lock().unwrap_or_else(PoisonError::into_inner);
            match stage {
                Stage::Check => check(&mut part, &shared.illegal),
                Stage::Play => {
                    ended[p].store(play(family, &mut part, players, scale), Ordering::Release)
                }
                Stage::Observe => {
                    let rank: usize = ended[..p].iter().map(|e| e.load(Ordering::Acquire)).sum();
                    observe(family, &mut part, &seeds[rank..], size);
                }
            }
        };
        let work = |thread: usize| {
            let _guard = FailOnPanic(&shared);
            for (s, &stage) in STAGES.iter().enumerate() {
                if stage_rank(stage) < stage_rank(first) {
                    continue;
                }
                while let Some(p) = shared.take(s, thread) {
                    stage_of(stage, p);
                    shared.finished[s].fetch_add(1, Ordering::SeqCst);
                    shared.waiter.wake();
                }
                if !wait_for(&shared, || {
                    shared.finished[s].load(Ordering::SeqCst) == parts.len()
                }) {
                    break;
                }
                if shared.illegal.load(Ordering::Acquire) != usize::MAX {
                    break;
                }
            }
        };
        match &self.crew {
            None => work(0),
            Some(crew) => crew.run(&work),
        }
        drop(parts);
        let illegal = shared.illegal.load(Ordering::Acquire);
        if illegal != usize::MAX {
            return illegal;
        }
        // Each part's offsets from its own start to the whole's, and the seeds used.
        let mut base = 0;
        for (offsets, legal) in offsets[1..].chunks_mut(part).zip(&self.legal) {
            for o in offsets {
                *o += base;
            }
            base += legal.len() as i64;
        }
        let used: usize = self.ended.iter().map(|e| e.load(Ordering::Relaxed)).sum();
        self.ahead.drain(..used);
        self.draw_ahead();
        usize::MAX
    }
}

/// A batch of any family's game, behind one pointer: what the Python face (`BatchedCore`)
/// calls. Implemented once, for every [`Batch`]: a call is dispatched once to the family's
/// `Batch<F>`, whose rows are then stepped by code made for that family (no dispatch per row).
pub trait Batched: Send + Sync {
    /// The number of rows.
    fn size(&self) -> usize;

    /// The number of threads rows are stepped on.
    fn threads(&self) -> usize;

    /// [`Batch::reset`].
    fn reset(&mut self, deals: Option<Mt19937>, out: Out<'_>) -> Result<(), Refused>;

    /// [`Batch::step`].
    fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), Refused>;

    /// Every row's legal indexes, flat (see [`Out`]'s `offsets`).
    fn legal_indexes(&self) -> Vec<i64>;

    /// The seed of each row's deal.
    fn seeds(&self) -> Vec<u64>;

    /// The action indexes played in `row`'s deal so far.
    fn played(&self, row: usize) -> Option<&[u32]>;
}

impl<F: Family> Batched for Batch<F>
where
    Batch<F>: Send + Sync,
{
    fn size(&self) -> usize {
        Batch::size(self)
    }

    fn threads(&self) -> usize {
        Batch::threads(self)
    }

    fn reset(&mut self, deals: Option<Mt19937>, out: Out<'_>) -> Result<(), Refused> {
        Batch::reset(self, deals, out)
    }

    fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), Refused> {
        Batch::step(self, actions, out)
    }

    fn legal_indexes(&self) -> Vec<i64> {
        Batch::legal_indexes(self)
    }

    fn seeds(&self) -> Vec<u64> {
        Batch::seeds(self).collect()
    }

    fn played(&self, row: usize) -> Option<&[u32]> {
        Batch::played(self, row)
    }
}

fn stage_rank(stage: Stage) -> usize {
    STAGES.iter().position(|&s| s == stage).unwrap_or(0)
}

/// Each row's action's place among its legal indexes; the first illegal row noted.
fn check<F: Family>(part: &mut Part<'_, F>, illegal: &AtomicUsize) {
    for (i, (r, &a)) in part.rows.iter_mut().zip(part.actions).enumerate() {
        match r.indexes.iter().position(|&x| x == a) {
            Some(j) => r.chosen = j,
            None => {
                illegal.fetch_min(part.first + i, Ordering::AcqRel);
                return;
            }
        }
    }
}

/// Each row plays its move; an ended deal writes its returns. Returns the rows that ended.
fn play<F: Family>(family: &F, part: &mut Part<'_, F>, players: usize, scale: f32) -> usize {
    let mut ended = 0;
    let results = part.rewards.chunks_mut(players).zip(part.done.iter_mut());
    for (r, (rewards, done)) in part.rows.iter_mut().zip(results) {
        let m = r.moves[r.chosen];
        family.apply(&mut r.state, &mut r.track, m);
        r.played.push(r.indexes[r.chosen] as u32);
        *done = family.to_move(&r.state) < 0;
        if *done {
            ended += 1;
            let mut returns = [0.0; MAX_PLAYERS];
            family.returns_into(&r.state, &mut returns[..players]);
            for (x, &v) in rewards.iter_mut().zip(&returns) {
                let v = v as f32;
                *x = if scale == 1.0 { v } else { v / scale };
            }
        } else {
            rewards.fill(0.0);
        }
    }
    ended
}

/// Every row's decision (a row whose deal ended dealt again first, from the next of `seeds`):
/// its seat, its encoding and its legal moves.
fn observe<F: Family>(family: &F, part: &mut Part<'_, F>, seeds: &[u64], size: usize) {
    let mut seeds = seeds.iter();
    part.legal.clear();
    let each = part.obs.chunks_mut(size).zip(part.player.iter_mut());
    let each = each.zip(part.done.iter().zip(part.offsets.iter_mut()));
    for (r, ((obs, player), (&done, offset))) in part.rows.iter_mut().zip(each) {
        if done {
            let seed = *seeds.next().expect("a seed drawn ahead for every row");
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
        part.legal.extend_from_slice(&r.indexes);
        *offset = part.legal.len() as i64;
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
            let legal = b.legal_indexes();
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
            let legal = one.legal_indexes();
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
    fn the_same_arrays_through_a_boxed_batch() {
        let mut direct = batch_on(37, 2);
        let mut boxed: Box<dyn Batched> = Box::new(batch_on(37, 2));
        assert_eq!((boxed.size(), boxed.threads()), (37, 2));
        let size = direct.family().obs_size();
        let (mut a, mut b) = (Buffers::new(37, size), Buffers::new(37, size));
        assert_eq!(boxed.step(&[0; 37], b.out()), Err(Refused::NotReset));
        direct.reset(None, a.out()).unwrap();
        boxed.reset(None, b.out()).unwrap();
        for step in 0..100usize {
            assert_eq!(a.obs, b.obs);
            assert_eq!((&a.player, &a.rewards), (&b.player, &b.rewards));
            assert_eq!((&a.done, &a.offsets), (&b.done, &b.offsets));
            let legal = boxed.legal_indexes();
            assert_eq!(direct.legal_indexes(), legal);
            let actions: Vec<i64> = (0..37)
                .map(|r| {
                    let (lo, hi) = (a.offsets[r] as usize, a.offsets[r + 1] as usize);
                    legal[lo + (step * 5 + r) % (hi - lo)]
                })
                .collect();
            direct.step(&actions, a.out()).unwrap();
            boxed.step(&actions, b.out()).unwrap();
        }
        assert_eq!(direct.seeds().collect::<Vec<_>>(), boxed.seeds());
        assert_eq!(direct.played(36), boxed.played(36));
        assert_eq!(boxed.played(37), None);
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
