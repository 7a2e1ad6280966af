//! "Check an existing configuration" on the catalog screen (issue 27 item 2): paste a file,
//! choose one or drop it on the box; the document worker reads it (Terraform, CloudFormation,
//! a Kubernetes Job, a Cloud Tasks queue, Celery / Sidekiq / Active Job / Oban / River /
//! BullMQ / pg-boss / Temporal literals — `domain::audit`) and answers with one new process
//! per job found, its sheet holding what the file says, and what the audit says about each
//! (findings, values not resolved, facts not stated, each with its line). Nothing changes
//! until "Add to the catalog"; the new processes get ids unused in the catalog, so nothing is
//! overwritten. A file that cannot be read gives a message naming the file and the line, and
//! the catalog stays as it was. The readers are not in the page: they load with the target
//! worker on the first check.
//!
//! Lock and requirement files (Gemfile.lock, package.json, requirements.txt … —
//! [`pins::is_pin_file`]) chosen or dropped with the configuration are kept beside it and sent
//! with it: the worker audits each job for the release they pin, and the notes say so.

use crate::domain::app_state::{CatalogAction, CatalogNotice};
use crate::domain::audit::found::MAX_FILE_BYTES;
use crate::domain::audit::pins;
use crate::domain::catalog::import::{apply_import, ImportMode};
use crate::domain::catalog::Catalog;
use crate::domain::export::read::{ReadAs, ReadDone, ReadRequest};
use crate::domain::number::file_size;
use crate::domain::Lang;
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext};
use yew::prelude::*;

/// What the last check gave.
#[derive(Clone, PartialEq)]
enum Outcome {
    /// Jobs found: the new processes, each with what the audit says about it, waiting for
    /// "Add".
    Found {
        /// The file's name.
        file: String,
        /// One process per job.
        catalog: Catalog,
    },
    /// The file could not be read: why, in English and in Japanese (a language switch
    /// rewords it).
    Refused {
        /// In English.
        en: String,
        /// In Japanese.
        ja: String,
    },
    /// The worker could not be asked: why, already in the page's language then.
    Failed(String),
}

/// `incoming`'s processes under ids unused in `current`, so adding them never replaces a
/// process already there.
fn with_fresh_ids(current: &Catalog, incoming: &Catalog) -> Catalog {
    let mut room = current.clone();
    let mut out = Catalog::new(&current.name);
    for (i, p) in incoming.processes.iter().enumerate() {
        let id = room.fresh_id(browser::random_seed().wrapping_add(i as u64));
        let mut p = p.clone();
        p.id = id;
        room.processes.push(p.clone());
        out.processes.push(p);
    }
    out
}

/// Lock files kept beside the configuration: (name, text).
type Locks = Vec<(String, String)>;

/// Asks the document worker to audit `text` (named `file`) with the lock files `locks`.
async fn audit(
    ctx: &AppContext,
    (file, text, locks): (String, String, Locks),
    lang: Lang,
) -> Outcome {
    let current = ctx.catalog_now();
    let request = ReadRequest {
        id: 0,
        lang,
        text,
        read: ReadAs::Configuration {
            file_name: file.clone(),
            catalog_name: current.name.clone(),
            seed: browser::random_seed(),
            now_ms: browser::now_ms(),
            lock_files: locks,
        },
    };
    match browser::read_file_in_worker(request).await {
        Ok(Ok(ReadDone::Audited { catalog })) => Outcome::Found { file, catalog },
        Ok(Ok(ReadDone::AuditRefused { en, ja })) => Outcome::Refused { en, ja },
        Ok(Ok(_)) => Outcome::Failed(
            t!(
                "import.worker.bad-reply",
                locale = lang.code(),
                reason = "not an audit"
            )
            .into_owned(),
        ),
        Ok(Err(e)) => Outcome::Failed(e.message(lang)),
        Err(e) => Outcome::Failed(e),
    }
}

