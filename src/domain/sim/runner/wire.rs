//! The worker's answers as the page receives them: each [`RunMessage`] in a compact binary
//! form (`bincode`, fields by position, integers as varints), carried in a JS string one char
//! per byte (U+0000 ..= U+00FF), because the worker's channel carries strings.
//!
//! Why not the JSON the protocol documents ([`WorkerState::handle`](super::WorkerState::handle)):
//! reading a [`RunView`] from JSON took ≈ 50 KB of the page's uncompressed code (a field-name
//! reader and a map reader per struct); reading it by position takes a fraction of that. The
//! message is the same value either way (`tests/it/sim_wire.rs`); requests to the worker stay
//! JSON.
//!
//! The refused run's findings ([`ConfigError`]) are read from their JSON form (their reader
//! takes any JSON value, which a positional form cannot give it): the failure message carries
//! them as JSON text inside the binary message.

use super::protocol::{RunMessage, WorkerState};
use super::view::RunView;
use super::{CapacityError, CapacityView};
use crate::domain::sim::results::log::LogEntry;
use crate::domain::sim::setup::error::ConfigError;
use bincode::Options;
use serde::{Deserialize, Serialize};

/// [`RunMessage`] as it crosses: the same variants, the findings as JSON text.
#[derive(Serialize, Deserialize)]
enum Wire {
    Progress {
        id: u64,
        events: u64,
    },
    Done {
        id: u64,
        view: Box<RunView>,
    },
    Failed {
        id: u64,
        /// `Vec<ConfigError>` as JSON.
        errors: String,
    },
    LogSlice {
        id: u64,
        from: u64,
        total: u64,
        entries: Vec<LogEntry>,
    },
    LogError {
        id: u64,
        error: String,
    },
    SizeProgress {
        id: u64,
        done: u64,
        total: u64,
    },
    Sized {
        id: u64,
        view: Box<CapacityView>,
    },
    SizeFailed {
        id: u64,
        error: CapacityError,
    },
}

/// The binary form's settings: varint integers, little-endian, nothing after the message.
fn options() -> impl Options {
    bincode::DefaultOptions::new().reject_trailing_bytes()
}

/// `message` in its compact form, a string of chars U+0000 ..= U+00FF (one per byte).
pub fn encode(message: RunMessage) -> String {
    let wire = match message {
        RunMessage::Progress { id, events } => Wire::Progress { id, events },
        RunMessage::Done { id, view } => Wire::Done { id, view },
        RunMessage::Failed { id, errors } => Wire::Failed {
            id,
            // Strings, numbers and enums only: serialising cannot fail.
            errors: crate::domain::json::compact(&errors),
        },
        RunMessage::LogSlice {
            id,
            from,
            total,
            entries,
        } => Wire::LogSlice {
            id,
            from,
            total,
            entries,
        },
        RunMessage::LogError { id, error } => Wire::LogError { id, error },
        RunMessage::SizeProgress { id, done, total } => Wire::SizeProgress { id, done, total },
        RunMessage::Sized { id, view } => Wire::Sized { id, view },
        RunMessage::SizeFailed { id, error } => Wire::SizeFailed { id, error },
    };
    // Plain data (no maps with non-string keys, no untagged enums): cannot fail.
    let bytes = options().serialize(&wire).unwrap_or_default();
    bytes.into_iter().map(char::from).collect()
}

/// Reads what [`encode`] wrote.
///
/// # Errors
/// A message when `text` is not an encoded [`RunMessage`] (a char above U+00FF, a cut or
/// unknown message, findings that are not [`ConfigError`]s).
pub fn decode(text: &str) -> Result<RunMessage, String> {
    // Fixed words rather than the reader's own: the page drops them, and the reader's
    // messages would bring their formatting code into the page's wasm.
    let bytes = text
        .chars()
        .map(u8::try_from)
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| "not a worker message: a char above U+00FF".to_owned())?;
    let wire: Wire = options()
        .deserialize(&bytes)
        .map_err(|_| "not a worker message: cut, unknown or followed by more".to_owned())?;
    Ok(match wire {
        Wire::Progress { id, events } => RunMessage::Progress { id, events },
        Wire::Done { id, view } => RunMessage::Done { id, view },
        Wire::Failed { id, errors } => RunMessage::Failed {
            id,
            errors: serde_json::from_str::<Vec<ConfigError>>(&errors).map_err(|_| {
                "not a worker message: findings that are not config errors".to_owned()
            })?,
        },
        Wire::LogSlice {
            id,
            from,
            total,
            entries,
        } => RunMessage::LogSlice {
            id,
            from,
            total,
            entries,
        },
        Wire::LogError { id, error } => RunMessage::LogError { id, error },
        Wire::SizeProgress { id, done, total } => RunMessage::SizeProgress { id, done, total },
        Wire::Sized { id, view } => RunMessage::Sized { id, view },
        Wire::SizeFailed { id, error } => RunMessage::SizeFailed { id, error },
    })
}

impl WorkerState {
    /// [`WorkerState::handle`] with every message (progress and the final one) in the
    /// compact form the page reads ([`decode`]): what the worker posts.
    pub fn handle_wire(&mut self, json: &str, every: u64, mut post: impl FnMut(String)) -> String {
        encode(self.answer(json, every, |m| post(encode(m))))
    }
}
