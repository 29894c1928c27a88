//! The searching bot's inner loop: paired, raced candidates over sampled worlds (the method is
//! described in `parlour.bots.search`, which chooses the candidates and reads the results).
//!
//! World `w` of a search with seed `s` is dealt from `Rng::stream(s, 2w)`, and every candidate
//! is played out in it from a copy of `Rng::stream(s, 2w + 1)` (common random numbers), so a
//! world's results depend only on the seed and its number. Racing looks at the results only
//! between batches of worlds, at fixed world counts, so with an iteration budget the outcome is
//! the same whatever the number of threads and however busy the machine is.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{Deal, Inference, Knowledge, Modelled, Opponents, Policy, Rng, rollout};

/// The most rollouts a search may be asked for: a candidate's returns are kept world by world
/// (8 bytes each), so a larger budget would ask for more memory than a machine has.
pub const MAX_ITERATIONS: u64 = 100_000_000;

/// The most worlds played between two looks at the results. Racing looks only at fixed world
/// counts and a world's results depend only on its number, so cutting a stretch between two
/// looks into batches changes nothing but the memory a batch's results take.
const MAX_BATCH: u64 = 1024;

/// How one search is run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The most rollouts (one candidate played out in one world); `None`: no such limit.
    pub iterations: Option<u64>,
    /// The most time; `None`: no such limit. At least one of the two is set.
    pub time_limit: Option<Duration>,
    /// Worlds before racing may drop a candidate.
    pub min_worlds: u64,
    /// Standard errors of the paired difference below the leader that drop a candidate.
    pub confidence: f64,
    /// A candidate other than the first that cannot be this much better than the leader, or
    /// than the first (`confidence` standard errors sure), is dropped too: a gain that small,
    /// in standard deviations of a world's paired difference, is not worth more rollouts. The
    /// first (the policy's or guide's choice) and the leader go only by `confidence`. 0: no such
    /// drop.
    pub indifference: f64,
    /// How many worlds' worth the candidates' priors count for (0: no priors).
    pub prior_weight: f64,
    /// Threads to play the worlds of a batch on (1: this thread only).
    pub threads: usize,
    /// Worlds weighted by the other seats' past moves under the playout policy (`None`: every
    /// consistent world alike).
    pub inference: Option<Inference>,
    /// Rollouts stop where the searching seat is to choose for this many more times and take
    /// the policy's value of that position ([`Policy::value`]); `None`: played to the end.
    pub leaf_after: Option<u32>,
    /// The other seats modelled as rule-based or playout-policy players, weighed by their moves
    /// so far (`None`: every seat plays by the playout policy).
    pub opponents: Option<Opponents>,
}

/// One candidate's results: its return in each world it was played in, and its wins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub values: Vec<f64>,
    pub wins: u64,
}

/// What a search found: a tally per candidate (in the order given), the worlds counted and the
/// rollouts made.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub tallies: Vec<Tally>,
    pub worlds: u64,
    pub iterations: u64,
    /// The seats played by the rule-based policy in every world, a bit each ([`Opponents`];
    /// 0 without a model of the opponents), so that a search can say whom it took for one.
    pub rule_based: u32,
}

struct Racer<'a, D: Deal, P> {
    moves: &'a [D::Move],
    policy: &'a P,
    priors: &'a [f64],
    settings: &'a Settings,
    tallies: Vec<Tally>,
    alive: Vec<usize>,
    /// The seats played by the rule-based policy in every world, a bit each ([`Opponents`]).
    rule_based: u32,
}

/// Searches the candidates `moves` (the seat's own legal moves, best guess first: an exact tie
/// goes to the earlier one) with their `priors` (points; zeros without a guide), every world
/// played out by `policy` (the family's greedy: [`super::Greedy`]).
///
/// Returns `None` when `moves` and `priors` differ in length or a move is not legal in a sampled
/// world (the candidates were not the knowing seat's legal moves).
pub fn race<K: Knowledge, P: Policy<K::Deal>>(
    knowledge: &K,
    moves: &[<K::Deal as Deal>::Move],
    priors: &[f64],
    settings: &Settings,
    seed: u64,
    policy: &P,
) -> Option<Outcome> {
    race_in_batches(knowledge, moves, priors, settings, seed, policy, MAX_BATCH)
}

