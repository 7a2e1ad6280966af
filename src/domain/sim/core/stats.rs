//! Per-job statistics of a run, stored compactly (column per figure, 8 bytes per job).
//!
//! With 10⁶ jobs, first-touch page faults of per-job memory are a large share of a run's time,
//! so each figure has its own column and the columns that only some configs need (runs per job,
//! arrival numbers, previous retry waits) are kept only for those configs. What is only needed
//! while a job lives (its enqueue time, "succeeded before", "effect applied before") is kept in
//! its row of the jobs table instead, and goes when a [`Retention`](super::Retention) deletes
//! the row. Spans are stored as
//! `u32` microseconds (≈ 71 minutes); longer ones go to a side table, so no value is ever
//! clipped.

use crate::domain::sim::core::time::SimDuration;
use std::collections::BTreeMap;

/// "Not yet" in the `u32` span columns.
const NOT_YET: u32 = u32::MAX;
/// "Too long for `u32`: see the side table".
const LONG: u32 = u32::MAX - 1;

/// Which optional columns a run needs.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::domain::sim) struct Needs {
    /// Runs per job (the `FirstRuns` failure model).
    pub runs: bool,
    /// Arrival numbers (an idempotency-key template).
    pub arrival_no: bool,
    /// The previous retry wait (decorrelated jitter).
    pub prev_wait: bool,
}

/// The statistics of every job, indexed by `id - 1`.
#[derive(Debug, Clone, Default)]
pub(in crate::domain::sim) struct JobStats {
    needs: Needs,
    /// Per job `[wait, latency]` in µs: enqueue → first claim, enqueue → first `done`.
    spans: Vec<[u32; 2]>,
    runs: Vec<u32>,
    arrival_no: Vec<u32>,
    prev_wait: Vec<u64>,
    /// Spans of `LONG` entries: `(2·index + column, µs)`, column 0 = wait, 1 = latency.
    long: BTreeMap<u64, u64>,
}

impl JobStats {
    /// Room for `jobs` jobs (capped at 2²⁰ up front).
    pub fn new(needs: Needs, jobs: u64) -> JobStats {
        let n = jobs.min(1 << 20) as usize;
        let cap = |on: bool| if on { n } else { 0 };
        JobStats {
            needs,
            spans: Vec::with_capacity(n),
            runs: Vec::with_capacity(cap(needs.runs)),
            arrival_no: Vec::with_capacity(cap(needs.arrival_no)),
            prev_wait: Vec::with_capacity(cap(needs.prev_wait)),
            long: BTreeMap::new(),
        }
    }

    /// Adds the next job: arrival number `arrival_no` of its stream.
    #[inline]
    pub fn push(&mut self, arrival_no: u64) {
        self.spans.push([NOT_YET; 2]);
        if self.needs.runs {
            self.runs.push(0);
        }
        if self.needs.arrival_no {
            self.arrival_no
                .push(u32::try_from(arrival_no).unwrap_or(u32::MAX));
        }
        if self.needs.prev_wait {
            self.prev_wait.push(u64::MAX);
        }
    }

    fn span(&self, i: usize, column: u64, v: u32) -> Option<SimDuration> {
        match v {
            NOT_YET => None,
            LONG => self
                .long
                .get(&(2 * i as u64 + column))
                .map(|&us| SimDuration(us)),
            us => Some(SimDuration(u64::from(us))),
        }
    }

    #[inline(always)]
    fn set_span(&mut self, i: usize, column: u64, span: SimDuration) -> u32 {
        let d = span.0;
        match u32::try_from(d) {
            Ok(us) if us < LONG => us,
            _ => {
                self.long.insert(2 * i as u64 + column, d);
                LONG
            }
        }
    }

    /// Records the first claim of job `i`, `span` after its enqueue (later claims are
    /// ignored).
    #[inline(always)]
    pub fn claimed(&mut self, i: usize, span: SimDuration) {
        if self.spans.get(i).is_some_and(|s| s[0] == NOT_YET) {
            self.spans[i][0] = self.set_span(i, 0, span);
        }
    }

    /// Records the first `done` of job `i`, `span` after its enqueue (later ones are ignored).
    #[inline(always)]
    pub fn done(&mut self, i: usize, span: SimDuration) {
        if self.spans.get(i).is_some_and(|s| s[1] == NOT_YET) {
            self.spans[i][1] = self.set_span(i, 1, span);
        }
    }

    /// Counts a run of job `i` (kept only when [`Needs::runs`]).
    #[inline]
    pub fn ran(&mut self, i: usize) {
        if let Some(r) = self.runs.get_mut(i) {
            *r = r.saturating_add(1);
        }
    }

    /// Runs of job `i` so far (0 when not kept).
    pub fn runs(&self, i: usize) -> u32 {
        self.runs.get(i).copied().unwrap_or(0)
    }

    /// The arrival number of job `i` (0 when not kept).
    pub fn arrival_no(&self, i: usize) -> u32 {
        self.arrival_no.get(i).copied().unwrap_or(0)
    }

    /// The previous retry wait of job `i` (`None` before the first retry or when not kept).
    pub fn prev_wait(&self, i: usize) -> Option<SimDuration> {
        match self.prev_wait.get(i) {
            Some(&us) if us != u64::MAX => Some(SimDuration(us)),
            _ => None,
        }
    }

    /// Records the retry wait just drawn for job `i`.
    pub fn set_prev_wait(&mut self, i: usize, wait: SimDuration) {
        if let Some(p) = self.prev_wait.get_mut(i) {
            *p = wait.0;
        }
    }

    /// Per job in id order: enqueue → first claim.
    pub fn waits(&self) -> Vec<Option<SimDuration>> {
        (0..self.spans.len())
            .map(|i| self.span(i, 0, self.spans[i][0]))
            .collect()
    }

    /// Per job in id order: enqueue → first `done`.
    pub fn latencies(&self) -> Vec<Option<SimDuration>> {
        (0..self.spans.len())
            .map(|i| self.span(i, 1, self.spans[i][1]))
            .collect()
    }
}
