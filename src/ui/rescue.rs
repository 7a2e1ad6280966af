//! What the panic page ([`crate::ui::start`]'s hook, drawn by [`crate::ui::browser::panic_page`])
//! rescues: the latest state the reducer produced and the tab's storage base, remembered on
//! every change ([`remember`], [`remember_base`]) and read only after a panic, with
//! `try_borrow` (a panic may strike while they are borrowed); the diagnostics it offers
//! ([`diagnostics`]); and the test-only way to provoke a panic ([`test_panic`]).

use crate::domain::app_state::{AppState, Keeping, Screen};
use crate::domain::catalog::sync::Stored;
use crate::domain::Lang;
use crate::ui::browser;
use std::cell::RefCell;
use std::rc::Rc;

/// The latest state and the tab's base (`None` until the app has booted).
type Latest = (Option<Rc<AppState>>, Option<Rc<RefCell<Stored>>>);

thread_local! {
    static LATEST: RefCell<Latest> = const { RefCell::new((None, None)) };
}

/// Remembers `state` as the latest (each change, from the reducer; the first from boot).
pub fn remember(state: Rc<AppState>) {
    LATEST.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.0 = Some(state);
        }
    });
}

/// Remembers the tab's base (what it last read from or wrote to storage), once at boot.
pub fn remember_base(base: Rc<RefCell<Stored>>) {
    LATEST.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.1 = Some(base);
        }
    });
}

/// The latest state and the base, if the app has booted and they can be read now.
pub fn latest() -> Latest {
    LATEST.with(|l| l.try_borrow().map(|l| l.clone()).unwrap_or_default())
}

/// The language the app shows now: the latest state's, else where it would start.
pub fn lang() -> Lang {
    latest()
        .0
        .map_or_else(browser::initial_lang, |state| state.lang)
}

/// Where the app is when it processes changes, for the open process's protection in
/// [`crate::ui::keeper::store`]: the open process, unless the catalog screen is on show.
pub fn protected(state: &AppState) -> Option<&crate::domain::catalog::ProcessId> {
    state
        .open
        .as_ref()
        .filter(|_| state.screen != Screen::Catalog)
}

/// The diagnostics the panic page shows and copies, as pretty JSON: the build, the panic's
/// text (`panic`, with its source location), and the latest state — language, place, open
/// process, whether storage keeps the catalog, the processes held back, and the whole
/// catalog as this tab has it (the user's work: answers, sheets, simulator choices). Nothing
/// in it is sent anywhere.
pub fn diagnostics(panic: &str) -> String {
    let quote = |s: &str| crate::domain::json::compact(s);
    let mut out = format!(
        "{{\n\"app\": \"modality-advisor {}\",\n\"panic\": {}",
        env!("CARGO_PKG_VERSION"),
        quote(panic)
    );
    if let Some(s) = latest().0 {
        let keeping = match &s.keeping {
            Keeping::Stored => "stored".to_owned(),
            Keeping::MemoryOnly(why) => format!("memory only: {why}"),
        };
        let held: Vec<String> = s.held.iter().map(|h| quote(h.id.as_str())).collect();
        out += &format!(
            ",\n\"lang\": \"{}\",\n\"place\": {},\n\"open\": {},\n\"keeping\": {},\n\"held\": [{}],\n\"catalog\": {}",
            s.lang.code(),
            quote(&s.place().fragment()),
            s.open.as_ref().map_or("null".to_owned(), |id| quote(id.as_str())),
            quote(&keeping),
            held.join(", "),
            s.catalog_now().to_json().trim_end()
        );
    }
    out + "\n}\n"
}

/// Where a test-only panic is provoked ([`test_panic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestPanic {
    /// While the app starts, after the stored work is read (session storage value `start`).
    Start,
    /// On the next change of the state, after it is remembered (value `action`).
    Action,
}

/// Panics when the browser tests asked for it: the session storage key
/// `modality-advisor:test-panic` ([`browser::TEST_PANIC_KEY`]) holds `start` or `action`
/// ([`TestPanic`]). The key is removed first, so the panic happens once and a reload starts
/// normally. Nothing in the app sets the key; a person reaches it only by setting it in the
/// developer tools.
pub fn test_panic(at: TestPanic) {
    let value = match at {
        TestPanic::Start => "start",
        TestPanic::Action => "action",
    };
    if browser::take_test_panic(value) {
        panic!("test panic ({} = {value})", browser::TEST_PANIC_KEY);
    }
}