/// [`race`] with batches of at most `max_batch` worlds.
fn race_in_batches<K: Knowledge, P: Policy<K::Deal>>(
    knowledge: &K,
    moves: &[<K::Deal as Deal>::Move],
    priors: &[f64],
    settings: &Settings,
    seed: u64,
    policy: &P,
    max_batch: u64,
) -> Option<Outcome> {
    if moves.len() != priors.len() || moves.is_empty() {
        return None;
    }
    let start = Instant::now();
    let deadline = settings.time_limit.map(|t| start + t);
    let budget = settings.iterations.unwrap_or(u64::MAX);
    let pool = if settings.threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(settings.threads)
            .build()
            .ok()
    } else {
        None
    };
    // The kinds are weighed once, from a stream no world uses (worlds use 2w and 2w + 1).
    let rule_based = settings.opponents.map_or(0, |model| {
        let mut rng = Rng::stream(seed, u64::MAX);
        let mut scratch = P::Scratch::default();
        let chances = knowledge.rule_based_chances(&mut rng, &model, policy, &mut scratch);
        chances.map_or(0, |chances| model.rule_based(&chances))
    });
    let mut racer: Racer<'_, K::Deal, P> = Racer {
        moves,
        policy,
        priors,
        settings,
        tallies: vec![Tally::default(); moves.len()],
        alive: (0..moves.len()).collect(),
        rule_based,
    };
    let (mut worlds, mut used) = (0u64, 0u64);
    let mut next_check = settings.min_worlds.max(1);
    let mut slowest = Duration::ZERO; // the slowest world so far: the margin kept before the deadline
    let width = settings.threads.max(1) as u64;
    // Every candidate is played in at least one world, whatever the budget.
    while racer.alive.len() > 1 && (worlds == 0 || used + racer.alive.len() as u64 <= budget) {
        let affordable = if worlds == 0 {
            1.max((budget / racer.alive.len() as u64).min(next_check))
        } else {
            (budget - used) / racer.alive.len() as u64
        };
        let mut batch = (next_check - worlds).min(affordable).min(max_batch).max(1);
        if let Some(deadline) = deadline {
            let now = Instant::now();
            if worlds > 0 && now + slowest >= deadline {
                break;
            }
            batch = batch.min(width); // a few worlds at a time, to stop near the deadline
        }
        let began = Instant::now();
        let results = racer.play(knowledge, seed, worlds, batch, pool.as_ref())?;
        let per_world = began.elapsed() / batch as u32;
        slowest = slowest.max(per_world * width.min(batch) as u32);
        for world in results {
            for (&c, (value, won)) in racer.alive.iter().zip(world) {
                racer.tallies[c].values.push(value);
                racer.tallies[c].wins += u64::from(won);
            }
        }
        used += batch * racer.alive.len() as u64;
        worlds += batch;
        if worlds >= next_check {
            racer.drop_the_worse();
            next_check = (worlds + 1).max((worlds as f64 * 1.25).ceil() as u64);
        }
    }
    Some(Outcome {
        tallies: racer.tallies,
        worlds,
        iterations: used,
        rule_based: racer.rule_based,
    })
}

