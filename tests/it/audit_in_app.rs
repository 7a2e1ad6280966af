//! The app's "Check an existing configuration" through the target worker's own handler
//! (`domain::export::target_worker::handle`, what the page posts to and reads back with
//! `ReadDone::from_reply`): a Terraform file becomes one new process per job with its notes
//! in both languages; a broken file, a file with no job and an empty paste are refused with
//! the file and the line; the export worker refuses to audit. The page's part (paste, add,
//! catalog unchanged on a refusal) is tests/e2e/check-config.test.mjs.

use modality_advisor::domain::audit::to_catalog::MAX_JOBS;
use modality_advisor::domain::catalog::check::check_catalog;
use modality_advisor::domain::export::protocol::{self, ExportReply};
use modality_advisor::domain::export::read::{ReadAs, ReadDone, ReadRequest};
use modality_advisor::domain::export::target_worker;
use modality_advisor::domain::Lang;

const TERRAFORM: &str = r#"# Orders: the queue, its dead-letter queue and the function that drains it.
resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq"
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = 60
  message_retention_seconds  = var.retention_seconds
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_lambda_function" "ship_order" {
  function_name = "ship-order"
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.ship_order.arn
  batch_size       = 10
}
"#;

/// Posts a configuration read to `handle` as the page does and reads the reply as the page
/// does.
fn ask(handle: fn(&str) -> String, file: &str, text: &str, lang: Lang) -> ReadDone {
    ask_with(handle, file, text, &[], lang)
}

/// [`ask`] with lock files given beside the configuration.
fn ask_with(
    handle: fn(&str) -> String,
    file: &str,
    text: &str,
    locks: &[(&str, &str)],
    lang: Lang,
) -> ReadDone {
    let request = ReadRequest {
        id: 7,
        lang,
        text: text.to_owned(),
        read: ReadAs::Configuration {
            file_name: file.to_owned(),
            catalog_name: "Shop".to_owned(),
            seed: 42,
            now_ms: 1_700_000_000_000,
            lock_files: locks
                .iter()
                .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
                .collect(),
        },
    };
    let reply = ExportReply::from_json(&handle(&request.to_json())).expect("a reply");
    assert_eq!(reply.id, 7);
    let text = reply.result.expect("the worker answers");
    ReadDone::from_reply(&text)
        .expect("a read answer")
        .expect("not an import error")
}

#[test]
fn a_terraform_file_becomes_a_new_process_with_its_notes() {
    for lang in [Lang::En, Lang::Ja] {
        let ReadDone::Audited { catalog } = ask(target_worker::handle, "main.tf", TERRAFORM, lang)
        else {
            panic!("not audited");
        };
        check_catalog(&catalog).expect("a catalog the page keeps");
        assert_eq!(catalog.processes.len(), 1);
        let p = &catalog.processes[0];
        assert_eq!(p.name, "orders (main.tf)");
        let sheet = p.sheet.as_ref().expect("the job's sheet");
        let retry = sheet.retry.as_ref().expect("its retries");
        assert_eq!(
            (retry.max_attempts, retry.lease_ms, retry.attempt_timeout_ms),
            (5, 60_000, 30_000)
        );
        // The audit's word stays with the process the job became.
        let n = p.audit.as_deref().expect("the audit's record");
        assert_eq!(
            (n.file.as_str(), n.system.as_str(), n.line),
            ("main.tf", "sqs", 6)
        );
        assert_eq!(n.en.len(), n.ja.len());
        assert_eq!((n.errors, n.warnings), (0, 1), "{:?}", n.en);
        let en = n.en.join("\n");
        assert!(
            en.contains("Line 8, warning:") && en.contains("6 ×"),
            "{en}"
        );
        assert!(
            en.contains("var.retention_seconds") && en.contains("Line 9"),
            "{en}"
        );
        // Not resolved is not "not stated": the note says the sheet holds the system's
        // default only in its place, and the rules that need it are not checked.
        assert!(
            !en.contains("retry.queue_retention_ms ="),
            "not stated: {en}"
        );
        assert!(en.contains("the sheet uses the system's default"), "{en}");
        assert!(
            en.contains("Cannot check “The retries last longer than the queue keeps the message” (MA-window-over-retention)")
                && en.contains("message_retention_seconds = var.retention_seconds"),
            "{en}"
        );
        // The schedule the system runs, as the CLI words it: 5 receives, 1 min apart.
        assert!(
            n.en.iter()
                .any(|l| l.starts_with("schedule: attempts: 5; waits: 1 min")),
            "{en}"
        );
        let ja = n.ja.join("\n");
        assert!(
            ja.contains("8 行目・注意") && ja.contains("var.retention_seconds"),
            "{ja}"
        );
        assert!(ja.contains("試行回数"), "{ja}");
    }
}

