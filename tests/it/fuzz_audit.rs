//! Fuzzing the configuration readers of `audit` (`domain::audit`): the committed fixtures
//! and generated exports edited character by character, and arbitrary text, each read by
//! every reader (CloudFormation, Terraform in HCL and in JSON, Kubernetes, Cloud Tasks, through the dispatcher
//! with the file name that picks it) and audited — never a panic, an error as a value that
//! names a place inside the file. 10 000 cases per reader by default (`PROPTEST_CASES`
//! changes it, as for the other decoders).

use crate::fuzz_support::{apply, cases, edit_from};
use modality_advisor::domain::audit::found::ReadError;
use modality_advisor::domain::audit::{audit_job, read};
use modality_advisor::domain::Lang;
use proptest::prelude::*;

const CFN: [&str; 3] = [
    include_str!("../fixtures/audit/sqs-lambda.cfn.yaml"),
    include_str!("../fixtures/audit/sqs-lambda.cfn.json"),
    include_str!("../fixtures/audit/sam.yaml"),
];
const TF: &str = include_str!("../fixtures/audit/sqs.tf");
const TF_JSON: &str = include_str!("../fixtures/audit/sqs.tf.json");
const K8S: &str = include_str!("../fixtures/audit/jobs.k8s.yaml");
const TASKS: [&str; 3] = [
    include_str!("../fixtures/audit/cloud-tasks.describe.yaml"),
    include_str!("../fixtures/audit/cloud-tasks.describe.json"),
    include_str!("../fixtures/audit/queue.yaml"),
];

/// Reads `text` as `file`; every job found is audited; an error's place is inside the text.
fn reads_or_refuses(file: &str, text: &str) -> Result<(), TestCaseError> {
    match read(file, text) {
        Ok((_, jobs)) => {
            for j in &jobs {
                let a = audit_job(file, j, Lang::En);
                prop_assert!(a.line >= 1);
                for f in &a.findings {
                    prop_assert!(f.line >= 1 && f.column >= 1, "{:?}", f);
                }
            }
        }
        Err(e) => {
            let lines = u32::try_from(text.lines().count()).unwrap_or(u32::MAX) + 2;
            if let Some(at) = e.at() {
                prop_assert!(
                    at.line >= 1 && at.line <= lines,
                    "{:?} of {} lines",
                    e,
                    lines
                );
            }
            prop_assert!(!e.message(Lang::En).is_empty());
            prop_assert!(!e.message(Lang::Ja).is_empty());
            let too_large = matches!(e, ReadError::TooLarge { .. });
            prop_assert!(!too_large, "a small text refused as too large");
        }
    }
    Ok(())
}

fn edited(text: &str, edits: &[crate::fuzz_support::Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        apply(&mut chars, e);
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(cases(10_000))]

    #[test]
    fn cloudformation_edited_reads_or_is_refused(
        which in 0usize..3,
        edits in prop::collection::vec(edit_from("!:{}[]\"', \n-&*|>RefGetAtt0123456789"), 1..6),
    ) {
        let name = ["t.yaml", "t.json", "sam.yaml"][which];
        reads_or_refuses(name, &edited(CFN[which], &edits))?;
    }

    #[test]
    fn terraform_edited_reads_or_is_refused(
        edits in prop::collection::vec(edit_from("{}[]()\"=.,\n#$<>EOTjsonencode0123456789"), 1..6),
    ) {
        reads_or_refuses("main.tf", &edited(TF, &edits))?;
    }

    #[test]
    fn terraform_json_edited_reads_or_is_refused(
        edits in prop::collection::vec(edit_from("{}[]()\"=.,\n$%\\jsonencode0123456789"), 1..6),
    ) {
        reads_or_refuses("main.tf.json", &edited(TF_JSON, &edits))?;
    }

    #[test]
    fn kubernetes_edited_reads_or_is_refused(
        edits in prop::collection::vec(edit_from(":-\n ---[]{}&*!\"0123456789"), 1..6),
    ) {
        reads_or_refuses("jobs.yaml", &edited(K8S, &edits))?;
    }

    #[test]
    fn cloud_tasks_edited_reads_or_is_refused(
        which in 0usize..3,
        edits in prop::collection::vec(edit_from(":-\n {}[]\"0123456789.sdhm/"), 1..6),
    ) {
        let name = ["q.yaml", "q.json", "queue.yaml"][which];
        reads_or_refuses(name, &edited(TASKS[which], &edits))?;
    }
}

proptest! {
    #![proptest_config(cases(2_000))]

    #[test]
    fn any_text_reads_or_is_refused(text in ".{0,400}", tf in any::<bool>()) {
        reads_or_refuses(if tf { "x.tf" } else { "x.yaml" }, &text)?;
    }
}
