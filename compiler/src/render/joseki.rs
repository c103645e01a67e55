//! `lensc joseki explore`: one page that walks a joseki book by clicking.
//!
//! The book's graph is built here with the walker the engine uses ([`Walker::follow_frame`]:
//! the corner frame, colours relative to the first move, a recorded tenuki followed as a
//! pass): from the empty corner, every continuation the walker lists is played and followed
//! again. Positions reached by different orders of the same moves are one node, and the edges
//! into a node already reached are marked as transpositions. The page holds the graph as a
//! small array and draws the corner, the continuations (lettered, coloured by move type) and
//! the line played so far.

use super::{esc, page};
use lens_joseki::{MoveType, Point, Rel, Walker};
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::fmt::Write;

/// One edge of the explored graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The corner-frame point, 0-based (`(0, 0)` = `a1`, the corner); `None`: tenuki.
    pub at: Option<(u8, u8)>,
    /// The first mover's colour (drawn black) or the other.
    pub first_mover: bool,
    pub kind: MoveType,
    pub child: usize,
    /// The child was first reached by another move order.
    pub transposition: bool,
}

/// The book as the walker sees it from the empty corner.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Per node, its continuations in the walker's order.
    pub nodes: Vec<Vec<Edge>>,
    /// Nodes not expanded because the graph reached `max_nodes`.
    pub truncated: bool,
    /// Largest 0-based coordinate of any move, for the size of the drawing.
    pub extent: u8,
}

const MOVE_TYPES: [MoveType; 8] = [
    MoveType::Normal,
    MoveType::Urgent,
    MoveType::Complex,
    MoveType::Trick,
    MoveType::Bad,
    MoveType::Ignore,
    MoveType::Minor,
    MoveType::TenukiOk,
];

type Key = (Vec<(u8, u8, bool)>, usize, usize);

/// The position a line reaches, independent of move order: stones by point and colour, and
/// tenuki per colour.
fn position_key(line: &[(Rel, Point)]) -> Key {
    let mut stones: Vec<(u8, u8, bool)> = line
        .iter()
        .filter_map(|&(r, p)| match p {
            Point::At { x, y } => Some((x, y, r == Rel::Same)),
            Point::Pass => None,
        })
        .collect();
    stones.sort_unstable();
    let passes = |rel: Rel| {
        line.iter()
            .filter(|&&(r, p)| p == Point::Pass && r == rel)
            .count()
    };
    (stones, passes(Rel::Same), passes(Rel::Opposite))
}

/// Explores the book breadth first (at most `max_nodes` positions).
pub fn explore(walker: &Walker<'_>, max_nodes: usize) -> Graph {
    let mut g = Graph::default();
    let mut seen: BTreeMap<Key, usize> = BTreeMap::new();
    let mut queue: VecDeque<(usize, Vec<(Rel, Point)>)> = VecDeque::new();
    g.nodes.push(Vec::new());
    seen.insert(position_key(&[]), 0);
    queue.push_back((0, Vec::new()));
    let mut out = vec![(Rel::Same, Point::Pass, MoveType::Normal); 361];
    while let Some((id, line)) = queue.pop_front() {
        let Some(n) = walker.follow_frame(&line, &mut out) else {
            continue;
        };
        for &(rel, point, kind) in &out[..n.min(out.len())] {
            let mut next = line.clone();
            next.push((rel, point));
            let at = match point {
                Point::At { x, y } => {
                    let (x, y) = (x.saturating_sub(1), y.saturating_sub(1));
                    g.extent = g.extent.max(x).max(y);
                    Some((x, y))
                }
                Point::Pass => None,
            };
            let key = position_key(&next);
            let (child, transposition) = match seen.get(&key) {
                Some(&c) => (c, true),
                None if g.nodes.len() < max_nodes => {
                    let c = g.nodes.len();
                    g.nodes.push(Vec::new());
                    seen.insert(key, c);
                    queue.push_back((c, next));
                    (c, false)
                }
                None => {
                    g.truncated = true;
                    continue;
                }
            };
            g.nodes[id].push(Edge {
                at,
                first_mover: rel == Rel::Same,
                kind,
                child,
                transposition,
            });
        }
    }
    g
}

