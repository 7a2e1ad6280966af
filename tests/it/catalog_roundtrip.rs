//! Property: any catalog (processes with random answers — complete walks or not, some
//! derived from timing numbers —, names with any unicode, quotes and line breaks, sheets
//! pre-filled for the outcome, simulator choices) survives JSON → model → JSON unchanged, and
//! the reader never panics on a damaged file.

use modality_advisor::domain::catalog::check::read_catalog;
use modality_advisor::domain::catalog::origin::AuditOrigin;
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::queues::TargetId;
use modality_advisor::domain::session::{sim_presets, sim_variants, SimChoice};
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{Decision, ProcessFacts};
use modality_advisor::domain::sim::runner::MAX_LOAD_JOBS;
use modality_advisor::domain::sim::setup::knobs::CustomRun;
use modality_advisor::domain::{Answers, Lang, QuestionId, Timing};
use proptest::prelude::*;

/// A name: any characters mixed with quotes, line breaks, tabs, markup and Japanese.
fn name() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        3 => any::<char>(),
        2 => prop::sample::select(vec!['"', '\'', '\n', '\r', '\t', '\\', '|', '<', '#', '予', '約', '🙂', ' ']),
    ];
    prop::collection::vec(ch, 0..40).prop_map(String::from_iter)
}

/// Answers to any subset of the questions, `within-seconds` sometimes from timing numbers.
fn answers() -> impl Strategy<Value = Answers> {
    (
        any::<[Option<bool>; 5]>(),
        prop::option::of((1u64..=Timing::MAX_MS, 0u64..=Timing::MAX_MS)),
    )
        .prop_map(|(given, timing)| {
            let mut a = Answers::new();
            for (q, y) in QuestionId::ALL.into_iter().zip(given) {
                if let Some(y) = y {
                    a.set(q, y);
                }
            }
            if let Some((target, p95)) = timing {
                a.set_timing(Timing::new(target, p95).expect("in range"));
            }
            a
        })
}

fn sim() -> impl Strategy<Value = SimChoice> {
    (
        prop::sample::select(sim_presets()),
        any::<prop::sample::Index>(),
        any::<u64>(),
        1..=MAX_LOAD_JOBS,
        any::<bool>(),
    )
        .prop_map(|(preset, v, seed, jobs, custom)| {
            let variants = sim_variants(preset);
            SimChoice {
                preset: preset.to_owned(),
                variant: variants[v.index(variants.len())].to_owned(),
                seed,
                jobs,
                custom: custom.then(CustomRun::default),
            }
        })
}

/// An audit record within its limits: any file name and notes (hostile text included), a
/// system and, for one with several, one of its version ranges.
fn audit() -> impl Strategy<Value = AuditOrigin> {
    let notes = prop::collection::vec((name(), name()), 0..5);
    (
        name(),
        1u32..=100_000,
        prop::sample::select(TargetId::ALL.to_vec()),
        any::<prop::sample::Index>(),
        notes,
        any::<(u8, u8)>(),
    )
        .prop_map(|(file, line, target, v, notes, (e, w))| {
            let versions = target.versions();
            let n = notes.len() as u32;
            let errors = u32::from(e) % (n + 1);
            AuditOrigin {
                file,
                line,
                system: target.name().to_owned(),
                version: (!versions.is_empty()).then(|| v.get(versions).name().to_owned()),
                errors,
                warnings: u32::from(w) % (n - errors + 1),
                en: notes.iter().map(|(en, _)| en.clone()).collect(),
                ja: notes.into_iter().map(|(_, ja)| ja).collect(),
            }
        })
}

prop_compose! {
    /// A process: any name, answers, sheet (pre-filled in either language), simulator
    /// choices and audit record; the id is `x`.
    pub fn process()(
        name in name(),
        answers in answers(),
        times in (0u64..=4_000_000_000_000, 0u64..=1_000_000_000),
        sheet in any::<Option<(bool, bool)>>(),
        sim in prop::option::of(sim()),
        audit in prop::option::weighted(0.25, audit()),
    ) -> Process {
        let mut p = Process::new(ProcessId("x".into()), &name, times.0);
        p.updated_ms = times.0 + times.1;
        p.set_answers(&answers);
        if let (Some((ja, named)), Some(d)) = (sheet, Decision::from_answers(&answers)) {
            let lang = if ja { Lang::Ja } else { Lang::En };
            let facts = ProcessFacts {
                process_name: if named { name.clone() } else { String::new() },
                ..ProcessFacts::default()
            };
            p.sheet = Some(prefill(facts, d, lang));
        }
        p.sim = sim;
        p.audit = audit.map(Box::new);
        p
    }
}

prop_compose! {
    /// A catalog of up to five [`process`]es with unique random ids.
    pub fn catalog()(
        name in name(),
        processes in prop::collection::vec(process(), 0..6),
        ids in prop::collection::vec("[a-z0-9-]{1,36}", 6),
    ) -> Catalog {
        let mut c = Catalog::new(&name);
        for (i, (mut p, id)) in processes.into_iter().zip(ids).enumerate() {
            // Unique: the index makes two equal random ids differ.
            p.id = ProcessId(format!("{id}{i}"));
            c.processes.push(p);
        }
        c
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn json_model_json_is_identical(c in catalog()) {
        let json = c.to_json();
        let back = read_catalog(&json);
        prop_assert_eq!(back.as_ref(), Ok(&c));
        let again = back.map(|b| b.to_json()).unwrap_or_default();
        prop_assert_eq!(again, json);
    }

    #[test]
    fn a_damaged_file_is_an_error_not_a_panic(c in catalog(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let json = c.to_json();
        let mut bytes = json.into_bytes();
        let at = cut.index(bytes.len());
        bytes[at] = byte;
        let text = String::from_utf8_lossy(&bytes);
        let _ = read_catalog(&text);
        let half: String = text.chars().take(text.chars().count() / 2).collect();
        let _ = read_catalog(&half);
    }
}
