//! The decision flowchart: five yes/no questions lead to one of five outcomes.
//!
//! Source: source document `000` (the flowchart choosing sync / async / batch), restated in
//! `docs/DOMAIN.md` §1. The flowchart is data ([`RULES`]); [`evaluate`] walks it. Answers to
//! questions that are not on the walked path are ignored and reported in
//! [`Evaluation::ignored`].

use crate::domain::error::{ParseError, TimingError};
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::text::t;
use serde::{Deserialize, Serialize};

/// One of the five questions. The string ids (`time-triggered`, …) are stable: they appear in
/// the CLI flags, JSON output, permalinks and the diagram's `data-node` attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuestionId {
    /// Is the trigger a point in time, and is it fine to process the work together in bulk?
    TimeTriggered,
    /// Does the user need the result right there, in the response?
    NeedsResultNow,
    /// Does it finish within a few seconds (or within the team's response-time target)?
    WithinSeconds,
    /// Does it include a call to an external system?
    ExternalCall,
    /// Should requests still be accepted while that external system is down?
    KeepAcceptingWhenDown,
}

impl QuestionId {
    /// All questions in flowchart order (the order of [`RULES`]).
    pub const ALL: [QuestionId; 5] = [
        QuestionId::TimeTriggered,
        QuestionId::NeedsResultNow,
        QuestionId::WithinSeconds,
        QuestionId::ExternalCall,
        QuestionId::KeepAcceptingWhenDown,
    ];

    /// The stable id, e.g. `"needs-result-now"`.
    pub fn id(self) -> &'static str {
        match self {
            QuestionId::TimeTriggered => "time-triggered",
            QuestionId::NeedsResultNow => "needs-result-now",
            QuestionId::WithinSeconds => "within-seconds",
            QuestionId::ExternalCall => "external-call",
            QuestionId::KeepAcceptingWhenDown => "keep-accepting-when-down",
        }
    }

    /// Parses a stable id.
    ///
    /// # Errors
    /// [`ParseError::Invalid`] listing the five ids.
    pub fn parse(s: &str) -> Result<QuestionId, ParseError> {
        QuestionId::ALL
            .into_iter()
            .find(|q| q.id() == s)
            .ok_or_else(|| ParseError::Invalid {
                what: "question id",
                value: s.to_owned(),
                allowed: "time-triggered, needs-result-now, within-seconds, external-call, \
                          keep-accepting-when-down",
            })
    }

    /// Position in [`QuestionId::ALL`] (0..5).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The question as asked, in `lang`.
    pub fn text(self, lang: Lang) -> String {
        t!(format!("question.{}.text", self.id()), locale = lang.code()).into_owned()
    }

    /// Two short sentences on why the question matters, in `lang`.
    pub fn why(self, lang: Lang) -> String {
        t!(format!("question.{}.why", self.id()), locale = lang.code()).into_owned()
    }

    /// The reason an answer gives, in `lang` (one sentence, without any timing comparison).
    pub fn reason(self, answer: bool, lang: Lang) -> String {
        let yn = if answer { "yes" } else { "no" };
        t!(
            format!("question.{}.reason-{yn}", self.id()),
            locale = lang.code()
        )
        .into_owned()
    }
}

/// The five recommendations. Stable ids: `batch`, `async-enqueue`, `async-ticket`, `sync`,
/// `sync-timeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// A scheduled batch job.
    Batch,
    /// Asynchronous: put a job on a queue; the user does not wait for it.
    AsyncEnqueue,
    /// Asynchronous with a ticket (Asynchronous Request-Reply, HTTP 202 + status endpoint).
    AsyncTicket,
    /// Stay synchronous.
    Sync,
    /// Synchronous, with an explicit timeout on the external call.
    SyncTimeout,
}

impl Outcome {
    /// All outcomes.
    pub const ALL: [Outcome; 5] = [
        Outcome::Batch,
        Outcome::AsyncEnqueue,
        Outcome::AsyncTicket,
        Outcome::Sync,
        Outcome::SyncTimeout,
    ];

