//! Frames for stepping a small run event by event (teaching): after every engine step, the
//! virtual time, the rows per state, the table moves that step made and the event-log length.
//!
//! Only runs of at most [`MAX_FRAME_EVENTS`] events get frames (the six presets take a few
//! dozen to a few hundred); a bigger run records none, so its page message stays small.
//!
//! Invariants (tested natively): `frames[0]` is the start (time 0, no rows, no moves, empty
//! log); each later frame's `counts` equal the previous frame's plus its `moves` (a move
//! subtracts one from its [`Transition::from`] state and adds one to its [`Transition::to`]);
//! the last frame's `counts` are the final table's.

use crate::domain::sim::engine::Simulation;
use crate::domain::sim::jobs::{Status, Transition};
use serde::{Deserialize, Serialize};

/// Runs with more events than this get no frames.
pub const MAX_FRAME_EVENTS: u64 = 20_000;

/// The state after one engine step. Short JSON keys: a run sends up to
/// [`MAX_FRAME_EVENTS`] of these to the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// Virtual time after the step, microseconds since the start.
    #[serde(rename = "t")]
    pub time_us: u64,
    /// Rows per state after the step, in [`Status::ALL`] order: queued, running, done, dead.
    #[serde(rename = "c")]
    pub counts: [u64; 4],
    /// The moves this step made: `(transition number, times)`, only non-zero ones, in
    /// [`Transition`] order.
    #[serde(rename = "m", default)]
    pub moves: Vec<(u8, u64)>,
    /// Event-log lines written up to and including this step (the step wrote the lines
    /// from the previous frame's `log_len` to this one).
    #[serde(rename = "l")]
    pub log_len: u64,
}

impl Frame {
    /// The start of a run: time 0, no rows, no moves, no log.
    pub fn start() -> Frame {
        Frame {
            time_us: 0,
            counts: [0; 4],
            moves: Vec::new(),
            log_len: 0,
        }
    }

    /// `prev`'s counts with `moves` applied: what this frame's counts must be.
    pub fn apply(prev: [u64; 4], moves: &[(u8, u64)]) -> [u64; 4] {
        let mut c = prev;
        for &(t, n) in moves {
            let t = Transition(t);
            if let Some(from) = t.from() {
                c[from as usize] = c[from as usize].wrapping_sub(n);
            }
            c[t.to() as usize] = c[t.to() as usize].wrapping_add(n);
        }
        c
    }

    /// Times transition `t` was taken in this step.
    pub fn times(&self, t: Transition) -> u64 {
        self.moves
            .iter()
            .find(|&&(x, _)| x == t.0)
            .map_or(0, |&(_, n)| n)
    }
}

/// Records frames while a run steps. Call [`FrameRecorder::after_step`] after each
/// [`Simulation::step`] that returned `true`; [`FrameRecorder::finish`] gives the frames, or
/// none when the run passed [`MAX_FRAME_EVENTS`].
#[derive(Debug, Clone)]
pub struct FrameRecorder {
    frames: Vec<Frame>,
    last: [u64; Transition::COUNT],
    over: bool,
}

impl Default for FrameRecorder {
    fn default() -> Self {
        FrameRecorder::new()
    }
}

impl FrameRecorder {
    /// A recorder holding the start frame.
    pub fn new() -> FrameRecorder {
        FrameRecorder {
            frames: vec![Frame::start()],
            last: [0; Transition::COUNT],
            over: false,
        }
    }

    /// Records the state after one step.
    pub fn after_step(&mut self, sim: &Simulation) {
        if self.over {
            return;
        }
        if sim.events() > MAX_FRAME_EVENTS {
            self.over = true;
            self.frames = Vec::new();
            return;
        }
        let t = sim.table();
        let now = *t.transitions();
        let moves = now
            .iter()
            .zip(&self.last)
            .enumerate()
            .filter(|(_, (a, b))| a > b)
            .map(|(i, (a, b))| (i as u8, a - b))
            .collect();
        self.last = now;
        self.frames.push(Frame {
            time_us: sim.now().as_micros(),
            counts: Status::ALL.map(|s| t.count(s)),
            moves,
            log_len: sim.log().len() as u64,
        });
    }

    /// The frames: the start and one per step; empty when the run was too big.
    pub fn finish(self) -> Vec<Frame> {
        if self.over {
            Vec::new()
        } else {
            self.frames
        }
    }
}

/// Runs `sim` to the end, calling `progress(events)` every `every` events; returns its frames
/// (empty past [`MAX_FRAME_EVENTS`]).
pub fn run_with_frames(
    sim: &mut Simulation,
    every: u64,
    progress: &mut impl FnMut(u64),
) -> Vec<Frame> {
    let every = every.max(1);
    let mut next = every;
    let mut rec = FrameRecorder::new();
    while sim.step() {
        rec.after_step(sim);
        if sim.events() >= next {
            progress(sim.events());
            next = sim.events() + every;
        }
    }
    rec.finish()
}
