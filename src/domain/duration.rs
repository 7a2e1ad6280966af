//! Durations as people read them, in both languages.

use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;

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
/// `30_000` → `"30 s"` / `"30秒"`, `600_000` → `"10 min"` / `"10分"`, `1_500` → `"1 500 ms"`.
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
