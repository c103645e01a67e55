//! The generated source both front-end benches read (kept in one place so the criterion
//! timings and the callgrind instruction counts measure the same text).

/// A deterministic source of `n` distinct patterns over one class.
pub fn generate(n: usize) -> String {
    let symbols = ['O', 'X', '.', '?', 'o', 'x'];
    let mut s = String::with_capacity(n * 160);
    s.push_str("global phase;\nextern alive(point) cost 40;\n\nclass shape {\n    mode best;\n    field 5x5;\n}\n\n");
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..n {
        s.push_str(&format!(
            "pattern p{i} : shape {{\n    priority {};\n    diagram {{\n",
            i % 50
        ));
        for row in 0..5 {
            s.push_str("        ");
            for col in 0..5 {
                let c = if row == 2 && col == 2 {
                    '*'
                } else if row == 1 && col == 3 {
                    'a'
                } else {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    symbols[(state % symbols.len() as u64) as usize]
                };
                s.push(c);
                s.push(if col < 4 { ' ' } else { '\n' });
            }
        }
        s.push_str("    }\n    legend { a = empty | off; }\n");
        s.push_str(&format!(
            "    where libs(a) == 0 && phase >= {} && !alive(*);\n    => * {};\n}}\n\n",
            i % 3,
            1 + i % 40
        ));
    }
    s
}