    /// The stable id, e.g. `"async-ticket"`.
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Batch => "batch",
            Outcome::AsyncEnqueue => "async-enqueue",
            Outcome::AsyncTicket => "async-ticket",
            Outcome::Sync => "sync",
            Outcome::SyncTimeout => "sync-timeout",
        }
    }

    /// The outcome's name in `lang`, e.g. "Asynchronous: enqueue a job".
    pub fn title(self, lang: Lang) -> String {
        t!(format!("outcome.{}.title", self.id()), locale = lang.code()).into_owned()
    }

    /// One line saying what the outcome means in practice, in `lang`.
    pub fn summary(self, lang: Lang) -> String {
        t!(
            format!("outcome.{}.summary", self.id()),
            locale = lang.code()
        )
        .into_owned()
    }

    /// What choosing this outcome costs (docs/DOMAIN.md §1: state management, retries and
    /// idempotency for async; the schedule's latency for batch; coupling to the slowest
    /// dependency for sync), in `lang`.
    pub fn tradeoffs(self, lang: Lang) -> Vec<String> {
        numbered(&format!("outcome.{}.tradeoff", self.id()), lang)
    }

    /// What to do next once this outcome is chosen, in `lang`.
    pub fn next_steps(self, lang: Lang) -> Vec<String> {
        numbered(&format!("outcome.{}.next", self.id()), lang)
    }
}

/// Looks up `prefix.1`, `prefix.2`, … until a key is missing (rust-i18n returns the key
/// itself for a missing translation).
fn numbered(prefix: &str, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for i in 1..=9 {
        let key = format!("{prefix}.{i}");
        let text = t!(&key, locale = lang.code());
        if text.ends_with(&key) {
            break;
        }
        out.push(text.into_owned());
    }
    out
}

/// Where an answer leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Ask this question next.
    Ask(QuestionId),
    /// The walk ends with this outcome.
    Decide(Outcome),
}

/// One row of the flowchart: a question and where each answer leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The question asked.
    pub question: QuestionId,
    /// Where "yes" leads.
    pub yes: Next,
    /// Where "no" leads.
    pub no: Next,
}

/// The question every walk starts with.
pub const START: QuestionId = QuestionId::TimeTriggered;

/// The id of the diagram's start node ("one process"), before [`START`]: the first of
/// [`Evaluation::node_ids`] and of the diagram's `data-node` ids (`domain::diagram`).
pub const START_NODE: &str = "start";

/// The flowchart as data (docs/DOMAIN.md §1), one rule per question in [`QuestionId::ALL`] order.
pub const RULES: [Rule; 5] = [
    Rule {
        question: QuestionId::TimeTriggered,
        yes: Next::Decide(Outcome::Batch),
        no: Next::Ask(QuestionId::NeedsResultNow),
    },
    Rule {
        question: QuestionId::NeedsResultNow,
        yes: Next::Ask(QuestionId::WithinSeconds),
        no: Next::Decide(Outcome::AsyncEnqueue),
    },
    Rule {
        question: QuestionId::WithinSeconds,
        yes: Next::Ask(QuestionId::ExternalCall),
        no: Next::Decide(Outcome::AsyncTicket),
    },
    Rule {
        question: QuestionId::ExternalCall,
        yes: Next::Ask(QuestionId::KeepAcceptingWhenDown),
        no: Next::Decide(Outcome::Sync),
    },
    Rule {
        question: QuestionId::KeepAcceptingWhenDown,
        yes: Next::Decide(Outcome::AsyncTicket),
        no: Next::Decide(Outcome::SyncTimeout),
    },
];

/// The rule for `q`.
pub fn rule(q: QuestionId) -> Rule {
    RULES[q.index()]
}

