//! The HTML pictures (`lens_compiler::render`: catalogue, match picture, joseki explorer) in a
//! real browser: headless Chromium opens each page inside a harness page (iframes; file pages
//! may read each other with `--allow-file-access-from-files`), which counts the diagrams,
//! opens a figure's variants, types in a filter box and clicks through a joseki line. Any
//! console message (errors included) fails the test. Screenshots go to `target/pictures/`.
//!
//! Chromium: `$LENS_CHROMIUM`, else `chromium`, `chromium-browser`, `google-chrome` on the
//! PATH (`.ci/run` installs Debian's). Without one the tests fail and say how to get one, unless
//! `LENS_NO_BROWSER=1` is set, when they print a warning and check nothing in a browser.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use lens_compiler::render::{catalogue, joseki, position};
use lens_vm::{Match, MatchBuf, NoHost, Orientations, Query, Rom, Scratch};

/// One browser at a time: the machine is small and Chromium is heavy.
static BROWSER: Mutex<()> = Mutex::new(());

fn find_browser() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LENS_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in [
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// The browser, or `None` after a loud warning when `LENS_NO_BROWSER=1` opts out.
fn browser() -> Option<PathBuf> {
    match find_browser() {
        Some(b) => Some(b),
        None if std::env::var_os("LENS_NO_BROWSER").is_some_and(|v| v == "1") => {
            eprintln!(
                "WARNING: no Chromium found and LENS_NO_BROWSER=1: the HTML pages were NOT \
                 checked in a browser"
            );
            None
        }
        None => panic!(
            "no Chromium found (LENS_CHROMIUM, or chromium / chromium-browser / google-chrome \
             on the PATH): install it (`apt-get install chromium`, as .ci/run does) or set \
             LENS_NO_BROWSER=1 to skip the browser tests knowingly"
        ),
    }
}

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/pictures")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d.canonicalize().unwrap()
}

const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--allow-file-access-from-files",
    "--enable-logging=stderr",
    "--v=0",
    "--hide-scrollbars",
];

