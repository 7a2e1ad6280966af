//! The permalink codec: a [`Share`] to and from the text after `#` in a URL.
//!
//! Format v1: `share-v1:` + base64url without padding (RFC 4648 §5; the `base64` crate) of
//! zlib (RFC 1950: deflate plus an Adler-32 checksum; the `miniz_oxide` crate, level 9) of
//! [`Share::to_json`]. Decoding order, each step an error value and never a panic:
//! length ([`MAX_FRAGMENT_CHARS`], counted before anything else, so an over-long fragment is
//! [`LinkError::TooLong`] whatever it holds) → prefix → base64url (padding and surrounding
//! whitespace accepted) → inflate with the output capped at [`MAX_DECODED_BYTES`] and the
//! checksum verified → UTF-8 → [`Share::from_json`]. Bytes after the end of the zlib stream
//! are not read (they cannot change the share; the encoder writes none).

use super::Share;
use crate::domain::catalog::MAX_FILE_BYTES;
use crate::domain::number::group_thousands;
use crate::domain::sheet::import::ImportError;
use crate::domain::Lang;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use miniz_oxide::inflate::TINFLStatus;

/// The fragment prefix of format version 1 (after the `#`).
pub const PREFIX_V1: &str = "share-v1:";

/// The longest fragment decoded, in characters: Chromium's URL limit (2 MB); longer links
/// do not survive a browser anyway.
pub const MAX_FRAGMENT_CHARS: usize = 2 * 1024 * 1024;

/// The largest inflated JSON accepted, in bytes: the catalog file's limit
/// ([`MAX_FILE_BYTES`], 4 MiB), so a small fragment cannot expand into a huge allocation
/// (a "zip bomb" stops at the cap).
pub const MAX_DECODED_BYTES: usize = MAX_FILE_BYTES;

/// Past this many characters a whole link is cut by common tools (Teams deep links at 2 048,
/// Outlook at 1 024 in places, chat previews): the share dialog warns and offers the
/// shorter link without notes.
pub const LONG_LINK_CHARS: usize = 2_000;

/// base64url, no padding written; padded input is accepted too (some tools add it).
const B64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Why a fragment could not be opened. Every variant has a message in both languages
/// ([`LinkError::message`]); none loses what the receiver already has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// The fragment is not a share link at all (no `share-v…:` prefix).
    NotAShareLink,
    /// A `share-vN:` link of a version this build does not know (made by a newer build).
    UnknownVersion {
        /// The version text found after `share-v`.
        found: String,
    },
    /// The fragment is longer than [`MAX_FRAGMENT_CHARS`].
    TooLong {
        /// Its length in characters.
        chars: usize,
    },
    /// A character outside base64url, or a length base64 cannot have (the link was cut or
    /// changed by hand).
    NotBase64 {
        /// 0-based offset of the first bad character in the encoded part, when known.
        at: Option<usize>,
    },
    /// The compressed data is cut short or altered (checksum or stream error).
    Corrupt,
    /// The content inflates past [`MAX_DECODED_BYTES`].
    TooLarge,
    /// The content is not UTF-8 text.
    NotText,
    /// The content is not a share this build accepts (the field and the allowed range).
    Invalid(ImportError),
}

impl LinkError {
    /// The message in `lang`: what is wrong with the link and that nothing else changed.
    pub fn message(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            LinkError::NotAShareLink => {
                crate::text::t!("share.link.not-share", locale = l).into_owned()
            }
            LinkError::UnknownVersion { found } => {
                crate::text::t!("share.link.version", locale = l, found = found).into_owned()
            }
            LinkError::TooLong { chars } => crate::text::t!(
                "share.link.too-long",
                locale = l,
                chars = group_thousands(*chars as u64),
                max = group_thousands(MAX_FRAGMENT_CHARS as u64)
            )
            .into_owned(),
            LinkError::NotBase64 { at: Some(at) } => {
                crate::text::t!("share.link.base64-at", locale = l, at = at + 1).into_owned()
            }
            LinkError::NotBase64 { at: None } => {
                crate::text::t!("share.link.base64", locale = l).into_owned()
            }
            LinkError::Corrupt => crate::text::t!("share.link.corrupt", locale = l).into_owned(),
            LinkError::TooLarge => crate::text::t!(
                "share.link.too-large",
                locale = l,
                max = group_thousands(MAX_DECODED_BYTES as u64)
            )
            .into_owned(),
            LinkError::NotText => crate::text::t!("share.link.not-text", locale = l).into_owned(),
            LinkError::Invalid(e) => {
                crate::text::t!("share.link.invalid", locale = l, problem = e.message(lang))
                    .into_owned()
            }
        }
    }
}

