//! The committed `share-v1:` vectors (`tests/vectors/share-v1/`): fragments written by the
//! first release's encoder, each beside the canonical JSON of the share it holds.
//!
//! THIS TEST MUST KEEP PASSING FOREVER. A link someone pasted into a wiki page in 2026 has
//! to open in every later build. Never regenerate, edit or delete these files; if a change
//! to the model or the codec breaks this test, the change is wrong (new fields must be
//! optional and left out when empty). A new format gets a new prefix (`share-v2:`) and a
//! folder of its own, and the v1 vectors stay.
//!
//! `SHARE_VECTORS_WRITE=1 cargo test --locked --test it share_vectors` writes the vectors
//! that are missing from the folder (it never overwrites one); see the folder's README.

use crate::catalog_support::example_catalog;
use crate::share_link::{decided_without_sheet, hostile, japanese, process_share, undecided};
use modality_advisor::domain::share::link::{decode, encode};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::Lang;
use std::path::{Path, PathBuf};

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/share-v1")
}

/// The vectors by file name (without extension), as today's code builds their shares.
fn vectors() -> Vec<(&'static str, Share)> {
    let c = example_catalog();
    let by_id = |id: &str| {
        c.processes
            .iter()
            .find(|p| p.id.as_str() == id)
            .unwrap_or_else(|| panic!("{id} in the example"))
            .clone()
    };
    let catalog = |lang| Share {
        lang,
        content: Shared::Catalog(c.clone()),
    };
    vec![
        (
            "outcome-sync",
            process_share(&by_id("check-availability"), Lang::En),
        ),
        (
            "outcome-sync-timeout",
            process_share(&by_id("charge-card"), Lang::En),
        ),
        (
            "outcome-async-enqueue",
            process_share(&by_id("confirmation-mail"), Lang::En),
        ),
        (
            "outcome-async-ticket",
            process_share(&by_id("group-invoice-pdf"), Lang::En),
        ),
        (
            "outcome-batch",
            process_share(&by_id("no-show-report"), Lang::En),
        ),
        (
            "undecided-no-sheet",
            process_share(&by_id("waitlist-promotion"), Lang::En),
        ),
        (
            "undecided-incomplete-walk",
            process_share(&undecided(), Lang::Ja),
        ),
        (
            "decided-no-sheet",
            process_share(&decided_without_sheet(), Lang::En),
        ),
        ("catalog", catalog(Lang::En)),
        ("catalog-short", catalog(Lang::Ja).without_notes()),
        (
            "short",
            process_share(&by_id("charge-card"), Lang::En).without_notes(),
        ),
        ("ja", process_share(&japanese(), Lang::Ja)),
        ("hostile", process_share(&hostile(), Lang::En)),
    ]
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `*.txt` in the folder decodes to the share whose canonical JSON is the `*.json`
/// beside it, and that share survives today's encoder. Never change a vector to make this
/// pass.
#[test]
fn every_committed_v1_vector_decodes_to_its_json_forever() {
    let mut names: Vec<String> = std::fs::read_dir(folder())
        .unwrap_or_else(|e| panic!("{}: {e}", folder().display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".txt").map(str::to_owned))
        .collect();
    names.sort();
    for (name, _) in vectors() {
        assert!(
            names.iter().any(|n| n == name),
            "vector {name}.txt is missing"
        );
    }
    for name in &names {
        let fragment = read(&folder().join(format!("{name}.txt")));
        let expected = read(&folder().join(format!("{name}.json")));
        let share = decode(&fragment).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(share.to_json(), expected.trim_end(), "{name}");
        assert_eq!(decode(&encode(&share)).as_ref(), Ok(&share), "{name}");
        what_the_name_says(name, &share);
    }
}

/// The property each committed vector was written for, read from the decoded share (not
/// from today's builders, which may drift).
fn what_the_name_says(name: &str, share: &Share) {
    let ps = share.processes();
    if let Some(id) = name.strip_prefix("outcome-") {
        assert_eq!(ps.len(), 1, "{name}");
        assert_eq!(ps[0].outcome.map(|o| o.id()), Some(id), "{name}");
        assert!(ps[0].sheet.is_some(), "{name}");
    }
    if name.starts_with("undecided") {
        assert_eq!(ps[0].outcome, None, "{name}");
        assert!(!ps[0].answers.is_empty(), "{name}");
    }
    if name.ends_with("no-sheet") {
        assert!(ps[0].sheet.is_none(), "{name}");
    }
    if name.starts_with("catalog") {
        assert!(matches!(share.content, Shared::Catalog(_)), "{name}");
        assert_eq!(ps.len(), 7, "{name}");
        let mut outcomes: Vec<_> = ps.iter().filter_map(|p| p.outcome).collect();
        outcomes.sort_by_key(|o| o.id());
        outcomes.dedup();
        assert_eq!(outcomes.len(), 5, "{name}");
    }
    if name.contains("short") {
        assert_eq!(&share.without_notes(), share, "{name}");
    }
    if name == "ja" || name == "catalog-short" || name == "undecided-incomplete-walk" {
        assert_eq!(share.lang, Lang::Ja, "{name}");
    }
    if name == "hostile" {
        let json = share.to_json();
        for bad in ["<script>", "\u{202E}", "🙂", "it's"] {
            assert!(json.contains(bad), "{name} lacks {bad:?}");
        }
    }
}

/// Writes the vectors missing from the folder, only with `SHARE_VECTORS_WRITE=1`, and never
/// over an existing file. Without the variable it does nothing.
#[test]
fn write_missing_vectors_on_demand() {
    if std::env::var_os("SHARE_VECTORS_WRITE").is_none_or(|v| v != "1") {
        return;
    }
    std::fs::create_dir_all(folder()).expect("the vectors folder");
    for (name, share) in vectors() {
        let txt = folder().join(format!("{name}.txt"));
        let json = folder().join(format!("{name}.json"));
        if txt.exists() || json.exists() {
            continue;
        }
        std::fs::write(&txt, format!("{}\n", encode(&share))).expect("write the fragment");
        std::fs::write(&json, format!("{}\n", share.to_json())).expect("write the JSON");
        println!("wrote {name}");
    }
}
