//! The sheet form's "Load and capacity" inputs, as data and rules the page only draws: each
//! [`Part`] is a small group of inputs (a rate's number and its unit, a handler's kind and
//! times, a burst's kind and sizes) that edits one part of the [`LoadSpec`]. [`Part::read`]
//! turns what is typed into the new section, or into one message per refused input naming the
//! field and its range, in the page's language; the page keeps the typed text either way.
//!
//! An empty input is "not stated". Two are offered from elsewhere and say so: the wait
//! target's placeholder is the acceptable wait, the handler p95's the wizard's p95 (used when
//! the median is typed and the p95 left empty).

use crate::domain::duration::{self, exact};
use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, parse_whole};
use crate::domain::sheet::inputs::label_of;
use crate::domain::sheet::load::{limits, Burst, HandlerTime, LoadSpec, Per, Rate};
use crate::domain::sheet::load_text::percent;
use crate::text::t;

/// How an input is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctl {
    /// A whole number; its unit's text key (`sheet.ui.<key>`).
    Count(&'static str),
    /// A rate's unit (a select: `second`, `minute`, `hour`).
    Per,
    /// A duration ([`duration::parse`]; a bare number is in this many ms).
    Duration(u64),
    /// A percentage with up to two decimals (stored in basis points).
    Percent,
    /// A choice among these option ids (a select; texts `sheet.ui.load-opt-<id>`).
    Choice(&'static [&'static str]),
}

/// One input of a [`Part`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadInput {
    /// Its DOM id (labels: [`label_of`]).
    pub id: &'static str,
    /// How it is typed.
    pub ctl: Ctl,
    /// Shown only while the part's first input (a choice) is this option.
    pub when: Option<&'static str>,
}

const fn inp(id: &'static str, ctl: Ctl, when: Option<&'static str>) -> LoadInput {
    LoadInput { id, ctl, when }
}

/// A group of inputs that edits one part of the section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// The mean arrival rate.
    Arrival,
    /// The peak arrival rate.
    Peak,
    /// A burst: none, jobs at once, or a rate for a while.
    Burst,
    /// The handler's time: lognormal (p50, p95), fixed, or exponential (mean).
    Handler,
    /// The transient failure rate, %.
    Failure,
    /// The downstream's rate limit.
    DownstreamRate,
    /// Its burst allowance.
    RateBurst,
    /// The downstream's calls at once.
    DownstreamConcurrency,
    /// Our own limiter.
    OurLimit,
    /// The wait p95 target.
    TargetWait,
    /// The burst drained within.
    DrainWithin,
    /// Worker processes.
    Workers,
    /// Jobs at once per process.
    Concurrency,
}

const PER: Ctl = Ctl::Per;
const SECONDS: Ctl = Ctl::Duration(1_000);

impl Part {
    /// Every part, in page order.
    pub const ALL: [Part; 13] = [
        Part::Arrival,
        Part::Peak,
        Part::Burst,
        Part::Handler,
        Part::Failure,
        Part::DownstreamRate,
        Part::RateBurst,
        Part::DownstreamConcurrency,
        Part::OurLimit,
        Part::TargetWait,
        Part::DrainWithin,
        Part::Workers,
        Part::Concurrency,
    ];

