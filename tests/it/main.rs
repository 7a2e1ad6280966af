//! Integration tests: one binary, one file per feature.

mod cli;
mod diagram;
mod flowchart;
mod sheet_edit;
mod texts;
