//! The app's "Check an existing configuration" through the target worker's own handler
//! (`domain::export::target_worker::handle`, what the page posts to and reads back with
//! `ReadDone::from_reply`): a Terraform file becomes one new process per job with its notes
//! in both languages; a broken file, a file with no job and an empty paste are refused with
//! the file and the line; the export worker refuses to audit. The page's part (paste, add,
//! catalog unchanged on a refusal) is tests/e2e/check-config.test.mjs.

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
        let ReadDone::Audited { catalog, notes } =
            ask(target_worker::handle, "main.tf", TERRAFORM, lang)
        else {
            panic!("not audited");
        };
        check_catalog(&catalog).expect("a catalog the page keeps");
        assert_eq!(catalog.processes.len(), 1);
        assert_eq!(notes.len(), 1);
        let p = &catalog.processes[0];
        assert_eq!(p.name, "orders (main.tf)");
        let sheet = p.sheet.as_ref().expect("the job's sheet");
        let retry = sheet.retry.as_ref().expect("its retries");
        assert_eq!(
            (retry.max_attempts, retry.lease_ms, retry.attempt_timeout_ms),
            (5, 60_000, 30_000)
        );
        let n = &notes[0];
        assert_eq!(
            (n.id.clone(), n.system.as_str(), n.line),
            (p.id.clone(), "sqs", 6)
        );
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
            en.contains("Cannot check MA-window-over-retention")
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
}

#[test]
fn code_pasted_without_a_name_is_read_from_its_text() {
    let celery = "from celery import Celery\napp = Celery('shop')\n\n@app.task(max_retries=4, retry_backoff=True)\ndef ship(order_id):\n    pass\n";
    let ReadDone::Audited { catalog, notes } = ask(target_worker::handle, "", celery, Lang::En)
    else {
        panic!("pasted Celery code is read");
    };
    assert_eq!(notes[0].system, "celery");
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
    let ReadDone::Audited { notes, .. } = ask_with(
        target_worker::handle,
        "receipt_job.rb",
        SIDEKIQ,
        locks,
        lang,
    ) else {
        panic!("not audited");
    };
    assert_eq!(notes.len(), 1);
    if lang == Lang::Ja {
        notes[0].ja.clone()
    } else {
        notes[0].en.clone()
    }
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
