//! What a run produced, in the shapes people read: the report (table, metrics, key facts),
//! the event log, per-step frames, the queue-depth series, the four charts' data, the worker
//! timeline, what the worker draws for the page and the comparison of two runs (key numbers, and the event logs aligned by time, drawn as HTML
//! by the worker).

pub mod chart_tables;
pub mod charts;
pub mod compare;
pub mod compare_html;
pub mod depth;
pub mod drawn;
pub mod frames;
pub mod log;
pub mod log_align;
pub mod report;
pub mod run_html;
pub mod timeline;