#[test]
fn a_broken_or_empty_file_is_refused_naming_the_file_and_line() {
    let broken = "resource \"aws_sqs_queue\" \"q\" {\n  visibility_timeout_seconds = \n";
    let ReadDone::AuditRefused { en, ja } =
        ask(target_worker::handle, "broken.tf", broken, Lang::En)
    else {
        panic!("a broken file is refused");
    };
    assert!(en.starts_with("broken.tf, line "), "{en}");
    assert!(en.ends_with("Nothing was added to the catalog."), "{en}");
    assert!(
        ja.starts_with("broken.tf の ") && ja.contains("行目"),
        "{ja}"
    );
    // The reader's sentence ends with 。 and the next follows without a space.
    assert!(ja.ends_with("。カタログには何も追加していません。"), "{ja}");
    assert!(!ja.contains("。 "), "{ja}");

    let none = "# nothing here\nvalue = 1\n";
    let ReadDone::AuditRefused { en, .. } = ask(target_worker::handle, "notes.py", none, Lang::En)
    else {
        panic!("a file without a job is refused");
    };
    assert!(en.starts_with("notes.py: "), "{en}");

    let ReadDone::AuditRefused { en, .. } = ask(target_worker::handle, "", "", Lang::En) else {
        panic!("an empty paste is refused");
    };
    assert!(en.starts_with("pasted text: "), "{en}");

    // More jobs than one file adds at a time: refused whole, the count said (none dropped
    // without a word).
    let job = |i: usize| {
        format!(
            "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j{i}\nspec:\n  backoffLimit: 2\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: c\n          image: busybox\n"
        )
    };
    let many: String = (0..=MAX_JOBS).map(job).collect();
    let ReadDone::AuditRefused { en, ja } =
        ask(target_worker::handle, "jobs.yaml", &many, Lang::En)
    else {
        panic!("too many jobs are refused");
    };
    assert!(
        en.starts_with(&format!(
            "jobs.yaml holds {} jobs; at most {MAX_JOBS}",
            MAX_JOBS + 1
        )) && en.ends_with("Nothing was added to the catalog."),
        "{en}"
    );
    // Counted in 件 as the product counts jobs; the command named in brackets, not backticks.
    assert!(
        ja.contains("201 件のジョブ") && ja.contains("「modality-advisor audit」"),
        "{ja}"
    );
    assert!(!en.contains('`') && !ja.contains('`'), "{en} / {ja}");
    let few: String = (0..MAX_JOBS).map(job).collect();
    let ReadDone::Audited { catalog } = ask(target_worker::handle, "jobs.yaml", &few, Lang::En)
    else {
        panic!("{MAX_JOBS} jobs are added");
    };
    assert_eq!(catalog.processes.len(), MAX_JOBS);
}

#[test]
fn a_value_the_system_takes_but_a_sheet_cannot_hold_keeps_the_file_and_says_so() {
    // SQS takes a visibility timeout of 0 s (the message is visible again at once); a
    // sheet's lease is at least 1 ms. The whole file was refused for it ("retry.lease_ms: 0
    // is out of range"), its other queue with it.
    let text = r#"resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = 0
}

resource "aws_sqs_queue" "mail" {
  name                       = "mail"
  visibility_timeout_seconds = 60
}

resource "aws_lambda_function" "ship" {
  function_name = "ship"
  timeout       = 3
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.ship.arn
}