    /// Its inputs, in page order.
    pub fn inputs(self) -> &'static [LoadInput] {
        const JOBS: Ctl = Ctl::Count("load-jobs");
        match self {
            Part::Arrival => {
                const I: &[LoadInput] =
                    &[inp("arrival", JOBS, None), inp("arrival-per", PER, None)];
                I
            }
            Part::Peak => {
                const I: &[LoadInput] = &[inp("peak", JOBS, None), inp("peak-per", PER, None)];
                I
            }
            Part::Burst => {
                const I: &[LoadInput] = &[
                    inp(
                        "burst-kind",
                        Ctl::Choice(&["none", "at-once", "rate"]),
                        None,
                    ),
                    inp("burst-count", JOBS, Some("at-once")),
                    inp("burst-rate", JOBS, Some("rate")),
                    inp("burst-rate-per", PER, Some("rate")),
                    inp("burst-for", SECONDS, Some("rate")),
                ];
                I
            }
            Part::Handler => {
                const I: &[LoadInput] = &[
                    inp(
                        "handler-kind",
                        Ctl::Choice(&["lognormal", "fixed", "exponential"]),
                        None,
                    ),
                    inp("handler-p50", Ctl::Duration(1), Some("lognormal")),
                    inp("handler-p95", Ctl::Duration(1), Some("lognormal")),
                    inp("handler-ms", Ctl::Duration(1), Some("fixed")),
                    inp("handler-mean", Ctl::Duration(1), Some("exponential")),
                ];
                I
            }
            Part::Failure => {
                const I: &[LoadInput] = &[inp("failure-rate", Ctl::Percent, None)];
                I
            }
            Part::DownstreamRate => {
                const I: &[LoadInput] = &[
                    inp("downstream-rate", Ctl::Count("load-calls"), None),
                    inp("downstream-rate-per", PER, None),
                ];
                I
            }
            Part::RateBurst => {
                const I: &[LoadInput] =
                    &[inp("downstream-rate-burst", Ctl::Count("load-calls"), None)];
                I
            }
            Part::DownstreamConcurrency => {
                const I: &[LoadInput] = &[inp(
                    "downstream-concurrency",
                    Ctl::Count("load-calls"),
                    None,
                )];
                I
            }
            Part::OurLimit => {
                const I: &[LoadInput] = &[
                    inp("our-limit", Ctl::Count("load-calls"), None),
                    inp("our-limit-per", PER, None),
                ];
                I
            }
            Part::TargetWait => {
                const I: &[LoadInput] = &[inp("target-wait", SECONDS, None)];
                I
            }
            Part::DrainWithin => {
                const I: &[LoadInput] = &[inp("drain-within", SECONDS, None)];
                I
            }
            Part::Workers => {
                const I: &[LoadInput] = &[inp("workers", Ctl::Count("load-processes"), None)];
                I
            }
            Part::Concurrency => {
                const I: &[LoadInput] = &[inp("concurrency", JOBS, None)];
                I
            }
        }
    }

    /// The allowed range of input `i` (ms for durations, basis points for the percentage),
    /// given the part's other values (a lognormal's p95 is at least its p50).
    fn range(self, i: usize, p50: Option<u64>) -> (u64, u64) {
        match (self, i) {
            (Part::Burst, 1) => (1, limits::BURST_JOBS),
            (Part::Burst, 4) => limits::BURST_FOR_MS,
            (Part::Handler, 2) => (p50.unwrap_or(1).max(1), limits::HANDLER_MS.1),
            (Part::Handler, _) => limits::HANDLER_MS,
            (Part::Failure, _) => limits::FAILURE_BP,
            (Part::RateBurst, _) => limits::RATE_BURST,
            (Part::DownstreamConcurrency, _) => limits::CONCURRENCY,
            (Part::TargetWait | Part::DrainWithin, _) => limits::TARGET_MS,
            (Part::Workers, _) => limits::WORKERS,
            (Part::Concurrency, _) => limits::PER_WORKER,
            _ => limits::RATE_COUNT,
        }
    }

    /// What the inputs show for `l`, one text per input (empty: not stated).
    pub fn texts(self, l: &LoadSpec) -> Vec<String> {
        let n = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        let d = |v: Option<u64>, unit: u64| match v {
            Some(ms) if ms % unit == 0 => (ms / unit).to_string(),
            Some(ms) => format!("{ms} ms"),
            None => String::new(),
        };
        let rate = |r: Option<Rate>| {
            vec![
                n(r.map(|r| r.count)),
                r.map_or(Per::Second, |r| r.per).id().to_owned(),
            ]
        };
        let w = |v: Option<u32>| n(v.map(u64::from));
        match self {
            Part::Arrival => rate(l.arrival),
            Part::Peak => rate(l.peak),
            Part::Burst => {
                let (kind, count, r, f) = match l.burst {
                    None => ("none", None, None, None),
                    Some(Burst::AtOnce { count }) => ("at-once", Some(count), None, None),
                    Some(Burst::Rate { rate, for_ms }) => ("rate", None, Some(rate), Some(for_ms)),
                };
                let mut v = vec![kind.to_owned(), n(count)];
                v.extend(rate(r));
                v.push(d(f, 1_000));
                v
            }
            Part::Handler => {
                let (kind, p50, p95, fixed, mean) = match l.handler {
                    None => ("lognormal", None, None, None, None),
                    Some(HandlerTime::Lognormal { p50_ms, p95_ms }) => {
                        ("lognormal", Some(p50_ms), Some(p95_ms), None, None)
                    }
                    Some(HandlerTime::Fixed { ms }) => ("fixed", None, None, Some(ms), None),
                    Some(HandlerTime::Exponential { mean_ms }) => {
                        ("exponential", None, None, None, Some(mean_ms))
                    }
                };
                vec![
                    kind.to_owned(),
                    d(p50, 1),
                    d(p95, 1),
                    d(fixed, 1),
                    d(mean, 1),
                ]
            }
            Part::Failure => vec![l.failure_bp.map(percent).unwrap_or_default()],
            Part::DownstreamRate => rate(l.downstream.rate),
            Part::RateBurst => vec![w(l.downstream.rate_burst)],
            Part::DownstreamConcurrency => vec![w(l.downstream.concurrency)],
            Part::OurLimit => rate(l.our_limit),
            Part::TargetWait => vec![d(l.target_wait_p95_ms, 1_000)],
            Part::DrainWithin => vec![d(l.drain_within_ms, 1_000)],
            Part::Workers => vec![w(l.workers)],
            Part::Concurrency => vec![w(l.concurrency)],
        }
    }

    /// The section with this part as typed in `raws` (one text per input, as
    /// [`Part::texts`]), the rest of `l` unchanged. `wizard_p95` is the handler's p95 from the
    /// wizard, used when only the median is typed.
    ///
    /// # Errors
    /// One (input index, message) per refused input, in `lang`: out of range or not a number
    /// (naming the field and the range), a p95 below the p50 (the range starts at the p50), a
    /// number needed with another (a lognormal's two times, a rate burst's rate and length),
    /// a burst larger than the simulator's limit.
    pub fn read(
        self,
        raws: &[String],
        l: &LoadSpec,
        wizard_p95: Option<u64>,
        lang: Lang,
    ) -> Result<LoadSpec, Vec<(usize, String)>> {
        let mut r = Reader {
            part: self,
            raws,
            lang,
            errors: Vec::new(),
        };
        let mut out = *l;
        let rate = |r: &mut Reader, i: usize| {
            r.num(i, None).map(|count| Rate {
                count,
                per: r.per(i + 1),
            })
        };
        let small =
            |r: &mut Reader, i: usize| r.num(i, None).map(|v| u32::try_from(v).unwrap_or(u32::MAX));
        match self {
            Part::Arrival => out.arrival = rate(&mut r, 0),
            Part::Peak => out.peak = rate(&mut r, 0),
            Part::Burst => out.burst = r.burst(),
            Part::Handler => out.handler = r.handler(wizard_p95),
            Part::Failure => out.failure_bp = r.percent(0),
            Part::DownstreamRate => out.downstream.rate = rate(&mut r, 0),
            Part::RateBurst => out.downstream.rate_burst = small(&mut r, 0),
            Part::DownstreamConcurrency => out.downstream.concurrency = small(&mut r, 0),
            Part::OurLimit => out.our_limit = rate(&mut r, 0),
            Part::TargetWait => out.target_wait_p95_ms = r.num(0, None),
            Part::DrainWithin => out.drain_within_ms = r.num(0, None),
            Part::Workers => out.workers = small(&mut r, 0),
            Part::Concurrency => out.concurrency = small(&mut r, 0),
        }
        if r.errors.is_empty() {
            Ok(out)
        } else {
            Err(r.errors)
        }
    }
}

