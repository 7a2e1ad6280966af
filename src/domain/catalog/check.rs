//! Reading a catalog file: every limit checked, every problem an [`ImportError`] naming the
//! field (a JSON path such as `processes[2].sheet.retry.max_attempts`) and what is allowed.
//! Nothing is built from a file that does not check out.

use crate::domain::catalog::{Catalog, CATALOG_VERSION};
use crate::domain::sheet::import::ImportError;

/// Reads a catalog file.
///
/// # Errors
/// [`ImportError`] naming the field and what is allowed.
pub fn read_catalog(json: &str) -> Result<Catalog, ImportError> {
    let json = json.strip_prefix('\u{feff}').unwrap_or(json);
    let c: Catalog = serde_json::from_str(json).map_err(|e| ImportError::InvalidJson {
        line: e.line(),
        column: e.column().max(1),
        message: e.to_string(),
    })?;
    if c.catalog_version != CATALOG_VERSION {
        return Err(ImportError::OutOfRange {
            path: "catalog_version".to_owned(),
            value: c.catalog_version.to_string(),
            allowed: CATALOG_VERSION.to_string(),
        });
    }
    Ok(c)
}

/// Checks every limit of a catalog already in memory (what [`read_catalog`] checks after
/// decoding).
///
/// # Errors
/// The first problem, naming the field.
pub fn check_catalog(c: &Catalog) -> Result<(), ImportError> {
    if c.catalog_version != CATALOG_VERSION {
        return Err(ImportError::OutOfRange {
            path: "catalog_version".to_owned(),
            value: c.catalog_version.to_string(),
            allowed: CATALOG_VERSION.to_string(),
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in c.processes.iter().enumerate() {
        if !seen.insert(&p.id) {
            return Err(ImportError::Inconsistent {
                path: format!("processes[{i}].id"),
                problem: format!("{} is used twice; allowed: a unique id", p.id),
            });
        }
        if let Some(s) = &p.sheet {
            crate::domain::sheet::import::check_sheet(s)?;
        }
    }
    Ok(())
}