resource "aws_lambda_event_source_mapping" "mail" {
  event_source_arn = aws_sqs_queue.mail.arn
  function_name    = aws_lambda_function.ship.arn
}
"#;
    for lang in [Lang::En, Lang::Ja] {
        let done = ask(target_worker::handle, "main.tf", text, lang);
        let ReadDone::Audited { catalog } = done else {
            panic!("both queues are added: {done:?}");
        };
        check_catalog(&catalog).expect("a catalog the page keeps");
        let names: Vec<&str> = catalog.processes.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["orders (main.tf)", "mail (main.tf)"]);
        let orders = &catalog.processes[0];
        let lease = orders
            .sheet
            .as_ref()
            .and_then(|s| s.retry.as_ref())
            .map(|r| r.lease_ms);
        assert_eq!(lease, Some(1), "the nearest lease a sheet holds");
        let n = orders.audit.as_deref().expect("the audit's record");
        assert_eq!(
            n.en[0],
            "Lease / visibility timeout (retry.lease_ms): the file's 0 s is outside what a sheet \
             holds (1 ms to 1 d); the sheet holds 1 ms. The findings are about the file's 0 s."
        );
        assert!(
            n.ja[0].starts_with("リース")
                && n.ja[0].contains("ファイルの0秒は定義書で扱える範囲（1ミリ秒〜1日）の外です"),
            "{}",
            n.ja[0]
        );
        // The findings are the file's: Lambda refuses a visibility timeout of 0 s under the
        // function's 3 s.
        let en = n.en.join("\n");
        assert!(en.contains("the visibility timeout (0 s, line 3)"), "{en}");
        assert_eq!(n.errors, 1, "{en}");
        // The other queue's notes say nothing of it.
        let mail = catalog.processes[1].audit.as_deref().expect("its record");
        assert!(!mail.en.join("\n").contains("outside what a sheet holds"));
    }
    // Stated attempts past the sheet's 100: held at 100, and said (the preview said 1,000
    // and the sheet held 100 without a word).
    let many = TERRAFORM.replace("maxReceiveCount     = 5", "maxReceiveCount     = 1000");
    let ReadDone::Audited { catalog } = ask(target_worker::handle, "main.tf", &many, Lang::En)
    else {
        panic!("audited");
    };
    let p = &catalog.processes[0];
    let attempts = p
        .sheet
        .as_ref()
        .and_then(|s| s.retry.as_ref())
        .map(|r| r.max_attempts);
    assert_eq!(attempts, Some(100));
    let n = p.audit.as_deref().expect("the audit's record");
    // Said once, at its line, in the words the CLI uses (a warning of the job's since
    // 2026-12-05; the note that said it first claimed the findings were about the file's
    // 1,000, while the sheet's own findings count the 100 it holds).
    let said =
        n.en.iter()
            .filter(|line| line.contains("1,000") && line.contains("100"))
            .collect::<Vec<_>>();
    assert_eq!(
        said,
        [
            "Line 12, warning: redrive_policy.maxReceiveCount = 1,000: the sheet holds 1 – 100, \
             so it keeps 100."
        ],
        "{:#?}",
        n.en
    );
}

#[test]
fn code_pasted_without_a_name_is_read_from_its_text() {
    let celery = "from celery import Celery\napp = Celery('shop')\n\n@app.task(max_retries=4, retry_backoff=True)\ndef ship(order_id):\n    pass\n";
    let ReadDone::Audited { catalog } = ask(target_worker::handle, "", celery, Lang::En) else {
        panic!("pasted Celery code is read");
    };
    let origin = catalog.processes[0].audit.as_deref();
    assert_eq!(origin.map(|o| o.system.as_str()), Some("celery"));
    assert_eq!(origin.map(|o| o.file.as_str()), Some("pasted text"));
    assert_eq!(
        catalog.processes[0]
            .sheet
            .as_ref()
            .and_then(|s| s.retry.as_ref())
            .map(|r| r.max_attempts),
        Some(5)
    );
}

#[test]
fn the_export_worker_does_not_audit() {
    let ReadDone::AuditRefused { en, .. } = ask(protocol::handle, "main.tf", TERRAFORM, Lang::En)
    else {
        panic!("the export worker refuses");
    };
    assert!(en.contains("target module"), "{en}");
}

const SIDEKIQ: &str = "class ReceiptJob\n  include Sidekiq::Job\n  sidekiq_options retry: 5\nend\n";
const GEMFILE_LOCK: &str = "GEM\n  remote: https://rubygems.org/\n  specs:\n    connection_pool (2.4.1)\n    sidekiq (6.5.12)\n      connection_pool (>= 2.2.5, < 3)\n";

/// The notes of the one job `locks` and the Sidekiq job give, in `lang`.
fn sidekiq_notes(locks: &[(&str, &str)], lang: Lang) -> Vec<String> {
    let ReadDone::Audited { catalog } = ask_with(
        target_worker::handle,
        "receipt_job.rb",
        SIDEKIQ,
        locks,
        lang,
    ) else {
        panic!("not audited");
    };
    assert_eq!(catalog.processes.len(), 1);
    let origin = catalog.processes[0]
        .audit
        .as_deref()
        .expect("the audit's record");
    origin.notes(lang == Lang::Ja).to_vec()
}

