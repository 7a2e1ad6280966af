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