/// The "Check an existing configuration" section.
#[component]
pub fn CheckConfiguration() -> Html {
    let Some(ctx) = use_context::<AppContext>() else {
        return Html::default();
    };
    let l = ctx.lang.code();
    let text = use_state(String::new);
    let name = use_state(String::new);
    let busy = use_state(|| false);
    let outcome = use_state(|| None::<Outcome>);
    let locks = use_state(Locks::new);
    // Runs the check on (file name, text); the text box shows what was checked.
    let run = {
        let (ctx, text, name, busy, outcome) = (
            ctx.clone(),
            text.clone(),
            name.clone(),
            busy.clone(),
            outcome.clone(),
        );
        Callback::from(move |(file, body, with): (String, String, Locks)| {
            if *busy {
                return;
            }
            busy.set(true);
            text.set(body.clone());
            name.set(file.clone());
            let (ctx, busy, outcome) = (ctx.clone(), busy.clone(), outcome.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let lang = ctx.lang;
                let done = audit(&ctx, (file, body, with), lang).await;
                busy.set(false);
                outcome.set(Some(done));
            });
        })
    };
    let failed = {
        let outcome = outcome.clone();
        Callback::from(move |m: String| outcome.set(Some(Outcome::Failed(m))))
    };
    let picked = picked(&run, &locks, &text, &name);
    let (onchange, ondrop, ondragover) = file_callbacks(&picked, &failed, ctx.lang);
    let ontext = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(
                e.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            );
        })
    };
    let onname = {
        let name = name.clone();
        Callback::from(move |e: InputEvent| {
            name.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            );
        })
    };
    let check = {
        let (run, text, name, locks) = (run.clone(), text.clone(), name.clone(), locks.clone());
        Callback::from(move |_| run.emit(((*name).clone(), (*text).clone(), (*locks).clone())))
    };
    let result = (*outcome)
        .as_ref()
        .map(|o| result(&ctx, o, &outcome))
        .unwrap_or_default();
    html! {
        <section class="check-config" id="check-config" aria-labelledby="check-config-title">
            <h3 id="check-config-title">{ t!("check-config.title", locale = l) }</h3>
            <p class="help">{ t!("check-config.intro", locale = l) }</p>
            <p class="import-row">
                <label for="check-config-file" class="button secondary">{ t!("check-config.choose", locale = l) }</label>
                <input type="file" id="check-config-file" class="visually-hidden" {onchange} multiple=true
                    accept=".tf,.yaml,.yml,.json,.template,.py,.rb,.ex,.exs,.go,.ts,.js,.mjs,.cjs,.lock,.txt,.mod" />
            </p>
            if !locks.is_empty() {
                <div class="sfield" id="check-config-locks"><p class="help">{ t!("check-config.locks", locale = l) }</p>
                    <ul>{ lock_items(&locks, l) }</ul></div>
            }
            <div class="sfield">
                <label for="check-config-name">{ t!("check-config.name", locale = l) }</label>
                <input type="text" id="check-config-name" class="user-text" value={(*name).clone()} oninput={onname}
                    placeholder="main.tf" aria-describedby="check-config-name-help" />
                <p class="help" id="check-config-name-help">{ t!("check-config.name-help", locale = l) }</p>
            </div>
            <div class="sfield">
                <label for="check-config-text">{ t!("check-config.text", locale = l) }</label>
                <textarea id="check-config-text" class="user-text code" rows="10" spellcheck="false"
                    value={(*text).clone()} oninput={ontext} {ondrop} {ondragover} />
            </div>
            <p>
                <button type="button" class="primary" id="check-config-run" disabled={*busy || text.trim().is_empty()}
                    onclick={check}>{ t!("check-config.run", locale = l) }</button>
                if *busy { <span class="help" role="status">{ t!("check-config.busy", locale = l) }</span> }
            </p>
            <div class="slot" aria-live="polite">{ result }</div>
        </section>
    }
}

