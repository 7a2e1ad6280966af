//! The whole catalog as one document: Markdown, CSV, TSV, JSON.

use crate::domain::catalog::Catalog;
use crate::domain::Lang;

/// The catalog as one Markdown document.
pub fn to_markdown(c: &Catalog, lang: Lang) -> String {
    let _ = (c, lang);
    String::new()
}

/// The catalog as CSV, one row per process.
pub fn to_csv(c: &Catalog, lang: Lang, bom: bool) -> String {
    let _ = (c, lang, bom);
    String::new()
}

/// The catalog as TSV, one row per process.
pub fn to_tsv(c: &Catalog, lang: Lang) -> String {
    let _ = (c, lang);
    String::new()
}
