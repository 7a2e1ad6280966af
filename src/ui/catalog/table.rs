//! The catalog's table: one row per process shown, with its settings and its actions (open,
//! duplicate, rename in place, delete, move up / down). On a phone each row becomes a card
//! (static/style.css, "Catalog"); each cell carries its column's name for that.

use super::{Control, Pending, Screen};
use crate::domain::app_state::CatalogAction;
use crate::domain::catalog::{ProcessId, MAX_NAME_CHARS};
use crate::domain::catalog_rows::{Row, NONE};
use crate::ui::browser;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The table of the rows `shown` (a filtered part of `all`, which decides the ends for moving).
pub(super) fn table(screen: &Screen, system: &str, shown: &[Row], all: &[Row]) -> Html {
    let caption = if system.trim().is_empty() {
        screen.tr("catalog-screen.caption-unnamed")
    } else {
        crate::text::t!(
            "catalog-screen.caption",
            locale = screen.lang.code(),
            name = crate::domain::bidi::isolate(system.trim())
        )
        .into_owned()
    };
    let cols = [
        "name",
        "outcome",
        "attempts",
        "wait",
        "timeout",
        "key",
        "rate",
        "workers",
        "bottleneck",
        "drain",
        "findings",
        "edited",
        "actions",
    ];
    let first = all.first().map(|r| r.id.clone());
    let last = all.last().map(|r| r.id.clone());
    html! {
        <div class="catalog-table-wrap">
            <table class="catalog-table" id="catalog-table">
                <caption>{ caption }</caption>
                <thead><tr>
                    { for cols.iter().map(|c| html! {
                        <th scope="col" data-col={*c}>{ screen.tr(&format!("catalog-screen.col-{c}")) }</th>
                    }) }
                </tr></thead>
                <tbody>
                    { for shown.iter().map(|r| row(screen, r, first.as_ref() == Some(&r.id), last.as_ref() == Some(&r.id))) }
                </tbody>
            </table>
        </div>
    }
}

/// One process's row.
fn row(screen: &Screen, r: &Row, is_first: bool, is_last: bool) -> Html {
    let ctx = &screen.ctx;
    let held = ctx.held.iter().any(|h| h.id == r.id);
    let open = ctx.open.as_ref() == Some(&r.id);
    let label = |c: &str| screen.tr(&format!("catalog-screen.col-{c}"));
    let findings_class = if r.errors > 0 {
        "has-errors"
    } else if r.warnings > 0 {
        "has-warnings"
    } else {
        ""
    };
    let outcome = r.outcome.map_or("undecided", |o| o.id());
    html! {
        <tr key={r.id.as_str().to_owned()} data-process={r.id.as_str().to_owned()} data-outcome={outcome}
            class={classes!(open.then_some("is-open"), held.then_some("is-held"))}>
            <th scope="row" data-label={label("name")}>
                { name_cell(screen, r) }
                if open {
                    <span class="badge">{ screen.tr("catalog-screen.open-badge") }</span>
                }
                if held {
                    <span class="badge held-badge">{ screen.tr("catalog-screen.held-badge") }</span>
                }
            </th>
            <td data-label={label("outcome")}><span class="outcome-tag" data-outcome={outcome}>{ r.outcome_text.clone() }</span></td>
            <td data-label={label("attempts")} class="num">{ r.attempts.clone() }</td>
            <td data-label={label("wait")}>{ r.wait.clone() }</td>
            <td data-label={label("timeout")}>{ r.timeout.clone() }</td>
            <td data-label={label("key")}>
                if r.key == NONE { { NONE } } else { <code class="key user-text">{ r.key.clone() }</code> }
            </td>
            { for ["rate", "workers", "bottleneck", "drain"].iter().zip(&r.capacity).map(|(c, v)| html! {
                <td data-label={label(c)} data-col={*c}>{ v.clone() }</td>
            }) }
            <td data-label={label("findings")} class={findings_class}
                data-errors={r.errors.to_string()} data-warnings={r.warnings.to_string()}>{ r.findings.clone() }
                if !r.audit.is_empty() { <span class="audit-mark">{ r.audit.clone() }</span> }</td>
            <td data-label={label("edited")} class="edited">{ r.edited.clone() }</td>
            <td data-label={label("actions")}>{ actions(screen, r, is_first, is_last) }</td>
        </tr>
    }
}

/// The name: a button that opens the process, or the in-place rename field.
fn name_cell(screen: &Screen, r: &Row) -> Html {
    let id = r.id.clone();
    if screen.renaming.as_ref() == Some(&id) {
        return rename_input(screen, r);
    }
    let onclick = {
        let screen = screen.clone();
        Callback::from(move |_| screen.send(CatalogAction::Open(id.clone())))
    };
    let node = screen.ref_if(&Pending::Row(r.id.clone(), Control::Name));
    html! {
        <button type="button" class="link proc-name user-text" ref={node} {onclick}
            aria-label={screen.tr_name("catalog-screen.open", &r.name)}>{ r.name.clone() }</button>
    }
}

