//! Existing configurations read back (issue 27 item 2): `modality-advisor audit FILE…` and the
//! app's "Check an existing configuration". Readers per file kind turn a file into
//! [`found::Found`] jobs; each becomes a sheet (what the file does not say marked "not
//! stated"), the schedule the system really runs (the targets' own formulas,
//! [`crate::domain::queues`]) and the findings, each pointing at the file's line.

pub mod code;
pub mod found;
