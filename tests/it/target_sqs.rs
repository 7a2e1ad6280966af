//! The SQS + Lambda export (`domain::queues::sqs`): the mapping of the worked example, the
//! schedule SQS really runs (the visibility timeout before every retry), its unbounded
//! defaults, sampled runs within the reported ranges, the limits it refuses (en + ja), and
//! the template accepted by `cfn-lint`.

use crate::target_queue_support::{
    backoff, batch_sheet, example, mapping_text, report, retry_sheet, samples_lie_within, triples,
    with_retry,
};
use modality_advisor::domain::queues::{self, Format, TargetError, TargetId};
use modality_advisor::domain::sheet::{BackoffKind, FieldId, Jitter};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

#[test]
fn the_worked_example_maps_field_by_field() {
    let en = report(&example(Lang::En), TargetId::Sqs, Lang::En);
    insta::assert_snapshot!("sqs_mapping_en", mapping_text(&en));
    let ja = report(&example(Lang::Ja), TargetId::Sqs, Lang::Ja);
    insta::assert_snapshot!("sqs_mapping_ja", mapping_text(&ja));
    for line in [
        "      VisibilityTimeout: 60\n",
        "      MessageRetentionPeriod: 345600\n",
        "          Fn::GetAtt: [DeadLetterQueue, Arn]\n        maxReceiveCount: 5\n",
        "      Timeout: 30\n",
        "        - ReportBatchItemFailures\n",
        // The consumer's table: the sheet's waits per receive count.
        "#   4 | 0 | 80\n",
    ] {
        assert!(en.built.text.contains(line), "{line}");
    }
    assert!(!en.built.text.contains('!'), "no short-form intrinsics");
    // The DLQ keeps a dead message until handled: 4 d + 14 d, capped at SQS's 14 d.
    assert!(en.built.text.contains("MessageRetentionPeriod: 1209600\n"));
    // 5 receives, every retry 60 s after the last receive: 4 × 60 s.
    assert_eq!(triples(&en.built.actual), vec![(60.0, 60.0, 60.0); 4]);
    assert_eq!(en.built.actual.window_s.max, Some(240.0));
    // The lease is under 6 × 30 s.
    assert!(en
        .findings
        .iter()
        .any(|f| f.code == "lease-under-target-factor"));
}

#[test]
fn terraform_holds_the_same_values() {
    let rep = queues::report(
        &example(Lang::En),
        TargetId::Sqs,
        Some(Format::Terraform),
        Lang::En,
    )
    .map_err(|e| e.message(Lang::En));
    let Ok(rep) = rep else {
        panic!("{rep:?}");
    };
    assert_eq!(rep.file_name, "send_reservation_mail.sqs.tf");
    for line in [
        "  visibility_timeout_seconds = 60\n",
        "    maxReceiveCount     = 5\n",
        "  timeout       = 30\n",
        "  function_response_types = [\"ReportBatchItemFailures\"]\n",
    ] {
        assert!(rep.built.text.contains(line), "{line}");
    }
}

#[test]
fn leases_and_timeouts_round_up_to_whole_seconds() {
    // Lease 59.5 s → VisibilityTimeout 60; 3 attempts → 2 retries of 60 s; retention 2 d
    // → the DLQ keeps 2 d + 7 d.
    let mut s = with_retry(|r| {
        r.max_attempts = 3;
        r.lease_ms = 59_500;
        r.attempt_timeout_ms = 9_001;
        r.queue_retention_ms = Some(2 * 86_400_000);
        r.backoff = backoff(BackoffKind::Fixed, 5_000, 5_000, Jitter::None);
    });
    if let Some(f) = s.failure.as_mut() {
        f.retention.dead = modality_advisor::domain::sheet::Keep::Days(7);
    }
    let rep = report(&s, TargetId::Sqs, Lang::En);
    assert_eq!(triples(&rep.built.actual), vec![(60.0, 60.0, 60.0); 2]);
    assert!(rep.built.text.contains("      Timeout: 10\n"));
    assert!(rep
        .built
        .text
        .contains("      MessageRetentionPeriod: 172800\n"));
    assert!(rep
        .built
        .text
        .contains("      MessageRetentionPeriod: 777600\n"));
}

#[test]
fn values_sqs_cannot_hold_are_refused_naming_field_and_range() {
    let cases = [
        (
            with_retry(|r| {
                r.lease_ms = 13 * 3_600_000;
            }),
            // The Timeout row holds two values: the one refused is named ("Timeout (13 h)"
            // did not say it was the lease).
            FieldId::Timeout,
            "Lease / visibility timeout 13 h",
            "0 s to 12 h",
            "リース／可視性タイムアウト 13時間",
        ),
        (
            with_retry(|r| {
                r.attempt_timeout_ms = 16 * 60_000;
                r.lease_ms = 7_200_000;
            }),
            FieldId::Timeout,
            "Attempt timeout 16 min",
            "1 s to 15 min",
            "1回のタイムアウト 16分",
        ),
        (
            with_retry(|r| {
                r.queue_retention_ms = Some(15 * 86_400_000);
            }),
            FieldId::QueueRetention,
            "15 d",
            "1 min to 14 d",
            "15日",
        ),
    ];
    for (sheet, field, value, allowed, ja_value) in cases {
        let err = queues::report(&sheet, TargetId::Sqs, None, Lang::En).err();
        assert_eq!(
            err,
            Some(TargetError::OutOfRange {
                target: TargetId::Sqs,
                field,
                value: value.into(),
                allowed: allowed.into(),
            })
        );
        let en = err.map(|e| e.message(Lang::En)).unwrap_or_default();
        assert!(en.contains(&field.id()) && en.contains(allowed), "{en}");
        assert!(en.contains("AWS SQS + Lambda"), "{en}");
        let ja = queues::report(&sheet, TargetId::Sqs, None, Lang::Ja)
            .err()
            .map(|e| e.message(Lang::Ja))
            .unwrap_or_default();
        assert!(ja.contains(ja_value) && ja.contains("で使えるのは"), "{ja}");
    }
    let err = queues::report(&batch_sheet(), TargetId::Sqs, None, Lang::En);
    assert_eq!(
        err.err(),
        Some(TargetError::NotApplicable {
            target: TargetId::Sqs,
            outcome: "batch"
        })
    );
}