/// The fragment (without `#`) for `share`: [`PREFIX_V1`] + base64url(zlib(JSON)).
pub fn encode(share: &Share) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(share.to_json().as_bytes(), 9);
    format!("{PREFIX_V1}{}", B64.encode(packed))
}

/// The folder the app is served from, ending in `/`: `base` without its fragment and query
/// and without a final `index.html` or `embed.html`, e.g.
/// `https://wiki.example/tools/advisor/index.html#catalog` → `https://wiki.example/tools/advisor/`.
pub fn app_folder(base: &str) -> String {
    let base = base.split('#').next().unwrap_or_default();
    let base = base.split('?').next().unwrap_or_default();
    let base = base
        .strip_suffix("index.html")
        .or_else(|| base.strip_suffix("embed.html"))
        .unwrap_or(base);
    if base.is_empty() || base.ends_with('/') {
        base.to_owned()
    } else {
        format!("{base}/")
    }
}

/// The link that opens `share` in the app: [`app_folder`]`(base)` + `#` + [`encode`].
pub fn app_url(base: &str, share: &Share) -> String {
    format!("{}#{}", app_folder(base), encode(share))
}

/// The link that shows `share` on the embed page (for an `<iframe>`):
/// [`app_folder`]`(base)` + `embed.html#` + [`encode`].
pub fn embed_url(base: &str, share: &Share) -> String {
    format!("{}embed.html#{}", app_folder(base), encode(share))
}

/// Whether `fragment` (with or without its `#`) claims to be a share link of any version:
/// the app hands such fragments to [`decode`] instead of treating them as a place.
pub fn is_share_fragment(fragment: &str) -> bool {
    fragment.trim_start_matches('#').starts_with("share-v")
}

/// Opens a fragment (with or without its `#`; surrounding whitespace ignored).
///
/// # Errors
/// A [`LinkError`] for each step of the module's order; the caller shows
/// [`LinkError::message`] and carries on with what it had.
pub fn decode(fragment: &str) -> Result<Share, LinkError> {
    Share::from_json(&unpack(fragment)?).map_err(LinkError::Invalid)
}

/// [`decode`] with the plain model reader ([`Share::from_json_plain`]): the same checks of
/// meaning, the shape checked by the models' own decoder (its message names line and column
/// rather than the JSON path). For the embed page, whose size budget the path-naming reader
/// does not fit; the app and the CLI use [`decode`].
///
/// # Errors
/// As [`decode`]; a content problem is [`LinkError::Invalid`] with the decoder's words or
/// the first meaning check that fails.
pub fn decode_plain(fragment: &str) -> Result<Share, LinkError> {
    Share::from_json_plain(&unpack(fragment)?).map_err(LinkError::Invalid)
}

/// The JSON text a fragment carries: every step of [`decode`] but the reading.
fn unpack(fragment: &str) -> Result<String, LinkError> {
    let raw_chars = fragment.trim().trim_start_matches('#').chars().count();
    if raw_chars > MAX_FRAGMENT_CHARS {
        return Err(LinkError::TooLong { chars: raw_chars });
    }
    // Mail tools wrap long links and some gateways percent-encode them: whitespace (raw or
    // `%20` / `%0A` / `%0D` / `%09`) is never part of base64url, and `%3A` is the colon.
    let cleaned: String = fragment
        .replace("%20", "")
        .replace("%0A", "")
        .replace("%0a", "")
        .replace("%0D", "")
        .replace("%0d", "")
        .replace("%09", "")
        .replace("%3A", ":")
        .replace("%3a", ":")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let fragment = cleaned.trim_start_matches('#');
    let Some(rest) = fragment.strip_prefix("share-v") else {
        return Err(LinkError::NotAShareLink);
    };
    let Some(data) = fragment.strip_prefix(PREFIX_V1) else {
        let found: String = rest.chars().take_while(|c| *c != ':').take(12).collect();
        return Err(LinkError::UnknownVersion { found });
    };
    let bytes = B64.decode(data.trim_end()).map_err(|e| match e {
        base64::DecodeError::InvalidByte(at, _) => LinkError::NotBase64 { at: Some(at) },
        // A valid letter in a place no complete link ends: the link was cut.
        base64::DecodeError::InvalidLastSymbol { .. } => LinkError::NotBase64 { at: None },
        _ => LinkError::NotBase64 { at: None },
    })?;
    let json = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&bytes, MAX_DECODED_BYTES)
        .map_err(|e| match e.status {
        TINFLStatus::HasMoreOutput => LinkError::TooLarge,
        _ => LinkError::Corrupt,
    })?;
    String::from_utf8(json).map_err(|_| LinkError::NotText)
}
