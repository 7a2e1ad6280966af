//! Properties: any sheet (any outcome, any in-range numbers, any unicode text including the
//! hostile characters) survives export → import unchanged and every export stays intact;
//! the decoder never panics on arbitrary input.

use crate::sheet_hostile::{check_every_format, HOSTILE};
use modality_advisor::domain::export::to_json;
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::load::{
    limits, Burst, DownstreamLimits, HandlerTime, LoadSpec, Per, Rate,
};
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{
    BackoffKind, Decision, Jitter, JobSheet, Keep, LastErrorOnDone, MissedRun, Overlap,
    ProcessFacts,
};
use modality_advisor::domain::{Answers, Lang, QuestionId, Timing};
use proptest::prelude::*;

/// Text mixing any characters with the troublesome ones.
fn text() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        3 => any::<char>(),
        1 => prop::sample::select(vec!['|', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '&', '\\', '=', '-', '*', '_', '[', ']', '#', ' ', '、', '｜']),
    ];
    prop_oneof![
        4 => prop::collection::vec(ch, 0..24).prop_map(String::from_iter),
        1 => prop::sample::select(HOSTILE.to_vec()).prop_map(str::to_owned),
    ]
}

fn texts() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(text(), 0..4)
}

/// Complete answers for any outcome, sometimes with `within-seconds` derived from timing.
fn decision() -> impl Strategy<Value = Decision> {
    (
        any::<[bool; 5]>(),
        prop::option::of((1u64..=Timing::MAX_MS, 0u64..=Timing::MAX_MS)),
    )
        .prop_map(|(yes, timing)| {
            let mut a = Answers::new();
            for (q, y) in QuestionId::ALL.into_iter().zip(yes) {
                a.set(q, y);
            }
            if let Some((target, p95)) = timing {
                a.set_timing(Timing::new(target, p95).expect("in range"));
            }
            // Keep only the answers on the path: a decision holds exactly those.
            Decision::from_answers(&a).expect("all five answered")
        })
}

fn facts() -> impl Strategy<Value = ProcessFacts> {
    (
        (text(), text(), text(), texts()),
        (
            text(),
            text(),
            texts(),
            prop::option::of(1u64..=2_592_000_000),
        ),
    )
        .prop_map(
            |(
                (process_name, code_name, trigger, arguments),
                (business_key, key_purpose, permanent_errors, acceptable_wait_ms),
            )| {
                ProcessFacts {
                    process_name,
                    code_name,
                    trigger,
                    arguments,
                    business_key,
                    key_purpose,
                    permanent_errors,
                    acceptable_wait_ms,
                }
            },
        )
}

fn keep() -> impl Strategy<Value = Keep> {
    prop_oneof![Just(Keep::UntilHandled), (1u32..=3650).prop_map(Keep::Days)]
}

fn rate() -> impl Strategy<Value = Rate> {
    (1u64..=1_000_000, 0usize..3).prop_map(|(count, p)| Rate {
        count,
        per: [Per::Second, Per::Minute, Per::Hour][p],
    })
}

fn burst() -> impl Strategy<Value = Burst> {
    prop_oneof![
        (1u64..=limits::BURST_JOBS).prop_map(|count| Burst::AtOnce { count }),
        // A rate burst within the simulator's limit: the length shortened until it fits.
        (rate(), 1u64..=86_400_000).prop_map(|(rate, for_ms)| {
            let most = (limits::BURST_JOBS as f64 / rate.per_s() * 1e3).floor() as u64;
            Burst::Rate {
                rate,
                for_ms: for_ms.min(most).max(1),
            }
        }),
    ]
}

fn handler() -> impl Strategy<Value = HandlerTime> {
    prop_oneof![
        (1u64..=86_400_000, 0u64..=86_400_000).prop_map(|(p50_ms, d)| HandlerTime::Lognormal {
            p50_ms,
            p95_ms: (p50_ms + d).min(86_400_000)
        }),
        (1u64..=86_400_000).prop_map(|ms| HandlerTime::Fixed { ms }),
        (1u64..=86_400_000).prop_map(|mean_ms| HandlerTime::Exponential { mean_ms }),
    ]
}

/// A "Load and capacity" section with any of its fields stated, each within its range.
pub fn load() -> impl Strategy<Value = LoadSpec> {
    use prop::option::of;
    let target = 1u64..=limits::TARGET_MS.1;
    (
        (
            of(rate()),
            of(rate()),
            of(burst()),
            of(handler()),
            of(0u32..=9_900),
        ),
        (
            of(rate()),
            of(1u32..=100_000),
            of(1u32..=10_000),
            any::<bool>(),
            of(rate()),
        ),
        (
            of(target.clone()),
            of(target),
            of(1u32..=1_000),
            of(1u32..=1_000),
        ),
    )
        .prop_map(|(a, d, w)| LoadSpec {
            arrival: a.0,
            peak: a.1,
            burst: a.2,
            handler: a.3,
            failure_bp: a.4,
            downstream: DownstreamLimits {
                rate: d.0,
                rate_burst: d.1,
                concurrency: d.2,
                exclusive_lock: d.3,
            },
            our_limit: d.4,
            target_wait_p95_ms: w.0,
            drain_within_ms: w.1,
            workers: w.2,
            concurrency: w.3,
        })
}