impl<D: Deal, P: Policy<D>> Racer<'_, D, P> {
    /// Worlds `first .. first + count`, each a result `(return, won)` per candidate alive.
    fn play<K: Knowledge<Deal = D>>(
        &self,
        knowledge: &K,
        seed: u64,
        first: u64,
        count: u64,
        pool: Option<&rayon::ThreadPool>,
    ) -> Option<Vec<Vec<(f64, bool)>>> {
        let one = |w: u64| self.world(knowledge, seed, w);
        let worlds: Vec<Option<Vec<(f64, bool)>>> = match pool {
            Some(pool) => {
                pool.install(|| (first..first + count).into_par_iter().map(one).collect())
            }
            None => (first..first + count).map(one).collect(),
        };
        worlds.into_iter().collect()
    }

    /// Every candidate alive played out in world `w`.
    fn world<K: Knowledge<Deal = D>>(
        &self,
        knowledge: &K,
        seed: u64,
        w: u64,
    ) -> Option<Vec<(f64, bool)>> {
        let seat = knowledge.seat();
        let mut scratch = P::Scratch::default();
        let mut dealing = Rng::stream(seed, 2 * w);
        let modelled = Modelled {
            inner: self.policy,
            rule_based: self.rule_based,
            weigh_inner: true,
        };
        // Worlds are weighted by each seat's moves under the model of its kind: every seat's
        // with `inference`, else the rule-based seats' alone if the model draws for them.
        let world = match (&self.settings.inference, self.settings.opponents) {
            (Some(inference), _) => {
                knowledge.sample_inferred(&mut dealing, inference, &modelled, &mut scratch)
            }
            (None, Some(model)) if self.rule_based != 0 && model.draws > 1 => {
                let by_kind = Modelled {
                    weigh_inner: false,
                    ..modelled
                };
                knowledge.sample_inferred(&mut dealing, &model.inference(), &by_kind, &mut scratch)
            }
            _ => knowledge.sample(&mut dealing),
        };
        let rollouts = Rng::stream(seed, 2 * w + 1);
        let mut legal = Vec::with_capacity(64);
        let mut out = Vec::with_capacity(self.alive.len());
        for &c in &self.alive {
            let mut deal = world.clone();
            let mut rng = rollouts.clone();
            deal.legal_into(&mut legal);
            if !legal.contains(&self.moves[c]) {
                return None;
            }
            deal.play(self.moves[c], &mut rng);
            let turns = self.settings.leaf_after.unwrap_or(0);
            out.push(rollout(
                &mut deal,
                &mut rng,
                &mut legal,
                &modelled,
                &mut scratch,
                seat,
                turns,
            ));
        }
        Some(out)
    }

    /// A candidate's mean return shrunk towards its prior by `prior_weight` worlds' worth.
    fn score(&self, c: usize) -> f64 {
        let values = &self.tallies[c].values;
        let w = self.settings.prior_weight;
        let sum: f64 = values.iter().sum();
        if w == 0.0 {
            return if values.is_empty() {
                f64::NEG_INFINITY
            } else {
                sum / values.len() as f64
            };
        }
        (sum + w * self.priors[c]) / (values.len() as f64 + w)
    }

    /// Keeps the candidates not clearly worse than the leader, by their paired differences
    /// (shrunk towards the difference of their priors when guided); with `indifference`, of the
    /// others than the first and the leader, only those that may still beat both by more.
    fn drop_the_worse(&mut self) {
        let mut leader = self.alive[0];
        for &c in &self.alive[1..] {
            if self.score(c) > self.score(leader) {
                leader = c; // ties stay with the earlier candidate
            }
        }
        // The first candidate, if alive and not the leader.
        let first = (self.alive[0] == 0 && leader != 0).then_some(0);
        let Settings {
            confidence,
            indifference,
            ..
        } = *self.settings;
        let keep: Vec<usize> = self
            .alive
            .iter()
            .copied()
            .filter(|&c| {
                if c == leader {
                    return true;
                }
                let to_leader = self.paired(leader, c);
                if to_leader.gap > to_leader.errors(confidence) {
                    return false;
                }
                // Kept if it may still beat the leader and the first by more than the
                // indifference (as it may after a single world, with no spread to go by).
                let may_gain = |p: Paired| {
                    !p.spread.is_finite()
                        || p.errors(confidence) - p.gap > indifference * p.shrink * p.spread
                };
                indifference == 0.0
                    || c == 0
                    || may_gain(to_leader) && first.is_none_or(|f| may_gain(self.paired(f, c)))
            })
            .collect();
        self.alive = keep;
    }

    /// The paired lead of candidate `a` over `b` (two alive, played in the same worlds).
    fn paired(&self, a: usize, b: usize) -> Paired {
        let (xs, ys) = (&self.tallies[a].values, &self.tallies[b].values);
        let n = xs.len() as f64;
        let shrink = n / (n + self.settings.prior_weight);
        let diffs = xs.iter().zip(ys).map(|(x, y)| x - y);
        let mean = diffs.clone().sum::<f64>() / n;
        let spread = if n > 1.0 {
            (diffs.map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
        } else {
            f64::INFINITY
        };
        Paired {
            gap: shrink * mean + (1.0 - shrink) * (self.priors[a] - self.priors[b]),
            spread,
            shrink,
            n,
        }
    }
}