/// The team's response-time target and the process's expected duration, from which the
/// answer to `within-seconds` is derived: **yes when `p95_ms <= target_ms`** (finishing exactly
/// at the target meets it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Timing {
    /// The response-time target, in milliseconds (1 ..= [`Timing::MAX_MS`]).
    pub target_ms: u64,
    /// The expected duration at the 95th percentile, in milliseconds (0 ..= [`Timing::MAX_MS`]).
    pub p95_ms: u64,
}

/// Read from an object only (`{"target_ms": …, "p95_ms": …}`). Serde's derive would also take
/// a list `[target, p95]`, which no file of ours writes: a damaged file whose `timing` became
/// a list would read as a timing and be refused for an answer it contradicts, naming the
/// answer instead of the field that broke.
impl<'de> Deserialize<'de> for Timing {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Fields {
            target_ms: u64,
            p95_ms: u64,
        }
        struct ObjectOnly;
        impl<'de> serde::de::Visitor<'de> for ObjectOnly {
            type Value = Timing;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object with target_ms and p95_ms")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Timing, A::Error> {
                let f = Fields::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(Timing {
                    target_ms: f.target_ms,
                    p95_ms: f.p95_ms,
                })
            }
        }
        d.deserialize_map(ObjectOnly)
    }
}

impl Timing {
    /// The largest accepted value for either field: 7 days in milliseconds.
    pub const MAX_MS: u64 = 7 * 24 * 60 * 60 * 1000;

    /// Checks both values.
    ///
    /// # Errors
    /// [`TimingError::OutOfRange`] naming `target_ms` (allowed 1 ..= 604 800 000) or `p95_ms`
    /// (allowed 0 ..= 604 800 000).
    pub fn new(target_ms: u64, p95_ms: u64) -> Result<Timing, TimingError> {
        if !(TimingField::Target.min()..=Self::MAX_MS).contains(&target_ms) {
            return Err(TimingError::OutOfRange {
                field: "target_ms",
                value: target_ms,
                min: TimingField::Target.min(),
                max: Self::MAX_MS,
            });
        }
        if p95_ms > Self::MAX_MS {
            return Err(TimingError::OutOfRange {
                field: "p95_ms",
                value: p95_ms,
                min: 0,
                max: Self::MAX_MS,
            });
        }
        Ok(Timing { target_ms, p95_ms })
    }

    /// Reads a duration typed into one of the two fields ([`duration::parse`]: a bare number
    /// is milliseconds, or a number with a unit — `2 s`, `1.5 min`, `２秒`; ASCII or
    /// full-width digits, optionally grouped by threes) and checks its range. `None`: not a
    /// duration (the parser's error says why), or outside `field.min() ..= Timing::MAX_MS`
    /// milliseconds.
    ///
    /// [`duration::parse`]: crate::domain::duration::parse
    pub fn parse_field(field: TimingField, raw: &str) -> Option<u64> {
        crate::domain::duration::parse(raw, 1)
            .ok()
            .filter(|v| (field.min()..=Self::MAX_MS).contains(v))
    }

    /// The derived answer to `within-seconds`.
    pub fn within(self) -> bool {
        self.p95_ms <= self.target_ms
    }

    /// The comparison as shown to people, e.g. `"p95 8,000 ms > target 2,000 ms → no"`
    /// (`≤` when within; the yes/no word in `lang`).
    pub fn comparison(self, lang: Lang) -> String {
        let (op, yn) = if self.within() {
            ("≤", "yes")
        } else {
            (">", "no")
        };
        let word = t!(format!("answer.{yn}"), locale = lang.code());
        format!(
            "p95 {} ms {op} {} {} ms → {word}",
            group_thousands(self.p95_ms),
            t!("timing.target", locale = lang.code()),
            group_thousands(self.target_ms)
        )
    }
}

/// One of the two numbers of a [`Timing`], as the questions ask for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimingField {
    /// The response-time target ([`Timing::target_ms`]).
    Target,
    /// The expected duration at the 95th percentile ([`Timing::p95_ms`]).
    P95,
}

