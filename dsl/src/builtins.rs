//! The built-in test table: names, argument kinds, result type and relative cost. The compiler
//! orders a pattern's tests cheapest first (externs declare their own cost; see docs/language.md).

use crate::ast::ArgKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Builtin {
    pub name: &'static str,
    pub params: &'static [ArgKind],
    /// `true`: a condition; `false`: an integer.
    pub returns_bool: bool,
    pub cost: u32,
    /// The allowed values of the `Int` parameter, if it has one (a literal; the compiler
    /// reports others as `lens::arg_range`).
    pub int_range: Option<(i32, i32)>,
    /// One line for docs and diagnostics.
    pub doc: &'static str,
}

use ArgKind::{Color, Int, Point};

/// `int(c)`: the truth value of a condition as a number (1 or 0), as C uses it
/// (`int(a > 0) + int(b > 0) >= 1`). Not in [`BUILTINS`]: its argument is a condition.
pub const TRUTH_VALUE: &str = "int";

pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "libs",
        params: &[Point],
        returns_bool: false,
        cost: 2,
        int_range: None,
        doc: "liberties of the string at p (0 if p is empty or off-board)",
    },
    Builtin {
        name: "line",
        params: &[Point],
        returns_bool: false,
        cost: 1,
        int_range: None,
        doc: "distance to the nearest edge, first line = 1 (0 off-board)",
    },
    Builtin {
        name: "atari",
        params: &[Point],
        returns_bool: true,
        cost: 2,
        int_range: None,
        doc: "p holds a string with exactly one liberty",
    },
    Builtin {
        name: "nbr_atari",
        params: &[Point, Color],
        returns_bool: true,
        cost: 4,
        int_range: None,
        doc: "a string of that colour orthogonally adjacent to p is in atari",
    },
    Builtin {
        name: "dist",
        params: &[Point, Color],
        returns_bool: false,
        cost: 6,
        int_range: None,
        doc: "Manhattan distance from p to the nearest stone of that colour (255 if none)",
    },
    Builtin {
        name: "count",
        params: &[Point, Color, Int],
        returns_bool: false,
        cost: 8,
        int_range: Some((0, 9)),
        doc: "points of that state in the (2r+1)x(2r+1) square around p",
    },
    Builtin {
        name: "any",
        params: &[Point, Int],
        returns_bool: true,
        cost: 8,
        int_range: Some((1, 3)),
        doc: "NEMESIS ANYn: exactly n stones (either colour) in the 9x9 square around p",
    },
    Builtin {
        name: "adj",
        params: &[Point],
        returns_bool: false,
        cost: 2,
        int_range: None,
        doc: "NEMESIS ADJn: stones on p and its 4 orthogonal neighbours",
    },
    Builtin {
        name: "empty8",
        params: &[Point],
        returns_bool: true,
        cost: 3,
        int_range: None,
        doc: "NEMESIS EMPTY8: p and its 8 neighbours are empty or off-board",
    },
    Builtin {
        name: "empty25",
        params: &[Point],
        returns_bool: true,
        cost: 6,
        int_range: None,
        doc: "NEMESIS EMPTY25: the 5x5 square around p is empty or off-board",
    },
    Builtin {
        name: "mark",
        params: &[Point],
        returns_bool: true,
        cost: 1,
        int_range: None,
        doc: "the engine's mark on p (NEMESIS MARK; `!mark(p)` is NOTMARK)",
    },
];

pub fn lookup(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// Whether the language already gives `name` a meaning: a built-in test, [`TRUTH_VALUE`], a
/// keyword or a context word. Generated sources (the GNU Go importer) keep their own names
/// (externs) clear of these.
pub fn is_reserved(name: &str) -> bool {
    use crate::parser::lexer::{CONTEXT_WORDS, KEYWORDS};
    lookup(name).is_some()
        || name == TRUTH_VALUE
        || KEYWORDS.contains(&name)
        || CONTEXT_WORDS.contains(&name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_unique_and_found() {
        for (i, b) in super::BUILTINS.iter().enumerate() {
            assert_eq!(super::lookup(b.name).map(|x| x.name), Some(b.name));
            assert!(super::BUILTINS[i + 1..].iter().all(|o| o.name != b.name));
        }
        assert!(super::lookup("liberties").is_none());
    }

    #[test]
    fn reserved_names_cover_builtins_and_keywords() {
        for name in ["libs", "mark", "int", "glob", "any", "point", "identity"] {
            assert!(super::is_reserved(name), "{name}");
        }
        for name in ["liberties", "ladder", "doing_scoring"] {
            assert!(!super::is_reserved(name), "{name}");
        }
    }
}
