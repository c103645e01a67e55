//! Every 3x3 neighbourhood a board can show: the focus at the centre, on each edge and in each
//! corner of a 5x5 board, each on-board neighbour friend, foe or empty (7,641 neighbourhoods),
//! times the focus states; the lookup kernel against the reference matcher at each.

use lens_vm::*;

/// The 9 focus placements on a 5x5 board (centre, edges, corners).
pub const PLACES: [(i32, i32); 9] = [
    (2, 2),
    (2, 0),
    (4, 2),
    (2, 4),
    (0, 2),
    (0, 0),
    (4, 0),
    (0, 4),
    (4, 4),
];

/// Calls `f(board, x, y)` for every (placement, focus state, on-board neighbour states)
/// combination. `background` fills the rest of the 5x5 board (tests read liberties there).
pub fn each_neighbourhood<B: Clone, F: FnMut(&B, i32, i32)>(
    background: &B,
    set: impl Fn(&mut B, i32, i32, Point),
    focus_states: &[Point],
    mut f: F,
) -> usize {
    let states = [
        Point::Stone(Colour::Black),
        Point::Stone(Colour::White),
        Point::Empty,
    ];
    let mut calls = 0;
    for &(x, y) in &PLACES {
        let on: Vec<(i32, i32)> = (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| (dx, dy) != (0, 0))
            .map(|(dx, dy)| (x + dx, y + dy))
            .filter(|&(px, py)| (0..5).contains(&px) && (0..5).contains(&py))
            .collect();
        let mut b = background.clone();
        for &fs in focus_states {
            set(&mut b, x, y, fs);
            for mut k in 0..3usize.pow(on.len() as u32) {
                for &(px, py) in &on {
                    set(&mut b, px, py, states[k % 3]);
                    k /= 3;
                }
                f(&b, x, y);
                calls += 1;
            }
        }
    }
    calls
}

/// The matches of one call, by the kernel (`rom`) and by the reference matcher.
pub fn both<V: BoardView>(
    rom: &Rom<'_>,
    b: &V,
    q: &Query,
    x: i32,
    y: i32,
) -> (Vec<Match>, Vec<Match>) {
    let mut s1 = [Match::EMPTY; 256];
    let mut s2 = [Match::EMPTY; 256];
    let mut scratch = Scratch::new();
    let mut o1 = MatchBuf::new(&mut s1);
    rom.match_at(b, &NoHost, q, x, y, &mut scratch, &mut o1);
    let mut o2 = MatchBuf::new(&mut s2);
    reference::match_at(rom, b, &NoHost, q, x, y, &mut scratch, &mut o2);
    (o1.as_slice().to_vec(), o2.as_slice().to_vec())
}