/// One candidate's lead over another in the worlds both were played in.
#[derive(Clone, Copy)]
struct Paired {
    /// The mean difference, shrunk towards the difference of their priors by `shrink`.
    gap: f64,
    /// The standard deviation of a world's difference.
    spread: f64,
    shrink: f64,
    /// The worlds.
    n: f64,
}

impl Paired {
    /// `z` standard errors of `gap`.
    fn errors(&self, z: f64) -> f64 {
        z * self.shrink * self.spread / self.n.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-move game: seat 0 picks 0, 1 or 2 and scores `VALUE[m]` plus the world's luck,
    /// shared by all moves (so the paired differences are exact) and a little of its own, and
    /// with `noise` luck of each move's own, as wide as `noise` times the move.
    #[derive(Clone, Debug)]
    struct Toy {
        luck: f64,
        noise: f64,
        picked: Option<u8>,
    }

    const VALUE: [f64; 3] = [0.0, 1.0, 0.5];

    impl Deal for Toy {
        type Move = u8;
        fn players(&self) -> usize {
            2
        }
        fn to_move(&self) -> i8 {
            if self.picked.is_none() { 0 } else { -1 }
        }
        fn legal_into(&mut self, out: &mut Vec<u8>) {
            out.clear();
            out.extend([0, 1, 2]);
        }
        fn play(&mut self, m: u8, rng: &mut Rng) {
            self.picked = Some(m);
            self.luck += 0.1 * rng.unit();
            self.luck += self.noise * f64::from(m) * (rng.unit() - 0.5);
        }
        fn returns_into(&self, out: &mut [f64]) {
            let v = VALUE[usize::from(self.picked.unwrap_or(0))] + self.luck;
            out[0] = v;
            out[1] = -v;
        }
        fn greedy(&self, legal: &[u8], _: &mut Rng) -> u8 {
            legal[0]
        }
    }

    struct Seen;

    impl Knowledge for Seen {
        type Deal = Toy;
        fn seat(&self) -> usize {
            0
        }
        fn sample(&self, rng: &mut Rng) -> Toy {
            Noisy(0.0).sample(rng)
        }
    }

    /// [`Seen`] with each move's own luck as wide as this times the move.
    struct Noisy(f64);

    impl Knowledge for Noisy {
        type Deal = Toy;
        fn seat(&self) -> usize {
            0
        }
        fn sample(&self, rng: &mut Rng) -> Toy {
            Toy {
                luck: 4.0 * rng.unit() - 2.0,
                noise: self.0,
                picked: None,
            }
        }
    }

    fn settings(iterations: u64, threads: usize) -> Settings {
        Settings {
            iterations: Some(iterations),
            time_limit: None,
            min_worlds: 8,
            confidence: 2.5,
            indifference: 0.0,
            prior_weight: 0.0,
            threads,
            inference: None,
            leaf_after: None,
            opponents: None,
        }
    }

    /// The search with greedy playouts.
    fn race<K: Knowledge>(
        knowledge: &K,
        moves: &[<K::Deal as Deal>::Move],
        priors: &[f64],
        settings: &Settings,
        seed: u64,
    ) -> Option<Outcome> {
        super::race(
            knowledge,
            moves,
            priors,
            settings,
            seed,
            &crate::sim::Greedy,
        )
    }

    fn mean(t: &Tally) -> f64 {
        t.values.iter().sum::<f64>() / t.values.len() as f64
    }

    #[test]
    fn the_clearly_worse_are_dropped_at_the_first_check() {
        let out = race(&Seen, &[0, 1, 2], &[0.0; 3], &settings(3_000, 1), 5).unwrap();
        // The paired differences are exact (shared luck, one rollout generator per world):
        // both worse moves go at the first check, so the race ends with 8 worlds.
        assert_eq!((out.worlds, out.iterations), (8, 24));
        assert!(out.tallies.iter().all(|t| t.values.len() == 8));
        let gap = |a: usize, b: usize| mean(&out.tallies[a]) - mean(&out.tallies[b]);
        assert!((gap(1, 2) - 0.5).abs() < 1e-9 && (gap(1, 0) - 1.0).abs() < 1e-9);
        // Seat 0 has the highest return whenever it is positive.
        let positive = out.tallies[1].values.iter().filter(|&&v| v > 0.0).count() as u64;
        assert_eq!(out.tallies[1].wins, positive);
        // Two equal moves stay in the race until the budget is spent.
        let tied = race(&Seen, &[1, 1, 0], &[0.0; 3], &settings(3_000, 1), 5).unwrap();
        assert_eq!(tied.tallies[2].values.len(), 8);
        assert_eq!(tied.tallies[0].values.len(), tied.tallies[1].values.len());
        assert!(tied.iterations > 2_990 && tied.iterations <= 3_000);
    }

    #[test]
    fn moves_too_near_to_matter_leave_the_race_but_the_first_stays() {
        let mut s = settings(3_000, 1);
        s.indifference = 0.2;
        // Two equal moves: the second can gain nothing over the first, and goes with the worse
        // at the first check, where without the indifference they raced until the budget.
        let tied = race(&Seen, &[1, 1, 0], &[0.0; 3], &s, 5).unwrap();
        assert_eq!((tied.worlds, tied.iterations), (8, 24));
        // Moves 1 and 2 differ by 0.5, a few hundredths of the spread of their difference in
        // a world: thousands of worlds would tell them apart, and without the indifference the
        // race mostly runs on to the budget.
        let near = |s: &Settings, seed| race(&Noisy(40.0), &[1, 2], &[0.0; 2], s, seed).unwrap();
        let mut ran_on = 0;
        for seed in 0..20 {
            let long = near(&settings(3_000, 1), seed);
            ran_on += usize::from(long.iterations > 2_990);
            let short = near(&s, seed);
            assert!(short.iterations < 2_000, "{seed}: {}", short.iterations);
            // The first move (the policy's choice) goes only when clearly worse, and it is
            // the better one: the race ends with it, the other dropped.
            assert_eq!(short.tallies[0].values.len() as u64, short.worlds, "{seed}");
            // The worlds are the same ones: the short race is the start of the long one.
            assert!(long.tallies[0].values.starts_with(&short.tallies[0].values));
        }
        assert!(ran_on >= 15, "{ran_on} of 20 long races spent the budget");
        // The leader is never dropped for the indifference: where the second move leads, the
        // first stays, and the two race on.
        for seed in 0..20 {
            let second_leads = race(&Noisy(40.0), &[2, 1], &[0.0; 2], &s, seed).unwrap();
            assert_eq!(
                second_leads.tallies[0].values.len(),
                second_leads.tallies[1].values.len(),
                "{seed}"
            );
        }
        // A first look after a single world drops nothing for the indifference.
        let mut hasty = s.clone();
        hasty.min_worlds = 1;
        let first_look = race(&Noisy(40.0), &[1, 2], &[0.0; 2], &hasty, 0).unwrap();
        assert!(first_look.tallies[1].values.len() >= 2);
    }

    #[test]
    fn the_budget_is_kept_and_every_candidate_is_tried_once() {
        for budget in [1, 2, 3, 7, 50] {
            let out = race(&Seen, &[0, 1, 2], &[0.0; 3], &settings(budget, 1), 9).unwrap();
            assert!(
                out.iterations <= budget.max(3),
                "{budget}: {}",
                out.iterations
            );
            assert!(out.tallies.iter().all(|t| !t.values.is_empty()));
            let played: usize = out.tallies.iter().map(|t| t.values.len()).sum();
            assert_eq!(played as u64, out.iterations);
        }
    }

    #[test]
    fn threads_change_nothing() {
        // Equal moves race on: many worlds, in batches spread over the threads.
        let one = race(&Seen, &[1, 1, 2], &[0.0; 3], &settings(600, 1), 3).unwrap();
        for threads in [2, 3, 8] {
            let many = race(&Seen, &[1, 1, 2], &[0.0; 3], &settings(600, threads), 3).unwrap();
            assert_eq!(one, many, "{threads} threads");
        }
        let other = race(&Seen, &[1, 1, 2], &[0.0; 3], &settings(600, 1), 4).unwrap();
        assert_ne!(one, other, "another seed, other worlds");
    }

    #[test]
    fn batches_change_nothing() {
        // The first look at 200 worlds, then looks a quarter further on: batches of 1 and 7
        // worlds cut those stretches into many pieces, and the outcome stays the same.
        let mut s = settings(3000, 1);
        s.min_worlds = 200;
        let run = |max_batch| {
            race_in_batches(
                &Seen,
                &[1, 1, 2, 0],
                &[0.0; 4],
                &s,
                5,
                &crate::sim::Greedy,
                max_batch,
            )
            .unwrap()
        };
        let whole = run(MAX_BATCH);
        assert!(whole.worlds > 200, "{}", whole.worlds);
        for max_batch in [1, 7] {
            assert_eq!(run(max_batch), whole, "batches of {max_batch}");
        }
    }

    #[test]
    fn a_prior_can_outweigh_the_rollouts() {
        let mut s = settings(3_000, 1);
        // Equal priors: the rollouts decide, and move 1 drops move 2.
        s.prior_weight = 1_000.0;
        let even = race(&Seen, &[2, 1, 1], &[0.0; 3], &s, 1).unwrap();
        assert_eq!(even.tallies[0].values.len(), 8);
        // Move 2 rated 50 points better, worth 1,000 worlds: the prior leads, and the two
        // copies of move 1 are dropped although they play better.
        let led = race(&Seen, &[2, 1, 1], &[50.0, 0.0, 0.0], &s, 1).unwrap();
        assert_eq!(led.worlds, 8);
        assert!(mean(&led.tallies[1]) > mean(&led.tallies[0]));
    }

    #[test]
    fn a_time_limit_stops_the_search() {
        let mut s = settings(u64::MAX, 2);
        s.iterations = None;
        s.time_limit = Some(Duration::from_millis(20));
        let out = race(&Seen, &[1, 1], &[0.0; 2], &s, 2).unwrap();
        assert!(out.worlds >= 1);
        assert_eq!(out.tallies[0].values.len(), out.tallies[1].values.len());
    }

    #[test]
    fn candidates_that_are_not_moves_are_refused() {
        assert!(race(&Seen, &[1, 7], &[0.0; 2], &settings(10, 1), 0).is_none());
        assert!(race(&Seen, &[1, 2], &[0.0], &settings(10, 1), 0).is_none());
        assert!(race(&Seen, &[], &[], &settings(10, 1), 0).is_none());
    }
}