/// Files chosen or dropped: the first file that is not a lock file is the configuration, run
/// with the lock files kept. A configuration brought with lock files of its own is another
/// project's: its lock files replace the kept ones. Lock files alone join the kept ones (one
/// of a name), and the text already there is checked again with them.
fn picked(
    run: &Callback<(String, String, Locks)>,
    locks: &UseStateHandle<Locks>,
    text: &UseStateHandle<String>,
    name: &UseStateHandle<String>,
) -> Callback<Vec<(String, String)>> {
    let (run, locks, text, name) = (run.clone(), locks.clone(), text.clone(), name.clone());
    Callback::from(move |files: Vec<(String, String)>| {
        let mut brought: Locks = Vec::new();
        let mut config = None;
        for (n, body) in files {
            if pins::is_pin_file(&n) {
                brought.retain(|(m, _)| *m != n);
                brought.push((n, body));
            } else if config.is_none() {
                config = Some((n, body));
            }
        }
        let next = if config.is_some() && !brought.is_empty() {
            brought
        } else {
            let mut kept = (*locks).clone();
            for (n, body) in brought {
                kept.retain(|(m, _)| *m != n);
                kept.push((n, body));
            }
            kept
        };
        locks.set(next.clone());
        match config {
            Some((n, body)) => run.emit((n, body, next)),
            None if !text.trim().is_empty() => run.emit(((*name).clone(), (*text).clone(), next)),
            None => {}
        }
    })
}

/// The lock files kept, each with its "Remove" button.
fn lock_items(locks: &UseStateHandle<Locks>, l: &str) -> Html {
    locks
        .iter()
        .map(|(n, _)| {
            let (locks, gone) = (locks.clone(), n.clone());
            let remove = Callback::from(move |_| {
                locks.set(locks.iter().filter(|(m, _)| *m != gone).cloned().collect());
            });
            let word = t!("check-config.remove-lock", locale = l);
            html! {
                <li><bdi>{ n.clone() }</bdi>{ " " }
                    <button type="button" class="link" onclick={remove}
                        aria-label={format!("{word} {n}")}>{ word.clone() }</button></li>
            }
        })
        .collect()
}

/// Why a chosen or dropped file is not read, in `lang`: over the audit's size limit (told from
/// the file's size before reading it, so a huge file is neither read nor put into the text
/// box), or not readable as text.
fn file_refusal(name: &str, bytes: Option<u64>, lang: Lang) -> String {
    let l = lang.code();
    match bytes {
        Some(bytes) => t!(
            "check-config.too-large",
            locale = l,
            file = name,
            size = file_size(bytes, lang),
            max = file_size(MAX_FILE_BYTES, lang)
        ),
        None => t!("check-config.unreadable", locale = l, file = name),
    }
    .into_owned()
}

/// The file input's and the text box's drop callbacks: the chosen or dropped files' texts go
/// to `picked` with their names (at most 8); why one cannot be read goes to `failed`, and then
/// no file of the choice is used (the text box and the lock files stay as they were).
fn file_callbacks(
    picked: &Callback<Vec<(String, String)>>,
    failed: &Callback<String>,
    lang: Lang,
) -> (Callback<Event>, Callback<DragEvent>, Callback<DragEvent>) {
    let from_files = {
        let (picked, failed) = (picked.clone(), failed.clone());
        move |list: web_sys::FileList| {
            let files: Vec<web_sys::File> = (0..list.length().min(8))
                .filter_map(|i| list.get(i))
                .collect();
            let (picked, failed) = (picked.clone(), failed.clone());
            if let Some(big) = files.iter().find(|f| f.size() > MAX_FILE_BYTES as f64) {
                return failed.emit(file_refusal(&big.name(), Some(big.size() as u64), lang));
            }
            wasm_bindgen_futures::spawn_local(async move {
                let mut read = Vec::new();
                for file in files {
                    let name = file.name();
                    match browser::read_file(file).await {
                        Ok(body) => read.push((name, body)),
                        Err(_) => return failed.emit(file_refusal(&name, None, lang)),
                    }
                }
                picked.emit(read);
            });
        }
    };
    let onchange = {
        let from_files = from_files.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            if let Some(list) = input.files().filter(|f| f.length() > 0) {
                from_files(list);
                input.set_value("");
            }
        })
    };
    let ondrop = Callback::from(move |e: DragEvent| {
        let list = e
            .data_transfer()
            .and_then(|d| d.files())
            .filter(|f| f.length() > 0);
        if let Some(list) = list {
            e.prevent_default();
            from_files(list);
        }
    });
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    (onchange, ondrop, ondragover)
}

