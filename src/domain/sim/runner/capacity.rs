//! The capacity answer through the simulation worker: the page sends a [`CapacityRequest`]
//! (the sheet — or, from native callers, its [`CapacityInput`] —, a seed and the runs per
//! worker count) wrapped as
//! `{"capacity": {…}}`; the worker answers with
//! [`RunMessage::SizeProgress`](super::RunMessage::SizeProgress) (runs done of
//! the total) and then [`RunMessage::Sized`](super::RunMessage::Sized) — the answer drawn as HTML in both languages
//! ([`capacity::drawn`](crate::domain::capacity::drawn)) and the few numbers the page needs
//! ([`CapacityView`]) — or [`RunMessage::SizeFailed`](super::RunMessage::SizeFailed) with a typed [`CapacityError`] the page
//! words in its language. Cancelling is terminating the worker, as for any run.

use crate::domain::capacity::backlog::{burst_backlog, growing_backlog, Backlog};
use crate::domain::capacity::drawn::{answer_html, grows_without_end, reason_id};
use crate::domain::capacity::sweep::{size, SweepError, SweepOptions};
use crate::domain::capacity::{not_sized_text, CapacityInput, SizeAnswer};
use crate::domain::lang::Lang;
use crate::domain::sheet::load::Missing;
use crate::domain::sheet::JobSheet;
use crate::domain::sim::results::drawn::Both;
use serde::{Deserialize, Serialize};

/// Worker counts the page's sweep simulates.
pub const PAGE_COUNTS: u32 = 8;

/// Jobs per steady run of the page's sweep.
pub const PAGE_JOBS: u64 = 5_000;

/// Runs per worker count the page asks for unless told otherwise.
pub const PAGE_SEEDS: u32 = 10;

/// What to size: the sheet (what the page sends), or the numbers themselves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapacityRequest {
    /// Echoed in every answer, so a late answer to an older request can be told apart.
    pub id: u64,
    /// The sheet, sized from its load and retry sections ([`CapacityInput::from_sheet`]; the
    /// numbers it misses are refused as [`CapacityError::Missing`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<Box<JobSheet>>,
    /// Or the numbers themselves (native callers, tests); each out of range is refused by
    /// name. Read, never written: writing it would put a float writer (~5 KB brotli) into the
    /// page, which sends the sheet.
    #[serde(default, skip_serializing)]
    pub input: Option<CapacityInput>,
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
        serde_json::to_string(&CapacityEnvelope {
            capacity: self.clone(),
        })
        .unwrap_or_default()
    }
}

/// Why a capacity request was not answered; worded by [`CapacityError::message`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapacityError {
    /// A number or option out of range, or a sweep over the time budget: the field and what
    /// is allowed.
    Sweep(SweepError),
    /// The numbers the answer still needs ("not sized yet").
    Missing(Vec<Missing>),
    /// The request could not be read (the reader's message).
    Request(String),
}

impl CapacityError {
    /// The message in `lang`, naming the field.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            CapacityError::Sweep(e) => e.message(lang),
            CapacityError::Missing(m) => not_sized_text(m, lang),
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

/// Answers `req`: the numbers (from the sheet, or as given), the sweep (`progress(done, total)` runs), the backlog run, the drawing.
///
/// # Errors
/// [`CapacityError::Missing`] when the sheet misses numbers; [`CapacityError::Sweep`] naming
/// the field out of range or the option over the budget; [`CapacityError::Request`] with
/// neither a sheet nor numbers.
pub fn size_request(
    req: &CapacityRequest,
    progress: impl FnMut(u64, u64),
) -> Result<CapacityView, CapacityError> {
    let input = match (&req.sheet, req.input) {
        (Some(sheet), _) => CapacityInput::from_sheet(sheet).map_err(CapacityError::Missing)?,
        (None, Some(input)) => input,
        (None, None) => return Err(CapacityError::Request("give `sheet` or `input`".to_owned())),
    };
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
