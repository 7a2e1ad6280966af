//! Keeping the catalog: where the page starts ([`boot`]), the save after every change and the
//! merge with other tabs ([`use_keeper`], the pure merge is
//! [`crate::domain::catalog::sync`]), and the notices when keeping fails ([`keep_notices`]):
//! a process changed in another tab, or storage refused (then the app works in memory and
//! offers the catalog file).

use crate::domain::app_state::{CatalogAction, Keeping};
use crate::domain::bidi::isolate;
use crate::domain::catalog::field_merge::field_label;
use crate::domain::catalog::sync::{boot as boot_catalog, sync, Held, Stored};
use crate::domain::catalog::{Catalog, ProcessId};
use crate::domain::place::Place;
use crate::domain::Lang;
use crate::text::t;
use crate::ui::browser;
use crate::ui::rescue;
use crate::ui::state::{Action, AppContext, AppState, Screen};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What this tab last read from or wrote to storage (its base for the next merge).
pub type Base = Rc<RefCell<Stored>>;

/// The state a page starts in, and its base: the stored catalog, else the session an older
/// build saved (migrated), else one new process. Where storage cannot be read the app starts
/// in memory and says so.
pub fn boot(lang: Lang) -> (AppState, Stored) {
    let first = t!("catalog-ui.default-name", locale = lang.code(), n = 1).into_owned();
    let (text, refused) = match browser::read_catalog_text() {
        Ok(text) => (text, None),
        Err(why) => (None, Some(why)),
    };
    let old = if refused.is_none() && text.is_none() {
        browser::saved_session_text()
    } else {
        None
    };
    let b = boot_catalog(
        text.as_deref(),
        old.as_deref(),
        &first,
        browser::random_seed(),
        browser::now_ms(),
    );
    if b.set_aside {
        if let Some(text) = &text {
            browser::set_aside_catalog_text(text);
        }
    }
    let open = browser::open_process_id().map(ProcessId);
    let mut state = AppState::on_catalog(lang, b.catalog, open.as_ref());
    if let Some(why) = refused {
        state.keeping = Keeping::MemoryOnly(why);
    }
    (state, b.base)
}

/// The app's state, started by [`boot`] and opened at the place the URL names (a reload, a
/// bookmark) when it still exists, kept by [`use_keeper`]; and the tab's base.
#[hook]
pub fn use_kept_state() -> (AppContext, Base) {
    let booted = use_memo((), |_| boot(browser::initial_lang()));
    let base: Base = {
        let booted = booted.clone();
        use_mut_ref(move || booted.1.clone())
    };
    let kept = base.clone();
    let state = use_reducer(move || {
        let restored = booted.0.clone();
        let state = match Place::parse_with_process(&browser::location_fragment()) {
            Some((place, id)) => {
                let mut s = (*Rc::new(restored).reduce(Action::GoTo(place, id))).clone();
                s.interacted = false;
                s
            }
            None => restored,
        };
        // What the panic page saves and reports (changes are remembered by the reducer).
        rescue::remember(Rc::new(state.clone()));
        rescue::remember_base(kept);
        rescue::test_panic(rescue::TestPanic::Start);
        state
    });
    use_keeper(&state, &base);
    (state, base)
}

/// Saves the catalog after every change, merged with what other tabs wrote
/// ([`sync`]); takes in other tabs' writes as they happen (the `storage` event). Where
/// storage refuses, the state is told once ([`CatalogAction::StorageRefused`]) and nothing is
/// tried again.
#[hook]
pub fn use_keeper(state: &AppContext, base: &Base) {
    // Bumped by every write of another tab, so the merge runs again.
    let outside = use_state(|| 0u32);
    {
        let outside = outside.clone();
        use_effect_with((), move |_| {
            let listener = browser::CatalogListener::new(Callback::from(move |()| {
                outside.set(outside.wrapping_add(1));
            }));
            move || drop(listener)
        });
    }
    let mine = state.catalog_now();
    let protect = state
        .open
        .clone()
        .filter(|_| state.screen != Screen::Catalog);
    let deps = (mine, state.held.clone(), protect, *outside);
    let memory = matches!(state.keeping, Keeping::MemoryOnly(_));
    let (dispatch, base) = (state.dispatcher(), base.clone());
    use_effect_with(deps, move |(mine, held, protect, _)| {
        if memory {
            return;
        }
        match store(mine, held, protect.as_ref(), &base) {
            Err(why) => dispatch.dispatch(Action::Catalog(CatalogAction::StorageRefused(why))),
            Ok(Some((catalog, held))) => {
                dispatch.dispatch(Action::Catalog(CatalogAction::Synced(catalog, held)))
            }
            Ok(None) => {}
        }
    });
    use_effect_with(state.open.clone(), |open| {
        browser::remember_open_process(open.as_ref().map(ProcessId::as_str));
    });
    // Leaving or reloading the page while edits are held asks first (they are on screen only).
    use_effect_with(!state.held.is_empty(), |held| {
        browser::ask_before_leaving(*held)
    });
}

