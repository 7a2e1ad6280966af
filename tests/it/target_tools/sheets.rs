//! The sheets the parser test exports: the worked example, the files in `examples/sheets`,
//! variants of the wait strategy, load numbers (workers, our limit) at the brief's values and the targets' clamps, a ticket, a batch, retry layers, and sheets whose every
//! text is hostile (each text tagged with its own marker, see [`MARK`]).

use modality_advisor::domain::sheet::example::example;
use modality_advisor::domain::sheet::load::{DownstreamLimits, LoadSpec, Per, Rate};
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{
    BackoffKind, Decision, Jitter, JobSheet, LayerKind, Polynomial, RetryLayer,
};
use modality_advisor::domain::{Answers, Lang, Outcome, QuestionId};
use std::path::{Path, PathBuf};

/// Opens every field's marker, `⟪tag⟫`: a string literal holding a marker must hold that
/// field's whole text. Not ASCII, so identifiers made from a text drop it.
pub const MARK: &str = "⟪";

/// Text that breaks naive exports, one kind of trouble per piece: quotes and escapes, line
/// breaks of every kind (YAML and Python read U+0085 and U+2028 as breaks in places),
/// interpolation of each language (Ruby `#{}` `#@x`, JS / HCL `${}`, HCL `%{}`, Python `%s`),
/// comment ends, SQL injection, bidirectional controls, emoji, control characters (no NUL),
/// YAML indicators, and spaces at both ends.
const NASTY: [&str; 12] = [
    "\"double\" 'single' \\backslash\\ \\\" \\' \\n",
    "line 1\nline 2\r\nline 3\rline 4\u{85}NEL\u{2028}LS\u{2029}PS",
    "#{x} #@x #$x ${x} $${x} %{x} %%{x} {{x}} {% x %} %s %(x)s $1",
    "`x` ```fence``` $(touch /tmp/x) ~s(x) \\#{x}",
    "*/ /* -- # // <!-- --> \"\"\" '''",
    "</script><script>alert(1)</script>",
    "'); DROP TABLE jobs; -- $$ E'\\x' ;",
    "\u{202e}RLO\u{202c} \u{2066}isolate\u{2069} \u{feff}BOM \u{200b}ZWSP",
    "🎉 👨‍👩‍👧 日本語 ｜全角",
    "\t\u{1}\u{7}\u{8}\u{b}\u{c}\u{1b}[31m\u{1f}\u{7f}\u{9b}",
    "- &a *b !c | > ? @ % : key: value # not a comment",
    " leading and trailing space ",
];

/// A hostile text for the field tagged `tag`: the pieces of [`NASTY`] from the `n`-th on
/// (so fields start with different trouble), the marker after the first piece, and at least
/// `min_chars` characters (cut at a character boundary).
fn nasty(tag: &str, n: usize, min_chars: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while i < NASTY.len() || s.chars().count() < min_chars {
        s.push_str(NASTY[(n + i) % NASTY.len()]);
        if i == 0 {
            s.push_str(&format!("⟪{tag}⟫"));
        }
        s.push(' ');
        i += 1;
    }
    if min_chars > 0 {
        s = s.chars().take(min_chars).collect();
    }
    s
}

/// One sheet to export.
pub struct Case {
    /// Its name in messages.
    pub name: String,
    /// The sheet.
    pub sheet: JobSheet,
    /// The hostile fields: (tag, text) for every text carrying a marker.
    pub hostile: Vec<(String, String)>,
    /// Also read by the slow tools, in English (cfn-lint; `ruby -c` and `node --check`, a
    /// process per file).
    pub thorough: bool,
}

impl Case {
    fn new(name: &str, sheet: JobSheet) -> Case {
        Case {
            name: name.to_owned(),
            sheet,
            hostile: Vec::new(),
            thorough: false,
        }
    }

    fn thorough(mut self) -> Case {
        self.thorough = true;
        self
    }
}