#[test]
fn a_lock_file_given_with_the_configuration_chooses_the_release() {
    let en = sidekiq_notes(&[("Gemfile.lock", GEMFILE_LOCK)], Lang::En);
    assert_eq!(
        en[0],
        "Audited for Sidekiq 6.2.2 – 7.x (source read: 6.4.1): Gemfile.lock:5 pins sidekiq 6.5.12."
    );
    let ja = sidekiq_notes(&[("Gemfile.lock", GEMFILE_LOCK)], Lang::Ja);
    assert!(ja[0].contains("Gemfile.lock:5"), "{ja:?}");
    // Without it the newest is assumed, and the note says which file to add.
    let en = sidekiq_notes(&[], Lang::En);
    assert!(
        en[0].starts_with("Audited for Sidekiq 8.x (source read: 8.1.7), assumed")
            && en[0].contains("add the project's Gemfile.lock"),
        "{en:?}"
    );
    // A lock file that cannot be read is said, and the job is still audited.
    let en = sidekiq_notes(&[("package.json", "{\"dependencies\": ")], Lang::En);
    assert!(
        en[0].starts_with("package.json: not read for versions:"),
        "{en:?}"
    );
    assert!(en[1].contains("assumed"), "{en:?}");
}

#[test]
fn a_sheet_check_the_system_answers_itself_is_explained_in_the_notes() {
    use modality_advisor::domain::sheet::check::validate;
    // Sidekiq adds its own jitter, which the sheet has no value for: the sheet's form still
    // warns "without jitter", and the notes say why that does not apply to the job.
    let p = sidekiq_process();
    let sheet = p.sheet.as_ref().expect("a sheet");
    assert!(validate(sheet, Lang::En)
        .iter()
        .any(|f| f.code == "exponential-without-jitter"));
    let en = sidekiq_notes(&[], Lang::En);
    let moot: Vec<&String> = en
        .iter()
        .filter(|n| n.starts_with("The sheet's check “"))
        .collect();
    assert_eq!(moot.len(), 1, "{en:?}");
    assert!(
        moot[0].contains("(MA-exponential-without-jitter)")
            && moot[0].contains("as Sidekiq runs it"),
        "{moot:?}"
    );
    let ja = sidekiq_notes(&[], Lang::Ja);
    assert!(
        ja.iter()
            .any(|n| n.starts_with("定義書のチェック 「") && n.contains("Sidekiq")),
        "{ja:?}"
    );
    // A configuration whose waits the sheet holds as they are (Celery's own countdown,
    // without jitter) gets no such note: its warning is the job's own.
    let ReadDone::Audited { catalog } = ask(
        target_worker::handle,
        "tasks.py",
        "@app.task(bind=True, autoretry_for=(Exception,), max_retries=3, retry_backoff=True, retry_jitter=False)\ndef charge(self):\n    pass\n",
        Lang::En,
    ) else {
        panic!("not audited");
    };
    let notes = catalog.processes[0]
        .audit
        .as_deref()
        .expect("a record")
        .notes(false)
        .to_vec();
    assert!(
        !notes.iter().any(|n| n.starts_with("The sheet's check")),
        "{notes:?}"
    );
}

/// The Sidekiq job checked with its Gemfile.lock, as the page gets it back: one process.
fn sidekiq_process() -> modality_advisor::domain::catalog::Process {
    let ReadDone::Audited { mut catalog } = ask_with(
        target_worker::handle,
        "receipt_job.rb",
        SIDEKIQ,
        &[("Gemfile.lock", GEMFILE_LOCK)],
        Lang::En,
    ) else {
        panic!("not audited");
    };
    catalog.processes.remove(0)
}

