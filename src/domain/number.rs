//! Number formatting shared by every language.

/// Formats an integer with a comma between groups of three digits: `8000` → `"8,000"`,
/// `1234567` → `"1,234,567"`, `999` → `"999"`. The same in Japanese and English (both write
/// thousands with commas), in the page, the workers, the CLI, exports and chart labels.
/// Machine-readable outputs (JSON, configurations, SQL, code) write plain numbers instead.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A computed number for people (a rate, an offered load in Erlangs, a utilisation ρ): the
/// whole number grouped from 100 (`1682.5` → `"1,683"`), one decimal from 10 (`"12.3"`),
/// two from 0.01 (`"3.00"`), and below that two significant digits (`0.0042` → `"0.0042"`,
/// not `"0.00"`: a ceiling of a job every few minutes is no ceiling of nothing); `"∞"` when
/// not finite. One formatter for the sheet's load section, its findings and the capacity
/// answer (three copies before, and the answer's Erlangs were ungrouped: "1682.51").
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "∞".into();
    }
    if v >= 100.0 {
        return group_thousands(v.round() as u64);
    }
    // One decimal from 10, two below; under 0.01 one more for each place the first
    // significant digit is further right.
    let mut decimals = if v >= 10.0 { 1 } else { 2 };
    let mut x = v * 100.0;
    while v < 0.01 && x > 0.0 && x < 10.0 && decimals < 12 {
        x *= 10.0;
        decimals += 1;
    }
    format!("{v:.decimals$}")
}

/// [`group_thousands`] for a signed number: a leading minus sign (U+2212) when negative
/// (`−1,900`).
pub fn group_thousands_signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", group_thousands(v.unsigned_abs()))
    } else {
        group_thousands(v.unsigned_abs())
    }
}

/// A file's size as people read it: mebibytes to one decimal (rounded half up) with the bytes
/// grouped: `6_291_456` → `"6.0 MiB (6,291,456 bytes)"` in English, `"6.0 MiB（6,291,456
/// バイト）"` in Japanese. How the audit and "Check an existing configuration" name a file
/// over their 5 MiB limit.
pub fn file_size(bytes: u64, lang: crate::domain::Lang) -> String {
    let tenths = (bytes.saturating_mul(10).saturating_add(524_288)) / 1_048_576;
    let mib = format!("{}.{} MiB", group_thousands(tenths / 10), tenths % 10);
    match lang {
        crate::domain::Lang::Ja => format!("{mib}（{} バイト）", group_thousands(bytes)),
        crate::domain::Lang::En => format!("{mib} ({} bytes)", group_thousands(bytes)),
    }
}

/// Virtual time in seconds to one decimal, grouped: `179_637_115` µs → `"179.6"`,
/// `1_234_560_000` → `"1,234.6"` (tenths rounded half up). How the simulator writes a run's
/// simulated time ("179.6 s of simulated time") and the stepper's virtual time; the unit is the
/// caller's words.
pub fn tenths_of_s(micros: u64) -> String {
    let tenths = micros.saturating_add(50_000) / 100_000;
    format!("{}.{}", group_thousands(tenths / 10), tenths % 10)
}

/// Parses a whole number as people type it: ASCII or full-width digits (`２０００`, common
/// with Japanese input methods), optionally grouped by threes with `,`, spaces or `_`
/// (`2,000`, `2 000`, `2_000`). Anything else — signs, decimals, `1,5`, letters, overflow — is
/// `None`.
pub fn parse_whole(raw: &str) -> Option<u64> {
    whole_digits(&ascii_form(raw))?.parse().ok()
}

/// `raw` trimmed, with full-width forms (U+FF01–U+FF5E: `０`–`９`, `．`, `，`, `ｍ`, …) made
/// ASCII and the ideographic, no-break and thin spaces made plain spaces.
pub(crate) fn ascii_form(raw: &str) -> String {
    raw.trim()
        .chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '\u{3000}' | '\u{a0}' | '\u{202f}' | '\u{2009}' => ' ',
            _ => c,
        })
        .collect()
}

/// The digits of an ASCII whole number, its groups of three (after one of 1–3 digits) joined:
/// `"1,234 567"` → `"1234567"`. `None` when empty, not digits or badly grouped.
pub(crate) fn whole_digits(ascii: &str) -> Option<String> {
    let groups: Vec<&str> = ascii.split([' ', ',', '_']).collect();
    let first = groups.first()?;
    let grouped_ok = groups.len() == 1
        || ((1..=3).contains(&first.len()) && groups[1..].iter().all(|g| g.len() == 3));
    if !grouped_ok
        || groups
            .iter()
            .any(|g| g.is_empty() || !g.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    Some(groups.concat())
}
