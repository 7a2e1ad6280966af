//! Durations as people read them, in both languages.

use crate::domain::lang::Lang;
use crate::domain::number::{ascii_form, group_thousands, whole_digits};
use crate::text::t;

/// The units durations are written and typed in, smallest first: (size in ms, English,
/// Japanese). The page's unit selects use the index into this table.
pub const UNITS: [(u64, &str, &str); 5] = [
    (1, "ms", "ミリ秒"),
    (1_000, "s", "秒"),
    (60_000, "min", "分"),
    (3_600_000, "h", "時間"),
    (86_400_000, "d", "日"),
];

/// The suffix of the unit named `key` (`"ms"`, `"s"`, `"min"`, `"h"`, `"d"`) in `lang`:
/// `" min"` in English (with its space), `"分"` in Japanese; an unknown key is written as is.
pub fn unit_suffix(key: &str, lang: Lang) -> String {
    match (lang, UNITS.iter().find(|u| u.1 == key)) {
        (Lang::Ja, Some(&(_, _, ja))) => ja.to_owned(),
        _ => format!(" {key}"),
    }
}

/// Formats a duration in milliseconds with the largest unit that divides it exactly:
/// `30_000` → `"30 s"` / `"30秒"`, `600_000` → `"10 min"` / `"10分"`, `1_500` → `"1,500 ms"`.
/// Units: d, h, min, s, ms (ja: 日, 時間, 分, 秒, ミリ秒). Zero is `"0 s"` / `"0秒"`.
pub fn exact(ms: u64, lang: Lang) -> String {
    if ms == 0 {
        return match lang {
            Lang::En => "0 s".into(),
            Lang::Ja => "0秒".into(),
        };
    }
    let (size, en, ja) = UNITS
        .into_iter()
        .rev()
        .find(|(size, _, _)| ms.is_multiple_of(*size))
        .unwrap_or((1, "ms", "ミリ秒"));
    let n = group_thousands(ms / size);
    match lang {
        Lang::En => format!("{n} {en}"),
        Lang::Ja => format!("{n}{ja}"),
    }
}

/// Formats a duration in milliseconds for a person to read: [`exact`] when that is short
/// (under 1,000 of its unit: `"90 s"`, `"4 d"`), else its three largest units from the first
/// that is not zero, the rest dropped: `380_130_000` → `"4 d 9 h 35 min"` / `"4日9時間35分"`
/// (never `"380,130 s"`), `1_500` → `"1 s 500 ms"`.
pub fn human(ms: u64, lang: Lang) -> String {
    let whole = UNITS
        .into_iter()
        .rev()
        .find(|(size, _, _)| ms.is_multiple_of(*size))
        .map_or(1, |(size, _, _)| size);
    if ms / whole < 1_000 {
        return exact(ms, lang);
    }
    let mut rest = ms;
    let mut parts: Vec<String> = Vec::new();
    let mut taken = 0;
    for (size, en, ja) in UNITS.into_iter().rev() {
        let n = rest / size;
        rest %= size;
        if n == 0 && taken == 0 {
            continue;
        }
        taken += 1;
        if n > 0 {
            parts.push(match lang {
                Lang::En => format!("{} {en}", group_thousands(n)),
                Lang::Ja => format!("{}{ja}", group_thousands(n)),
            });
        }
        if taken == 3 {
            break;
        }
    }
    match lang {
        Lang::En => parts.join(" "),
        Lang::Ja => parts.concat(),
    }
}

/// Formats a duration in milliseconds approximately, for sums and estimates: one decimal in
/// the largest unit that fits, e.g. `2_815_000` → `"46.9 min"` / `"46.9分"`; below one
/// second, whole milliseconds.
pub fn approx(ms: f64, lang: Lang) -> String {
    let ms = if ms.is_finite() && ms > 0.0 { ms } else { 0.0 };
    if ms == 0.0 {
        return exact(0, lang);
    }
    let (value, en, ja) = if ms >= 86_400_000.0 {
        (ms / 86_400_000.0, "d", "日")
    } else if ms >= 3_600_000.0 {
        (ms / 3_600_000.0, "h", "時間")
    } else if ms >= 60_000.0 {
        (ms / 60_000.0, "min", "分")
    } else if ms >= 1_000.0 {
        (ms / 1_000.0, "s", "秒")
    } else {
        return match lang {
            Lang::En => format!("{} ms", ms.round() as u64),
            Lang::Ja => format!("{}ミリ秒", ms.round() as u64),
        };
    };
    // Round half away from zero (1.25 → 1.3), as people expect.
    let text = format!("{:.1}", (value * 10.0).round() / 10.0);
    let text = text.strip_suffix(".0").unwrap_or(&text);
    match lang {
        Lang::En => format!("{text} {en}"),
        Lang::Ja => format!("{text}{ja}"),
    }
}

/// Why a typed duration was refused by [`parse`]; [`DurationParseError::message`] says it in
/// either language, with the form that is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DurationParseError {
    /// Nothing but spaces.
    Empty,
    /// A minus sign: durations are zero or more.
    Negative,
    /// The number part is not a decimal number (`NaN`, `1e3`, `1,5`, `1.2.3`); holds it.
    NotANumber(String),
    /// A unit outside [`UNITS`] and their long names (`weeks`); holds it as typed.
    UnknownUnit(String),
    /// More than `u64::MAX` milliseconds.
    TooLarge,
    /// Not a whole number of milliseconds (`1.5 ms`, `0.0001 s`); holds the text.
    NotWholeMs(String),
}

