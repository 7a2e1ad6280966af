//! Integration tests: one binary, one file per feature.

mod cli;
mod diagram;
mod flowchart;
mod plot;
mod sheet_check;
mod sheet_cli;
mod sheet_edit;
mod sheet_example;
mod sheet_export;
mod sheet_hostile;
mod sheet_import;
mod sheet_relocalize;
mod sheet_retry_window;
mod sheet_roundtrip;
mod sheet_support;
mod sim_burst;
mod sim_cli;
mod sim_engine;
mod sim_erlang;
mod sim_jitter;
mod sim_jobs;
mod sim_knobs;
mod sim_props;
mod sim_run;
mod sim_seed_runs;
mod texts;