/// Writes this tab's catalog (`mine`, with the processes it `held` back and the one it has
/// open, `protect`) merged with what storage holds now ([`sync`]), and moves the tab's `base`
/// on. Returns the merged catalog and held processes when they differ from this tab's (the
/// tab takes them in); `None` when they are the same. Used after every change and by the
/// panic page ([`crate::ui::start`]), which is why it only tries the borrow of `base`.
///
/// # Errors
/// The browser's words when storage cannot be read or written; "busy" when `base` is in use.
pub fn store(
    mine: &Catalog,
    held: &[Held],
    protect: Option<&ProcessId>,
    base: &Base,
) -> Result<Option<(Catalog, Vec<Held>)>, String> {
    let stored = browser::read_catalog_text()?
        .as_deref()
        .and_then(Stored::from_json);
    let busy = |_| "busy".to_owned();
    let merged = sync(
        stored.as_ref(),
        &*base.try_borrow().map_err(busy)?,
        mine,
        held,
        protect,
        browser::now_ms(),
    );
    if let Some(write) = &merged.write {
        browser::write_catalog_text(&write.to_json())?;
    }
    *base.try_borrow_mut().map_err(|_| "busy".to_owned())? = merged.base;
    Ok((merged.catalog != *mine || merged.held != held).then_some((merged.catalog, merged.held)))
}

/// The notices about keeping: one per process held back (naming the fields changed here and
/// in another tab; it stays in view while the page scrolls: `.keep-held`), with
/// "load the other tab's version" and "keep mine" (storage's version is the tab's `base`);
/// and, once, that storage refused and nothing will be kept after the page closes, with the
/// catalog file to download. A plain function of the state, drawn with the app's shell.
pub fn keep_notices(ctx: &AppContext, base: &Base) -> Html {
    let l = ctx.lang.code();
    let held = ctx.held.iter().map(|h| {
        let id = &h.id;
        let name = ctx
            .catalog
            .get(id)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        let theirs = base.borrow().catalog.get(id).cloned();
        let gone = theirs.is_none();
        let fields: Vec<String> = h
            .fields
            .iter()
            .map(|f| format!("“{}”", field_label(f, ctx.lang)))
            .collect();
        let reload = {
            let (ctx, id) = (ctx.clone(), id.clone());
            Callback::from(move |_| {
                ctx.dispatch(Action::Catalog(CatalogAction::Reload(
                    id.clone(),
                    theirs.clone().map(Box::new),
                )))
            })
        };
        let keep = {
            let (ctx, id) = (ctx.clone(), id.clone());
            Callback::from(move |_| ctx.dispatch(Action::Catalog(CatalogAction::KeepMine(id.clone()))))
        };
        let (what, reload_label) = if gone {
            (
                t!("keep.deleted-elsewhere", locale = l, name = isolate(&name)),
                t!("keep.accept-delete", locale = l),
            )
        } else if fields.is_empty() {
            (
                t!("keep.changed-elsewhere", locale = l, name = isolate(&name)),
                t!("keep.reload", locale = l),
            )
        } else {
            let sep = t!("keep.field-separator", locale = l);
            (
                t!(
                    "keep.fields-changed",
                    locale = l,
                    name = isolate(&name),
                    fields = fields.join(&sep)
                ),
                t!("keep.reload", locale = l),
            )
        };
        html! {
            <div class="notice keep-notice keep-held" role="alert" data-held={id.to_string()}>
                <p>{ what }</p>
                <div class="keep-actions">
                    <button type="button" class="secondary keep-reload" onclick={reload}>{ reload_label }</button>
                    <button type="button" class="secondary keep-mine" onclick={keep}>{ t!("keep.keep-mine", locale = l) }</button>
                </div>
            </div>
        }
    });
    let memory = match &ctx.keeping {
        Keeping::MemoryOnly(why) if !ctx.keeping_dismissed => {
            let download = {
                let ctx = ctx.clone();
                Callback::from(move |_| {
                    let catalog = ctx.catalog_now();
                    let (name, mime) = crate::ui::catalog_io::file_name(&catalog, "json");
                    if let Err(e) = browser::download(&name, mime, &catalog.to_json()) {
                        ctx.dispatch(Action::Catalog(CatalogAction::Notice(Some(
                            crate::domain::app_state::CatalogNotice::Failed(e),
                        ))));
                    }
                })
            };
            let hide = {
                let ctx = ctx.clone();
                Callback::from(move |_| {
                    ctx.dispatch(Action::Catalog(CatalogAction::DismissKeeping))
                })
            };
            html! {
                <div class="notice keep-notice" role="status" id="memory-only">
                    <p>
                        <strong>{ t!("keep.memory-only", locale = l) }</strong>
                        { " " }{ t!("keep.memory-why", locale = l, why = why.as_str()) }
                    </p>
                    <div class="keep-actions">
                        <button type="button" class="primary keep-download" onclick={download}>{ t!("keep.download", locale = l) }</button>
                        <button type="button" class="secondary" onclick={hide}>{ t!("keep.hide", locale = l) }</button>
                    </div>
                </div>
            }
        }
        _ => Html::default(),
    };
    html! { <div class="keep-notices">{ for held }{ memory }</div> }
}
