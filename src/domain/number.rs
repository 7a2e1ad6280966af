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

/// [`group_thousands`] for a signed number: a leading minus sign (U+2212) when negative
/// (`−1 900`).
pub fn group_thousands_signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", group_thousands(v.unsigned_abs()))
    } else {
        group_thousands(v.unsigned_abs())
    }
}

/// Parses a whole number as people type it: ASCII or full-width digits (`２０００`, common
/// with Japanese input methods), optionally grouped by threes with spaces, `,` or `_`
/// (`2 000`, `2,000`). Anything else — signs, decimals, `1,5`, letters, overflow — is `None`.
pub fn parse_whole(raw: &str) -> Option<u64> {
    let ascii: String = raw
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            '，' => ',',
            '\u{3000}' | '\u{a0}' | '\u{202f}' => ' ',
            _ => c,
        })
        .collect();
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
    groups.concat().parse().ok()
}