/// Reads one part's texts, collecting the refusals.
struct Reader<'a> {
    part: Part,
    raws: &'a [String],
    lang: Lang,
    errors: Vec<(usize, String)>,
}

impl Reader<'_> {
    fn raw(&self, i: usize) -> &str {
        self.raws.get(i).map_or("", |s| s.trim())
    }

    fn label(&self, i: usize) -> String {
        label_of(self.part.inputs()[i].id, self.lang)
    }

    fn refuse(&mut self, i: usize, message: String) {
        self.errors.push((i, message));
    }

    fn per(&self, i: usize) -> Per {
        match self.raw(i) {
            "minute" => Per::Minute,
            "hour" => Per::Hour,
            _ => Per::Second,
        }
    }

    /// Input `i` as a number in its range (a count, or a duration in ms); `None` when empty
    /// or refused. `p50`: a lognormal p95's lower bound.
    fn num(&mut self, i: usize, p50: Option<u64>) -> Option<u64> {
        let raw = self.raw(i).to_owned();
        if raw.is_empty() {
            return None;
        }
        let (min, max) = self.part.range(i, p50);
        let l = self.lang.code();
        let field = self.label(i);
        match self.part.inputs()[i].ctl {
            Ctl::Duration(unit) => {
                let range = format!("{} – {}", exact(min, self.lang), exact(max, self.lang));
                match duration::parse(&raw, unit) {
                    Ok(ms) if (min..=max).contains(&ms) => return Some(ms),
                    // The range starts at the median: say so, not only where it starts.
                    Ok(ms) if p50.is_some_and(|m| ms < m) => {
                        let m = t!(
                            "sheet.ui.load-p95-below-p50",
                            locale = l,
                            field = field,
                            value = exact(ms, self.lang),
                            p50 = exact(min, self.lang)
                        );
                        self.refuse(i, m.into_owned());
                    }
                    Ok(ms) => {
                        let m = t!(
                            "sheet.ui.duration-range-error",
                            locale = l,
                            field = field,
                            value = exact(ms, self.lang),
                            range = range
                        );
                        self.refuse(i, m.into_owned());
                    }
                    Err(e) => {
                        let m = t!(
                            "sheet.ui.duration-error",
                            locale = l,
                            field = field,
                            reason = e.message(self.lang),
                            range = range
                        );
                        self.refuse(i, m.into_owned());
                    }
                }
            }
            ctl => match parse_whole(&raw) {
                Some(v) if (min..=max).contains(&v) => return Some(v),
                _ => {
                    let unit = match ctl {
                        Ctl::Count(key) => t!(format!("sheet.ui.{key}"), locale = l).into_owned(),
                        _ => String::new(),
                    };
                    let m = t!(
                        "sheet.ui.range-error",
                        locale = l,
                        field = field,
                        min = group_thousands(min),
                        max = group_thousands(max),
                        unit = unit
                    )
                    .replace(" .", ".");
                    self.refuse(i, m);
                }
            },
        }
        None
    }

    /// A percentage ("2.5", "2.5 %", "１２％") in basis points.
    fn percent(&mut self, i: usize) -> Option<u32> {
        let raw = self.raw(i);
        if raw.is_empty() {
            return None;
        }
        let bp = parse_percent_bp(raw).filter(|bp| *bp <= limits::FAILURE_BP.1);
        if bp.is_none() {
            let m = t!(
                "sheet.ui.load-percent-error",
                locale = self.lang.code(),
                field = self.label(i),
                max = percent(limits::FAILURE_BP.1 as u32)
            );
            self.refuse(i, m.into_owned());
        }
        bp.map(|bp| bp as u32)
    }

    /// "Field: needed with Other (or leave both empty)."
    fn needed(&mut self, i: usize, other: usize) {
        let m = t!(
            "sheet.ui.load-needed",
            locale = self.lang.code(),
            field = self.label(i),
            other = self.label(other)
        );
        self.refuse(i, m.into_owned());
    }

    fn burst(&mut self) -> Option<Burst> {
        match self.raw(0) {
            "at-once" => self.num(1, None).map(|count| Burst::AtOnce { count }),
            "rate" => {
                let (count, for_ms) = (self.num(2, None), self.num(4, None));
                match (
                    count,
                    for_ms,
                    self.raw(2).is_empty(),
                    self.raw(4).is_empty(),
                ) {
                    (Some(count), Some(for_ms), ..) => {
                        let b = Burst::Rate {
                            rate: Rate {
                                count,
                                per: self.per(3),
                            },
                            for_ms,
                        };
                        if b.jobs() > limits::BURST_JOBS {
                            let m = t!(
                                "sheet.ui.load-burst-too-big",
                                locale = self.lang.code(),
                                field = self.label(4),
                                n = group_thousands(b.jobs()),
                                max = group_thousands(limits::BURST_JOBS)
                            );
                            self.refuse(4, m.into_owned());
                        }
                        Some(b)
                    }
                    (_, _, false, true) => {
                        self.needed(4, 2);
                        None
                    }
                    (_, _, true, false) => {
                        self.needed(2, 4);
                        None
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn handler(&mut self, wizard_p95: Option<u64>) -> Option<HandlerTime> {
        match self.raw(0) {
            "fixed" => self.num(3, None).map(|ms| HandlerTime::Fixed { ms }),
            "exponential" => self
                .num(4, None)
                .map(|mean_ms| HandlerTime::Exponential { mean_ms }),
            _ => {
                let p50 = self.num(1, None);
                let p95 = if self.raw(2).is_empty() {
                    // The wizard's p95, when the median is typed and the p95 left empty.
                    wizard_p95.filter(|_| p50.is_some())
                } else {
                    self.num(2, p50)
                };
                match (p50, p95, self.raw(1).is_empty(), self.raw(2).is_empty()) {
                    (Some(p50_ms), Some(p95_ms), ..) if p95_ms >= p50_ms => {
                        Some(HandlerTime::Lognormal { p50_ms, p95_ms })
                    }
                    (Some(p50), Some(_), ..) => {
                        // The wizard's p95 below the typed median: the p95 must be typed.
                        let m = t!(
                            "sheet.ui.load-needed-p95",
                            locale = self.lang.code(),
                            field = self.label(2),
                            p50 = exact(p50, self.lang)
                        );
                        self.refuse(2, m.into_owned());
                        None
                    }
                    (Some(_), None, _, true) => {
                        self.needed(2, 1);
                        None
                    }
                    (None, _, true, false) => {
                        self.needed(1, 2);
                        None
                    }
                    _ => None,
                }
            }
        }
    }
}

/// A percentage as typed — digits with up to two decimals, an optional `%` (full-width forms
/// too) — in basis points: `"2.5"` → 250, `"12 %"` → 1 200. `None` for anything else.
pub fn parse_percent_bp(raw: &str) -> Option<u64> {
    let s = crate::domain::number::ascii_form(raw);
    let s = s.trim_end_matches(['%', '％']).trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() && frac.is_empty()
        || frac.len() > 2
        || !whole
            .chars()
            .chain(frac.chars())
            .all(|c| c.is_ascii_digit())
        || whole.len() > 6
    {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: u64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<2}").parse().ok()?
    };
    Some(whole * 100 + frac)
}
