//! mkpat's command-line options, as GNU Go's `patterns/Makefile.am` passes them per database,
//! and the anchor rule each combination gives (`patterns/mkpat.c`: `read_pattern_line` for the
//! first-stone and `Q`/`Y` rules, `finish_pattern` for `-m`).

use std::fmt;

use super::db::DbPattern;

/// Which stones may anchor a pattern (mkpat's `-O` default, `-X`, `-b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnchorMode {
    O,
    X,
    Both,
}

impl AnchorMode {
    pub fn as_str(self) -> &'static str {
        match self {
            AnchorMode::O => "O",
            AnchorMode::X => "X",
            AnchorMode::Both => "both",
        }
    }
    fn allows(self, colour: AnchorColour) -> bool {
        matches!(
            (self, colour),
            (AnchorMode::Both, _)
                | (AnchorMode::O, AnchorColour::O)
                | (AnchorMode::X, AnchorColour::X)
        )
    }
}

/// Anchor colour of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AnchorColour {
    O,
    X,
}

/// The mkpat options that decide what a database matches. `-D` (build a DFA) and `-t FILE`
/// (the DFA's transformation hints) change how GNU Go finds matches, not which: `-D` is kept
/// for the report, `-t` is read and ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mkpat {
    /// `-O` (default), `-X`, `-b`.
    pub anchor: AnchorMode,
    /// `-m`: the anchor is the allowed stone nearest the middle of the diagram.
    pub centre_anchor: bool,
    /// `-c`: a connection database, whose patterns may have no `*` move.
    pub connections: bool,
    /// `-D`: GNU Go matches the database with a DFA.
    pub dfa: bool,
    /// `-a`: only `Q`/`Y` marks anchor (no first-stone fallback).
    pub fixed_anchor: bool,
    /// Options read and ignored, as written (`-t owl_attackpats.dtr`).
    pub ignored: Vec<String>,
}

impl Default for Mkpat {
    /// mkpat with no options: O anchors, first stone or `Q`.
    fn default() -> Mkpat {
        Mkpat {
            anchor: AnchorMode::O,
            centre_anchor: false,
            connections: false,
            dfa: false,
            fixed_anchor: false,
            ignored: Vec::new(),
        }
    }
}

/// Where a file's options came from (for the report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MkpatSource {
    /// `--mkpat` on the command line (or [`super::Options::mkpat`]).
    Given,
    /// GNU Go's `patterns/Makefile.am` for this standard file name.
    MakefileAm,
    /// A file name GNU Go does not build: `-b`, as most of its databases.
    UnknownName,
}

impl MkpatSource {
    pub fn as_str(self) -> &'static str {
        match self {
            MkpatSource::Given => "given",
            MkpatSource::MakefileAm => "GNU Go's patterns/Makefile.am for this file",
            MkpatSource::UnknownName => "not a GNU Go file name: -b, as most GNU Go databases",
        }
    }
}

