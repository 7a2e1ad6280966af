//! The Decide screen: the questions ([`wizard`]), the decision ([`result`]) and the lit
//! decision flowchart ([`flowchart`]).

pub mod flowchart;
pub mod result;
pub mod wizard;