#[test]
fn after_add_the_audits_word_stays_with_the_process_in_the_file_the_row_and_the_document() {
    use modality_advisor::domain::catalog::check::read_catalog;
    use modality_advisor::domain::catalog::export::markdown::to_markdown;
    use modality_advisor::domain::catalog::import::{apply_import, ImportMode};
    use modality_advisor::domain::catalog::Catalog;
    use modality_advisor::domain::catalog_rows::row;
    use modality_advisor::domain::queues::{TargetId, TargetVersion};

    let p = sidekiq_process();
    let a = p.audit.as_deref().expect("the audit's record").clone();
    // The release the lock pins, for "Configuration for".
    assert_eq!(a.version.as_deref(), Some("6.2.2-7"));
    assert_eq!(
        a.target_version(),
        Some(TargetVersion::parse(TargetId::Sidekiq, "6.2.2-7").expect("a range"))
    );
    // "Add to the catalog" merges it as the page does; the catalog file and the browser's
    // storage keep it.
    let mut incoming = Catalog::new("Shop");
    incoming.processes.push(p);
    let merged = apply_import(&Catalog::new("Shop"), &incoming, ImportMode::Merge).expect("merged");
    let text = serde_json::to_string_pretty(&merged).expect("written");
    let read = read_catalog(&text).expect("read back");
    assert_eq!(read.processes[0].audit.as_deref(), Some(&a));
    // The catalog row says there is a word to review, apart from the sheet's own findings:
    // the audit's findings in the file when it had some, else how many notes are left (not
    // "none" beside the Findings column's count of the sheet's own check).
    let r = row(&read.processes[0], Lang::En);
    let notes = a.en.len();
    assert!(notes > 1, "{:?}", a.en);
    let expected = match (a.errors, a.warnings) {
        (0, 0) => format!(
            "From receipt_job.rb:1: no error or warning in the file; {notes} notes to review"
        ),
        (0, 1) => "From receipt_job.rb:1, the audit's word to review: 1 warning".to_owned(),
        (0, w) => format!("From receipt_job.rb:1, the audit's word to review: {w} warnings"),
        (e, w) => panic!("the example has {e} errors and {w} warnings"),
    };
    assert_eq!(r.audit, expected);
    let ja = row(&read.processes[0], Lang::Ja).audit;
    assert!(ja.starts_with("receipt_job.rb:1 から作成。"), "{ja}");
    // The same record with no finding in the file, one note, or none.
    let mut clean = read.processes[0].clone();
    let mut record = a.clone();
    (record.errors, record.warnings) = (0, 0);
    clean.audit = Some(Box::new(record.clone()));
    assert_eq!(
        row(&clean, Lang::En).audit,
        format!("From receipt_job.rb:1: no error or warning in the file; {notes} notes to review")
    );
    assert_eq!(
        row(&clean, Lang::Ja).audit,
        format!(
            "receipt_job.rb:1 から作成。ファイルにエラー・警告なし。確認待ちの注記 {} 件",
            a.ja.len()
        )
    );
    record.en.truncate(1);
    record.ja.truncate(1);
    clean.audit = Some(Box::new(record.clone()));
    assert_eq!(
        row(&clean, Lang::En).audit,
        "From receipt_job.rb:1: no error or warning in the file; 1 note to review"
    );
    record.en.clear();
    record.ja.clear();
    clean.audit = Some(Box::new(record.clone()));
    assert_eq!(
        row(&clean, Lang::Ja).audit,
        "receipt_job.rb:1 から作成。ファイルにエラー・警告なし"
    );
    (record.errors, record.warnings) = (2, 1);
    clean.audit = Some(Box::new(record));
    assert_eq!(
        row(&clean, Lang::En).audit,
        "From receipt_job.rb:1, the audit's word to review: 2 errors, 1 warning"
    );
    // The catalog's document quotes every note, escaped for Markdown, in both languages.
    let md = to_markdown(&read, Lang::En);
    assert!(
        md.contains("> **Made from receipt\\_job.rb, line 1 (Sidekiq)"),
        "{md}"
    );
    assert!(md.contains("Gemfile.lock:5 pins sidekiq 6.5.12"), "{md}");
    assert!(md.contains("> - Not stated in the file"), "{md}");
    assert!(to_markdown(&read, Lang::Ja).contains("未確認の監査結果"));
    // Marked as reviewed, the record is gone and the file is as before the feature.
    let mut reviewed = read.clone();
    reviewed.processes[0].audit = None;
    assert!(!serde_json::to_string(&reviewed)
        .expect("written")
        .contains("\"audit\""));
    assert!(row(&reviewed.processes[0], Lang::En).audit.is_empty());
}

#[test]
fn a_link_carries_no_audit_record_and_every_reader_refuses_one() {
    use modality_advisor::domain::share::{link, Share, Shared, NO_AUDIT};

    let p = sidekiq_process();
    let share = Share {
        lang: Lang::En,
        content: Shared::Process(Box::new(p.clone())),
    };
    let json = share.to_json();
    assert!(!json.contains("\"audit\""), "{json}");
    let back = link::decode(&link::encode(&share)).expect("the link opens");
    let Shared::Process(q) = back.content else {
        panic!("a process")
    };
    assert_eq!(q.audit, None);
    assert_eq!(q.sheet, p.sheet, "everything else travels");
    // A hand-made share that holds one is refused by both readers, naming where.
    let with = serde_json::to_string(&share).expect("written");
    for read in [Share::from_json, Share::from_json_plain] {
        let e = read(&with).expect_err("refused");
        let said = e.message(Lang::En);
        assert!(
            said.contains("content.process.audit") && said.contains("not carried by a link"),
            "{said}"
        );
        let _ = NO_AUDIT;
    }
    let catalog = format!(
        "{{\"lang\":\"en\",\"content\":{{\"catalog\":{{\"catalog_version\":1,\"name\":\"\",\"processes\":[{}]}}}}}}",
        serde_json::to_string(&p).expect("written")
    );
    let e = Share::from_json(&catalog).expect_err("refused");
    assert!(
        e.message(Lang::En)
            .contains("content.catalog.processes[0].audit"),
        "{}",
        e.message(Lang::En)
    );
}

