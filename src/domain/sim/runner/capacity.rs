//! The capacity answer through the simulation worker: the page sends a [`CapacityRequest`]
//! (the sheet's [`CapacityInput`], a seed and the runs per worker count) wrapped as
//! `{"capacity": {…}}`; the worker answers with
//! [`RunMessage::SizeProgress`](super::RunMessage::SizeProgress) (runs done of
//! the total) and then [`RunMessage::Sized`](super::RunMessage::Sized) — the answer drawn as HTML in both languages
//! ([`capacity::drawn`](crate::domain::capacity::drawn)) and the few numbers the page needs
//! ([`CapacityView`]) — or [`RunMessage::SizeFailed`](super::RunMessage::SizeFailed) with a typed [`CapacityError`] the page
//! words in its language. Cancelling is terminating the worker, as for any run.

use crate::domain::capacity::backlog::{burst_backlog, growing_backlog, Backlog};
use crate::domain::capacity::drawn::{answer_html, grows_without_end, reason_id};
use crate::domain::capacity::sweep::{size, SweepError, SweepOptions};
use crate::domain::capacity::{CapacityInput, SizeAnswer};
use crate::domain::lang::Lang;
use crate::domain::sim::results::drawn::Both;
use serde::{Deserialize, Serialize};

/// Worker counts the page's sweep simulates.
pub const PAGE_COUNTS: u32 = 8;

/// Jobs per steady run of the page's sweep.
pub const PAGE_JOBS: u64 = 5_000;

/// Runs per worker count the page asks for unless told otherwise.
pub const PAGE_SEEDS: u32 = 10;

/// What to size: the sheet's numbers ([`CapacityInput::from_sheet`], computed by the page,
/// which says "not sized yet" itself while numbers are missing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapacityRequest {
    /// Echoed in every answer, so a late answer to an older request can be told apart.
    pub id: u64,
    /// The numbers; each out of range is refused by name.
    pub input: CapacityInput,
    /// The first seed (run `i` of each count uses `seed + i`).
    pub seed: u64,
    /// Runs per worker count (1 ..= 50, within the sweep's budget).
    pub seeds: u32,
    /// Jobs per steady run ([`PAGE_JOBS`] when absent; 100 ..= 100 000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jobs: Option<u64>,
}

/// A [`CapacityRequest`] as it is posted: `{"capacity": {…}}`, told apart from run and log
/// requests by its one key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapacityEnvelope {
    /// The request.
    pub capacity: CapacityRequest,
}

impl CapacityRequest {
    /// The request as the worker reads it (JSON).
    pub fn to_json(&self) -> String {
        // Numbers, strings and enums only: cannot fail.
        crate::domain::json::compact(&CapacityEnvelope {
            capacity: self.clone(),
        })
    }
}

/// Why a capacity request was not answered; worded by [`CapacityError::message`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapacityError {
    /// A number or option out of range, or a sweep over the time budget: the field and what
    /// is allowed.
    Sweep(SweepError),
    /// The request could not be read (the reader's message).
    Request(String),
}

impl CapacityError {
    /// The message in `lang`, naming the field.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            CapacityError::Sweep(e) => e.message(lang),
            CapacityError::Request(e) => match lang {
                Lang::En => format!("request: not a capacity request ({e})"),
                Lang::Ja => format!("request：容量算定の依頼として読めません（{e}）"),
            },
        }
    }
}

/// What the page shows of a capacity answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapacityView {
    /// The whole answer as HTML, `[English, Japanese]`.
    pub html: Both,
    /// The recommended jobs at once (`None`: no count meets the targets).
    pub workers: Option<u32>,
    /// The reason's id (`meets`, `limited-elsewhere`, …).
    pub reason: String,
    /// ρ ≥ 1 at every count simulated: the queue grows without end.
    pub grows: bool,
    /// The lease recommended, ms.
    pub lease_ms: u64,
}

/// The backlog the answer charts: the queue growing when ρ ≥ 1 at every count (at the
/// largest), else the burst at the recommended count (or the largest simulated); `None`
/// without a burst when the queue keeps up.
pub fn backlog_of(a: &SizeAnswer) -> Option<Backlog> {
    let largest = a.points.last().map_or(1, |p| p.workers);
    if grows_without_end(a) {
        return growing_backlog(&a.input, largest, a.seed);
    }
    a.input.burst?;
    burst_backlog(
        &a.input,
        a.recommendation.workers.unwrap_or(largest),
        a.seed,
    )
}

/// Answers `req`: the sweep (`progress(done, total)` runs), the backlog run, the drawing.
///
/// # Errors
/// [`CapacityError::Sweep`] naming the field out of range or the option over the budget.
pub fn size_request(
    req: &CapacityRequest,
    progress: impl FnMut(u64, u64),
) -> Result<CapacityView, CapacityError> {
    let input = req.input;
    let opts = SweepOptions {
        seeds: req.seeds,
        seed: req.seed,
        jobs: req.jobs.unwrap_or(PAGE_JOBS),
        counts: PAGE_COUNTS,
    };
    let answer = size(&input, opts, progress).map_err(CapacityError::Sweep)?;
    let backlog = backlog_of(&answer);
    Ok(CapacityView {
        html: answer_html(&answer, backlog.as_ref()),
        workers: answer.recommendation.workers,
        reason: reason_id(answer.recommendation.reason).to_owned(),
        grows: grows_without_end(&answer),
        lease_ms: answer.lease.recommended_ms,
    })
}
