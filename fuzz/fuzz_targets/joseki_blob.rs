//! Any bytes: a joseki blob is rejected with an offset, or walked without a panic.
#![no_main]

use lens_joseki::{BoardMove, Colour, Continuation, Walker, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = decode(data) {
        assert!(e.offset <= data.len(), "offset {} past the end", e.offset);
        return;
    }
    let Ok(w) = Walker::new(data) else { return };
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
            w.lookup_corner(19, corner, &moves[..k], Colour::Black, &mut out);
        }
    }
});
