//! A crew: threads that help the calling thread through one call at a time, and keep watch
//! (spinning) for a short while after each, so that a batch stepped call after call does not
//! pay to wake a sleeping thread every time.
//!
//! Why not a rayon pool: a rayon worker that has gone to sleep takes tens of microseconds to
//! wake (about 36 µs on a two-core virtual machine, and the calling thread as long again to
//! be woken at the end of the scope), as much as half of a 1,024-row step; a crew member is
//! still spinning when the next call comes from a loop, and parks only when none has come
//! for [`WATCH`].

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a helper keeps spinning for the next call before it parks.
const WATCH: Duration = Duration::from_micros(200);

/// How long a thread spins for another before it sleeps: long enough for the other to finish a
/// part of a call on a machine to itself (30 µs measured too short: a wait then often slept and
/// paid a wake-up), short enough that on a busy one the thread it waits for gets the core.
const SPIN: Duration = Duration::from_micros(100);

/// Waiting for a condition that other threads make true: spinning for [`SPIN`], then sleeping
/// until one of them calls [`Waiter::wake`] (which costs nothing while nobody sleeps).
#[derive(Default)]
pub struct Waiter {
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    woken: Condvar,
}

impl Waiter {
    /// Returns once `ready` holds. Whatever makes it hold must be written (sequentially
    /// consistent) before the writer calls [`Waiter::wake`].
    pub fn wait_until(&self, ready: impl Fn() -> bool) {
        let since = Instant::now();
        while since.elapsed() < SPIN {
            if ready() {
                return;
            }
            for _ in 0..16 {
                std::hint::spin_loop();
            }
        }
        // Counted before looking again: a waker either sees the count or wrote before the
        // look, so no wake-up is missed (and a timeout bounds the wait in any case).
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        while !ready() {
            guard = self
                .woken
                .wait_timeout(guard, Duration::from_millis(5))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        drop(guard);
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Wakes every sleeping waiter, to look at its condition again.
    pub fn wake(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
            self.woken.notify_all();
        }
    }
}

/// What every thread of a call runs, given its number (0 for the calling thread), each
/// taking its share of the work itself.
type Job = dyn Fn(usize) + Sync + 'static;

/// A job whose lifetime has been erased; see [`Crew::run`] for why it is never used after
/// the job is gone.
#[derive(Clone, Copy)]
struct JobRef(*const Job);

// SAFETY: the job is `Sync`, so calling it from another thread through a shared pointer is
// sound while it is alive, which `Crew::run` guarantees.
#[allow(unsafe_code)]
unsafe impl Send for JobRef {}

/// What the calling thread and the helpers share.
struct Board {
    /// The number of the latest call; each helper runs each call's job once.
    call: AtomicUsize,
    job: Mutex<Option<JobRef>>,
    /// The helpers done with the latest call, and the calling thread waiting for them.
    finished: AtomicUsize,
    done: Waiter,
    panicked: AtomicBool,
    stop: AtomicBool,
}

/// Helper threads; dropping the crew stops and joins them.
pub struct Crew {
    board: Arc<Board>,
    helpers: Vec<JoinHandle<()>>,
}

impl Crew {
    /// A crew of `helpers` threads (the calling thread is one more); `None` if the system
    /// would not start one.
    pub fn new(helpers: usize) -> Option<Crew> {
        let board = Arc::new(Board {
            call: AtomicUsize::new(0),
            job: Mutex::new(None),
            finished: AtomicUsize::new(0),
            done: Waiter::default(),
            panicked: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let mut crew = Crew {
            board,
            helpers: Vec::with_capacity(helpers),
        };
        for i in 0..helpers {
            let board = Arc::clone(&crew.board);
            let started = thread::Builder::new()
                .name(format!("parlour-batch-{}", i + 1))
                .spawn(move || help(&board, i + 1));
            crew.helpers.push(started.ok()?); // the crew built so far is stopped on drop
        }
        Some(crew)
    }

    /// The threads a call runs on, the calling thread included.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Runs `job` on the calling thread and on every helper at once, and returns when all of
    /// them have returned from it. A panic in any of them is raised here once all are done.
    pub fn run(&self, job: &(dyn Fn(usize) + Sync + '_)) {
        let board = &self.board;
        board.finished.store(0, Ordering::SeqCst);
        board.panicked.store(false, Ordering::SeqCst); // a call that unwound left it set
        // SAFETY: the reference is made `'static` only to be handed to the helpers; `Wait`
        // below keeps this function from returning (or unwinding) until every helper has
        // finished this call, and a helper touches the job only between seeing this call's
        // number and counting itself finished, so the job outlives every use.
        #[allow(unsafe_code)]
        let erased: &'static Job =
            unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync + '_), &'static Job>(job) };
        *board.job.lock().unwrap_or_else(PoisonError::into_inner) = Some(JobRef(erased));
        board.call.fetch_add(1, Ordering::AcqRel);
        for helper in &self.helpers {
            helper.thread().unpark(); // costs nothing much unless it had parked
        }
        let wait = Wait(self);
        job(0);
        drop(wait);
        if board.panicked.swap(false, Ordering::AcqRel) {
            panic!("a batch thread panicked");
        }
    }
}

/// Waits, when dropped (as the call returns or unwinds), until every helper has finished the
/// call.
struct Wait<'a>(&'a Crew);

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        let (board, helpers) = (&self.0.board, self.0.helpers.len());
        board
            .done
            .wait_until(|| board.finished.load(Ordering::SeqCst) >= helpers);
        *board.job.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        self.board.stop.store(true, Ordering::Release);
        for helper in self.helpers.drain(..) {
            helper.thread().unpark();
            let _ = helper.join(); // a helper catches its job's panics, so it ends cleanly
        }
    }
}

