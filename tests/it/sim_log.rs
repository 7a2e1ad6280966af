//! The typed event log: English rendering is byte for byte the text of the seed's runs
//! (pinned by `trace_digest`), Japanese rendering of every kind of line, and the worker's
//! log-slice protocol (bounds, errors as values).

use modality_advisor::domain::sim::trace_digest;

#[test]
fn english_lines_are_unchanged_so_the_trace_digest_is_too() {
    // bench/RESULTS.md: `trace_digest(1)` before the log became typed. It hashes the JSON
    // report (with every English log line) of each scenario and variant and of a 2 000-job
    // M/M/c run with the log on.
    assert_eq!(format!("{:016x}", trace_digest(1)), "bf3d63179feca729");
}