impl TimingField {
    /// The smallest accepted value in milliseconds: 1 for the target, 0 for the p95.
    pub fn min(self) -> u64 {
        match self {
            TimingField::Target => 1,
            TimingField::P95 => 0,
        }
    }
}

/// An answer to one question: given directly, or (for `within-seconds` only) derived from a
/// [`Timing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// Answered yes or no.
    Given(bool),
    /// Derived from the response-time target and p95 duration.
    Derived(Timing),
}

impl Answer {
    /// The yes/no value.
    pub fn value(self) -> bool {
        match self {
            Answer::Given(v) => v,
            Answer::Derived(t) => t.within(),
        }
    }
}

/// A (possibly partial) set of answers, at most one per question.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Answers {
    slots: [Option<Answer>; 5],
}

impl Answers {
    /// No answers.
    pub fn new() -> Answers {
        Answers::default()
    }

    /// Answers `q` with yes (`true`) or no, replacing any earlier answer to `q`.
    pub fn set(&mut self, q: QuestionId, yes: bool) -> &mut Answers {
        self.slots[q.index()] = Some(Answer::Given(yes));
        self
    }

    /// Answers `within-seconds` from a target and a p95 duration.
    pub fn set_timing(&mut self, timing: Timing) -> &mut Answers {
        self.slots[QuestionId::WithinSeconds.index()] = Some(Answer::Derived(timing));
        self
    }

    /// Removes the answer to `q`, if any.
    pub fn clear(&mut self, q: QuestionId) -> &mut Answers {
        self.slots[q.index()] = None;
        self
    }

    /// The answer to `q`, if any.
    pub fn get(&self, q: QuestionId) -> Option<Answer> {
        self.slots[q.index()]
    }

    /// The answered questions in flowchart order.
    pub fn answered(&self) -> impl Iterator<Item = (QuestionId, Answer)> + '_ {
        QuestionId::ALL
            .into_iter()
            .filter_map(|q| self.get(q).map(|a| (q, a)))
    }

    /// Records `answer` to `q` (a [`Answer::Derived`] always goes to `within-seconds`), then
    /// drops every answer that is no longer on the walked path, as happens when an earlier
    /// answer is changed. Returns the dropped answers in flowchart order.
    pub fn answer(&mut self, q: QuestionId, answer: Answer) -> Vec<(QuestionId, Answer)> {
        match answer {
            Answer::Given(v) => self.set(q, v),
            Answer::Derived(t) => self.set_timing(t),
        };
        let dropped: Vec<_> = evaluate(self)
            .ignored
            .iter()
            .filter_map(|&d| self.get(d).map(|a| (d, a)))
            .collect();
        for (d, _) in &dropped {
            self.clear(*d);
        }
        dropped
    }

    /// Builder form of [`Answers::set`].
    pub fn with(mut self, q: QuestionId, yes: bool) -> Answers {
        self.set(q, yes);
        self
    }
}

/// One answered question on the walked path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The question.
    pub question: QuestionId,
    /// The answer as given or derived.
    pub answer: Answer,
}

impl Step {
    /// The yes/no value of the answer.
    pub fn yes(&self) -> bool {
        self.answer.value()
    }

    /// Where this step leads.
    pub fn next(&self) -> Next {
        let r = rule(self.question);
        if self.yes() {
            r.yes
        } else {
            r.no
        }
    }

    /// The reason this answer gives, in `lang`; a derived answer starts with its comparison,
    /// e.g. `"p95 8,000 ms > target 2,000 ms → no: …"`.
    pub fn reason(&self, lang: Lang) -> String {
        let reason = self.question.reason(self.yes(), lang);
        match self.answer {
            Answer::Given(_) => reason,
            Answer::Derived(t) => format!("{}{}{reason}", t.comparison(lang), sep(lang)),
        }
    }
}

fn sep(lang: Lang) -> &'static str {
    match lang {
        Lang::En => ": ",
        Lang::Ja => "：",
    }
}

