//! The batch schedule read as a standard cron expression: five fields — minute (0–59), hour
//! (0–23), day of month (1–31), month (1–12 or `jan`–`dec`), day of week (0–7, 0 and 7 are
//! Sunday, or `sun`–`sat`) — each `*`, a value, a range `a-b`, a step `*/n` or `a-b/n`, or a
//! comma-separated list of those; or one of the macros `@yearly`, `@annually`, `@monthly`,
//! `@weekly`, `@daily`, `@midnight`, `@hourly`, `@reboot`. Fields are separated by ASCII
//! spaces or tabs (crontab takes no other blank, such as the ideographic space U+3000). A step
//! larger than its field's span (`*/61` in minutes) is reported: it can only mean the first
//! value. This is the syntax of POSIX cron and Vixie
//! cron (crontab(5)) that Kubernetes CronJobs, GitHub Actions and most schedulers accept.
//!
//! The page uses only the syntax and range check ([`check_cron`]) for the sheet's findings.
//! [`CronTimes`] tells whether the schedule runs at a given local date and time; only the
//! daylight-saving findings call it, in the workers and the CLI, with the time zone database
//! (a date library the page's wasm does not carry).

use serde::Serialize;

/// One of the five fields of a cron expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CronField {
    /// 0–59.
    Minute,
    /// 0–23.
    Hour,
    /// 1–31.
    DayOfMonth,
    /// 1–12, or `jan`–`dec`.
    Month,
    /// 0–7 (0 and 7: Sunday), or `sun`–`sat`.
    DayOfWeek,
}

impl CronField {
    /// The fields in their order in an expression.
    pub const ALL: [CronField; 5] = [
        CronField::Minute,
        CronField::Hour,
        CronField::DayOfMonth,
        CronField::Month,
        CronField::DayOfWeek,
    ];

    /// The smallest and largest value the field takes.
    pub fn range(self) -> (u32, u32) {
        match self {
            CronField::Minute => (0, 59),
            CronField::Hour => (0, 23),
            CronField::DayOfMonth => (1, 31),
            CronField::Month => (1, 12),
            CronField::DayOfWeek => (0, 7),
        }
    }

    /// Stable id, also the suffix of its text key (`sheet.cron.field.<id>`).
    pub fn id(self) -> &'static str {
        match self {
            CronField::Minute => "minute",
            CronField::Hour => "hour",
            CronField::DayOfMonth => "day-of-month",
            CronField::Month => "month",
            CronField::DayOfWeek => "day-of-week",
        }
    }

    /// The names the field accepts for its values (lowercase; matched case-insensitively).
    fn names(self) -> &'static [&'static str] {
        match self {
            CronField::Month => &[
                "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
            ],
            CronField::DayOfWeek => &["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
            _ => &[],
        }
    }

    /// The value of `text` in this field: a number, or a name (`jan` = 1, `sun` = 0).
    fn value(self, text: &str) -> Option<u32> {
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            // Longer digit strings than any field needs are out of range, not unparsable.
            return Some(text.parse().unwrap_or(u32::MAX));
        }
        let lower = text.to_ascii_lowercase();
        let i = self.names().iter().position(|n| *n == lower)?;
        let first = if self == CronField::Month { 1 } else { 0 };
        Some(first + i as u32)
    }
}

/// Why a schedule is not a cron expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CronError {
    /// Not five fields (nor a macro); `found` is how many there were.
    FieldCount {
        /// Fields found (separated by spaces).
        found: usize,
    },
    /// A value outside the field's range.
    OutOfRange {
        /// The field.
        field: CronField,
        /// The value as written.
        value: String,
    },
    /// A range whose start is after its end (`5-1`).
    Backwards {
        /// The field.
        field: CronField,
        /// The range as written.
        range: String,
    },
    /// A step of 0 or one larger than the field's span (`*/0`, `*/99` in minutes).
    BadStep {
        /// The field.
        field: CronField,
        /// The step as written.
        step: String,
    },
    /// Text that is none of `*`, a value, a range, a step or a list.
    Syntax {
        /// The field.
        field: CronField,
        /// The field's text.
        text: String,
    },
    /// An `@` word that is not a known macro.
    UnknownMacro {
        /// The word as written.
        word: String,
    },
}

/// The macros accepted in place of five fields.
pub const MACROS: [&str; 8] = [
    "@yearly",
    "@annually",
    "@monthly",
    "@weekly",
    "@daily",
    "@midnight",
    "@hourly",
    "@reboot",
];

/// Checks `schedule` (surrounding blanks ignored; fields separated by runs of ASCII spaces or
/// tabs) as a cron expression.
///
/// # Errors
/// The first problem, field by field from the left: see [`CronError`].
pub fn check_cron(schedule: &str) -> Result<(), CronError> {
    let fields: Vec<&str> = schedule
        .trim()
        .split([' ', '\t'])
        .filter(|f| !f.is_empty())
        .collect();
    if let [word] = fields.as_slice() {
        if word.starts_with('@') {
            let lower = word.to_ascii_lowercase();
            return if MACROS.contains(&lower.as_str()) {
                Ok(())
            } else {
                Err(CronError::UnknownMacro {
                    word: (*word).to_owned(),
                })
            };
        }
    }
    if fields.len() != 5 {
        return Err(CronError::FieldCount {
            found: fields.len(),
        });
    }
    for (field, text) in CronField::ALL.into_iter().zip(fields) {
        check_field(field, text)?;
    }
    Ok(())
}

