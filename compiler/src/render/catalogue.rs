//! `lensc catalogue`: a static site of a ROM's patterns. `index.html` lists the classes with
//! their counts (and a filter box); `class-NAME.html` draws every pattern of a class in source
//! order (glob headers included) with its name, priority, tests, result, orientation set, its
//! stored variants on demand and a link to its source; `all.html` holds every class's figures
//! on one page; `lenses.html` draws each lens's frame and fields.
//!
//! Large pages (GNU Go's databases: 1,000+ patterns) stay fast because every figure is a small
//! inline SVG with `content-visibility: auto` (off-screen figures are not laid out) and the
//! variants are drawn by script only when a figure's "variants" box is opened.

use super::svg::Diagram;
use super::{esc, filter_script, page};
use crate::disasm::{result_text, state_names, test_text};
use lens_vm::geometry::Orientation;
use lens_vm::rom::{ClassInfo, Item, Kernel, Mode, OrientPolicy, Rom};
use std::fmt::Write;

/// Where a pattern's source is: `(href, line)` for a debug record's file and byte offset, or
/// `None` to show the file and offset as plain text. Supplied by the caller (it reads files).
pub type SourceLink<'f> = &'f dyn Fn(&str, u32) -> Option<(String, u32)>;

/// One figure of a class page: a pattern and its stored variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    pub pattern: u32,
    /// Stored orientations, in entry order.
    pub orientations: Vec<u8>,
    /// Union of the orientations the stored variants cover.
    pub covers: u8,
    /// Nesting depth in globs (0: top level); glob headers are the first figure of a glob.
    pub depth: usize,
}

/// The figures of a class, in class-program order (one per pattern, glob headers included).
pub fn figures(rom: &Rom<'_>, class: &ClassInfo<'_>) -> Vec<Figure> {
    let mut out: Vec<Figure> = Vec::new();
    let mut depth = 0usize;
    for item in class.items() {
        let (first, end, d) = match item {
            Item::Run { first, end } => (first, end, depth),
            Item::Glob { first, end, .. } => {
                depth += 1;
                (first, end, depth - 1)
            }
            Item::GlobEnd => {
                depth = depth.saturating_sub(1);
                continue;
            }
        };
        for e in first..end {
            let (p, o, cov) = rom.entry(e);
            match out.last_mut() {
                Some(f) if f.pattern == p && e > first => {
                    f.orientations.push(o);
                    f.covers |= cov;
                }
                _ => out.push(Figure {
                    pattern: p,
                    orientations: vec![o],
                    covers: cov,
                    depth: d,
                }),
            }
        }
    }
    out
}

/// Safe file name for a class page.
pub fn class_file(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("class-{s}.html")
}

fn mode_name(m: Mode) -> &'static str {
    match m {
        Mode::Best => "best",
        Mode::All => "all",
        Mode::First => "first",
    }
}

fn orient_name(o: OrientPolicy) -> &'static str {
    match o {
        OrientPolicy::All => "all",
        OrientPolicy::Up => "up",
        OrientPolicy::Identity => "identity",
    }
}

fn bits(c: u8) -> String {
    let v: Vec<String> = (0..8)
        .filter(|b| c & (1 << b) != 0)
        .map(|b| b.to_string())
        .collect();
    v.join(",")
}

/// The 8 orientations as SVG matrices `[a, b, c, d]` (`x' = a x + c y`, `y' = b x + d y`).
fn orientation_matrices() -> String {
    let m: Vec<String> = Orientation::ALL
        .iter()
        .map(|t| {
            let (a, b) = t.apply(1, 0);
            let (c, d) = t.apply(0, 1);
            format!("[{a},{b},{c},{d}]")
        })
        .collect();
    format!("[{}]", m.join(","))
}

