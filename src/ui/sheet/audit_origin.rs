//! The sheet's notice for a process made from an existing configuration ("Check an existing
//! configuration", issue 27): the file and the line the job came from, the system and the
//! release audited, and every note of the audit — the findings, the values not resolved and
//! the facts the file does not state, for which the sheet holds the system's defaults — so
//! nobody takes a default for what the file says. Shown until "Mark as reviewed" drops the
//! record ([`CatalogAction::Reviewed`]); editing the sheet keeps it, since it says what the
//! file said.

use crate::domain::app_state::CatalogAction;
use crate::domain::catalog::origin::AuditOrigin;
use crate::domain::Lang;
use crate::text::t;
use crate::ui::state::{Action, AppContext};
use yew::prelude::*;

/// The open process's audit record, when it has one.
pub fn open_origin(ctx: &AppContext) -> Option<&AuditOrigin> {
    let id = ctx.open.as_ref()?;
    ctx.catalog.get(id)?.audit_record()
}

/// The notice (nothing for a process with no audit record).
pub fn notice(ctx: &AppContext) -> Html {
    let (Some(a), Some(id)) = (open_origin(ctx), ctx.open.clone()) else {
        return Html::default();
    };
    let l = ctx.lang.code();
    let system = a.target().map_or(a.system.as_str(), |t| t.label());
    let reviewed = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Catalog(CatalogAction::Reviewed(id.clone()))))
    };
    html! {
        <div class="notice audit-origin" id="audit-origin" role="note" aria-labelledby="audit-origin-title">
            <p id="audit-origin-title"><strong>{ t!("sheet.audit.title", locale = l, file = a.file.as_str(), line = a.line, system = system) }</strong></p>
            <p class="help">{ t!("sheet.audit.intro", locale = l) }</p>
            <ul>{ for a.notes(ctx.lang == Lang::Ja).iter().map(|n| html! { <li class="user-text">{ n }</li> }) }</ul>
            <button type="button" class="secondary" id="audit-reviewed" onclick={reviewed}>{ t!("sheet.audit.reviewed", locale = l) }</button>
        </div>
    }
}