/// Runs Chromium on `url` with `extra` flags; returns (stdout, console lines from stderr).
fn chromium(browser: &Path, dir: &Path, url: &str, extra: &[String]) -> (String, Vec<String>) {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let profile = dir.join(format!("profile-{}", extra.len()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut child = Command::new(browser)
        .args(FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    // Read both pipes on threads so a chatty browser never blocks on a full pipe.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut so, &mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut se, &mut s);
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = t_out.join().unwrap();
    let err = t_err.join().unwrap();
    let _ = std::fs::remove_dir_all(&profile);
    let console = err
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (out, console)
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The harness: loads each page in an iframe, runs its check, and leaves the results as JSON
/// in `body[data-result]` for `--dump-dom`.
const HARNESS: &str = r#"
var CHECK={
 index:function(w,d,done){done({rows:d.querySelectorAll('tr[data-name]').length});},
 catalogue:function(w,d,done){
  var figs=d.querySelectorAll('figure.pat:not(.lensframe):not(.lensfield)');
  var r={figures:figs.length,diagrams:d.querySelectorAll('figure.pat svg.dia').length,
    fields:d.querySelectorAll('figure.lensfield').length};
  var det=d.querySelector('figure.pat details');
  if(!det){done(r);return;}
  det.open=true;
  setTimeout(function(){
   r.variants=det.querySelectorAll('.variants svg').length;
   r.expected_variants=det.closest('figure').getAttribute('data-o').split(',').length;
   var box=d.getElementById('filter'),name=figs[figs.length-1].getAttribute('data-name');
   box.value=name;box.dispatchEvent(new w.Event('input'));
   r.filter=name;
   r.shown_after_filter=d.querySelectorAll('figure.pat:not(.hidden)').length;
   done(r);},100);},
 match:function(w,d,done){done({sugg:d.querySelectorAll('g.sugg').length,rej:d.querySelectorAll('g.rej').length,
   rows:d.querySelectorAll('ol.matches li').length});},
 joseki:function(w,d,done){
  var steps=[];
  for(var i=0;i<8;i++){var li=d.querySelector('li.cont');if(!li)break;li.click();
   steps.push({line:d.getElementById('line').textContent,count:+d.getElementById('count').textContent,
     marks:d.querySelectorAll('g.cont').length});}
  var before=d.getElementById('line').textContent;d.getElementById('back').click();
  done({steps:steps,before_back:before,after_back:d.getElementById('line').textContent});}
};
var results={};
function next(i){
 if(i>=PAGES.length){document.body.setAttribute('data-result',JSON.stringify(results));return;}
 var p=PAGES[i],f=document.createElement('iframe');f.style.width='1200px';f.style.height='900px';
 f.onload=function(){try{CHECK[p[1]](f.contentWindow,f.contentDocument,function(r){results[p[0]]=r;f.remove();next(i+1);});}
  catch(e){results[p[0]]={exception:String(e)};next(i+1);}};
 f.src=p[0];document.body.appendChild(f);
}
next(0);
"#;

/// Opens `pages` (file name in `dir`, check kind) in the harness; the results by file name.
fn check_pages(browser: &Path, dir: &Path, pages: &[(String, &str)]) -> serde_json::Value {
    let list: Vec<String> = pages
        .iter()
        .map(|(f, k)| format!("[{:?},{:?}]", f, k))
        .collect();
    let html = format!(
        "<!DOCTYPE html><html><body><script>var PAGES=[{}];{HARNESS}</script></body></html>",
        list.join(",")
    );
    std::fs::write(dir.join("harness.html"), html).unwrap();
    let url = format!("file://{}/harness.html", dir.display());
    let budget = format!("--virtual-time-budget={}", 5000 + 2000 * pages.len());
    let (dom, console) = chromium(browser, dir, &url, &[budget, "--dump-dom".into()]);
    assert!(
        console.is_empty(),
        "console messages (the pages must log nothing):\n{}",
        console.join("\n")
    );
    let start = dom
        .find("data-result=\"")
        .unwrap_or_else(|| panic!("the harness did not finish:\n{dom}"))
        + 13;
    let end = start + dom[start..].find('"').unwrap();
    let v: serde_json::Value = serde_json::from_str(&unescape(&dom[start..end])).unwrap();
    for (f, _) in pages {
        assert!(v[f].is_object(), "{f}: no result in {v}");
        assert!(v[f].get("exception").is_none(), "{f}: {}", v[f]);
    }
    v
}

fn screenshot(browser: &Path, dir: &Path, page: &str, png: &str, size: &str) {
    let url = format!("file://{}/{page}", dir.display());
    let path = dir.join(png);
    let (_, console) = chromium(
        browser,
        dir,
        &url,
        &[
            format!("--screenshot={}", path.display()),
            format!("--window-size={size}"),
            "--virtual-time-budget=3000".into(),
        ],
    );
    assert!(console.is_empty(), "{}", console.join("\n"));
    let png_bytes = std::fs::read(&path).expect("screenshot written");
    assert!(png_bytes.starts_with(b"\x89PNG"), "{png}: not a PNG");
}

fn write_site(dir: &Path, files: &[(String, String)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// Site of `rom` checked in the browser: every class page shows one diagram per pattern of
/// the class (as many as the ROM holds), variants open, the filter box filters.
fn check_catalogue(browser: &Path, dir: &Path, rom: &Rom<'_>) -> serde_json::Value {
    let files = catalogue::catalogue(rom, "test", &|_, _| None);
    write_site(dir, &files);
    let mut pages: Vec<(String, &str)> = vec![("index.html".into(), "index")];
    for class in rom.classes() {
        pages.push((catalogue::class_file(class.name()), "catalogue"));
    }
    pages.push(("all.html".into(), "catalogue"));
    if rom.lens_count() > 0 {
        pages.push(("lenses.html".into(), "catalogue"));
    }
    let v = check_pages(browser, dir, &pages);
    assert_eq!(v["index.html"]["rows"], rom.class_count());
    let mut total = 0u64;
    for class in rom.classes() {
        let r = &v[catalogue::class_file(class.name())];
        let n = class.pattern_count() as u64;
        assert_eq!(r["figures"], n, "{}: {r}", class.name());
        assert_eq!(r["diagrams"], n, "{}: {r}", class.name());
        if n > 0 {
            assert_eq!(
                r["variants"],
                r["expected_variants"],
                "{}: {r}",
                class.name()
            );
            assert!(r["variants"].as_u64().unwrap() >= 1);
            // The filter keeps the figure named in it (and any whose name contains it).
            assert!(r["shown_after_filter"].as_u64().unwrap() >= 1, "{r}");
            assert!(r["shown_after_filter"].as_u64().unwrap() <= n, "{r}");
        }
        total += n;
    }
    let held: u64 = rom.classes().map(|c| c.pattern_count() as u64).sum();
    assert_eq!(total, held);
    assert_eq!(v["all.html"]["figures"], held, "{}", v["all.html"]);
    assert_eq!(
        v["all.html"]["variants"],
        v["all.html"]["expected_variants"]
    );
    if rom.lens_count() > 0 {
        let fields: u32 = (0..rom.lens_count())
            .filter_map(|l| rom.lens(lens_vm::LensId(l as u32)))
            .map(|l| l.field_count())
            .sum();
        assert_eq!(v["lenses.html"]["fields"], fields as u64);
    }
    v
}

#[test]
fn stdlib_catalogue_in_a_browser() {
    let Some(browser) = browser() else { return };
    let dir = out_dir("stdlib-catalogue");
    let rom = lens_stdlib::rom();
    check_catalogue(&browser, &dir, &rom);
    screenshot(&browser, &dir, "index.html", "index.png", "1000,700");
    let class = catalogue::class_file(lens_stdlib::SHAPE3X3);
    screenshot(&browser, &dir, &class, "class.png", "1200,900");
    if rom.lens_count() > 0 {
        screenshot(&browser, &dir, "lenses.html", "lenses.png", "1000,700");
    }
}

/// GNU Go's two move databases (`patterns.db`, `patterns2.db`), imported as one file and
/// compiled: 700 patterns in the largest class page, 1,200 on `all.html`.
#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn gnugo_catalogue_in_a_browser() {
    let Some(browser) = browser() else { return };
    let db = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/gnugo/patterns");
    let mut text = std::fs::read_to_string(db.join("patterns.db")).unwrap();
    text.push_str(&std::fs::read_to_string(db.join("patterns2.db")).unwrap());
    let imported = lens_compiler::import::gnugo::import_str(
        "patterns.db",
        &text,
        &lens_compiler::import::gnugo::Options::default(),
    );
    let (_, result) =
        lens_compiler::compile_str("patterns.lens", &imported.source, &Default::default());
    let compiled = result.expect("patterns.db compiles");
    let rom = Rom::from_bytes(&compiled.rom).unwrap();
    let total: u32 = rom.classes().map(|c| c.pattern_count()).sum();
    assert!(total >= 1000, "{total}");
    let dir = out_dir("gnugo-catalogue");
    check_catalogue(&browser, &dir, &rom);
    // Screenshots of GPL data stay under target/ (never committed).
    let class = rom
        .classes()
        .max_by_key(|c| c.pattern_count())
        .unwrap()
        .name();
    screenshot(
        &browser,
        &dir,
        &catalogue::class_file(class),
        "class.png",
        "1200,900",
    );
}

/// The demo's position (stdlib-patterns/examples/demo.rs), every class matched for Black.
const POSITION: &str = "
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . O O . . . . X X . .
. . O X X O . . X O O X .
. . O X . X . . . O . . .
. . . O X . . . . . O . .
. . . . . . . . . . X . .
. X . . . . . O . . . . .
. O X . . . . . . . . . .
. . O X . . . . . . O O .
. . O X . . . . . O X X O
. . . . . . . . . O X . X
. . . . . . . . . . O X .
to_move: B
";

#[test]
fn match_picture_in_a_browser() {
    let Some(browser) = browser() else { return };
    let dir = out_dir("match");
    let rom = lens_stdlib::rom();
    let board = lens_vm::board::Board::from_diagram(POSITION).unwrap();
    let mut found: Vec<(Match, String)> = Vec::new();
    let mut slots = vec![Match::EMPTY; 4096];
    let mut scratch = Scratch::new();
    for class in rom.classes() {
        let q = Query {
            class: class.id(),
            perspective: board.to_move(),
            orientations: Orientations::All,
        };
        let mut out = MatchBuf::new(&mut slots);
        rom.scan(&board, &NoHost, &q, &mut scratch, &mut out);
        for m in out.as_slice() {
            let name = rom.pattern_name(m.pattern).unwrap_or("(default)");
            found.push((*m, format!("{}: {name}", class.name())));
        }
    }
    let svg = position::position_svg(&board, &found);
    let rows: Vec<String> = found.iter().map(|(_, n)| n.clone()).collect();
    std::fs::write(
        dir.join("match.html"),
        position::position_html("demo position", &svg, &rows),
    )
    .unwrap();
    // Expected marks: distinct rejected points, and distinct suggested points not rejected.
    let mut rejected = std::collections::BTreeSet::new();
    let mut suggested = std::collections::BTreeSet::new();
    for (m, _) in &found {
        match m.result {
            lens_vm::MatchResult::Reject { x, y } => {
                rejected.insert((x, y));
            }
            lens_vm::MatchResult::Move { x, y, .. } => {
                suggested.insert((x, y));
            }
            _ => {}
        }
    }
    let suggested = suggested.difference(&rejected).count();
    assert!(!rejected.is_empty() && suggested > 0);
    let v = check_pages(&browser, &dir, &[("match.html".into(), "match")]);
    let r = &v["match.html"];
    assert_eq!(r["rej"], rejected.len() as u64, "{r}");
    assert_eq!(r["sugg"], suggested as u64, "{r}");
    assert_eq!(r["rows"], found.len() as u64, "{r}");
    screenshot(&browser, &dir, "match.html", "match.png", "700,800");
}

/// Clicks the first continuation until the line ends (at most 8 moves) and checks each step
/// against the graph the page was built from.
fn check_explorer(browser: &Path, dir: &Path, blob: &[u8]) {
    let walker = lens_joseki::Walker::new(blob).unwrap();
    let g = joseki::explore(&walker, 50_000);
    assert!(g.nodes.len() > 1);
    std::fs::write(dir.join("index.html"), joseki::explore_page("test", &g)).unwrap();
    let v = check_pages(browser, dir, &[("index.html".into(), "joseki")]);
    let r = &v["index.html"];
    let steps = r["steps"].as_array().unwrap();
    // The line the page should walk: the first edge from each node.
    let mut node = 0;
    let mut expected = Vec::new();
    while expected.len() < 8 {
        let Some(e) = g.nodes[node].first() else {
            break;
        };
        node = e.child;
        expected.push(g.nodes[node].len());
    }
    assert!(!steps.is_empty());
    assert_eq!(steps.len(), expected.len(), "{r}");
    for (k, (s, n)) in steps.iter().zip(&expected).enumerate() {
        assert_eq!(s["count"], *n as u64, "step {k}: {r}");
        assert_eq!(
            s["line"].as_str().unwrap().split(", ").count(),
            k + 1,
            "{r}"
        );
    }
    let before = r["before_back"].as_str().unwrap().split(", ").count();
    let after = r["after_back"].as_str().unwrap();
    assert!(before == 1 && after == "(empty corner)" || after.split(", ").count() == before - 1);
}

#[test]
fn stdlib_joseki_explorer_in_a_browser() {
    let Some(browser) = browser() else { return };
    let dir = out_dir("stdlib-joseki");
    let rom = lens_stdlib::rom();
    assert!(rom.joseki_count() > 0);
    let (_, blob) = rom.joseki_at(0);
    // The page walks an unpacked blob, as the engine does.
    let tree = lens_joseki::decode(blob).unwrap();
    let blob = lens_joseki::encode(&tree, lens_joseki::Encoding::Compact);
    check_explorer(&browser, &dir, &blob);
    // Four moves into the book (`#play=`: continuation indices), as a user clicks them.
    screenshot(
        &browser,
        &dir,
        "index.html#play=0.0.0.0",
        "explore.png",
        "900,650",
    );
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn gnugo_joseki_explorer_in_a_browser() {
    let Some(browser) = browser() else { return };
    let dir = out_dir("gnugo-joseki");
    let sgf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/gnugo/joseki");
    let mut tree = lens_joseki::Tree::with_options(19, true);
    for f in ["hoshi_keima.sgf", "komoku.sgf"] {
        let text = std::fs::read_to_string(sgf.join(f)).unwrap();
        lens_joseki::import_sgf_into(&mut tree, &text, lens_joseki::Conventions::Auto).unwrap();
    }
    tree.canonicalize();
    let blob = lens_joseki::encode(&tree, lens_joseki::Encoding::Compact);
    check_explorer(&browser, &dir, &blob);
}
