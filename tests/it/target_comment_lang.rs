//! The configuration exports' comments follow the language they are asked in (issue 26, item
//! 9): a Japanese export of a Japanese sheet labels the sheet's values in Japanese, not
//! "Retryable errors: 接続エラー" as the Kubernetes, Cloud Tasks and SQL exports did; the
//! English export keeps its English labels.

use crate::target_queue_support::example;
use modality_advisor::domain::queues::{report, TargetId};
use modality_advisor::domain::Lang;

/// The labels an export put before the sheet's values in its comments.
const ENGLISH_LABELS: [&str; 10] = [
    "Retryable errors",
    "Non-retryable errors",
    "Idempotency key:",
    "Dead letter:",
    "Notify",
    "Re-run:",
    "Queue:",
    "Job:",
    "Load:",
    "Attempts ",
];

/// The text of the comment lines of `text` (`#`, `//` or `--` after blanks, then blanks).
fn comments(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim_start)
        .filter_map(|l| {
            ["#", "//", "--"]
                .iter()
                .find_map(|p| l.strip_prefix(p))
                .map(str::trim_start)
        })
        .collect()
}

#[test]
fn every_targets_labels_follow_the_language() {
    let mut problems = Vec::new();
    for target in TargetId::ALL {
        for &format in target.formats() {
            let ja = report(&example(Lang::Ja), target, Some(format), Lang::Ja)
                .unwrap_or_else(|e| panic!("{target:?} {format:?}: {e:?}"));
            for line in comments(&ja.built.text) {
                // Only lines that carry the sheet's Japanese values: the SQL statements' own
                // documentation stays English and names no value of the sheet.
                let japanese = line.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c));
                if let Some(label) = ENGLISH_LABELS.iter().find(|l| line.starts_with(*l)) {
                    if japanese {
                        problems.push(format!("{target:?} {format:?}: “{label}” in {line}"));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "English labels on Japanese values:\n{}",
        problems.join("\n")
    );

    // The English export of the same sheet keeps English labels (the test can fail).
    for target in [
        TargetId::Kubernetes,
        TargetId::CloudTasks,
        TargetId::SqlSqlite,
    ] {
        let en = report(&example(Lang::Ja), target, None, Lang::En).expect("en");
        assert!(
            comments(&en.built.text)
                .iter()
                .any(|l| l.starts_with("Retryable errors")),
            "{target:?}:\n{}",
            en.built.text
        );
        let ja = report(&example(Lang::Ja), target, None, Lang::Ja).expect("ja");
        assert!(
            comments(&ja.built.text)
                .iter()
                .any(|l| l.starts_with("再試行するエラー")),
            "{target:?}:\n{}",
            ja.built.text
        );
    }
}