/// A sheet prefilled for `outcome` from the worked example's process facts.
fn prefilled(outcome: Outcome) -> JobSheet {
    let q = |id| QuestionId::parse(id).expect("a question id");
    let answers: &[(&str, bool)] = match outcome {
        Outcome::Batch => &[("time-triggered", true)],
        Outcome::AsyncEnqueue => &[("time-triggered", false), ("needs-result-now", false)],
        Outcome::AsyncTicket => &[
            ("time-triggered", false),
            ("needs-result-now", true),
            ("within-seconds", false),
        ],
        Outcome::Sync => &[
            ("time-triggered", false),
            ("needs-result-now", true),
            ("within-seconds", true),
            ("external-call", false),
        ],
        Outcome::SyncTimeout => &[
            ("time-triggered", false),
            ("needs-result-now", true),
            ("within-seconds", true),
            ("external-call", true),
            ("keep-accepting-when-down", false),
        ],
    };
    let answers = answers
        .iter()
        .fold(Answers::new(), |a, &(id, yes)| a.with(q(id), yes));
    let decision = Decision::from_answers(&answers).expect("complete answers");
    assert_eq!(decision.outcome, outcome);
    prefill(worked(Lang::En).process, decision, Lang::En)
}

fn worked(lang: Lang) -> JobSheet {
    example(lang).expect("the worked example reads")
}

/// The worked example with its wait strategy changed.
fn variant(kind: BackoffKind, jitter: Jitter, non_retryable: bool) -> Case {
    let mut sheet = worked(Lang::En);
    let retry = sheet.retry.as_mut().expect("the example retries");
    let (base_ms, cap_ms) = match kind {
        BackoffKind::Fixed => (30_000, 30_000),
        BackoffKind::Exponential => (10_000, 600_000),
        BackoffKind::Polynomial(_) => (15_000, 86_400_000),
    };
    retry.backoff.kind = kind;
    retry.backoff.base_ms = base_ms;
    retry.backoff.cap_ms = cap_ms;
    retry.backoff.jitter = jitter;
    if !non_retryable {
        retry.non_retryable_errors.clear();
    }
    let kind = match kind {
        BackoffKind::Fixed => "fixed".to_owned(),
        BackoffKind::Exponential => "exponential".to_owned(),
        BackoffKind::Polynomial(p) => format!("polynomial n^{} from n={}", p.exponent, p.first_n),
    };
    let errors = if non_retryable {
        ""
    } else {
        ", no non-retryable errors"
    };
    Case::new(&format!("{kind}, jitter {jitter:?}{errors}"), sheet)
}

/// Every text of `sheet` hostile, each with its own marker; returns the (tag, text) pairs.
fn make_hostile(sheet: &mut JobSheet) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    let mut next = 0;
    let mut put = |tag: &str, min_chars: usize| {
        next += 1;
        let s = nasty(tag, next, min_chars);
        fields.push((tag.to_owned(), s.clone()));
        s
    };
    let p = &mut sheet.process;
    p.process_name = put("process-name", 0);
    p.code_name = put("code-name", 0);
    p.trigger = put("trigger", 0);
    p.arguments = vec![put("argument-1", 0), put("argument-2", 0)];
    p.business_key = put("business-key", 0);
    p.key_purpose = put("key-purpose", 0);
    p.permanent_errors = vec![put("permanent-error", 0)];
    if let Some(r) = &mut sheet.retry {
        r.idempotency_key = put("key", 0);
        r.retryable_errors = vec![
            put("retryable-1", 0),
            put("retryable-2", 2_000),
            "Net::ReadTimeout".to_owned(),
        ];
        r.non_retryable_errors = vec![put("non-retryable", 0), "ValueError".to_owned()];
        r.layers = vec![RetryLayer {
            layer: LayerKind::Sdk,
            attempts: 3,
            what: put("layer", 0),
        }];
    }
    if let Some(f) = &mut sheet.failure {
        f.dead_letter = put("dead-letter", 0);
        f.notify = put("notify", 2_000);
        f.rerun = put("rerun", 2_000);
    }
    if let Some(t) = &mut sheet.ticket {
        t.states = vec![put("state-1", 0), put("state-2", 0)];
        t.completion = put("completion", 0);
    }
    if let Some(b) = &mut sheet.batch {
        // A real cron expression that holds `*/`, the end of a block comment.
        b.schedule = "*/15 3 * * 1-5".to_owned();
        // A zone with a slash and an underscore, written into every schedule that takes one.
        b.time_zone = "America/Argentina/Buenos_Aires".to_owned();
        b.partial_failure = put("partial-failure", 0);
    }
    fields
}

