//! Two runs' event logs side by side, aligned by time, and the first line where they part
//! (Compare's "event logs" table).
//!
//! Rows are built by merging both logs in time order. Entries of the two runs at the same
//! instant are paired in the order each log wrote them (the first of A's lines at `30.000s`
//! with the first of B's, the second with the second, …); an instant one run has more lines
//! at gets rows with only that run's line. A row *differs* when its two lines are not the
//! same English text ([`Line`](crate::domain::sim::results::log::Line)'s `Display`, the text the CLI and the trace hash use) or one
//! side is empty. On the same seed two runs agree up to the moment their configurations make
//! them act differently, so the first differing row is where the lesson is (e.g. in duplicate
//! execution with and without an idempotency key: `idempotency key … already recorded →
//! ROLLBACK` against `side effect applied: balance 100 → 200`).

use crate::domain::sim::results::log::{LogEntry, LogNames};

/// One row of the aligned logs: indices into A's and B's entries (`None`: that run wrote
/// nothing more at this instant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlignedRow {
    /// Index of A's entry.
    pub a: Option<usize>,
    /// Index of B's entry.
    pub b: Option<usize>,
    /// Whether the two lines differ (or one is missing).
    pub differs: bool,
}

/// Both logs merged by time (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AlignedLogs {
    /// The rows, in time order.
    pub rows: Vec<AlignedRow>,
    /// Index into `rows` of the first differing row (`None`: the logs are the same).
    pub first_difference: Option<usize>,
}

/// Aligns `a` (written with names `an`) and `b` (names `bn`) by time. Both must be in the
/// order the engine wrote them (time never goes back within a log). `O(len a + len b)`.
pub fn align_logs(a: &[LogEntry], an: &LogNames, b: &[LogEntry], bn: &LogNames) -> AlignedLogs {
    let text = |e: &LogEntry, n: &LogNames| n.line(e).to_string();
    let mut rows = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (ea, eb) = (a.get(i), b.get(j));
        let row = match (ea, eb) {
            (Some(x), Some(y)) if x.time == y.time => {
                let differs = text(x, an) != text(y, bn);
                let row = AlignedRow {
                    a: Some(i),
                    b: Some(j),
                    differs,
                };
                i += 1;
                j += 1;
                row
            }
            (Some(x), Some(y)) if x.time < y.time => {
                i += 1;
                AlignedRow {
                    a: Some(i - 1),
                    b: None,
                    differs: true,
                }
            }
            (Some(_), None) => {
                i += 1;
                AlignedRow {
                    a: Some(i - 1),
                    b: None,
                    differs: true,
                }
            }
            _ => {
                j += 1;
                AlignedRow {
                    a: None,
                    b: Some(j - 1),
                    differs: true,
                }
            }
        };
        rows.push(row);
    }
    let first_difference = rows.iter().position(|r| r.differs);
    AlignedLogs {
        rows,
        first_difference,
    }
}

/// [`align_logs`] of two logs of which only the first entries are at hand (`a` of `a_total`
/// lines, `b` of `b_total`): where one log was cut, the entries from the cut log's last instant on
/// are left out (of both), so a line is never called missing only because its partner
/// was not sent. Returns the alignment and whether anything was left out.
pub fn align_heads(
    (a, an, a_total): (&[LogEntry], &LogNames, u64),
    (b, bn, b_total): (&[LogEntry], &LogNames, u64),
) -> (AlignedLogs, bool) {
    let cut_at = |head: &[LogEntry], total: u64| {
        (total > head.len() as u64).then(|| head.last().map(|e| e.time))
    };
    let until = match (cut_at(a, a_total), cut_at(b, b_total)) {
        (None, None) => None,
        (Some(x), None) | (None, Some(x)) => Some(x),
        (Some(x), Some(y)) => Some(x.min(y)),
    };
    let keep = |log: &'_ [LogEntry]| -> usize {
        match until {
            None => log.len(),
            Some(None) => 0,
            // Strictly before: the cut log may have more lines at its last instant.
            Some(Some(t)) => log.partition_point(|e| e.time < t),
        }
    };
    let (ka, kb) = (keep(a), keep(b));
    let cut = until.is_some();
    (align_logs(&a[..ka], an, &b[..kb], bn), cut)
}