impl Mkpat {
    /// Parse an mkpat option string (`"-D -m -b"`, `"-Dmb"`, `"-t owl.dtr -X"`). Later anchor
    /// options override earlier ones, as mkpat's `getopt` loop does.
    pub fn parse(text: &str) -> Result<Mkpat, String> {
        let mut m = Mkpat::default();
        let mut words = text.split_whitespace();
        while let Some(w) = words.next() {
            let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
                return Err(format!(
                    "`{w}` is not an mkpat option (options start with `-`)"
                ));
            };
            for (i, f) in flags.char_indices() {
                match f {
                    'O' => m.anchor = AnchorMode::O,
                    'X' => m.anchor = AnchorMode::X,
                    'b' => m.anchor = AnchorMode::Both,
                    'm' => m.centre_anchor = true,
                    'c' => m.connections = true,
                    'D' => m.dfa = true,
                    'a' => m.fixed_anchor = true,
                    't' => {
                        // `-t FILE` or `-tFILE`: the DFA transformation file.
                        let rest = &flags[i + 1..];
                        let file = if rest.is_empty() {
                            words.next().ok_or("`-t` needs a file name")?
                        } else {
                            rest
                        };
                        m.ignored.push(format!("-t {file}"));
                        break;
                    }
                    other => {
                        return Err(format!(
                            "mkpat option `-{other}` is not supported (understood: -O -X -b -m -c -D -a; -t FILE is ignored)"
                        ));
                    }
                }
            }
        }
        Ok(m)
    }

    /// The options GNU Go's `patterns/Makefile.am` builds a standard database with, by its
    /// file name; `None` for other names.
    pub fn for_standard_file(file: &str) -> Option<Mkpat> {
        let stem = super::db::stem_ident(file);
        let opts = match stem.as_str() {
            "patterns" | "patterns2" | "endgame" | "fuseki" | "handicap" | "oracle" => "-b",
            "attack" => "-X",
            "defense" => "",
            "conn" | "influence" => "-c",
            "barriers" => "-c -b",
            "aa_attackpats" | "owl_attackpats" | "owl_vital_apats" | "owl_defendpats" => "-D -m -b",
            _ => return None,
        };
        Some(Mkpat::parse(opts).expect("the table's options parse"))
    }

    /// The options for a file: GNU Go's for its standard names, else `-b`.
    pub fn for_file(file: &str) -> (Mkpat, MkpatSource) {
        match Mkpat::for_standard_file(file) {
            Some(m) => (m, MkpatSource::MakefileAm),
            None => (
                Mkpat {
                    anchor: AnchorMode::Both,
                    ..Mkpat::default()
                },
                MkpatSource::UnknownName,
            ),
        }
    }

    /// The anchor of a pattern under these options: (row, column, colour) in the body of the
    /// diagram, or the reason mkpat gives none.
    ///
    /// - `-m`: among the stones of an allowed colour (`Q`/`Y` count as `O`/`X`), in row-major
    ///   order, the first that minimises `|100*row - 50*(height-1)| + |100*col - (50*(width-1) - 1)|`;
    ///   `Q`/`Y` do not fix the anchor.
    /// - otherwise: the last `Q`/`Y` (whatever the colour options), else, unless `-a`, the first
    ///   stone of an allowed colour in row-major order.
    pub fn anchor(&self, p: &DbPattern) -> Result<(usize, usize, AnchorColour), String> {
        let stone = |ch: char| match ch {
            'O' | 'Q' => Some(AnchorColour::O),
            'X' | 'Y' => Some(AnchorColour::X),
            _ => None,
        };
        if self.centre_anchor {
            let (h, w) = (p.diagram.height() as i64, p.diagram.width() as i64);
            let (mi, mj) = (50 * (h - 1), 50 * (w - 1) - 1);
            return p
                .cells()
                .filter_map(|(r, c, ch)| {
                    stone(ch)
                        .filter(|&col| self.anchor.allows(col))
                        .map(|col| (r, c, col))
                })
                .min_by_key(|&(r, c, _)| (100 * r as i64 - mi).abs() + (100 * c as i64 - mj).abs())
                .ok_or_else(|| self.no_anchor());
        }
        let explicit = p.cells().filter(|&(_, _, c)| c == 'Q' || c == 'Y').last();
        if let Some((r, c, ch)) = explicit {
            return Ok((r, c, stone(ch).expect("Q or Y")));
        }
        if self.fixed_anchor {
            return Err("no `Q`/`Y` anchor mark (mkpat -a: no origin)".into());
        }
        p.cells()
            .find_map(|(r, c, ch)| {
                stone(ch)
                    .filter(|&col| self.anchor.allows(col))
                    .map(|col| (r, c, col))
            })
            .ok_or_else(|| self.no_anchor())
    }

    fn no_anchor(&self) -> String {
        match self.anchor {
            AnchorMode::O => "no O stone to anchor on (mkpat: no origin)".into(),
            AnchorMode::X => "no X stone to anchor on (mkpat: no origin)".into(),
            AnchorMode::Both => "no stone to anchor on (mkpat: no origin)".into(),
        }
    }
}

