//! Writing learned values back into a `.lens` source: the value of each `=> POINT VALUE`
//! result of the class's patterns is replaced in the text, everything else (comments, layout,
//! other classes) is left as it was, so the result is readable and diffs cleanly.

use std::collections::BTreeMap;

use lens_dsl::ast::{GlobMember, Item, PatternItem, ResultSpec};

/// Replaces the values of the patterns of `classes` named in `values` (pattern name -> value).
/// Returns the new text and how many values were written; patterns of those classes missing
/// from `values` are set to 0. Errors: the text does not parse (the first syntax error's message).
pub fn write_values(
    text: &str,
    classes: &[&str],
    values: &BTreeMap<String, i32>,
) -> Result<(String, usize), String> {
    let (file, diags) = lens_dsl::parse(0, text);
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        return Err(d.message.clone());
    }
    // (start, end, replacement) of every value to rewrite.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut visit = |p: &lens_dsl::ast::Pattern, glob_class: Option<&str>| {
        let cls = p.class.as_ref().map(|c| c.node.as_str()).or(glob_class);
        if !cls.is_some_and(|c| classes.contains(&c)) {
            return;
        }
        let v = values.get(&p.name.node).copied().unwrap_or(0);
        for item in &p.items {
            if let PatternItem::Result(ResultSpec::Move { point, value, .. }) = item {
                edits.push((point.span.end, value.span.end, format!(" {v}")));
            }
        }
    };
    fn globs<'a>(
        members: &'a [GlobMember],
        class: Option<&'a str>,
        f: &mut impl FnMut(&lens_dsl::ast::Pattern, Option<&str>),
    ) {
        for m in members {
            match m {
                GlobMember::Pattern(p) => f(p, class),
                GlobMember::Glob(g) => globs(
                    &g.members,
                    g.class.as_ref().map(|c| c.node.as_str()).or(class),
                    f,
                ),
            }
        }
    }
    for item in &file.items {
        match item {
            Item::Pattern(p) => visit(p, None),
            Item::Glob(g) => globs(
                &g.members,
                g.class.as_ref().map(|c| c.node.as_str()),
                &mut visit,
            ),
            _ => {}
        }
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e, r) in &edits {
        out.push_str(&text[at..*s]);
        out.push_str(r);
        at = *e;
    }
    out.push_str(&text[at..]);
    Ok((out, edits.len()))
}
