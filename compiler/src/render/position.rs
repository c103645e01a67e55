//! `lensc match --svg FILE | --html FILE`: the position with its matches marked. Per point the
//! best suggestion (highest value; its value drawn, the pattern in the tooltip), rejected
//! points crossed (a reject wins over suggestions there), value-only matches as `=V` on their
//! focus where nothing else is drawn. The HTML page adds the list of matches under the board.

use super::svg::{BoardMark, board_svg};
use super::{esc, page};
use lens_vm::board::Board;
use lens_vm::{Colour, Match, MatchResult, Point};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The board with its marks; `matches` pairs each match with its pattern's name.
pub fn position_svg(board: &Board, matches: &[(Match, String)]) -> String {
    let size = board.size();
    let mut stones = Vec::new();
    for y in 0..size as i32 {
        for x in 0..size as i32 {
            if let Point::Stone(c) = board.get(x, y) {
                stones.push(((x, y), c == Colour::Black));
            }
        }
    }
    // BTreeMap: marks drawn in point order, the same bytes on every run.
    let mut best: BTreeMap<(i32, i32), BoardMark> = BTreeMap::new();
    let mut rejected: BTreeMap<(i32, i32), Vec<&str>> = BTreeMap::new();
    let mut values: BTreeMap<(i32, i32), BoardMark> = BTreeMap::new();
    for (m, name) in matches {
        match m.result {
            MatchResult::Move { x, y, value, .. } => {
                let better = match best.get(&(x, y)) {
                    Some(BoardMark::Move { value: v, .. }) => value > *v,
                    _ => true,
                };
                if better {
                    let title = format!("{name}: value {value}");
                    best.insert((x, y), BoardMark::Move { value, title });
                }
            }
            MatchResult::Reject { x, y } => rejected.entry((x, y)).or_default().push(name),
            MatchResult::Value { value, .. } => {
                let title = format!("{name}: value {value}");
                values
                    .entry(m.focus)
                    .or_insert(BoardMark::Value { value, title });
            }
            MatchResult::None => {}
        }
    }
    let on_board = |p: &(i32, i32)| board.get(p.0, p.1) != Point::Off;
    let mut marks: Vec<((i32, i32), BoardMark)> = Vec::new();
    for (p, names) in &rejected {
        let title = format!("rejected by {}", names.join(", "));
        marks.push((*p, BoardMark::Reject { title }));
    }
    marks.extend(best.into_iter().filter(|(p, _)| !rejected.contains_key(p)));
    // A value-only match shows where no move or reject is drawn already.
    let taken: std::collections::BTreeSet<(i32, i32)> = marks.iter().map(|m| m.0).collect();
    marks.extend(values.into_iter().filter(|(p, _)| !taken.contains(p)));
    marks.retain(|(p, _)| on_board(p));
    board_svg(size, &stones, &marks)
}

/// A page with the board and the list of matches (`rows`: one line of text each).
pub fn position_html(title: &str, svg: &str, rows: &[String]) -> String {
    let mut body = format!("<h1>{}</h1>\n{svg}\n<ol class=\"matches\">\n", esc(title));
    for r in rows {
        let _ = writeln!(body, "<li>{}</li>", esc(r));
    }
    body.push_str("</ol>\n");
    page(title, &body, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(x: i32, y: i32, value: i32) -> Match {
        Match {
            result: MatchResult::Move {
                x,
                y,
                value,
                bits: 0,
                sequence: None,
            },
            ..Match::EMPTY
        }
    }

    #[test]
    fn a_reject_wins_over_a_suggestion_and_the_best_value_is_shown() {
        let board =
            Board::from_diagram(". . . . .\n. X O . .\n. . . . .\n. . . . .\n. . . . .\n").unwrap();
        let reject = Match {
            result: MatchResult::Reject { x: 0, y: 0 },
            ..Match::EMPTY
        };
        let ms = vec![
            (mv(0, 0, 9), "a".to_string()),
            (reject, "r".to_string()),
            (mv(3, 3, 2), "b".to_string()),
            (mv(3, 3, 5), "c".to_string()),
        ];
        let s = position_svg(&board, &ms);
        assert_eq!(s.matches("class=\"rej\"").count(), 1);
        assert_eq!(s.matches("class=\"sugg\"").count(), 1, "{s}");
        assert!(s.contains("<title>c: value 5</title>"));
        assert_eq!(s.matches("<circle class=\"e\"").count(), 1);
        assert_eq!(s.matches("<circle class=\"f\"").count(), 1);
    }
}
