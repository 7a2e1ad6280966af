//! The flowchart's text alternative: the lit SVG names a `<desc>` (through
//! `aria-describedby`) that says the path taken and the outcome in words, in English and
//! Japanese, for every way through the flowchart; the share card's SVG says the same.

use modality_advisor::domain::diagram::{highlighted_svg, path_text};
use modality_advisor::domain::{evaluate, Answers, Lang, QuestionId};

use QuestionId::{
    ExternalCall as Ext, KeepAcceptingWhenDown as Keep, NeedsResultNow as Now,
    TimeTriggered as Time, WithinSeconds as Within,
};

/// The text of the element the root's `aria-describedby` names, and that element's tag.
fn described(svg: &str) -> (String, String) {
    let doc = roxmltree::Document::parse(svg).expect("the lit SVG is well-formed XML");
    let root = doc.root_element();
    let id = root
        .attribute("aria-describedby")
        .expect("aria-describedby on the root");
    let node = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no element with id {id}"));
    let text: String = node
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    (node.tag_name().name().to_owned(), text)
}

fn answers(given: &[(QuestionId, bool)]) -> Answers {
    let mut a = Answers::new();
    for &(q, v) in given {
        a.set(q, v);
    }
    a
}

/// The answers along one path, in order.
type Walk = &'static [(QuestionId, bool)];

/// Every way through the flowchart (six paths to five outcomes), with the outcome's name in
/// English and Japanese, written out here.
const PATHS: [(Walk, &str, &str); 6] = [
    (&[(Time, true)], "Scheduled batch", "定期バッチ"),
    (
        &[(Time, false), (Now, false)],
        "Asynchronous: enqueue a job",
        "非同期：ジョブをキューに登録",
    ),
    (
        &[(Time, false), (Now, true), (Within, false)],
        "Asynchronous with a ticket",
        "非同期：受付番号を返す",
    ),
    (
        &[(Time, false), (Now, true), (Within, true), (Ext, false)],
        "Stay synchronous",
        "同期のまま",
    ),
    (
        &[
            (Time, false),
            (Now, true),
            (Within, true),
            (Ext, true),
            (Keep, true),
        ],
        "Asynchronous with a ticket",
        "非同期：受付番号を返す",
    ),
    (
        &[
            (Time, false),
            (Now, true),
            (Within, true),
            (Ext, true),
            (Keep, false),
        ],
        "Synchronous, with a timeout on the call",
        "同期：呼び出しにタイムアウトを設定",
    ),
];

#[test]
fn the_flowchart_describes_every_path_and_its_outcome_in_both_languages() {
    for (given, en, ja) in PATHS {
        let eval = evaluate(&answers(given));
        for (lang, outcome, path, yes, no, sep) in [
            (Lang::En, en, "Path: ", "Yes", "No", "outcome: "),
            (Lang::Ja, ja, "経路：", "はい", "いいえ", "判断："),
        ] {
            let (tag, text) = described(&highlighted_svg(lang, &eval, None));
            assert_eq!(tag, "desc", "{given:?} {lang:?}");
            // Each question asked, with its answer, in order; then the outcome, last.
            let mut want = String::from(path);
            for &(q, v) in given {
                want.push_str(&format!("{} {} → ", q.text(lang), if v { yes } else { no }));
            }
            want.push_str(&format!("{sep}{outcome}"));
            assert_eq!(text, want, "{given:?} {lang:?}");
            assert_eq!(text, path_text(&eval, lang));
        }
    }
}

#[test]
fn the_description_reads_as_written_for_two_paths() {
    let eval = evaluate(&answers(&[(Time, false), (Now, false)]));
    assert_eq!(
        described(&highlighted_svg(Lang::En, &eval, None)).1,
        "Path: Is the trigger a point in time, and is it fine to process the work together in \
         bulk? No → Does the user need the result right there, in the response? No → outcome: \
         Asynchronous: enqueue a job"
    );
    let eval = evaluate(&answers(&[(Time, true)]));
    assert_eq!(
        described(&highlighted_svg(Lang::Ja, &eval, None)).1,
        "経路：起点は時刻で、まとめて処理してよいですか？ はい → 判断：定期バッチ"
    );
}

#[test]
fn an_unfinished_path_names_the_next_question() {
    for (given, next) in [
        (&[][..], Time),
        (&[(Time, false)][..], Now),
        (&[(Time, false), (Now, true), (Within, true)][..], Ext),
    ] {
        let eval = evaluate(&answers(given));
        let (_, en) = described(&highlighted_svg(Lang::En, &eval, None));
        assert!(en.starts_with("Path: "), "{en}");
        assert!(
            en.ends_with(&format!("next question: {}", next.text(Lang::En))),
            "{en}"
        );
        assert!(!en.contains("outcome"), "{en}");
        let (_, ja) = described(&highlighted_svg(Lang::Ja, &eval, None));
        assert!(
            ja.ends_with(&format!("次の質問：{}", next.text(Lang::Ja))),
            "{ja}"
        );
    }
}

#[test]
fn the_share_card_svg_carries_the_same_description() {
    use modality_advisor::domain::share::card::html;
    use modality_advisor::domain::share::{Share, Shared};
    for lang in Lang::ALL {
        for p in crate::catalog_support::example_catalog().processes {
            let want = path_text(&evaluate(&p.answers()), lang);
            let share = Share {
                lang,
                content: Shared::Process(Box::new(p.clone())),
            };
            let card = html(&share, lang, "https://wiki.example/#share-v1:abc");
            let start = card.find("<svg").expect("the card holds the flowchart");
            let end = card[start..].find("</svg>").expect("closed") + start + 6;
            let (tag, text) = described(&card[start..end]);
            assert_eq!(
                (tag.as_str(), text.as_str()),
                ("desc", want.as_str()),
                "{}",
                p.id.as_str()
            );
            // The caption under it says the same, for sighted readers.
            assert!(card[end..].contains("class=\"sc-path\""));
        }
    }
}