#[test]
fn sqs_by_default_redelivers_every_30_s_without_limit() {
    let d = queues::defaults(TargetId::Sqs, Lang::En);
    assert_eq!(d.attempts, None);
    assert_eq!(d.schedule.window_s.max, None);
    assert_eq!(d.schedule.delays[0].max_s, 30.0);
}

/// cfn-lint (installed by scripts/install-tools.sh) accepts the template for the example and
/// for hostile text; skipped where the tool is missing.
#[test]
fn cfn_lint_accepts_the_templates() {
    let Ok(out) = std::process::Command::new("cfn-lint")
        .arg("--version")
        .output()
    else {
        eprintln!("cfn-lint not installed: template not linted");
        return;
    };
    assert!(out.status.success());
    let hostile = "q\"'\\ \n #{x} ${y} %{z} `b` */ </script> \u{202e} \u{2028}";
    let mut s = example(Lang::En);
    s.process.process_name = format!("{hostile} name");
    s.process.code_name = format!("{hostile} code");
    if let Some(r) = s.retry.as_mut() {
        r.idempotency_key = hostile.into();
        r.non_retryable_errors = vec![hostile.into()];
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (i, sheet) in [example(Lang::En), example(Lang::Ja), s].iter().enumerate() {
        let text = report(sheet, TargetId::Sqs, Lang::En).built.text;
        let path = dir.join(format!("target-sqs-{i}.yaml"));
        std::fs::write(&path, &text).expect("writes");
        let lint = std::process::Command::new("cfn-lint")
            .arg(&path)
            .output()
            .expect("runs");
        assert!(
            lint.status.success(),
            "{}\n{text}",
            String::from_utf8_lossy(&lint.stdout)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sampled_runs_lie_within_the_reported_schedule(sheet in retry_sheet(), seed in any::<u64>()) {
        prop_assert_eq!(samples_lie_within(TargetId::Sqs, &sheet, seed), Ok(()));
    }
}

/// A retry window longer than SQS keeps a message (its default 4 days, or the sheet's
/// retention) is an error naming both; the sheet's schedule counts, since the export asks the
/// consumer to follow it with ChangeMessageVisibility.
#[test]
fn a_window_longer_than_the_retention_is_an_error() {
    use modality_advisor::domain::sheet::Polynomial;
    let long = with_retry(|r| {
        r.max_attempts = 26;
        r.backoff = backoff(
            BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 0,
            }),
            15_000,
            30 * 86_400_000,
            Jitter::None,
        );
    });
    let codes = |sheet: &modality_advisor::domain::sheet::JobSheet, lang| {
        let r = queues::report(sheet, TargetId::Sqs, None, lang).expect("exported");
        r.findings
            .iter()
            .filter(|f| f.code == "window-over-target-retention")
            .map(|f| f.message.clone())
            .collect::<Vec<_>>()
    };
    let en = codes(&long, Lang::En);
    assert_eq!(en.len(), 1, "{en:?}");
    assert!(
        en[0].contains("4 d") && en[0].contains("AWS SQS"),
        "{}",
        en[0]
    );
    assert_eq!(codes(&long, Lang::Ja).len(), 1);
    // The example's window (a few minutes) fits the default 4 days.
    let ex = example(Lang::En);
    assert!(codes(&ex, Lang::En).is_empty());
    // A stated retention counts instead of the default.
    let short = with_retry(|r| r.queue_retention_ms = Some(60_000));
    let m = codes(&short, Lang::En);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("1 min"), "{}", m[0]);
}

#[test]
fn a_run_of_equal_waits_is_one_row_of_the_consumers_table() {
    // 100 attempts, a fixed 30 s: one row for receives 1–99, not 99 rows.
    let sheet = with_retry(|r| {
        r.max_attempts = 100;
        r.backoff = backoff(BackoffKind::Fixed, 30_000, 30_000, Jitter::None);
    });
    for format in [Format::CloudFormation, Format::Terraform] {
        let built = queues::report(&sheet, TargetId::Sqs, Some(format), Lang::En)
            .expect("builds")
            .built;
        assert!(
            built.text.contains("#   1–99 | 30 | 30\n"),
            "{}",
            built.text
        );
        assert!(!built.text.contains("#   2 | 30 | 30\n"), "{}", built.text);
    }
    // Exponential, capped: the doublings row by row, then one row for the capped run.
    let sheet = with_retry(|r| {
        r.max_attempts = 10;
        r.backoff = backoff(BackoffKind::Exponential, 10_000, 60_000, Jitter::None);
    });
    let built = queues::report(
        &sheet,
        TargetId::Sqs,
        Some(Format::CloudFormation),
        Lang::En,
    )
    .expect("builds")
    .built;
    for row in [
        "#   1 | 10 | 10\n",
        "#   3 | 40 | 40\n",
        "#   4–9 | 60 | 60\n",
    ] {
        assert!(built.text.contains(row), "{row}\n{}", built.text);
    }
}
