//! The simulator's building blocks, used by every other part: integer time, the future event
//! list, the seeded random generator, backoff policies, the per-job statistics columns and a
//! downstream's answer to a call.

pub mod backoff;
pub mod call;
pub mod event_queue;
pub mod rng;
pub(crate) mod stats;
pub mod time;
