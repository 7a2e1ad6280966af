//! Reference models the engine is checked against: Erlang C (M/M/c mean wait) and the AWS
//! "Exponential Backoff And Jitter" study's contention model.

pub mod contention;
pub mod erlang;
