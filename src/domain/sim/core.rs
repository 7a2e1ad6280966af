//! The simulator's building blocks, used by every other part: integer time, the future event
//! list, the seeded random generator, backoff policies and the per-job statistics columns.

pub mod backoff;
pub mod event_queue;
pub mod rng;
pub(crate) mod stats;
pub mod time;