/// Draws the stored variants of a figure when its `<details>` opens: each is the drawing
/// transformed about its focus (texts moved, not turned).
fn variants_script() -> String {
    format!(
        "(function(){{var O={};\
function variant(svg,o){{var m=O[o],c=svg.cloneNode(true);\
var fx=+svg.getAttribute('data-fx'),fy=+svg.getAttribute('data-fy');\
function T(x,y){{var dx=x-fx,dy=y-fy;return[m[0]*dx+m[2]*dy+fx,m[1]*dx+m[3]*dy+fy];}}\
var vb=svg.viewBox.baseVal,a=T(vb.x,vb.y),b=T(vb.x+vb.width,vb.y+vb.height);\
var x0=Math.min(a[0],b[0]),y0=Math.min(a[1],b[1]),w=Math.abs(a[0]-b[0]),h=Math.abs(a[1]-b[1]);\
c.setAttribute('viewBox',x0+' '+y0+' '+w+' '+h);c.setAttribute('width',w);c.setAttribute('height',h);\
c.setAttribute('class','var');\
c.querySelector('g.d').setAttribute('transform','matrix('+m.join(' ')+' '+(fx-m[0]*fx-m[2]*fy)+' '+(fy-m[1]*fx-m[3]*fy)+')');\
var ts=c.querySelectorAll('g.t text');for(var i=0;i<ts.length;i++){{\
var p=T(+ts[i].getAttribute('x'),+ts[i].getAttribute('y'));ts[i].setAttribute('x',p[0]);ts[i].setAttribute('y',p[1]);}}\
var t=document.createElementNS('http://www.w3.org/2000/svg','title');t.textContent='orientation '+o;c.appendChild(t);\
return c;}}\
document.addEventListener('toggle',function(ev){{var d=ev.target;\
if(!d.open||d.getAttribute('data-done'))return;var fig=d.closest('figure');\
var svg=fig.querySelector('svg.dia'),box=d.querySelector('.variants');\
fig.getAttribute('data-o').split(',').forEach(function(o){{box.appendChild(variant(svg,+o));}});\
d.setAttribute('data-done','1');}},true);}})();",
        orientation_matrices()
    )
}

/// The drawing of pattern `p` (an index into the patterns table), as stored: its cells in the
/// drawn orientation, the focus and the result.
pub fn pattern_diagram(rom: &Rom<'_>, p: u32) -> Diagram {
    let pat = rom.pattern(p);
    Diagram {
        cells: pat
            .cells()
            .map(|(x, y, a)| ((x as i32, y as i32), a))
            .collect(),
        focus: Some((0, 0)),
        result: pat.result(),
        endpoints: Vec::new(),
    }
}

fn figure_html(rom: &Rom<'_>, f: &Figure, link: SourceLink<'_>, out: &mut String) {
    let pat = rom.pattern(f.pattern);
    let id = pat.id();
    let name = rom
        .pattern_name(id)
        .filter(|n| !n.is_empty())
        .map_or_else(|| format!("#{id}"), str::to_string);
    let d = pattern_diagram(rom, f.pattern);
    let orients: Vec<String> = f.orientations.iter().map(|o| o.to_string()).collect();
    let _ = write!(
        out,
        "<figure class=\"pat\" id=\"p{id}\" data-name=\"{}\" data-o=\"{}\">{}<figcaption>\
         <span class=\"name\">{}</span> · priority {}",
        esc(&name),
        orients.join(","),
        d.svg("dia"),
        esc(&name),
        pat.priority()
    );
    if f.depth > 0 {
        let _ = write!(out, " · glob depth {}", f.depth);
    }
    for (k, v) in rom.pattern_attrs(id) {
        let _ = write!(out, "<br>{} = {}", esc(k), esc(v));
    }
    for (code, _) in pat.tests() {
        let _ = write!(out, "<code>where {}</code>", esc(&test_text(rom, code)));
    }
    let result = pat
        .result()
        .map_or_else(|| "glob header".to_string(), result_text);
    let _ = write!(
        out,
        "<code>=&gt; {}</code>orientations {{{}}}\
         <details><summary>{} stored variant(s)</summary><div class=\"variants\"></div></details>",
        esc(&result),
        bits(f.covers),
        f.orientations.len()
    );
    if let Some((_, file, start, _)) = rom.pattern_debug(id) {
        match link(file, start) {
            Some((href, line)) => {
                // The file's name is enough on a card; the link and tooltip have the path.
                let short = file.rsplit(['/', '\\']).next().unwrap_or(file);
                let _ = write!(
                    out,
                    "<a href=\"{}#L{line}\" title=\"{}\">{}:{line}</a>",
                    esc(&href),
                    esc(file),
                    esc(short)
                );
            }
            None => {
                let _ = write!(out, "{} byte {start}", esc(file));
            }
        }
    }
    out.push_str("</figcaption></figure>\n");
}