/// The page's script: draws the corner for the line played so far and its continuations.
/// `N[node]` = flat list of `[x, y, colour, type, child, transposition]` (`x = -1`: tenuki).
const SCRIPT: &str = r#"
(function(){
var C=20,W=EXTENT,path=[0],line=[];
var svgNS='http://www.w3.org/2000/svg';
function name(x,y){return x<0?'tenuki':String.fromCharCode(97+x)+(y+1);}
function edges(n){var e=N[n],out=[];for(var i=0;i<e.length;i+=6)out.push({x:e[i],y:e[i+1],c:e[i+2],k:e[i+3],child:e[i+4],t:e[i+5]});return out;}
function letter(i){return 'abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ'.charAt(i)||'?';}
function draw(){
  var n=path[path.length-1],es=edges(n),s='';
  var w=W*C+C;
  s+='<svg class="board" xmlns="'+svgNS+'" viewBox="0 0 '+w+' '+w+'" width="'+w+'" height="'+w+'"><rect class="bg" width="'+w+'" height="'+w+'"/>';
  var d='';for(var k=0;k<W;k++){d+='M'+(C+C/2)+' '+(C+k*C+C/2)+'h'+((W-1)*C)+'M'+(C+k*C+C/2)+' '+(C+C/2)+'v'+((W-1)*C);}
  s+='<path class="grid-l" d="'+d+'"/>';
  for(var k=0;k<W;k++){s+='<text x="'+(C+k*C+C/2)+'" y="'+(C/2)+'">'+String.fromCharCode(97+k)+'</text><text x="'+(C/2)+'" y="'+(C+k*C+C/2)+'">'+(k+1)+'</text>';}
  for(var i=0;i<line.length;i++){var m=line[i];if(m.x<0||m.x>=W||m.y>=W)continue;
    s+='<circle class="'+(m.c?'f':'e')+'" cx="'+(C+m.x*C+C/2)+'" cy="'+(C+m.y*C+C/2)+'" r="'+(C/2-1)+'"/>';
    s+='<text class="'+(m.c?'':'v')+'" x="'+(C+m.x*C+C/2)+'" y="'+(C+m.y*C+C/2)+'">'+(i+1)+'</text>';}
  var list='';
  for(var i=0;i<es.length;i++){var e=es[i],t=K[e.k]+(e.t?', transposition':'');
    if(e.x>=0&&e.x<W&&e.y<W){
      s+='<g class="cont k-'+K[e.k]+(e.t?' tr':'')+'" data-i="'+i+'"><title>'+(e.c?'white':'black')+' '+name(e.x,e.y)+' ('+t+')</title><circle cx="'+(C+e.x*C+C/2)+'" cy="'+(C+e.y*C+C/2)+'" r="'+(C/2-1)+'"/><text x="'+(C+e.x*C+C/2)+'" y="'+(C+e.y*C+C/2)+'">'+letter(i)+'</text></g>';}
    list+='<li class="cont" data-i="'+i+'"><b>'+letter(i)+'</b> '+(e.c?'white':'black')+' '+name(e.x,e.y)+' <span class="kind k-'+K[e.k]+'">'+t+'</span></li>';}
  s+='</svg>';
  document.getElementById('board').innerHTML=s;
  document.getElementById('conts').innerHTML=list||'<li>end of the line: no continuation in the book</li>';
  var ln=[];for(var i=0;i<line.length;i++)ln.push((line[i].c?'W ':'B ')+name(line[i].x,line[i].y));
  document.getElementById('line').textContent=ln.length?ln.join(', '):'(empty corner)';
  document.getElementById('count').textContent=es.length;
}
function play(i){var n=path[path.length-1],e=edges(n)[i];if(!e)return;path.push(e.child);line.push(e);draw();}
document.addEventListener('click',function(ev){var t=ev.target.closest('[data-i]');if(t){play(+t.getAttribute('data-i'));return;}
  if(ev.target.id==='back'&&path.length>1){path.pop();line.pop();draw();}
  if(ev.target.id==='restart'){path=[0];line=[];draw();}});
draw();
// A line in the address (`#play=0.2.1`: continuation indices from the empty corner) is
// played on load, so a position can be linked to.
var h=location.hash.match(/play=([0-9.]+)/);if(h)h[1].split('.').forEach(function(i){play(+i);});
})();
"#;

