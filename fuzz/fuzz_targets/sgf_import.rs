//! Any text: SGF import gives a tree or an error with an offset inside the text, never a panic;
//! an imported tree round-trips through both blob encodings.
#![no_main]

use lens_joseki::{Conventions, Encoding, decode, encode, import_sgf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match import_sgf(text, Conventions::Auto) {
        Err(e) => assert!(e.offset <= text.len(), "offset {} past the end", e.offset),
        Ok(tree) => {
            for enc in Encoding::ALL {
                let blob = encode(&tree, enc);
                let back = decode(&blob).expect("an encoded tree decodes");
                assert!(back.vertices() == tree.vertices(), "{enc:?} round trip");
            }
        }
    }
});
