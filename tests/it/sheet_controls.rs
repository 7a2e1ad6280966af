//! Control characters in user text (`domain::bidi::show`): C0 controls other than tab, line
//! feed and carriage return, DEL (U+007F) and the C1 range (U+0080–U+009F, NEXT LINE U+0085
//! among them) never reach a document raw — not the Markdown (git would call the file
//! binary), the TSV, the CSV, the JSON, the HTML and rich-text cards, the SVG card, the ADR,
//! the embed snippet, nor any queue configuration or its panel. Each is shown the way the
//! bidi controls are: `<U+0007>` (`&lt;U+0007&gt;` in markup, `\u0007` in JSON).
//!
//! A property test: random runs of control characters put into every text field of a sheet
//! of a random outcome and language (the same fields as the bidi test, [`hostile_sheet`]), then
//! every writer's output searched for a raw one. `PROPTEST_CASES=N` runs N cases.

use crate::fuzz_support::cases;
use crate::sheet_bidi::{exports, hostile_sheet, walks};
use modality_advisor::domain::bidi::{self, is_raw_control, Shown};
use modality_advisor::domain::export::{to_json, to_markdown};
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::{Answers, Lang};
use proptest::prelude::*;

/// The control characters no document may hold raw.
fn raw_controls() -> impl Strategy<Value = char> {
    prop_oneof![
        (0u32..0x20).prop_filter("tab, LF and CR are text", |c| ![9, 10, 13].contains(c)),
        Just(0x7f),
        0x80u32..0xa0,
    ]
    .prop_map(|c| char::from_u32(c).expect("a control character is a char"))
}

/// The bidi test's hostile sheet of `answers` in `lang` with `insert` where it has U+202E.
fn sheet_with(answers: &Answers, lang: Lang, insert: &str) -> JobSheet {
    let sheet = hostile_sheet(answers, lang);
    let json = serde_json::to_string(&sheet).expect("a sheet serialises");
    // `insert` as a JSON string's contents (serde_json writes U+202E raw, `\u0007` escaped).
    let quoted = serde_json::to_string(insert).expect("a string serialises");
    let json = json.replace('\u{202E}', &quoted[1..quoted.len() - 1]);
    serde_json::from_str(&json).expect("the sheet reads back")
}

fn assert_no_raw(what: &str, text: &str) {
    if let Some((i, c)) = text.char_indices().find(|(_, c)| is_raw_control(*c)) {
        let start = text[..i].char_indices().rev().nth(30).map_or(0, |(j, _)| j);
        panic!(
            "{what}: a raw U+{:04X} at byte {i}: …{}",
            c as u32,
            &text[start..i]
        );
    }
}

proptest! {
    #![proptest_config(cases(24))]

    #[test]
    fn no_writer_carries_a_raw_control_character(
        insert in prop::collection::vec(raw_controls(), 1..4),
        walk in 0usize..5,
        ja in any::<bool>(),
    ) {
        let insert: String = insert.into_iter().collect();
        let lang = if ja { Lang::Ja } else { Lang::En };
        let answers = &walks()[walk];
        let sheet = sheet_with(answers, lang, &insert);
        let all = exports(&sheet, answers, lang);
        prop_assert!(all.len() > 30, "{} exports", all.len());
        for (what, text) in &all {
            assert_no_raw(&format!("{lang:?} walk {walk} {what}"), text);
        }
        // Shown, not dropped: the Markdown names the first one for a reader.
        let first = insert.chars().next().unwrap();
        let shown = bidi::show(&first.to_string(), Shown::Markup).into_owned();
        let md = to_markdown(&sheet, lang);
        prop_assert!(md.contains(&shown), "{shown} not in {md}");
        // The sheet's own file keeps the characters (escaped) and reads back the same.
        prop_assert_eq!(import_json(&to_json(&sheet), lang).ok(), Some(sheet.clone()));
    }
}

#[test]
fn show_writes_control_characters_as_it_writes_bidi_controls() {
    let text = "a\u{0}b\u{7}c\u{1b}d\u{7f}e\u{85}f\u{9f}g\th\ni\rj";
    assert_eq!(
        bidi::show(text, Shown::Text),
        "a<U+0000>b<U+0007>c<U+001B>d<U+007F>e<U+0085>f<U+009F>g\th\ni\rj"
    );
    assert_eq!(bidi::show("x\u{85}y", Shown::Markup), "x&lt;U+0085&gt;y");
    assert_eq!(bidi::show("x\u{7f}y", Shown::Json), "x\\u007Fy");
}