#[test]
fn an_audit_record_out_of_its_limits_is_refused_naming_the_field() {
    use modality_advisor::domain::catalog::check::read_catalog;
    use modality_advisor::domain::catalog::origin::{
        AuditOrigin, MAX_FILE_CHARS, MAX_NOTES, MAX_NOTE_CHARS,
    };
    use modality_advisor::domain::catalog::Catalog;
    type Change = dyn Fn(&mut AuditOrigin);

    let p = sidekiq_process();
    let refused = |change: &Change| {
        let mut q = p.clone();
        change(q.audit.as_deref_mut().expect("a record"));
        let mut c = Catalog::new("Shop");
        c.processes.push(q);
        let text = serde_json::to_string(&c).expect("written");
        read_catalog(&text).expect_err("refused").message(Lang::En)
    };
    let cases: [(&str, &Change); 8] = [
        ("processes[0].audit.line", &|a| a.line = 0),
        ("processes[0].audit.system", &|a| a.system = "rabbit".into()),
        ("processes[0].audit.version", &|a| {
            a.version = Some("9".into())
        }),
        ("processes[0].audit.file", &|a| {
            a.file = "x".repeat(MAX_FILE_CHARS + 1)
        }),
        ("processes[0].audit.en", &|a| {
            a.en = vec![String::new(); MAX_NOTES + 1]
        }),
        ("processes[0].audit.ja[0]", &|a| {
            a.ja[0] = "あ".repeat(MAX_NOTE_CHARS + 1)
        }),
        ("processes[0].audit.ja", &|a| {
            a.ja.pop();
        }),
        ("processes[0].audit.errors", &|a| {
            a.errors = a.en.len() as u32 + 1
        }),
    ];
    for (path, change) in cases {
        let said = refused(change);
        assert!(said.contains(path), "{path}: {said}");
    }
    // In Japanese the limits read in Japanese: the values and paths are the file's own words.
    let refused_ja = |change: &Change| {
        let mut q = p.clone();
        change(q.audit.as_deref_mut().expect("a record"));
        let mut c = Catalog::new("Shop");
        c.processes.push(q);
        let text = serde_json::to_string(&c).expect("written");
        read_catalog(&text).expect_err("refused").message(Lang::Ja)
    };
    for (change, words) in [
        (&cases[0].1, "使えるのは 1 〜 4,294,967,295"),
        (&cases[6].1, "項目 は範囲外です"),
        (&cases[7].1, "使えるのは 0 〜"),
        (&cases[1].1, "キューシステムの名前"),
    ] {
        let said = refused_ja(change);
        assert!(said.contains(words), "{words}: {said}");
        for english in ["or more", "counted", "notes", "allowed", "queue system"] {
            assert!(!said.contains(english), "{english}: {said}");
        }
    }
    // An unknown field in the record is refused too (a later build's record is not half read).
    let mut c = Catalog::new("Shop");
    c.processes.push(p);
    let text = serde_json::to_string(&c)
        .expect("written")
        .replace("\"errors\":", "\"severity\":3,\"errors\":");
    assert!(read_catalog(&text)
        .expect_err("refused")
        .message(Lang::En)
        .contains("severity"));
}