/// The in-place rename field: Enter saves, Escape cancels, leaving the field saves.
fn rename_input(screen: &Screen, r: &Row) -> Html {
    let commit = {
        let (screen, id, old) = (screen.clone(), r.id.clone(), r.name.clone());
        move |value: String, refocus: bool| {
            if std::mem::replace(&mut *screen.settled.borrow_mut(), true) {
                return;
            }
            if refocus {
                screen.focus_next(Pending::Row(id.clone(), Control::Name));
            }
            screen.renaming.set(None);
            if value.trim() != old {
                screen.send(CatalogAction::Rename(id.clone(), value));
            }
        }
    };
    let onkeydown = {
        let commit = commit.clone();
        let old = r.name.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                commit(e.target_unchecked_into::<HtmlInputElement>().value(), true);
            }
            "Escape" => {
                e.prevent_default();
                commit(old.clone(), true);
            }
            _ => {}
        })
    };
    let onblur = Callback::from(move |e: FocusEvent| {
        commit(e.target_unchecked_into::<HtmlInputElement>().value(), false);
    });
    html! {
        <input type="text" class="rename-input" value={r.name.clone()} maxlength={MAX_NAME_CHARS.to_string()}
            ref={screen.ref_if(&Pending::Row(r.id.clone(), Control::Name))} {onkeydown} {onblur}
            aria-label={screen.tr_name("catalog-screen.rename-input", &r.name)} />
    }
}

/// The row's actions: move up / down, duplicate, rename, delete.
fn actions(screen: &Screen, r: &Row, is_first: bool, is_last: bool) -> Html {
    let name = r.name.as_str();
    let mover = |up: bool| {
        let onclick = {
            let (screen, id) = (screen.clone(), r.id.clone());
            Callback::from(move |_| {
                screen.focus_next(Pending::Row(
                    id.clone(),
                    if up { Control::Up } else { Control::Down },
                ));
                screen.send(CatalogAction::Move(id.clone(), up));
            })
        };
        // Focus stays on the button pressed; at an end it is disabled, so the other one.
        let wants =
            |c: Control| screen.pending.borrow().as_ref() == Some(&Pending::Row(r.id.clone(), c));
        let here = if up {
            !is_first && (wants(Control::Up) || (wants(Control::Down) && is_last))
        } else {
            !is_last && (wants(Control::Down) || (wants(Control::Up) && is_first))
        };
        let node = if here {
            screen.focus_ref.clone()
        } else {
            NodeRef::default()
        };
        let (key, glyph, disabled) = if up {
            ("catalog-screen.up-label", "↑", is_first)
        } else {
            ("catalog-screen.down-label", "↓", is_last)
        };
        html! {
            <button type="button" class="small move" ref={node} disabled={disabled} {onclick}
                aria-label={screen.tr_name(key, name)} title={screen.tr_name(key, name)}
                data-move={if up { "up" } else { "down" }}>{ glyph }</button>
        }
    };
    let duplicate = {
        let (screen, id) = (screen.clone(), r.id.clone());
        Callback::from(move |_| {
            let seed = browser::random_seed();
            let copy: ProcessId = screen.ctx.catalog.fresh_id(seed);
            screen.focus_next(Pending::Row(copy, Control::Name));
            screen.send(CatalogAction::Duplicate {
                id: id.clone(),
                seed,
                now_ms: browser::now_ms(),
            });
        })
    };
    let rename = {
        let (screen, id) = (screen.clone(), r.id.clone());
        Callback::from(move |_| {
            *screen.settled.borrow_mut() = false;
            screen.focus_next(Pending::Row(id.clone(), Control::Name));
            screen.renaming.set(Some(id.clone()));
        })
    };
    let delete = {
        let (screen, id) = (screen.clone(), r.id.clone());
        Callback::from(move |_| {
            screen.focus_next(Pending::Undo);
            screen.send(CatalogAction::Delete(id.clone()));
        })
    };
    html! {
        <div class="row-actions">
            { mover(true) }
            { mover(false) }
            <button type="button" class="small" data-action="duplicate" onclick={duplicate}
                aria-label={screen.tr_name("catalog-screen.duplicate-label", name)}>{ screen.tr("catalog-screen.duplicate") }</button>
            <button type="button" class="small" data-action="rename" onclick={rename}
                aria-label={screen.tr_name("catalog-screen.rename-label", name)}>{ screen.tr("catalog-screen.rename") }</button>
            <button type="button" class="small danger" data-action="delete" onclick={delete}
                aria-label={screen.tr_name("catalog-screen.delete-label", name)}>{ screen.tr("catalog-screen.delete") }</button>
        </div>
    }
}
