//! Sharing in the page: the share panel (links, embed code, cards — rendered by the export
//! worker, [`crate::domain::share::panel`]), the read-only view of an opened share link with
//! "Save to my catalog", and the notice when a link cannot be opened.
//!
//! The panel's and the card's HTML come from the domain's renderers, which escape every user
//! text; the page inserts it as it is and handles the panel's buttons with one listener
//! (`data-share-copy` / `data-share-download`), so the page's first load carries none of the
//! renderers.

use crate::domain::app_state::{LinkStatus, PanelScope, ShareAction};
use crate::domain::share::panel::{Panel, ShareRequest, ShareWant};
use crate::domain::share::Share;
use crate::text::t;
use crate::ui::browser;
use crate::ui::state::{Action, AppContext};
use yew::prelude::*;

/// Renders `want` for `share` in the export worker and keeps the answer (re-rendered when the
/// share or the language changes): `None` while waiting, then the text or the message.
#[hook]
fn use_rendered(
    share: Option<Share>,
    lang: crate::domain::Lang,
    want: ShareWant,
) -> Option<Result<String, String>> {
    let out = use_state(|| None);
    {
        let out = out.clone();
        use_effect_with((share, lang), move |(share, lang)| {
            out.set(None);
            if let Some(share) = share.clone() {
                let request = ShareRequest {
                    id: 0,
                    lang: *lang,
                    base: browser::page_url(),
                    want,
                    share,
                };
                wasm_bindgen_futures::spawn_local(async move {
                    out.set(Some(browser::share_in_worker(request).await));
                });
            }
        });
    }
    (*out).clone()
}

/// The share panel (for what the state's panel scope names) or, when a link is open, the
/// read-only shared view — both rendered by the export worker; this component inserts the
/// HTML and serves its buttons (copy, download, save, close) with one click listener.
/// `shared`: which of the two this instance shows.
#[component]
pub fn ShareSurface(props: &SurfaceProps) -> Html {
    let ctx = use_context::<AppContext>();
    let share = ctx.as_ref().and_then(|c| {
        if props.shared {
            c.shared.as_deref().cloned()
        } else {
            c.share_panel.and_then(|scope| c.share_of(scope))
        }
    });
    let lang = ctx.as_ref().map(|c| c.lang).unwrap_or_default();
    let want = if props.shared {
        ShareWant::Card
    } else {
        ShareWant::Panel
    };
    let rendered = use_rendered(share.clone(), lang, want);
    let status = use_state(String::new);
    {
        // A new share or language starts without the last click's word.
        let status = status.clone();
        use_effect_with((share.clone(), lang), move |_| status.set(String::new()));
    }
    let panel: Option<Result<Panel, String>> =
        rendered.map(|r| r.and_then(|t| Panel::from_json(&t)));
    let loaded = matches!(panel, Some(Ok(_)));
    let shared = props.shared;
    use_effect_with(loaded, move |loaded| {
        browser::load_stylesheet("./share.css");
        if shared {
            browser::load_stylesheet("./share-card.css");
        } else if *loaded {
            browser::focus_by_id("share-title");
        }
    });
    let (Some(ctx), Some(_)) = (ctx, share) else {
        return Html::default();
    };
    let l = lang.code();
    let body = match panel {
        None => {
            html! { <p class="hint" role="status">{ t!("share-ui.preparing", locale = l) }</p> }
        }
        Some(Err(message)) => html! { <p class="notice error-notice" role="alert">{ message }</p> },
        Some(Ok(panel)) => {
            let html = panel.html.clone();
            let items = std::rc::Rc::new(panel);
            let shown = status.clone();
            let onclick = Callback::from(move |e: MouseEvent| {
                let Some(click) = browser::share_click(&e) else {
                    return;
                };
                on_click(&ctx, click, items.clone(), shown.clone());
            });
            html! {
                <div class="share-body" {onclick}>
                    { Html::from_html_unchecked(AttrValue::from(html)) }
                    <p class="share-status" role="status">{ (*status).clone() }</p>
                </div>
            }
        }
    };
    if shared {
        html! { <main class="main sheet-main shared-view" id="main">{ body }</main> }
    } else {
        html! { <section class="share-panel" id="share-panel" aria-labelledby="share-title">{ body }</section> }
    }
}

/// What [`ShareSurface`] shows.
#[derive(Properties, PartialEq)]
pub struct SurfaceProps {
    /// The opened link's read-only view (else the share panel).
    pub shared: bool,
}

