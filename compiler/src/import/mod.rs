//! Importers of foreign pattern formats into `.lens` source.

pub mod gnugo;
