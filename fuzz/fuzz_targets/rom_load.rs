//! Any bytes: `Rom::from_bytes` (or, for a compact-profile image, `CompactRom::from_bytes` and
//! `expand`) either rejects them or gives a ROM on which every class can be scanned and every
//! lens evaluated without a panic (validation at load is the whole defence).
#![no_main]

use lens_vm::board::Board;
use lens_vm::matching::ScanPlan;
use lens_vm::{Colour, Match, MatchBuf, NoHost, Orientations, Query, Rom, Scratch};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // ROM images are 8-byte aligned in use (`AlignedRom`): copy to an aligned offset.
    let mut buf = vec![0u8; data.len() + 8];
    let at = buf.as_ptr().align_offset(8);
    buf[at..at + data.len()].copy_from_slice(data);
    let bytes = &buf[at..at + data.len()];
    // A compact-profile image: it validates, or it is refused; one that validates expands to a
    // fast image that loads, and that one is matched below like any other.
    let expanded;
    let bytes = match lens_vm::rom::CompactRom::from_bytes(bytes) {
        Ok(c) => match c.expand(&lens_vm::rom::WriteOptions::COMPILER) {
            Ok(fast) => {
                expanded = fast;
                &expanded[..]
            }
            Err(_) => return,
        },
        Err(_) => bytes,
    };
    let Ok(rom) = Rom::from_bytes(bytes) else {
        return;
    };
    let board = Board::from_diagram(BOARD).expect("fixed position");
    let mut scratch = Scratch::new();
    let mut slots = [Match::EMPTY; 64];
    for class in rom.classes() {
        for perspective in [Colour::Black, Colour::White] {
            let q = Query {
                class: class.id(),
                perspective,
                orientations: Orientations::All,
            };
            let mut out = MatchBuf::new(&mut slots);
            rom.scan(&board, &NoHost, &q, &mut scratch, &mut out);
            // One focus at a time: the kernels a scan does not use (lookup tables,
            // bit-sliced blocks, masks), at a corner, an edge, the middle and off the board.
            for (x, y) in [(0, 0), (8, 3), (4, 4), (2, 1), (-1, 5)] {
                let mut out = MatchBuf::new(&mut slots);
                rom.match_at(&board, &NoHost, &q, x, y, &mut scratch, &mut out);
            }
            // The caller-side scan plan agrees with the plain scan.
            if let Some(plan) = ScanPlan::new(&rom, class.id()) {
                let mut a = [Match::EMPTY; 64];
                let mut b = [Match::EMPTY; 64];
                let (mut oa, mut ob) = (MatchBuf::new(&mut a), MatchBuf::new(&mut b));
                let na = plan.scan(&rom, &board, &NoHost, &q, &mut scratch, &mut oa);
                let nb = rom.scan(&board, &NoHost, &q, &mut scratch, &mut ob);
                assert_eq!(na, nb, "plan and scan disagree on the match count");
                assert_eq!(oa.as_slice(), ob.as_slice(), "plan and scan disagree");
            }
        }
    }
    for id in 0..rom.lens_count() {
        if let Some(lens) = rom.lens(lens_vm::LensId(id as u32)) {
            let ends: Vec<(i32, i32)> = (0..lens.endpoint_count()).map(|k| (k as i32, 2)).collect();
            let mut out = MatchBuf::new(&mut slots);
            rom.eval_lens(lens.id(), &ends, Colour::Black, &board, &NoHost, &mut out);
        }
    }
});

const BOARD: &str = "
. . . . . . . . .
. . X O . . . . .
. X O . O . . . .
. . X O . . X . .
. . . X . . . . .
. . O . . X O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
to_move: B
";
