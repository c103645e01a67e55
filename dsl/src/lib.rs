//! The LENS/field language front end: lexer (logos), parser (lalrpop), AST with spans,
//! checks that need no compilation, and the canonical formatter.

pub mod ast;
