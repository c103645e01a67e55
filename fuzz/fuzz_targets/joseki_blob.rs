//! Any bytes: a joseki blob is rejected with an offset, or walked without a panic, the
//! transition-table walker giving the same answers as the in-place scan.
#![no_main]

use lens_joseki::{BoardMove, Colour, Continuation, Walker, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = decode(data) {
        assert!(e.offset <= data.len(), "offset {} past the end", e.offset);
        return;
    }
    let Ok(w) = Walker::new(data) else { return };
    let Ok(scan) = Walker::in_place(data) else {
        panic!("the table walker accepts a blob the in-place walker rejects")
    };
    let moves: Vec<BoardMove> = [(3u8, 3u8), (2, 5), (5, 2), (2, 2)]
        .iter()
        .enumerate()
        .map(|(i, &at)| BoardMove {
            colour: if i % 2 == 0 { Colour::Black } else { Colour::White },
            at: Some(at),
        })
        .collect();
    let mut out = [Continuation::EMPTY; 32];
    for k in 0..=moves.len() {
        for corner in 0..4 {
            let a = w.lookup(19, &moves[..k], Some(corner), Colour::Black, &mut out);
            let mut seen = [Continuation::EMPTY; 32];
            let b = scan.lookup(19, &moves[..k], Some(corner), Colour::Black, &mut seen);
            assert_eq!(a.corners, b.corners, "corner states differ");
            assert_eq!(a.continuations, b.continuations, "continuation counts differ");
            let n = a.continuations.min(out.len());
            assert_eq!(out[..n], seen[..n], "continuations differ");
        }
    }
});
