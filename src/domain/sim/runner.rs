//! Running a named scenario in slices with progress, and the messages exchanged with the
//! browser's simulation worker (strings over `postMessage`: JSON requests; answers as JSON or,
//! as the worker posts them, in the compact form of [`wire`]). Pure: the worker only forwards
//! these strings.
//!
//! Protocol: the page sends a [`RunRequest`]; the worker answers with zero or more
//! [`RunMessage::Progress`], then one [`RunMessage::Done`] or [`RunMessage::Failed`].
//! Cancelling is terminating the worker. A capacity request (`runner/capacity.rs`,
//! [`CapacityRequest`]) is answered the same way: [`RunMessage::SizeProgress`], then
//! [`RunMessage::Sized`] or [`RunMessage::SizeFailed`].
//!
//! The event log stays in the worker: [`RunView`] carries its length, its first
//! [`LOG_HEAD`] entries and the names they refer to. The worker ([`WorkerState`]) keeps the
//! last finished run's log; the page asks for the lines it shows with a [`LogRequest`] and
//! gets a [`RunMessage::LogSlice`] (or a [`RunMessage::LogError`]), in request order.
//!
//! The one run path is [`execute`] of a [`RunSpec`] (`runner/path.rs`); the page's view of a
//! finished run is [`RunView`] (`runner/view.rs`); the worker's messages and state are in
//! `runner/protocol.rs`, and the compact form the worker posts them in is [`wire`]; Compare's choices of a second run are [`alternatives`].

mod alternatives;
mod capacity;
mod path;
mod protocol;
mod view;
pub mod wire;

pub use crate::domain::sim::setup::limits::{LOG_MAX_JOBS, MAX_LOAD_JOBS};
pub use alternatives::{alternatives, Alternative};
pub use capacity::{
    backlog_of, size_request, CapacityEnvelope, CapacityError, CapacityRequest, CapacityView,
    PAGE_COUNTS, PAGE_JOBS, PAGE_SEEDS,
};
pub use path::{
    execute, load_fingerprint, load_preset_config, Finished, Preset, Purpose, RunSpec, CONFIG_RUN,
    LOAD_SCENARIO,
};
pub use protocol::{
    handle, run, run_with_log, CompareRequest, LogRequest, RunMessage, RunRequest, WorkerState,
    MAX_SLICE, WORKER_READY,
};
pub use view::{view_of, JobView, RunView, LEASE_FACTS, LOG_HEAD, MAX_VIEW_ROWS};

use crate::domain::sim::results::report::Report;

/// A 64-bit FNV-1a digest of the report's JSON, as 16 hex digits: the run's fingerprint.
/// The same scenario, variant and seed give the same hash natively (`simulate`) and in the
/// browser.
pub fn trace_hash(report: &Report) -> String {
    // Hashed as it is written: a long run's JSON is never held whole.
    let mut h = Fnv1a(FNV_OFFSET);
    let _ = serde_json::to_writer(&mut h, report);
    format!("{:016x}", h.0)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A running 64-bit FNV-1a over the bytes written to it.
struct Fnv1a(u64);

impl Fnv1a {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl std::io::Write for Fnv1a {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.add(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// 64-bit FNV-1a of `bytes` as 16 hex digits.
pub(crate) fn fnv1a(bytes: &[u8]) -> String {
    let mut h = Fnv1a(FNV_OFFSET);
    h.add(bytes);
    format!("{:016x}", h.0)
}