/// A click on one of the surface's buttons: copy or download an item, save or close. The
/// sheet's configuration panel ([`crate::ui::sheet::targets`]) serves its Copy and Download
/// with it too.
pub fn on_click(
    ctx: &AppContext,
    click: browser::ShareClick,
    items: std::rc::Rc<Panel>,
    status: UseStateHandle<String>,
) {
    let word = move |k: &str| items.item(k).to_owned();
    match click {
        browser::ShareClick::Copy(key) => {
            let text = word(&key);
            let plain = (key == "rich").then(|| word("rich-plain"));
            let lang = ctx.lang;
            wasm_bindgen_futures::spawn_local(async move {
                let done = match plain {
                    Some(plain) => browser::copy_html(text, plain, lang).await,
                    None => browser::copy_text(text, lang).await,
                };
                status.set(done.map_or_else(|e| e, |()| word("copied")));
            });
        }
        browser::ShareClick::Download { key, file, mime } => {
            let done = browser::download(&file, &mime, &word(&key));
            status.set(done.map_or_else(|e| e, |()| word("downloaded")));
        }
        browser::ShareClick::Jump(id) => browser::scroll_to_id(&id),
        browser::ShareClick::Action(action) => {
            let action = match action.as_str() {
                "save" => ShareAction::Save {
                    seed: browser::random_seed(),
                    now_ms: browser::now_ms(),
                },
                "close" => ShareAction::Close,
                _ => ShareAction::Panel(None),
            };
            ctx.dispatch(Action::Share(action));
        }
    }
}

/// The line while a link opens, or why it could not be opened (with Dismiss); nothing
/// otherwise. A plain function of the state.
pub fn link_notice(ctx: &AppContext) -> Html {
    let lang = ctx.lang;
    let l = lang.code();
    match &ctx.link {
        LinkStatus::Idle => Html::default(),
        LinkStatus::Opening => html! {
            <p class="notice" role="status" id="link-opening">{ t!("share-ui.opening", locale = l) }</p>
        },
        failed => {
            let message = failed.message(lang).unwrap_or_default().to_owned();
            let ctx = ctx.clone();
            let dismiss =
                Callback::from(move |_| ctx.dispatch(Action::Share(ShareAction::Dismiss)));
            html! {
                <div class="notice error-notice" role="alert" id="link-failed">
                    <p>{ message }{ " " }{ t!("share-ui.unchanged", locale = l) }</p>
                    <button type="button" class="link" onclick={dismiss}>{ t!("catalog-screen.dismiss", locale = l) }</button>
                </div>
            }
        }
    }
}

/// Reads the share link `fragment` in the export worker and tells the state what it holds
/// (or why it cannot be opened).
pub fn open_link(ctx: &AppContext, fragment: String) {
    use crate::domain::export::read::{ReadAs, ReadDone, ReadRequest};
    ctx.dispatch(Action::Share(ShareAction::Opening));
    let ctx = ctx.clone();
    let request = ReadRequest {
        id: 0,
        lang: ctx.lang,
        text: fragment,
        read: ReadAs::ShareLink,
    };
    wasm_bindgen_futures::spawn_local(async move {
        let action = match browser::read_file_in_worker(request).await {
            Ok(Ok(ReadDone::Shared(share))) => ShareAction::Opened(share),
            Ok(Ok(ReadDone::Refused { en, ja })) => ShareAction::Failed { en, ja },
            Ok(Err(e)) => ShareAction::Failed {
                en: e.message(crate::domain::Lang::En),
                ja: e.message(crate::domain::Lang::Ja),
            },
            Ok(Ok(_)) | Err(_) => {
                let why = t!("share-ui.worker-failed", locale = "en").into_owned();
                let ja = t!("share-ui.worker-failed", locale = "ja").into_owned();
                ShareAction::Failed { en: why, ja }
            }
        };
        ctx.dispatch(Action::Share(action));
    });
}

/// The open bar's share button: the open process, or the catalog on the catalog screen.
pub fn share_button(ctx: &AppContext) -> Html {
    let l = ctx.lang.code();
    let scope = ctx.share_scope();
    let label = match scope {
        PanelScope::Process => t!("share-ui.share-process", locale = l),
        PanelScope::Catalog => t!("share-ui.share-catalog", locale = l),
    };
    let open = ctx.share_panel == Some(scope);
    let ctx = ctx.clone();
    let onclick = Callback::from(move |_| {
        let next = (!open).then_some(scope);
        ctx.dispatch(Action::Share(ShareAction::Panel(next)))
    });
    html! {
        <button type="button" class="link" id="share-open" aria-expanded={open.to_string()}
            aria-controls="share-panel" {onclick}>{ label }</button>
    }
}
