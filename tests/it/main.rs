//! Integration tests: one binary, one file per feature.

mod sim_burst;
mod sim_cli;
mod sim_engine;
mod sim_erlang;
mod sim_jitter;
mod sim_jobs;
mod sim_props;
mod sim_seed_runs;
