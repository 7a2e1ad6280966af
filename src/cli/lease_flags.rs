//! `simulate --config`'s flags for the lease and delivery options (issue 15): each overrides
//! the config file's key of the same name (`--owner-check` → `owner_check`, …), as `--seed`
//! overrides `seed`. Numbers are checked here against the file's ranges (the error names the
//! flag); `--heartbeat-ms`'s bound by the lease is checked with the config
//! (`heartbeat_ms: … allowed: 1 to <lease − 1>`).

use crate::domain::sim::setup::config::{Ack, CrashPoint, ExpiryRule, MAX_MS};
use crate::domain::sim::setup::config_file::{DuplicatesFile, SimConfigFile};
use clap::{Args, ValueEnum};

/// The flags; none given leaves the file as it is.
#[derive(Debug, Args, Default)]
pub struct LeaseFlags {
    /// What a lease that expires on the last attempt does (config key
    /// expired_on_last_attempt; default reclaim, as the source documents' claim).
    #[arg(long, value_enum, value_name = "RULE", conflicts_with = "scenario")]
    expired_on_last_attempt: Option<ExpiryArg>,
    /// complete()/release() apply only while the worker's claim holds the row (owner_check).
    #[arg(long, conflicts_with = "scenario")]
    owner_check: bool,
    /// A running worker extends its lease every N ms (heartbeat_ms): 1 to the lease less 1 ms.
    #[arg(long, value_name = "N", value_parser = parse_ms_from_1, conflicts_with = "scenario")]
    heartbeat_ms: Option<u64>,
    /// When the row is acknowledged (ack): after the handler (at-least-once) or before it
    /// (at-most-once).
    #[arg(long, value_enum, value_name = "WHEN", conflicts_with = "scenario")]
    ack: Option<AckArg>,
    /// Where a crash strikes (crash_point).
    #[arg(long, value_enum, value_name = "WHERE", conflicts_with = "scenario")]
    crash_point: Option<CrashPointArg>,
    /// Submit every request a second time N ms later (duplicate_submissions.after_ms): 0 to
    /// the time limit.
    #[arg(long, value_name = "N", value_parser = parse_ms, conflicts_with = "scenario")]
    duplicate_after_ms: Option<u64>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ExpiryArg {
    Reclaim,
    DeadLetter,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum AckArg {
    After,
    Before,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CrashPointArg {
    AfterEffect,
    BeforeEffect,
}

/// A duration in ms from 0 to the time limit, typed as ms or with a unit (`2s`, `1.5min`).
fn parse_ms(raw: &str) -> Result<u64, crate::cli::usage::ValueError> {
    crate::cli::ms_in_range(raw, 0, MAX_MS)
}

/// As [`parse_ms`], from 1 ms.
fn parse_ms_from_1(raw: &str) -> Result<u64, crate::cli::usage::ValueError> {
    crate::cli::ms_in_range(raw, 1, MAX_MS)
}

impl LeaseFlags {
    /// The file with the flags given written over its keys.
    pub fn apply(&self, file: &mut SimConfigFile) {
        if let Some(r) = self.expired_on_last_attempt {
            file.expired_on_last_attempt = Some(match r {
                ExpiryArg::Reclaim => ExpiryRule::Reclaim,
                ExpiryArg::DeadLetter => ExpiryRule::DeadLetter,
            });
        }
        if self.owner_check {
            file.owner_check = true;
        }
        if let Some(hb) = self.heartbeat_ms {
            file.heartbeat_ms = Some(i64::try_from(hb).unwrap_or(i64::MAX));
        }
        if let Some(a) = self.ack {
            file.ack = Some(match a {
                AckArg::After => Ack::After,
                AckArg::Before => Ack::Before,
            });
        }
        if let Some(p) = self.crash_point {
            file.crash_point = Some(match p {
                CrashPointArg::AfterEffect => CrashPoint::AfterEffect,
                CrashPointArg::BeforeEffect => CrashPoint::BeforeEffect,
            });
        }
        if let Some(ms) = self.duplicate_after_ms {
            file.duplicate_submissions = Some(DuplicatesFile {
                after_ms: i64::try_from(ms).unwrap_or(i64::MAX),
            });
        }
    }
}