/// A YAML file with a syntax error is refused in plain words in both languages, for the
/// mistakes a hand-edited manifest has (a tab, a broken indentation, an unclosed bracket or
/// quote, an alias without its anchor), not in the parser's English ("while parsing a block
/// mapping, did not find expected key") in the Japanese refusal too.
#[test]
fn a_yaml_syntax_error_is_said_in_plain_words_in_both_languages() {
    let head = "apiVersion: batch/v1\nkind: Job\nmetadata:\n";
    let cases = [
        (
            format!("{head}\tname: j\n"),
            "a tab in the indentation",
            "字下げにタブ",
        ),
        (
            format!("{head}  name: j\n labels: x\n"),
            "indentation does not fit",
            "字下げが属するマッピング",
        ),
        (
            format!("{head}  name: j\nspec: {{backoffLimit: 2\n"),
            "a [ ] or { } is not closed",
            "閉じていない",
        ),
        (
            format!("{head}  name: j\nspec: [1, 2}}\n"),
            "a [ ] or { } is not closed",
            "閉じていない",
        ),
        (
            format!("{head}  name: \"j\n"),
            "a quoted text is not closed",
            "引用符で囲んだ文字列が閉じていない",
        ),
        (
            format!("{head}  name: x\n   labels: {{}}\n"),
            "indentation does not fit",
            "字下げが属するマッピング",
        ),
        (
            "apiVersion: batch/v1\nkind: Job\nmetadata: name: x\n".to_owned(),
            "two colons on a line",
            "コロンが 2 つ",
        ),
        (
            format!("{head}  name: j\nspec:\n  backoffLimit: 3\n  backoffLimit: 4\n"),
            "a key is written twice in the same mapping",
            "同じキーが 2 回",
        ),
        (
            format!("{head}  name: *nope\n"),
            "an alias (*name) names no anchor",
            "アンカー",
        ),
    ];
    for (text, en_words, ja_words) in cases {
        let ReadDone::AuditRefused { en, ja } =
            ask(target_worker::handle, "job.yaml", &text, Lang::En)
        else {
            panic!("{text:?} is refused");
        };
        assert!(en.contains(en_words), "{text:?}: {en}");
        assert!(!en.contains("while parsing"), "{text:?}: {en}");
        assert!(ja.contains(ja_words), "{text:?}: {ja}");
        assert!(
            !ja.contains("while parsing") && !ja.contains("EOF"),
            "{text:?}: {ja}"
        );
    }
}

/// Pasted text with no file name ("Empty: told from the text"): Terraform is read as
/// Terraform, and a broken manifest or Terraform file is refused with its syntax error and
/// line, not as "not a configuration the audit can read"; text that is no configuration
/// (prose, code without a job) still says what the audit reads.
#[test]
fn unnamed_text_is_told_from_its_text_and_a_broken_one_says_its_syntax_error() {
    let ReadDone::Audited { catalog } = ask(target_worker::handle, "", TERRAFORM, Lang::En) else {
        panic!("pasted Terraform is read");
    };
    assert_eq!(
        catalog.processes[0]
            .audit
            .as_deref()
            .map(|o| o.system.as_str()),
        Some("sqs")
    );

    let manifest_with_a_tab = "apiVersion: batch/v1\nkind: Job\nmetadata:\n\tname: nightly\n";
    let broken_tf = "resource \"aws_sqs_queue\" \"q\" {\n  visibility_timeout_seconds = \n";
    let broken_json = "{\"Resources\": {\"Q\": {\"Type\": \"AWS::SQS::Queue\",}}";
    for (text, lang) in [
        (manifest_with_a_tab, Lang::En),
        (broken_tf, Lang::En),
        (broken_json, Lang::En),
        (manifest_with_a_tab, Lang::Ja),
    ] {
        let ReadDone::AuditRefused { en, ja } = ask(target_worker::handle, "", text, lang) else {
            panic!("a broken paste is refused: {text}");
        };
        // The paste's name is in the language it was read in.
        let name = if lang == Lang::En {
            "pasted text"
        } else {
            "貼り付けたテキスト"
        };
        assert!(en.starts_with(&format!("{name}, line ")), "{en}");
        assert!(en.contains("syntax error"), "{en}");
        assert!(!en.contains("not a configuration"), "{en}");
        assert!(ja.contains("構文エラー"), "{ja}");
    }

    for text in [
        "Hello, this is a note about our queue.\nNothing to read here.\n",
        "import os\nprint(os.getcwd())\n",
    ] {
        let ReadDone::AuditRefused { en, .. } = ask(target_worker::handle, "", text, Lang::En)
        else {
            panic!("no configuration: {text}");
        };
        assert!(!en.contains("syntax error"), "{text}: {en}");
    }
}