fn class_page(rom: &Rom<'_>, class: &ClassInfo<'_>, link: SourceLink<'_>) -> String {
    let figs = figures(rom, class);
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<p><a href=\"index.html\">index</a></p><h1>class {}</h1>\
         <p>mode {} · focus {} · field {}x{} · orient {} · kernel {} · \
         <span id=\"count\">{}</span> patterns, {} stored variants{}</p>\
         <input class=\"filter\" id=\"filter\" placeholder=\"filter by pattern name\">\n\
         <div class=\"grid\">",
        esc(class.name()),
        mode_name(class.mode()),
        state_names(class.focus()),
        class.width(),
        class.height(),
        orient_name(class.orient()),
        match class.kernel() {
            Kernel::Packed => "packed",
            Kernel::General => "general",
        },
        figs.len(),
        class.entry_count(),
        class
            .default_value()
            .map_or_else(String::new, |v| format!(" · default {v}"))
    );
    for f in &figs {
        figure_html(rom, f, link, &mut body);
    }
    body.push_str("</div>\n");
    let script = format!("{}{}", filter_script("figure.pat"), variants_script());
    page(&format!("class {}", class.name()), &body, &script)
}

/// Every pattern of every class on one page (`all.html`), a heading per class: one filter box
/// searches the whole image.
fn all_page(rom: &Rom<'_>, link: SourceLink<'_>) -> String {
    let total: usize = rom.classes().map(|c| figures(rom, &c).len()).sum();
    let mut body = format!(
        "<p><a href=\"index.html\">index</a></p><h1>all patterns</h1>\
         <p><span id=\"count\">{total}</span> patterns in {} classes</p>\
         <input class=\"filter\" id=\"filter\" placeholder=\"filter by pattern name\">\n",
        rom.class_count()
    );
    for class in rom.classes() {
        let _ = writeln!(
            body,
            "<h2><a href=\"{}\">class {}</a></h2><div class=\"grid\">",
            class_file(class.name()),
            esc(class.name())
        );
        for f in &figures(rom, &class) {
            figure_html(rom, f, link, &mut body);
        }
        body.push_str("</div>\n");
    }
    let script = format!("{}{}", filter_script("figure.pat"), variants_script());
    page("all patterns", &body, &script)
}

fn lenses_page(rom: &Rom<'_>) -> String {
    let mut body = String::from("<p><a href=\"index.html\">index</a></p><h1>lenses</h1>\n");
    for l in 0..rom.lens_count() {
        let Some(lens) = rom.lens(lens_vm::LensId(l as u32)) else {
            continue;
        };
        let ends: Vec<(i32, i32)> = lens
            .endpoints()
            .map(|(x, y)| (x as i32, y as i32))
            .collect();
        let frame = Diagram {
            endpoints: ends.clone(),
            ..Diagram::default()
        };
        let _ = writeln!(
            body,
            "<section class=\"lens\" data-name=\"{}\"><h2>lens {} (type {})</h2>\
             <div class=\"grid\"><figure class=\"pat lensframe\">{}<figcaption>frame: \
             {} endpoint(s)</figcaption></figure>",
            esc(lens.name()),
            esc(lens.name()),
            lens.lens_type(),
            frame.svg("dia"),
            ends.len()
        );
        for f in 0..lens.field_count() {
            let (c0, nc, t0, nt, r) = lens.field(f);
            let d = Diagram {
                cells: (c0..c0 + nc)
                    .map(|c| {
                        let (x, y, a) = rom.cell(c);
                        ((x as i32, y as i32), a)
                    })
                    .collect(),
                focus: None,
                result: Some(rom.result(r)),
                endpoints: ends.clone(),
            };
            let _ = write!(
                body,
                "<figure class=\"pat lensfield\">{}<figcaption><span class=\"name\">field {f}</span>",
                d.svg("dia")
            );
            for t in t0..t0 + nt {
                let (code, _) = rom.test(t);
                let _ = write!(body, "<code>where {}</code>", esc(&test_text(rom, code)));
            }
            let _ = writeln!(
                body,
                "<code>=&gt; {}</code></figcaption></figure>",
                esc(&result_text(rom.result(r)))
            );
        }
        body.push_str("</div></section>\n");
    }
    page("lenses", &body, "")
}