/// A helper's life: watch for each call, run its job, count itself finished.
fn help(board: &Board, number: usize) {
    let mut seen = 0;
    loop {
        let since = Instant::now();
        loop {
            if board.stop.load(Ordering::Acquire) {
                return;
            }
            let call = board.call.load(Ordering::Acquire);
            if call != seen {
                seen = call;
                break;
            }
            if since.elapsed() < WATCH {
                std::hint::spin_loop();
            } else {
                thread::park_timeout(Duration::from_millis(50));
            }
        }
        let job = *board.job.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(JobRef(job)) = job {
            // SAFETY: the job is alive until this helper counts itself finished (`Crew::run`).
            #[allow(unsafe_code)]
            let job = unsafe { &*job };
            if catch_unwind(AssertUnwindSafe(|| job(number))).is_err() {
                board.panicked.store(true, Ordering::Release);
            }
        }
        board.finished.fetch_add(1, Ordering::SeqCst);
        board.done.wake();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thread_runs_each_call_once() {
        let crew = Crew::new(2).unwrap();
        assert_eq!(crew.threads(), 3);
        for call in 1..=200 {
            let runs = [const { AtomicUsize::new(0) }; 3];
            crew.run(&|t| {
                runs[t].fetch_add(1, Ordering::Relaxed);
            });
            assert!(
                runs.iter().all(|r| r.load(Ordering::Relaxed) == 1),
                "call {call}"
            );
            if call % 50 == 0 {
                thread::sleep(WATCH * 3); // the helpers park, and are woken by the next call
            }
        }
    }

    #[test]
    fn a_panic_on_a_helper_is_raised_in_the_caller_and_the_crew_goes_on() {
        let crew = Crew::new(1).unwrap();
        let failed = catch_unwind(AssertUnwindSafe(|| {
            crew.run(&|t| {
                if t == 1 {
                    panic!("helper");
                }
            })
        }));
        assert!(failed.is_err());
        let runs = AtomicUsize::new(0);
        crew.run(&|_| {
            runs.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(runs.load(Ordering::Relaxed), 2);
    }
}