/// A Terraform file with a syntax error is refused in Japanese words in the Japanese message
/// (hcl-edit writes "invalid expression; expected `"`, `[`, … letter or digit": the label
/// and the expectations are translated, the characters kept), and as the parser wrote it in
/// English. The parser's own message is checked first, so an hcl-edit that words them
/// otherwise fails here, not on a user's screen.
#[test]
fn a_terraform_syntax_error_is_said_in_japanese_words_in_japanese() {
    let cases = [
        (
            "resource \"aws_sqs_queue\" \"q\" {\n  visibility_timeout_seconds = \n}\n",
            "invalid expression; expected `\"`, `[`, `{`, `-`, `!`, `(`, `_`, `<`, letter or digit",
            "式が正しくありません。`\"`・`[`・`{`・`-`・`!`・`(`・`_`・`<`・英字・数字のどれかが必要です",
        ),
        (
            "resource \"aws_sqs_queue\" \"q\" {\n  name \"x\"\n}\n",
            "expected `{`",
            "`{`が必要です",
        ),
        (
            "resource \"aws_sqs_queue\" \"q\" {\n  name = \"x\"\n",
            "invalid block body; expected `}`, newline or identifier",
            "ブロックの本体が正しくありません。`}`・改行・識別子のどれかが必要です",
        ),
        (
            "resource \"aws_sqs_queue\" \"q\" {\n  name = [1, 2\n}\n",
            "expected `]`",
            "`]`が必要です",
        ),
        (
            "resource \"aws_sqs_queue\" \"q\" {\n  name = \"\\q\"\n}\n",
            "invalid escape sequence; expected `n`, `r`, `t`, `u`, `U`, `\\` or `\"`",
            "エスケープシーケンスが正しくありません。",
        ),
        (
            "resource \"aws_sqs_queue\" \"q\" {\n  name = 1 +\n}\n",
            "invalid expression; expected",
            "式が正しくありません。",
        ),
    ];
    for (text, raw, ja_words) in cases {
        let ReadDone::AuditRefused { en, ja } =
            ask(target_worker::handle, "main.tf", text, Lang::En)
        else {
            panic!("{text:?} is refused");
        };
        let said_en = en
            .split_once("syntax error: ")
            .map_or("", |(_, s)| s)
            .trim_end_matches(" Nothing was added to the catalog.");
        assert!(said_en.starts_with(raw), "{text:?}: {en}");
        let said = ja
            .split_once("構文エラー：")
            .map(|(_, s)| s)
            .unwrap_or_else(|| panic!("{text:?}: {ja}"));
        assert!(said.contains(ja_words), "{text:?}: {ja}");
        // Outside the quoted characters (`=`), no English word is left.
        let outside: String = said.split('`').step_by(2).collect();
        assert!(
            !outside.chars().any(|c| c.is_ascii_alphabetic()),
            "{text:?}: {ja}"
        );
        assert!(
            said.contains("が必要です") || said.contains("予期しない"),
            "{ja}"
        );
    }
}

/// JSON is held to JSON, not to the YAML reader's looser rules: a CloudFormation template
/// with a trailing comma (which AWS refuses) is refused with its line and the mistake in
/// plain words, named `.json` or pasted without a name; the same template without the comma
/// is read.
#[test]
fn a_json_template_with_a_trailing_comma_is_refused_as_json_refuses_it() {
    let template = |comma: &str| {
        format!(
            "{{\n  \"Resources\": {{\n    \"Orders\": {{\n      \"Type\": \"AWS::SQS::Queue\",\n      \"Properties\": {{\n        \"VisibilityTimeout\": 30{comma}\n      }}\n    }}\n  }}\n}}\n"
        )
    };
    for name in ["template.json", ""] {
        let ReadDone::AuditRefused { en, ja } =
            ask(target_worker::handle, name, &template(","), Lang::En)
        else {
            panic!("{name}: a trailing comma is refused");
        };
        assert!(en.contains("line 7"), "{name}: {en}");
        assert!(
            en.contains("a comma before a closing bracket"),
            "{name}: {en}"
        );
        assert!(ja.contains("閉じ括弧の直前にカンマ"), "{name}: {ja}");
        let ReadDone::Audited { catalog } =
            ask(target_worker::handle, name, &template(""), Lang::En)
        else {
            panic!("{name}: the template without the comma is read");
        };
        assert_eq!(catalog.processes.len(), 1, "{name}");
    }
    // Pasted code that opens like JSON but is no configuration file (a BullMQ options
    // object) is not held to JSON: the code scanners get it, as before.
    let options = "{ attempts: 5, backoff: { type: 'exponential', delay: 1000 } }\n";
    if let ReadDone::AuditRefused { en, .. } = ask(target_worker::handle, "", options, Lang::En) {
        assert!(!en.contains("syntax error"), "{en}");
    }
}

#[test]
fn the_simulators_configuration_is_named_for_what_it_is() {
    // "Check an existing configuration" with static/examples/queue-retry.config.json: it said
    // "not a configuration the audit can read", as for any other file.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/static/examples/queue-retry.config.json"
    ))
    .expect("the example");
    let ReadDone::AuditRefused { en, ja } = ask(
        target_worker::handle,
        "queue-retry.config.json",
        &text,
        Lang::En,
    ) else {
        panic!("refused");
    };
    assert!(
        en.contains("the command-line simulator's configuration")
            && en.contains("modality-advisor simulate --config FILE"),
        "{en}"
    );
    assert!(ja.contains("シミュレーターの設定"), "{ja}");
    assert!(
        !en.contains("not a configuration the audit can read"),
        "{en}"
    );
}
