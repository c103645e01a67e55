//! Stable diagnostic codes of the compiler (the front end's are in `lens_dsl::check::codes`;
//! docs/compiler.md describes each). Where lowering finds a problem the front end also reports,
//! it uses the front end's code, re-exported here.

pub use lens_dsl::check::codes::{
    COORD_IN_PATTERN, HEADER_RESULT, MISSING_CLASS, MISSING_DIAGRAM, MISSING_RESULT, UNKNOWN_CLASS,
    UNKNOWN_NAME, UNKNOWN_SEQUENCE, WRONG_SYMMETRY,
};

// Patterns, diagrams and globs.
pub const FOCUS_CONTRADICTS_CLASS: &str = "lens::focus_contradicts_class";
pub const EMPTY_STATES: &str = "lens::empty_states";
pub const ON_BOARD_BEYOND_EDGE: &str = "lens::on_board_beyond_edge";
pub const OFF_BOARD_INSIDE_EDGES: &str = "lens::off_board_inside_edges";
pub const IMPOSSIBLE_EDGES: &str = "lens::impossible_edges";
pub const OUTSIDE_FIELD: &str = "lens::outside_field";
pub const OUTSIDE_FIELD_ROTATED: &str = "lens::outside_field_rotated";
pub const DOUBLE_DIAGRAM: &str = "lens::double_diagram";
pub const DOUBLE_RESULT: &str = "lens::double_result";
pub const BAD_ORIENTATION: &str = "lens::bad_orientation";
pub const RESULT_OFF_BOARD: &str = "lens::result_off_board";
pub const GLOB_CLASS_MISMATCH: &str = "lens::glob_class_mismatch";

// Names, tests and their arguments.
pub const UNKNOWN_LABEL: &str = "lens::unknown_label";
pub const UNKNOWN_TEST: &str = "lens::unknown_test";
pub const ARITY: &str = "lens::arity";
pub const EXPECTED_POINT: &str = "lens::expected_point";
pub const EXPECTED_COLOUR: &str = "lens::expected_colour";
pub const NOT_CONSTANT: &str = "lens::not_constant";
pub const ARG_RANGE: &str = "lens::arg_range";
pub const INT_RANGE: &str = "lens::int_range";
pub const POINT_AS_VALUE: &str = "lens::point_as_value";
pub const COLOUR_AS_VALUE: &str = "lens::colour_as_value";
pub const BUILTIN_UNSUPPORTED: &str = "lens::builtin_unsupported";

// Lenses and joseki.
pub const CONTRADICTION: &str = "lens::contradiction";
pub const LABEL_IN_LENS: &str = "lens::label_in_lens";
pub const NO_ENDPOINTS: &str = "lens::no_endpoints";
pub const JOSEKI_POINT: &str = "lens::joseki_point";

// Limits of the ROM format (each one constant in lens-vm).
pub const EXTERN_ARITY: &str = "lens::extern_arity";
pub const TOO_MANY_ENDPOINTS: &str = "lens::too_many_endpoints";
pub const GLOB_DEPTH: &str = "lens::glob_depth";
pub const LENS_REACH: &str = "lens::lens_reach";
pub const TEST_TOO_DEEP: &str = "lens::test_too_deep";

// Warnings.
pub const UNREACHABLE_PATTERN: &str = "lens::unreachable_pattern";
pub const EMPTY_GLOB: &str = "lens::empty_glob";

// A spec the writer refused: a compiler bug, reported rather than a panic.
pub const INTERNAL: &str = "lens::internal";

/// Codes only the compiler gives (the front end's checks do not cover them): when the front end
/// failed, only these are added to its report.
pub const SEMANTIC_ONLY: &[&str] = &[
    FOCUS_CONTRADICTS_CLASS,
    EMPTY_STATES,
    ON_BOARD_BEYOND_EDGE,
    OFF_BOARD_INSIDE_EDGES,
    IMPOSSIBLE_EDGES,
    RESULT_OFF_BOARD,
    EXTERN_ARITY,
    TOO_MANY_ENDPOINTS,
    GLOB_DEPTH,
    LENS_REACH,
    TEST_TOO_DEEP,
];
