//! The words of a link in the reader's language: the fields ("Triggers" / "起動先"), the
//! actor kinds, the edge labels. Worker texts (`locales/worker/system.yml`): the page shows
//! them only inside what the export worker draws.

use super::{ActorKind, Direction, Via};
use crate::domain::Lang;
use crate::text::t;

/// `key` in `lang`.
pub(super) fn tr(key: &str, lang: Lang) -> String {
    t!(key, locale = lang.code()).into_owned()
}

/// The field's name in `lang` ("Triggered by" / "起動元", "Triggers" / "起動先").
pub fn field_name(d: Direction, lang: Lang) -> String {
    tr(&format!("system.field.{}", d.id()), lang)
}

/// The actor kind in `lang` ("a user" / "利用者" …).
pub fn actor_kind(k: ActorKind, lang: Lang) -> String {
    tr(&format!("system.actor.{}", k.id()), lang)
}

/// The edge's label in `lang` ("sync" / "同期" …).
pub fn via_name(v: Via, lang: Lang) -> String {
    tr(&format!("system.via.{}", v.id()), lang)
}