impl DurationParseError {
    /// The reason in `lang`, a clause without the field's name (the caller adds the field
    /// and its range), e.g. `unknown unit "weeks": use ms, s, min, h or d (e.g. 1.5 min)`.
    pub fn message(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            Self::Empty => t!("duration.error.empty", locale = l),
            Self::Negative => t!("duration.error.negative", locale = l),
            Self::NotANumber(text) => t!("duration.error.number", locale = l, text = text),
            Self::UnknownUnit(unit) => t!("duration.error.unit", locale = l, unit = unit),
            Self::TooLarge => t!("duration.error.too-large", locale = l),
            Self::NotWholeMs(text) => t!("duration.error.sub-ms", locale = l, text = text),
        }
        .into_owned()
    }
}

impl std::fmt::Display for DurationParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for DurationParseError {}

/// The size in ms of a unit as typed (case-insensitive): the [`UNITS`] names in both
/// languages and their long English forms (`sec`, `seconds`, `minutes`, `hours`, `days`).
fn unit_ms(unit: &str) -> Option<u64> {
    let u = unit.to_ascii_lowercase();
    let size = match u.as_str() {
        "ms" | "msec" | "millisecond" | "milliseconds" | "ミリ秒" => 1,
        "s" | "sec" | "secs" | "second" | "seconds" | "秒" => 1_000,
        "min" | "mins" | "minute" | "minutes" | "分" => 60_000,
        "h" | "hr" | "hrs" | "hour" | "hours" | "時間" => 3_600_000,
        "d" | "day" | "days" | "日" => 86_400_000,
        _ => return None,
    };
    Some(size)
}

/// Reads a duration as people type it and returns whole milliseconds: a number, then an
/// optional unit (`2 s`, `2s`, `1.5 min`, `500ms`, `2 h`, `1 d`, `２秒`, `１．５分`,
/// `1,500 ms`). Units: ms, s, min, h, d (also ミリ秒, 秒, 分, 時間, 日 and long English
/// names); a bare number is in `default_unit_ms` (1 for a milliseconds field, 1 000 for
/// seconds). Digits may be full-width and grouped by threes (`,`, space, `_`); one `.` gives
/// decimals. The caller checks the field's range.
///
/// # Errors
/// [`DurationParseError`]: empty text, a minus sign, a number that is not decimal (`1e3`,
/// `NaN`), an unknown unit (`5 weeks`), over `u64::MAX` ms, or a result that is not a whole
/// number of milliseconds (`1.5 ms`). Never panics.
pub fn parse(raw: &str, default_unit_ms: u64) -> Result<u64, DurationParseError> {
    let text = ascii_form(raw);
    if text.is_empty() {
        return Err(DurationParseError::Empty);
    }
    if text.starts_with(['-', '\u{2212}']) {
        return Err(DurationParseError::Negative);
    }
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '_' | ' ')))
        .unwrap_or(text.len());
    let (number, unit) = (text[..split].trim(), text[split..].trim());
    // A digit or sign after the number (`1e3`, `2 s 5`) means the number itself is unread.
    if number.is_empty() || unit.contains(|c: char| c.is_ascii_digit() || c == '-') {
        return Err(DurationParseError::NotANumber(text.clone()));
    }
    let size = if unit.is_empty() {
        default_unit_ms.max(1)
    } else {
        unit_ms(unit).ok_or_else(|| DurationParseError::UnknownUnit(unit.to_owned()))?
    };
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let int_digits = match int {
        "" if !frac.is_empty() => "0".to_owned(),
        _ => whole_digits(int).ok_or_else(|| DurationParseError::NotANumber(number.into()))?,
    };
    let frac = frac.trim_end_matches('0');
    if !frac.bytes().all(|b| b.is_ascii_digit()) || number.ends_with('.') {
        return Err(DurationParseError::NotANumber(number.into()));
    }
    // In u64 with checked steps (a whole number past u64 is too large however it ends: said
    // after the fraction's own errors, as before); no u128 arithmetic, whose division the
    // page's first load would carry for this alone.
    let int_part: Option<u64> = match int_digits.trim_start_matches('0') {
        d if d.len() > 30 => return Err(DurationParseError::TooLarge),
        "" => Some(0),
        d => d.parse().ok(),
    };
    // Past 10 decimals no unit here gives whole milliseconds (86 400 000 = 2¹⁰·3³·5⁵).
    if frac.len() > 10 {
        return Err(DurationParseError::NotWholeMs(text.clone()));
    }
    let scale = 10u64.pow(frac.len() as u32);
    // < 10¹⁰ × a unit of at most a day: within u64.
    let frac_ms = frac
        .parse::<u64>()
        .unwrap_or(0)
        .checked_mul(size)
        .ok_or(DurationParseError::TooLarge)?;
    if frac_ms % scale != 0 {
        return Err(DurationParseError::NotWholeMs(text.clone()));
    }
    int_part
        .and_then(|i| i.checked_mul(size))
        .and_then(|ms| ms.checked_add(frac_ms / scale))
        .ok_or(DurationParseError::TooLarge)
}

#[cfg(test)]
mod human_tests {
    use super::human;
    use crate::domain::lang::Lang;

    #[test]
    fn long_durations_read_in_days_hours_and_minutes() {
        assert_eq!(human(380_130_000, Lang::En), "4 d 9 h 35 min");
        assert_eq!(human(380_130_000, Lang::Ja), "4日9時間35分");
        assert_eq!(human(90_000, Lang::En), "90 s");
        assert_eq!(human(345_600_000, Lang::En), "4 d");
        assert_eq!(human(1_500, Lang::En), "1 s 500 ms");
        assert_eq!(human(86_430_000, Lang::En), "1 d");
        assert_eq!(human(0, Lang::En), "0 s");
    }
}