/// A sheet of any outcome with every field of its sections varied within the limits.
pub fn sheet() -> impl Strategy<Value = JobSheet> {
    (
        facts(),
        decision(),
        any::<bool>(),
        (
            1u32..=100,
            any::<bool>(),
            0usize..4,
            1u64..=86_400_000,
            0u64..=518_400_000,
        ),
        (
            1u64..=86_400_000,
            1u64..=86_400_000,
            text(),
            texts(),
            texts(),
        ),
        (
            text(),
            text(),
            1u32..=8760,
            text(),
            keep(),
            keep(),
            any::<bool>(),
        ),
        (texts(), text(), 100u64..=86_400_000),
        (text(), 0usize..3, any::<bool>(), 1u64..=604_800_000, text()),
        (1u64..=600_000, text()),
        load(),
    )
        .prop_map(|(facts, decision, ja, r, r2, f, t, b, s, load)| {
            let lang = if ja { Lang::Ja } else { Lang::En };
            let mut sheet = prefill(facts, decision, lang);
            if let Some(x) = &mut sheet.retry {
                x.max_attempts = r.0;
                x.backoff.kind = if r.1 {
                    BackoffKind::Fixed
                } else {
                    BackoffKind::Exponential
                };
                x.backoff.jitter = [
                    Jitter::None,
                    Jitter::Full,
                    Jitter::Equal,
                    Jitter::Decorrelated,
                ][r.2];
                x.backoff.base_ms = r.3;
                x.backoff.cap_ms = r.3 + r.4;
                x.attempt_timeout_ms = r2.0;
                x.lease_ms = r2.1;
                x.idempotency_key = r2.2;
                x.retryable_errors = r2.3;
                x.non_retryable_errors = r2.4;
            }
            if let Some(x) = &mut sheet.failure {
                x.dead_letter = f.0;
                x.notify = f.1;
                x.notice_within_h = f.2;
                x.rerun = f.3;
                x.retention.done = f.4;
                x.retention.dead = f.5;
                x.last_error_on_done = if f.6 {
                    LastErrorOnDone::Clear
                } else {
                    LastErrorOnDone::Keep
                };
            }
            if let Some(x) = &mut sheet.ticket {
                x.states = if t.0.is_empty() {
                    vec!["accepted".into()]
                } else {
                    t.0
                };
                x.completion = t.1;
                x.poll_interval_ms = t.2;
            }
            if let Some(x) = &mut sheet.batch {
                x.schedule = b.0;
                x.overlap = [Overlap::Forbid, Overlap::Replace, Overlap::Allow][b.1];
                x.missed_run = if b.2 {
                    MissedRun::Skip
                } else {
                    MissedRun::RunOnce
                };
                x.run_timeout_ms = b.3;
                x.partial_failure = b.4;
            }
            if let Some(x) = &mut sheet.sync {
                x.call_timeout_ms = s.0;
                x.on_timeout = s.1;
            }
            if let Some(x) = &mut sheet.load {
                *x = load;
            }
            sheet
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn json_round_trips(sheet in sheet(), ja in any::<bool>()) {
        let lang = if ja { Lang::Ja } else { Lang::En };
        let json = to_json(&sheet);
        prop_assert_eq!(import_json(&json, lang), Ok(sheet));
    }

    #[test]
    fn every_export_stays_intact(sheet in sheet(), ja in any::<bool>()) {
        check_every_format(&sheet, if ja { Lang::Ja } else { Lang::En });
    }

    #[test]
    fn the_decoder_never_panics_on_any_text(s in any::<String>()) {
        let _ = import_json(&s, Lang::En);
    }

    #[test]
    fn the_decoder_never_panics_on_json_shaped_text(
        s in r#"\{("schema_version":1,)?("process":\{[a-z_":,0-9\[\]\{\}-]{0,60}\},?)?("decision":[a-z_":,\[\]\{\}-]{0,60})?\}"#
    ) {
        let _ = import_json(&s, Lang::Ja);
    }

    #[test]
    fn the_decoder_never_panics_on_mangled_sheets(sheet in sheet(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        // Replace one character of a valid export: mostly invalid, sometimes a changed value.
        let json = to_json(&sheet);
        let chars: Vec<char> = json.chars().collect();
        let i = cut.index(chars.len());
        let mangled: String = chars[..i].iter().chain(std::iter::once(&char::from(byte))).chain(&chars[i + 1..]).collect();
        let _ = import_json(&mangled, Lang::En);
    }
}