/// Where a walk stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Complete: this is the recommendation.
    Decided(Outcome),
    /// Incomplete (not an error): this question must be answered next.
    Ask(QuestionId),
}

/// The result of walking the flowchart with a set of answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    /// The answered questions on the path, in the order asked.
    pub path: Vec<Step>,
    /// The outcome, or the next question to ask.
    pub status: Status,
    /// Questions that were answered but are not on the path (their answers were ignored).
    pub ignored: Vec<QuestionId>,
}

/// Walks [`RULES`] from [`START`] using `answers`.
///
/// Never fails: an incomplete set gives [`Status::Ask`] with the next question; answers to
/// questions off the path are listed in [`Evaluation::ignored`].
pub fn evaluate(answers: &Answers) -> Evaluation {
    let mut path = Vec::with_capacity(5);
    let mut current = START;
    // The flowchart is acyclic with five questions, so five steps always end the walk; the
    // bound makes that explicit.
    let status = loop {
        let Some(answer) = answers.get(current) else {
            break Status::Ask(current);
        };
        let step = Step {
            question: current,
            answer,
        };
        path.push(step);
        match step.next() {
            Next::Decide(outcome) => break Status::Decided(outcome),
            Next::Ask(q) if path.len() < RULES.len() => current = q,
            Next::Ask(q) => break Status::Ask(q),
        }
    };
    let ignored = answers
        .answered()
        .map(|(q, _)| q)
        .filter(|q| !path.iter().any(|s| s.question == *q))
        .collect();
    Evaluation {
        path,
        status,
        ignored,
    }
}

impl Evaluation {
    /// The outcome when the walk is complete.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.status {
            Status::Decided(o) => Some(o),
            Status::Ask(_) => None,
        }
    }

    /// The question to ask next when the walk is incomplete.
    pub fn next_question(&self) -> Option<QuestionId> {
        match self.status {
            Status::Ask(q) => Some(q),
            Status::Decided(_) => None,
        }
    }

    /// The question to show when the user presses "back" while `here` is on screen (`None`:
    /// the result is on screen): the question before `here` on the path; the last answered
    /// question when `here` is the pending question or the result; `here` itself when it is
    /// the first question.
    pub fn back_from(&self, here: Option<QuestionId>) -> Option<QuestionId> {
        match here.and_then(|q| self.path.iter().position(|s| s.question == q)) {
            Some(0) => here,
            Some(i) => Some(self.path[i - 1].question),
            None => self.path.last().map(|s| s.question).or(here),
        }
    }

    /// One reason per answered question on the path, in order, in `lang`.
    pub fn reasons(&self, lang: Lang) -> Vec<String> {
        self.path.iter().map(|s| s.reason(lang)).collect()
    }

    /// The outcome's trade-offs in `lang` (empty while incomplete).
    pub fn tradeoffs(&self, lang: Lang) -> Vec<String> {
        self.outcome()
            .map(|o| o.tradeoffs(lang))
            .unwrap_or_default()
    }

    /// The diagram node ids on the path: `start`, each question asked (including the pending
    /// one), then the outcome. These match the `data-node` attributes of the flowchart SVG.
    pub fn node_ids(&self) -> Vec<&'static str> {
        let mut ids = vec![START_NODE];
        ids.extend(self.path.iter().map(|s| s.question.id()));
        match self.status {
            Status::Decided(o) => ids.push(o.id()),
            Status::Ask(q) => ids.push(q.id()),
        }
        ids
    }

    /// The diagram edge ids on the path (`"from--to"`, e.g. `"start--time-triggered"`,
    /// `"time-triggered--needs-result-now"`). These match the `data-edge` attributes of the
    /// flowchart SVG.
    pub fn edge_ids(&self) -> Vec<String> {
        self.node_ids()
            .windows(2)
            .map(|w| format!("{}--{}", w[0], w[1]))
            .collect()
    }
}