impl fmt::Display for Mkpat {
    /// Canonical form: `-D -m -c -a` then the anchor option (`-b`, `-X`; nothing for `-O`),
    /// then the ignored options; `(none)` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        for (on, flag) in [
            (self.dfa, "-D"),
            (self.centre_anchor, "-m"),
            (self.connections, "-c"),
            (self.fixed_anchor, "-a"),
        ] {
            if on {
                parts.push(flag.into());
            }
        }
        match self.anchor {
            AnchorMode::O => {}
            AnchorMode::X => parts.push("-X".into()),
            AnchorMode::Both => parts.push("-b".into()),
        }
        if parts.is_empty() && self.ignored.is_empty() {
            return f.write_str("(none)");
        }
        parts.extend(self.ignored.iter().map(|s| format!("({s} ignored)")));
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::gnugo::parse_db;

    fn pattern(text: &str) -> DbPattern {
        let (db, errs) = parse_db("t.db", text);
        assert!(errs.is_empty(), "{errs:?}");
        db.patterns.into_iter().next().unwrap()
    }

    #[test]
    fn parses_options_like_getopt() {
        let m = Mkpat::parse("-D -m -b -t owl_attackpats.dtr").unwrap();
        assert!(m.dfa && m.centre_anchor && !m.connections && !m.fixed_anchor);
        assert_eq!(m.anchor, AnchorMode::Both);
        assert_eq!(m.ignored, vec!["-t owl_attackpats.dtr".to_string()]);
        assert_eq!(Mkpat::parse("-Dmb").unwrap().to_string(), "-D -m -b");
        assert_eq!(
            Mkpat::parse("-tfoo.dtr -c -b").unwrap().to_string(),
            "-c -b (-t foo.dtr ignored)"
        );
        // The last anchor option wins.
        assert_eq!(Mkpat::parse("-b -X").unwrap().anchor, AnchorMode::X);
        assert_eq!(Mkpat::parse("-X -O").unwrap().anchor, AnchorMode::O);
        assert_eq!(Mkpat::parse("").unwrap().to_string(), "(none)");
        assert_eq!(Mkpat::parse("-a").unwrap().to_string(), "-a");
        assert!(
            Mkpat::parse("-f")
                .unwrap_err()
                .contains("`-f` is not supported")
        );
        assert!(Mkpat::parse("-t").unwrap_err().contains("needs a file"));
        assert!(
            Mkpat::parse("b")
                .unwrap_err()
                .contains("not an mkpat option")
        );
    }

    #[test]
    fn standard_files_get_makefile_options() {
        let opts = |f: &str| Mkpat::for_file(f).0.to_string();
        assert_eq!(opts("patterns.db"), "-b");
        assert_eq!(opts("dir/patterns2.db"), "-b");
        assert_eq!(opts("attack.db"), "-X");
        assert_eq!(opts("defense.db"), "(none)");
        assert_eq!(opts("conn.db"), "-c");
        assert_eq!(opts("influence.db"), "-c");
        assert_eq!(opts("barriers.db"), "-c -b");
        assert_eq!(opts("oracle.db"), "-b");
        for f in [
            "aa_attackpats.db",
            "owl_attackpats.db",
            "owl_vital_apats.db",
            "owl_defendpats.db",
        ] {
            assert_eq!(opts(f), "-D -m -b", "{f}");
            assert_eq!(Mkpat::for_file(f).1, MkpatSource::MakefileAm);
        }
        assert_eq!(Mkpat::for_file("mine.db").1, MkpatSource::UnknownName);
        assert_eq!(opts("mine.db"), "-b");
    }

    /// Expected anchors worked out by hand from mkpat's formula
    /// d = |100*row - 50*(h-1)| + |100*col - (50*(w-1) - 1)|.
    #[test]
    fn centre_anchor_follows_the_formula() {
        let m = Mkpat::parse("-D -m -b").unwrap();
        // 3x3, middle (100, 99). O(0,1): 100+1 = 101; X(1,0): 0+99 = 99; X(1,2): 0+101 = 101;
        // Y(2,1): 100+1 = 101. The left X, not the Y mark and not the first stone (the O).
        let p = pattern("Pattern A\n\n?O?\nX*X\n.Y.\n\n:8,-\n");
        assert_eq!(m.anchor(&p), Ok((1, 0, AnchorColour::X)));
        // Without -m: the Y mark.
        assert_eq!(
            Mkpat::parse("-b").unwrap().anchor(&p),
            Ok((2, 1, AnchorColour::X))
        );

        // 4 rows x 5 columns, middle (150, 199). Q(0,0): 150+199 = 349; X(1,4): 50+201 = 251;
        // O(2,1): 50+99 = 149; X(2,2): 50+1 = 51; O(3,2): 150+1 = 151. The X at (2,2): neither
        // the Q mark nor the first stone.
        let p = pattern("Pattern B\n\nQ....\n....X\n.OX..\n..O*.\n\n:8,-\n");
        assert_eq!(m.anchor(&p), Ok((2, 2, AnchorColour::X)));
        // -m with O anchors only: O(2,1) at 149 beats O(3,2) at 151 and the Q at 349.
        assert_eq!(
            Mkpat::parse("-m").unwrap().anchor(&p),
            Ok((2, 1, AnchorColour::O))
        );
        // -m -X: X(2,2).
        assert_eq!(
            Mkpat::parse("-m -X").unwrap().anchor(&p),
            Ok((2, 2, AnchorColour::X))
        );
        // Without -m the Q mark anchors, whatever the colour option.
        assert_eq!(
            Mkpat::parse("-X").unwrap().anchor(&p),
            Ok((0, 0, AnchorColour::O))
        );

        // A tie keeps the first in row-major order: 2 rows x 2 columns, middle (50, 49).
        // O(0,1): 50+51 = 101; X(1,0): 50+49 = 99; O(1,1): 50+51 = 101. With O only, the tie
        // between (0,1) and (1,1) goes to (0,1).
        let p = pattern("Pattern C\n\n*O\nXO\n\n:8,-\n");
        assert_eq!(m.anchor(&p), Ok((1, 0, AnchorColour::X)));
        assert_eq!(
            Mkpat::parse("-m -O").unwrap().anchor(&p),
            Ok((0, 1, AnchorColour::O))
        );

        // Edges are not part of the extent: a corner pattern 3x3 with edges, middle (100, 99).
        // X(0,2): 100+101 = 201; O(1,1): 0+1 = 1.
        let p = pattern("Pattern D\n\n|..X\n|.O*\n|...\n+---\n\n:8,-\n");
        assert_eq!(m.anchor(&p), Ok((1, 1, AnchorColour::O)));
    }

    #[test]
    fn fixed_anchor_needs_a_mark() {
        let p = pattern("Pattern A\n\n.X.O\n.*..\n\n:8,-\n");
        assert!(
            Mkpat::parse("-a -b")
                .unwrap()
                .anchor(&p)
                .unwrap_err()
                .contains("-a")
        );
        let p = pattern("Pattern A\n\n.X.Q\n.*..\n\n:8,-\n");
        assert_eq!(
            Mkpat::parse("-a -b").unwrap().anchor(&p),
            Ok((0, 3, AnchorColour::O))
        );
        let p = pattern("Pattern A\n\n.x.o\n.*..\n\n:8,-\n");
        assert!(
            Mkpat::parse("-b")
                .unwrap()
                .anchor(&p)
                .unwrap_err()
                .contains("no stone")
        );
    }
}