/// The brief's load numbers: 3 workers × 4 at once, our limit 10/s, the downstream 10/s
/// (burst 20), 5 at once, one at a time.
fn brief_load() -> LoadSpec {
    LoadSpec {
        workers: Some(3),
        concurrency: Some(4),
        our_limit: Some(Rate {
            count: 10,
            per: Per::Second,
        }),
        downstream: DownstreamLimits {
            rate: Some(Rate {
                count: 10,
                per: Per::Second,
            }),
            rate_burst: Some(20),
            concurrency: Some(5),
            exclusive_lock: true,
        },
        ..LoadSpec::default()
    }
}

/// Load numbers at the targets' clamps.
fn edge_load(workers: u32, each: u32, limit: Rate) -> LoadSpec {
    LoadSpec {
        workers: Some(workers),
        concurrency: Some(each),
        our_limit: Some(limit),
        ..LoadSpec::default()
    }
}

fn loaded(mut sheet: JobSheet, load: LoadSpec) -> JobSheet {
    sheet.load = Some(load);
    sheet
}

fn hostile_case(name: &str, mut sheet: JobSheet) -> Case {
    let hostile = make_hostile(&mut sheet);
    Case {
        hostile,
        ..Case::new(name, sheet)
    }
}

/// Every sheet the test exports.
pub fn cases() -> Vec<Case> {
    let mut cases = vec![
        Case::new("worked example (en)", worked(Lang::En)).thorough(),
        Case::new("worked example (ja)", worked(Lang::Ja)),
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sheets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for path in files {
        let json = std::fs::read_to_string(&path).expect("the example file reads");
        // The plain model reader, as the page reads saved sheets (the files are full sheets).
        let sheet: JobSheet = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{} reads as a sheet: {e}", path.display()));
        let name = path.file_name().expect("a file name").to_string_lossy();
        cases.push(Case::new(&format!("examples/sheets/{name}"), sheet));
    }
    let kinds = [
        BackoffKind::Fixed,
        BackoffKind::Exponential,
        BackoffKind::Polynomial(Polynomial {
            exponent: 4,
            first_n: 0,
        }),
    ];
    let jitters = [
        Jitter::None,
        Jitter::Full,
        Jitter::Equal,
        Jitter::Decorrelated,
    ];
    for kind in kinds {
        for jitter in jitters {
            for non_retryable in [true, false] {
                cases.push(variant(kind, jitter, non_retryable));
            }
        }
    }
    let mut layered = worked(Lang::En);
    let retry = layered.retry.as_mut().expect("the example retries");
    retry.layers = vec![
        RetryLayer {
            layer: LayerKind::Queue,
            attempts: 3,
            what: "SQS redelivery".to_owned(),
        },
        RetryLayer {
            layer: LayerKind::Sdk,
            attempts: 3,
            what: "AWS SDK standard retry mode".to_owned(),
        },
    ];
    retry.queue_retention_ms = Some(4 * 86_400_000);
    cases.push(Case::new("retry layers, queue retention 4 days", layered).thorough());
    let mut many = worked(Lang::En);
    let retry = many.retry.as_mut().expect("the example retries");
    retry.max_attempts = 100;
    retry.backoff.cap_ms = 30 * 86_400_000;
    retry.queue_retention_ms = Some(30 * 86_400_000);
    cases.push(Case::new("100 attempts, cap and retention 30 days", many));
    // The load section's numbers (workers × jobs at once, our limit, the downstream's
    // limits): every target writes its concurrency and rate knobs.
    cases.push(
        Case::new(
            "load: 3 workers × 4, our limit 10/s",
            loaded(worked(Lang::En), brief_load()),
        )
        .thorough(),
    );
    cases.push(Case::new(
        "load (ja)",
        loaded(worked(Lang::Ja), brief_load()),
    ));
    cases.push(Case::new(
        "load at the low edges: 1 worker, 1/h",
        loaded(
            worked(Lang::En),
            edge_load(
                1,
                1,
                Rate {
                    count: 1,
                    per: Per::Hour,
                },
            ),
        ),
    ));
    cases.push(
        Case::new(
            "load at the high edges: 1,000 × 1,000, 1,000,000/min",
            loaded(
                worked(Lang::En),
                edge_load(
                    1_000,
                    1_000,
                    Rate {
                        count: 1_000_000,
                        per: Per::Minute,
                    },
                ),
            ),
        )
        .thorough(),
    );
    cases.push(Case::new(
        "batch with load",
        loaded(prefilled(Outcome::Batch), brief_load()),
    ));
    cases.push(Case::new("async ticket", prefilled(Outcome::AsyncTicket)));
    cases.push(Case::new("batch", prefilled(Outcome::Batch)));
    cases.push(Case::new("sync", prefilled(Outcome::Sync)));
    cases.push(Case::new(
        "sync with timeout",
        prefilled(Outcome::SyncTimeout),
    ));
    cases.push(hostile_case("hostile async job", worked(Lang::En)).thorough());
    cases.push(hostile_case(
        "hostile async job with load",
        loaded(worked(Lang::En), brief_load()),
    ));
    cases.push(hostile_case(
        "hostile async ticket",
        prefilled(Outcome::AsyncTicket),
    ));
    cases.push(hostile_case("hostile batch", prefilled(Outcome::Batch)));
    let mut empty = worked(Lang::Ja);
    empty.process.process_name.clear();
    empty.process.code_name = "🎉 123".to_owned();
    empty.process.business_key.clear();
    let retry = empty.retry.as_mut().expect("the example retries");
    retry.idempotency_key.clear();
    retry.retryable_errors.clear();
    retry.non_retryable_errors.clear();
    let failure = empty
        .failure
        .as_mut()
        .expect("the example has a failure section");
    failure.dead_letter.clear();
    failure.notify.clear();
    cases.push(Case::new("empty texts, code name without letters", empty).thorough());
    cases.extend(named_cases());
    cases
}

/// Code names of every kind the identifiers are made from (issue 27): ASCII, Japanese,
/// emoji, digits first, nothing left after cleaning, ASCII inside Japanese, 200 characters
/// — each read by the real parsers as a class, function, module, queue or resource name.
pub const CODE_NAMES: [&str; 7] = [
    "send_confirmation_mail",
    "確認メールの送信",
    "📧🎉",
    "3件目の送信",
    "!!! ???",
    "予約mail送信",
    "予約確認メールを送信する処理予約確認メールを送信する処理予約確認メールを送信する処理予約確認メールを送信する処理予約確認メールを送信する処理予約確認メールを送信する処理予約確認メールを送信する処理予約確認メールを送信する処理mail_sender_with_a_very_long_ascii_tail_that_goes_on_and_on_for_long_enough_to_pass_200_chars",
];

/// The errors the named cases give, names of several languages and descriptions mixed: a
/// description must never reach the code (only a comment).
pub const MIXED_RETRYABLE: [&str; 3] = [
    "Net::ReadTimeout",
    "TimeoutError",
    "メールサーバーの一時的な失敗",
];

/// See [`MIXED_RETRYABLE`].
pub const MIXED_PERMANENT: [&str; 6] = [
    "入力の形式エラー",
    "malformed input",
    "ValidationError",
    "ActiveRecord::RecordInvalid",
    "*pgconn.PgError",
    "23505",
];

/// The worked example under each of [`CODE_NAMES`], with the mixed errors.
fn named_cases() -> Vec<Case> {
    CODE_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut sheet = worked(if i % 2 == 0 { Lang::En } else { Lang::Ja });
            sheet.process.code_name = (*name).to_owned();
            let retry = sheet.retry.as_mut().expect("the example retries");
            retry.retryable_errors = MIXED_RETRYABLE.map(str::to_owned).to_vec();
            retry.non_retryable_errors = MIXED_PERMANENT.map(str::to_owned).to_vec();
            Case::new(&format!("code name {name:?}, mixed errors"), sheet).thorough()
        })
        .collect()
}
