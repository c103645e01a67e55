//! Pictures: static HTML pages with inline SVG, read back from a ROM image through lens-vm's
//! public ROM API (so a page shows what the VM runs, as `disasm` does).
//!
//! - [`svg`]: pattern, lens and board diagrams (one `<svg>` each, no external assets).
//! - [`catalogue`]: `lensc catalogue`, an index page and one page per class.
//! - [`position`]: `lensc match --svg/--html`, a position with its matches marked.
//! - [`joseki`]: `lensc joseki explore`, a book walked by clicking.
//!
//! Every page is self-contained (inline CSS and JS) and deterministic: the same image gives
//! the same bytes.

pub mod catalogue;
pub mod joseki;
pub mod position;
pub mod svg;

use std::fmt::Write;

/// Text escaped for HTML element content and double-quoted attributes.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// Shared page style: diagrams, grid of figures, filter box.
pub const STYLE: &str = r#"
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222;background:#fafafa}
a{color:#1558b0}
h1{font-size:1.4em;margin:.2em 0}
table{border-collapse:collapse}td,th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right}
input.filter{font-size:1em;padding:3px 6px;width:22em;margin:.5em 0}
.grid{display:flex;flex-wrap:wrap;gap:8px}
figure.pat{margin:0;padding:6px;background:#fff;border:1px solid #ddd;border-radius:4px;width:210px;
 content-visibility:auto;contain-intrinsic-size:210px 260px}
figure.pat figcaption{font-size:12px;word-break:break-word}
figure.pat .name{font-weight:600}
figure.pat code{font-size:11px;display:block;color:#444;white-space:pre-wrap}
svg.dia{display:block;margin:0 auto 4px;max-width:200px;height:auto}
.variants{display:flex;flex-wrap:wrap;gap:4px}.variants svg{width:60px;height:auto}
.bg{fill:#e3b964}.grid-l{stroke:#5a4525;stroke-width:1;fill:none}
.off{fill:#8a8a8a}.f{fill:#fff;stroke:#000;stroke-width:1}.e{fill:#111;stroke:#000;stroke-width:1}
.focus{fill:none;stroke:#d0021b;stroke-width:2}
.mv{fill:#2e9d3e;fill-opacity:.85}.rj{stroke:#d0021b;stroke-width:3}
.end{fill:none;stroke:#1558b0;stroke-width:3}
text{font:bold 10px sans-serif;text-anchor:middle;dominant-baseline:central}
text.s{fill:#1558b0}text.v{fill:#fff}text.l{fill:#d0021b}
.hidden{display:none}
"#;

/// A complete page: title, style, body and an optional script at the end of the body.
pub fn page(title: &str, body: &str, script: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}",
        esc(title)
    );
    if !script.is_empty() {
        let _ = writeln!(s, "<script>{script}</script>");
    }
    s.push_str("</body></html>\n");
    s
}

/// The filter box script: hides elements matching `selector` whose `data-name` does not
/// contain the box's text (case-insensitive). Plain JS, no library.
pub fn filter_script(selector: &str) -> String {
    format!(
        "(function(){{var box=document.getElementById('filter');if(!box)return;\
         var items=document.querySelectorAll('{selector}');\
         box.addEventListener('input',function(){{var q=box.value.toLowerCase();\
         for(var i=0;i<items.length;i++){{var n=items[i].getAttribute('data-name')||'';\
         items[i].classList.toggle('hidden',n.toLowerCase().indexOf(q)<0);}}}});}})();"
    )
}