/// One field: a comma-separated list of items.
fn check_field(field: CronField, text: &str) -> Result<(), CronError> {
    let syntax = || CronError::Syntax {
        field,
        text: text.to_owned(),
    };
    let (min, max) = field.range();
    let in_range = |v: u32, written: &str| {
        if (min..=max).contains(&v) {
            Ok(())
        } else {
            Err(CronError::OutOfRange {
                field,
                value: written.to_owned(),
            })
        }
    };
    for item in text.split(',') {
        let (base, step) = match item.split_once('/') {
            Some((b, s)) => (b, Some(s)),
            None => (item, None),
        };
        if base != "*" {
            if let Some((a, b)) = base.split_once('-') {
                let from = field.value(a).ok_or_else(syntax)?;
                let to = field.value(b).ok_or_else(syntax)?;
                in_range(from, a)?;
                in_range(to, b)?;
                if from > to {
                    return Err(CronError::Backwards {
                        field,
                        range: base.to_owned(),
                    });
                }
            } else {
                in_range(field.value(base).ok_or_else(syntax)?, base)?;
            }
        }
        if let Some(s) = step {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            let n = s.parse::<u32>().unwrap_or(u32::MAX);
            if n == 0 || n > max - min + 1 {
                return Err(CronError::BadStep {
                    field,
                    step: s.to_owned(),
                });
            }
        }
    }
    Ok(())
}

/// The minutes, hours, days, months and weekdays a checked cron expression runs at, to test a
/// local date and time against it ([`CronTimes::at`]). Used by the daylight-saving findings
/// ([`dst`](super::dst)), which run in the workers and the CLI, not in the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronTimes {
    /// Bit `n` set: the value `n` is allowed, one set per field in [`CronField::ALL`] order
    /// (day of week 7 folded into 0).
    sets: [u64; 5],
    /// Both day of month and day of week restricted (neither starts with `*`): crontab(5)
    /// runs when either matches.
    either_day: bool,
}

impl CronTimes {
    /// The times of `schedule`, or `None` when it is not a cron expression ([`check_cron`])
    /// or is `@reboot` (no clock time).
    pub fn of(schedule: &str) -> Option<CronTimes> {
        check_cron(schedule).ok()?;
        let trimmed = schedule.trim();
        let expanded = match trimmed.to_ascii_lowercase().as_str() {
            "@yearly" | "@annually" => "0 0 1 1 *".to_owned(),
            "@monthly" => "0 0 1 * *".to_owned(),
            "@weekly" => "0 0 * * 0".to_owned(),
            "@daily" | "@midnight" => "0 0 * * *".to_owned(),
            "@hourly" => "0 * * * *".to_owned(),
            "@reboot" => return None,
            _ => trimmed.to_owned(),
        };
        let fields: Vec<&str> = expanded
            .split([' ', '\t'])
            .filter(|f| !f.is_empty())
            .collect();
        let mut sets = [0u64; 5];
        for (i, (field, text)) in CronField::ALL.into_iter().zip(&fields).enumerate() {
            sets[i] = field_set(field, text)?;
        }
        sets[4] |= (sets[4] >> 7) & 1;
        let restricted = |t: &str| !t.starts_with('*');
        Some(CronTimes {
            sets,
            either_day: restricted(fields[2]) && restricted(fields[4]),
        })
    }

    /// Whether the schedule runs at `hour`:`minute` on `month`/`day` (1-based) of a day whose
    /// weekday is `weekday` (0 Sunday … 6 Saturday).
    pub fn at(&self, month: u32, day: u32, weekday: u32, hour: u32, minute: u32) -> bool {
        let has = |i: usize, v: u32| v < 64 && self.sets[i] & (1 << v) != 0;
        let (dom, dow) = (has(2, day), has(4, weekday));
        let day_ok = if self.either_day {
            dom || dow
        } else {
            dom && dow
        };
        has(0, minute) && has(1, hour) && has(3, month) && day_ok
    }
}

/// The values one field allows, as bits (the field was checked by [`check_field`]).
fn field_set(field: CronField, text: &str) -> Option<u64> {
    let (min, max) = field.range();
    let mut set = 0u64;
    for item in text.split(',') {
        let (base, step) = match item.split_once('/') {
            Some((b, s)) => (b, s.parse::<u32>().ok()?),
            None => (item, 1),
        };
        let (from, to) = if base == "*" {
            (min, max)
        } else if let Some((a, b)) = base.split_once('-') {
            (field.value(a)?, field.value(b)?)
        } else {
            let v = field.value(base)?;
            // `5/10` runs from 5 to the end in steps (Vixie cron).
            (v, if item.contains('/') { max } else { v })
        };
        let mut v = from;
        while v <= to {
            set |= 1 << v;
            v += step.max(1);
        }
    }
    Some(set)
}
