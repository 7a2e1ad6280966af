//! The pure domain: decision flowchart, texts, diagrams, the sheet, the simulator, and the
//! app's state machine ([`app_state`]). Knows nothing of the browser.

pub mod app_state;
pub mod audit;
pub mod bidi;
pub mod capacity;
pub mod catalog;
pub mod catalog_rows;
pub mod diagram;
pub mod duration;
pub mod error;
pub mod export;
pub mod flowchart;
pub mod json;
pub mod lang;
pub mod number;
pub mod place;
pub mod plot;
pub mod queues;
pub mod rules;
pub mod session;
pub mod share;
pub mod sheet;
pub mod sim;

pub use error::{ParseError, TimingError};
pub use flowchart::{
    evaluate, Answers, Evaluation, Outcome, QuestionId, Status, Step, Timing, TimingField,
};
pub use lang::Lang;