/// The check's result: the jobs found with their notes and "Add" / "Cancel", or why the file
/// could not be read.
fn result(ctx: &AppContext, outcome: &Outcome, state: &UseStateHandle<Option<Outcome>>) -> Html {
    let lang = ctx.lang;
    let l = lang.code();
    let (file, catalog) = match outcome {
        Outcome::Found { file, catalog } => (file, catalog),
        Outcome::Refused { en, ja } => {
            let m = if lang == Lang::Ja { ja } else { en };
            return html! { <p class="notice error" id="check-config-error" role="alert">{ m }</p> };
        }
        Outcome::Failed(m) => {
            return html! { <p class="notice error" id="check-config-error" role="alert">{ m }</p> };
        }
    };
    let jobs = catalog.processes.iter().filter_map(|p| {
        let n = p.audit_record()?;
        let system = n.target().map_or(n.system.as_str(), |t| t.label());
        Some(html! {
            <li class="audit-job" data-system={n.system.clone()}>
                <strong><bdi>{ &p.name }</bdi></strong>
                { format!(" — {system} ") }
                <span class="help">{ t!("check-config.line", locale = l, line = n.line) }</span>
                <ul>{ for n.notes(lang == Lang::Ja).iter().map(|s| html! { <li class="user-text">{ s }</li> }) }</ul>
            </li>
        })
    });
    let n = catalog.processes.len();
    // Pasted without a name: the name the audit gave it ("pasted text", in the language the
    // check ran in), as its errors say.
    let file = match catalog.processes.first().and_then(|p| p.audit_record()) {
        Some(a) if file.trim().is_empty() => a.file.clone(),
        _ => file.clone(),
    };
    let add = {
        let (ctx, state, catalog) = (ctx.clone(), state.clone(), catalog.clone());
        Callback::from(move |_| {
            let current = ctx.catalog_now();
            let incoming = with_fresh_ids(&current, &catalog);
            match apply_import(&current, &incoming, ImportMode::Merge) {
                Ok(next) => ctx.dispatch(Action::Catalog(CatalogAction::Import(
                    Box::new(next),
                    incoming.processes.len(),
                    0,
                ))),
                Err(e) => ctx.dispatch(Action::Catalog(CatalogAction::Notice(Some(
                    CatalogNotice::Failed(e.message(ctx.lang)),
                )))),
            }
            state.set(None);
        })
    };
    let cancel = {
        let state = state.clone();
        Callback::from(move |_| state.set(None))
    };
    html! {
        <div class="notice import-preview" id="check-config-result" role="group" aria-labelledby="check-config-found">
            <p id="check-config-found"><strong>{ t!("check-config.found", locale = l, file = file.as_str(), n = n) }</strong></p>
            <ul class="audit-jobs">{ for jobs }</ul>
            <div class="keep-actions">
                <button type="button" class="primary" id="check-config-add" onclick={add}>
                    { t!("check-config.add", locale = l, n = n) }</button>
                <button type="button" class="secondary" id="check-config-cancel" onclick={cancel}>{ t!("catalog-io.cancel", locale = l) }</button>
            </div>
        </div>
    }
}
