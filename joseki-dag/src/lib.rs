//! Joseki DAG: SGF import, Fotland-style compressed encoding, walker.
