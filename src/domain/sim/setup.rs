//! What a run is made of before it starts: the typed [`config::SimConfig`] and its checks,
//! the typed [`error::ConfigError`], every allowed range ([`limits`]), the named scenarios of the source documents, "Your
//! settings" ([`knobs`]) and the JSON config file format ([`config_file`]).

pub mod config;
pub mod config_file;
pub mod error;
pub mod knobs;
pub mod limits;
pub mod options;
pub mod scenario;