const JOSEKI_STYLE: &str = "<style>#wrap{display:flex;gap:2em;align-items:flex-start}\
#conts li{cursor:pointer}g.cont{cursor:pointer}g.cont circle{fill:#fff;fill-opacity:.6;stroke:#1558b0;stroke-width:2}\
g.cont.tr circle{stroke-dasharray:3 2}g.k-urgent circle{stroke:#d0021b}g.k-bad circle,g.k-trick circle{stroke:#7b1fa2}\
.kind{color:#666}.k-urgent{color:#d0021b}.k-bad,.k-trick{color:#7b1fa2}</style>";

/// The explorer page for a graph.
pub fn explore_page(title: &str, g: &Graph) -> String {
    let kinds: Vec<String> = MOVE_TYPES
        .iter()
        .map(|k| format!("'{}'", k.name()))
        .collect();
    let mut data = String::from("var N=[");
    for (i, node) in g.nodes.iter().enumerate() {
        if i > 0 {
            data.push(',');
        }
        data.push('[');
        for (j, e) in node.iter().enumerate() {
            if j > 0 {
                data.push(',');
            }
            let (x, y) = e.at.map_or((-1, -1), |(x, y)| (x as i32, y as i32));
            let kind = MOVE_TYPES.iter().position(|k| *k == e.kind).unwrap_or(0);
            let _ = write!(
                data,
                "{x},{y},{},{kind},{},{}",
                u8::from(!e.first_mover),
                e.child,
                u8::from(e.transposition)
            );
        }
        data.push(']');
    }
    let _ = write!(data, "];var K=[{}];", kinds.join(","));
    let extent = (g.extent as u32 + 3).clamp(9, 19);
    let body = format!(
        "{JOSEKI_STYLE}<h1>{}</h1><p>{} positions{}. Click a lettered point or a line of the \
         list to play it; dashed rings are transpositions (a position also reached by another \
         move order). Corner frame: <code>a1</code> is the corner point. A link may name a \
         line: <code>#play=0.1</code> plays the first continuation, then the second.</p>\
         <p><button id=\"back\">back</button> <button id=\"restart\">restart</button> \
         line: <span id=\"line\"></span></p>\
         <div id=\"wrap\"><div id=\"board\"></div><div><p><span id=\"count\"></span> \
         continuation(s)</p><ol id=\"conts\"></ol></div></div>\n",
        esc(title),
        g.nodes.len(),
        if g.truncated {
            " (the book is larger: only this many are shown)"
        } else {
            ""
        }
    );
    let script = format!("{data}{}", SCRIPT.replace("EXTENT", &extent.to_string()));
    page(title, &body, &script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpositions_meet_in_one_node() {
        // Two orders of the same four moves reach one position.
        let mut tree = lens_joseki::Tree::with_options(19, true);
        lens_joseki::text::parse_text_into(&mut tree, "d4 ( c6 d6 c5 | c5 d6 c6 )\n")
            .expect("joseki text");
        tree.canonicalize();
        let blob = lens_joseki::encode(&tree, lens_joseki::Encoding::Compact);
        let walker = Walker::new(&blob).unwrap();
        let g = explore(&walker, 10_000);
        assert!(!g.truncated);
        let tr = g.nodes.iter().flatten().filter(|e| e.transposition).count();
        assert!(tr > 0, "{g:?}");
        let page = explore_page("t", &g);
        assert!(page.contains("var N=[["));
    }
}
