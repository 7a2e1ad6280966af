//! The queue-depth series: rows `queued` over time as a step line that never hides a peak.
//!
//! What a point `(t, d)` means: the depth is `d` from `t` until the next point's time (a step
//! line). While a run has made at most [`MAX_DEPTH_POINTS`] changes the series is exact:
//! the first point is `(0, 0)` and every later one is a change seen after an engine step
//! (several points may share a time when one instant holds several events, e.g. an enqueue
//! and a claim). Past that, the series is *coarsened* into buckets of width `w` (the run's
//! `series_bucket`, doubled until at most half of [`MAX_DEPTH_POINTS`] points remain): a
//! bucket's changes become at most two points, `(time of its first change, the bucket's
//! highest depth)` and `(time of its last change, the depth at the bucket's end)`. So the
//! line is an upper envelope: its maximum is always the run's true maximum depth, and it is
//! exact at the end of every bucket. Memory stays within [`MAX_DEPTH_POINTS`] + 2 points for
//! any number of jobs (10⁶ included); once coarsened, a change costs a comparison and a few
//! stores (the bucket being filled is kept apart until the next one starts).

use crate::domain::sim::core::time::{SimDuration, SimTime};

/// Most points the series holds before it is coarsened.
pub const MAX_DEPTH_POINTS: usize = 4_096;

/// The series being recorded (see the module docs for what a point means).
#[derive(Debug, Clone)]
pub struct DepthSeries {
    points: Vec<(SimTime, u64)>,
    /// Current bucket width in µs; `None` while the series is exact.
    bucket: Option<u64>,
    first_bucket: u64,
    /// The depth now.
    depth: u64,
    /// Once coarsened: the bucket being filled, not yet in `points`.
    open: Option<Open>,
    /// `∫ depth dt` from 0 to `since`, in row·µs: exact however the points are coarsened
    /// (the time-average queue length of Little's law, `L = λ·W`).
    area: u128,
    /// When the depth last changed.
    since: SimTime,
}

/// A bucket being filled: its end (exclusive, µs), first change time, highest depth, last
/// change and number of changes.
#[derive(Debug, Clone, Copy)]
struct Open {
    end: u64,
    first: SimTime,
    max: u64,
    last: (SimTime, u64),
    changes: u32,
}

impl Open {
    fn start(now: SimTime, d: u64, w: u64) -> Open {
        Open {
            end: (now.0 / w).saturating_add(1).saturating_mul(w),
            first: now,
            max: d,
            last: (now, d),
            changes: 1,
        }
    }

    fn flush(self, points: &mut Vec<(SimTime, u64)>) {
        points.push((self.first, self.max));
        if self.changes > 1 && self.last.1 != self.max {
            points.push(self.last);
        }
    }
}

impl DepthSeries {
    /// An empty queue at time 0; `bucket` is the first width used when coarsening.
    pub fn new(bucket: SimDuration) -> DepthSeries {
        DepthSeries {
            points: vec![(SimTime::ZERO, 0)],
            bucket: None,
            first_bucket: bucket.0.max(1),
            depth: 0,
            open: None,
            area: 0,
            since: SimTime::ZERO,
        }
    }

    /// `∫ depth dt` from 0 to `now` (not before the last change), in row·seconds: divided by
    /// `now` it is the time-average number of rows queued.
    pub fn area_s(&self, now: SimTime) -> f64 {
        let tail = u128::from(self.depth) * u128::from(now.0.saturating_sub(self.since.0));
        (self.area + tail) as f64 / 1e6
    }

    /// The points, in time order (the bucket being filled included).
    pub fn points(&self) -> Vec<(SimTime, u64)> {
        let mut p = self.points.clone();
        if let Some(o) = self.open {
            o.flush(&mut p);
        }
        p
    }

    /// The bucket width of a coarsened series (`None`: exact, every change kept).
    pub fn bucket(&self) -> Option<SimDuration> {
        self.bucket.map(SimDuration)
    }

    /// Records the depth `d` seen at `now` (after a step); nothing when it did not change.
    /// Coarsened, a change inside the current bucket only updates that bucket (no division,
    /// no allocation); a bucket's points are written when the next bucket starts.
    #[inline]
    pub fn record(&mut self, now: SimTime, d: u64) {
        if d != self.depth {
            self.change(now, d);
        }
    }

    fn change(&mut self, now: SimTime, d: u64) {
        self.area += u128::from(self.depth) * u128::from(now.0.saturating_sub(self.since.0));
        self.since = now;
        self.depth = d;
        match (self.bucket, &mut self.open) {
            (None, _) => {
                self.points.push((now, d));
                if self.points.len() > MAX_DEPTH_POINTS {
                    self.shrink(self.first_bucket);
                }
            }
            (Some(_), Some(o)) if now.0 < o.end => {
                o.max = o.max.max(d);
                o.last = (now, d);
                o.changes = o.changes.saturating_add(1);
            }
            (Some(w), _) => self.next_bucket(now, d, w),
        }
    }

    /// Writes the finished bucket and opens the one holding `now`.
    #[cold]
    fn next_bucket(&mut self, now: SimTime, d: u64, w: u64) {
        if let Some(o) = self.open.take() {
            o.flush(&mut self.points);
        }
        let w = if self.points.len() > MAX_DEPTH_POINTS {
            self.shrink(w.saturating_mul(2))
        } else {
            w
        };
        self.open = Some(Open::start(now, d, w));
    }

    /// Coarsens `points` from width `w` on, doubling it until at most half of
    /// [`MAX_DEPTH_POINTS`] remain; returns the width used.
    #[cold]
    fn shrink(&mut self, mut w: u64) -> u64 {
        loop {
            coarsen(&mut self.points, w);
            if self.points.len() <= MAX_DEPTH_POINTS / 2 || w >= u64::MAX / 2 {
                break;
            }
            w = w.saturating_mul(2);
        }
        self.bucket = Some(w);
        w
    }
}

/// Replaces each run of points in the same bucket of width `w` by its first time with the
/// run's maximum and, when different, its last point.
fn coarsen(points: &mut Vec<(SimTime, u64)>, w: u64) {
    let mut out: Vec<(SimTime, u64)> = Vec::with_capacity(points.len() / 2 + 2);
    let mut i = 0;
    while i < points.len() {
        let b = points[i].0 .0 / w;
        let mut j = i;
        let mut max = 0;
        while j < points.len() && points[j].0 .0 / w == b {
            max = max.max(points[j].1);
            j += 1;
        }
        let (first, last) = (points[i], points[j - 1]);
        out.push((first.0, max));
        if j - i > 1 && last.1 != max {
            out.push(last);
        }
        i = j;
    }
    *points = out;
}
