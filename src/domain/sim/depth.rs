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
//! exact at the end of every bucket. Memory stays below [`MAX_DEPTH_POINTS`] + 1 points for
//! any number of jobs (10⁶ included), with amortised O(1) work per step.

use super::time::{SimDuration, SimTime};

/// Most points the series holds before it is coarsened.
pub const MAX_DEPTH_POINTS: usize = 4_096;

/// The series being recorded (see the module docs for what a point means).
#[derive(Debug, Clone)]
pub struct DepthSeries {
    points: Vec<(SimTime, u64)>,
    /// Current bucket width; `None` while the series is exact.
    bucket: Option<SimDuration>,
    first_bucket: SimDuration,
}

impl DepthSeries {
    /// An empty queue at time 0; `bucket` is the first width used when coarsening.
    pub fn new(bucket: SimDuration) -> DepthSeries {
        DepthSeries {
            points: vec![(SimTime::ZERO, 0)],
            bucket: None,
            first_bucket: bucket,
        }
    }

    /// The points, in time order.
    pub fn points(&self) -> &[(SimTime, u64)] {
        &self.points
    }

    /// The bucket width of a coarsened series (`None`: exact, every change kept).
    pub fn bucket(&self) -> Option<SimDuration> {
        self.bucket
    }

    /// Records the depth `d` seen at `now` (after a step); nothing when it did not change.
    pub fn record(&mut self, now: SimTime, d: u64) {
        if self.points.last().is_some_and(|&(_, last)| last == d) {
            return;
        }
        self.points.push((now, d));
        if self.points.len() > MAX_DEPTH_POINTS {
            let mut w = self.bucket.unwrap_or(self.first_bucket).0.max(1);
            loop {
                coarsen(&mut self.points, w);
                if self.points.len() <= MAX_DEPTH_POINTS / 2 || w >= u64::MAX / 2 {
                    break;
                }
                w = w.saturating_mul(2);
            }
            self.bucket = Some(SimDuration(w));
        }
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