/// The site's files: `(file name, contents)`, the index first.
pub fn catalogue(rom: &Rom<'_>, title: &str, link: SourceLink<'_>) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut rows = String::new();
    let mut total = 0usize;
    for class in rom.classes() {
        let n = figures(rom, &class).len();
        total += n;
        let file = class_file(class.name());
        let _ = writeln!(
            rows,
            "<tr data-name=\"{}\"><td><a href=\"{file}\">{}</a></td><td>{}</td><td>{}x{}</td>\
             <td>{}</td><td class=\"n\">{n}</td><td class=\"n\">{}</td></tr>",
            esc(class.name()),
            esc(class.name()),
            mode_name(class.mode()),
            class.width(),
            class.height(),
            orient_name(class.orient()),
            class.entry_count()
        );
        files.push((file, class_page(rom, &class, link)));
    }
    files.push(("all.html".to_string(), all_page(rom, link)));
    let lenses = if rom.lens_count() > 0 {
        files.push(("lenses.html".to_string(), lenses_page(rom)));
        format!(
            "<p><a href=\"lenses.html\">{} lens(es)</a></p>",
            rom.lens_count()
        )
    } else {
        String::new()
    };
    let body = format!(
        "<h1>{}</h1><p>{total} patterns in {} classes · ROM {} bytes · {}</p>\
         <p><a href=\"all.html\">all patterns on one page</a></p>{lenses}\
         <input class=\"filter\" id=\"filter\" placeholder=\"filter classes\">\n\
         <table><thead><tr><th>class</th><th>mode</th><th>field</th><th>orient</th>\
         <th>patterns</th><th>variants</th></tr></thead><tbody>\n{rows}</tbody></table>\n",
        esc(title),
        rom.class_count(),
        rom.as_bytes().len(),
        esc(rom.toolchain())
    );
    files.insert(
        0,
        (
            "index.html".to_string(),
            page(title, &body, &filter_script("tr[data-name]")),
        ),
    );
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_figure_per_pattern_and_the_index_counts_them() {
        // The examples hold globs (nested too), lenses and several classes.
        let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let compiled = crate::compile_paths(&[examples], &Default::default())
            .1
            .expect("the examples compile");
        let rom = Rom::from_bytes(&compiled.rom).unwrap();
        let files = catalogue(&rom, "t", &|_, _| Some(("src.lens".into(), 2)));
        assert_eq!(files[0].0, "index.html");
        let mut globs = 0;
        for class in rom.classes() {
            let figs = figures(&rom, &class);
            assert_eq!(
                figs.len(),
                class.pattern_count() as usize,
                "{}",
                class.name()
            );
            globs += figs.iter().filter(|f| f.depth > 0).count();
            let page = &files
                .iter()
                .find(|f| f.0 == class_file(class.name()))
                .unwrap()
                .1;
            assert_eq!(page.matches("<figure class=\"pat\"").count(), figs.len());
            let row = format!("<td class=\"n\">{}</td>", figs.len());
            assert!(files[0].1.contains(&row));
        }
        assert!(globs > 0, "the examples have globs");
        assert!(files[1].1.contains("<a href=\"src.lens#L2\""));
        assert!(files.iter().any(|f| f.0 == "lenses.html") == (rom.lens_count() > 0));
    }
}
