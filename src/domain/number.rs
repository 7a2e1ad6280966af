//! Number formatting shared by every language.

/// Formats an integer with a space between groups of three digits: `8000` → `"8 000"`,
/// `1234567` → `"1 234 567"`, `999` → `"999"`. The same in Japanese and English, and
/// unambiguous in both (no `,` / `.` confusion).
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Parses a whole number as people type it: spaces, `,` and `_` between digits and
/// full-width digits are accepted; anything else (signs, decimals, letters, overflow) is
/// `None`.
pub fn parse_whole(raw: &str) -> Option<u64> {
    let cleaned: String = raw
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | ',' | '_' | '\u{3000}' | '\u{202f}'))
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .collect();
    if cleaned.is_empty() || !cleaned.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    cleaned.parse().ok()
}
