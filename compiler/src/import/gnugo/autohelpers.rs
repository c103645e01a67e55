//! GNU Go's autohelper functions (mkpat's `autohelper_functions[]`): which ones map onto Lens
//! built-in tests, and the cost of the others, which become `extern` predicates.

/// How a GNU Go autohelper is imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// `lib(a)` is `countlib(a)`: liberties of the string at a point, Lens's `libs(a)`.
    Libs,
    /// `o_somewhere(a, b, ...)`: some listed point holds an O (friend) stone.
    FriendSomewhere,
    /// `x_somewhere(a, b, ...)`: some listed point holds an X (foe) stone.
    FoeSomewhere,
    /// Kept as an `extern` predicate.
    Extern,
}

/// What an autohelper's C code gives (mkpat's code strings, GNU Go's `engine/liberty.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    /// A truth value, 1 or 0: a comparison in mkpat's code (`dragon[a].status == ALIVE`) or a
    /// predicate (`is_legal`, `somewhere`, `same_string`).
    Truth,
    /// A number: liberties, sizes, dragon status, eye values, reading results (`WIN` = 5 ...).
    Int,
    /// A C `float` (`dragon_weakness`, `effective_size`): compared inside the engine.
    Float,
}

/// One autohelper: name, mkpat's fixed parameter count (the minimum for variadic ones),
/// whether it takes a move sequence (variadic), mkpat's cost x 100 and its result type.
#[derive(Clone, Copy, Debug)]
pub struct Autohelper {
    pub name: &'static str,
    pub params: u8,
    pub variadic: bool,
    pub cost: u32,
    pub mapping: Mapping,
    pub ret: Ret,
}

/// A number (the default: a truth value used as a number stays right, the reverse would not).
const fn e(name: &'static str, params: u8, variadic: bool, cost: u32) -> Autohelper {
    Autohelper {
        name,
        params,
        variadic,
        cost,
        mapping: Mapping::Extern,
        ret: Ret::Int,
    }
}

/// A truth value.
const fn t(name: &'static str, params: u8, variadic: bool, cost: u32) -> Autohelper {
    Autohelper {
        ret: Ret::Truth,
        ..e(name, params, variadic, cost)
    }
}

/// A C float.
const fn f(name: &'static str, params: u8, cost: u32) -> Autohelper {
    Autohelper {
        ret: Ret::Float,
        ..e(name, params, false, cost)
    }
}

/// The table, with mkpat's costs (0.01 data lookup = 1, 1.0 tactical reading = 100, ...).
pub const AUTOHELPERS: &[Autohelper] = &[
    e("lib2", 1, false, 1),
    e("lib3", 1, false, 1),
    e("lib4", 1, false, 1),
    Autohelper {
        name: "lib",
        params: 1,
        variadic: false,
        cost: 1,
        mapping: Mapping::Libs,
        ret: Ret::Int,
    },
    t("alive", 1, false, 1),
    t("unknown", 1, false, 1),
    t("critical", 1, false, 1),
    t("dead", 1, false, 1),
    e("status", 1, false, 1),
    t("ko", 1, false, 1),
    t("xdefend_against", 2, false, 100),
    t("odefend_against", 2, false, 100),
    t("defend_against_atari", 1, false, 100),
    e("does_defend", 2, false, 100),
    e("does_attack", 2, false, 100),
    e("attack", 1, false, 100),
    e("defend", 1, false, 100),
    f("weakness", 1, 1),
    t("weak", 1, false, 1),
    e("safe_xmove", 1, false, 100),
    e("safe_omove", 1, false, 100),
    t("legal_xmove", 1, false, 5),
    t("legal_omove", 1, false, 5),
    t("x_suicide", 1, false, 5),
    t("o_suicide", 1, false, 5),
    t("x_alive_somewhere", 0, true, 1),
    t("o_alive_somewhere", 0, true, 1),
    Autohelper {
        name: "x_somewhere",
        params: 0,
        variadic: true,
        cost: 1,
        mapping: Mapping::FoeSomewhere,
        ret: Ret::Truth,
    },
    Autohelper {
        name: "o_somewhere",
        params: 0,
        variadic: true,
        cost: 1,
        mapping: Mapping::FriendSomewhere,
        ret: Ret::Truth,
    },
    t("xmoyo_opposite", 1, false, 1),
    t("omoyo_opposite", 1, false, 1),
    t("xmoyo", 1, false, 1),
    t("omoyo", 1, false, 1),
    t("xarea", 1, false, 1),
    t("oarea", 1, false, 1),
    t("xterri", 1, false, 1),
    t("oterri", 1, false, 1),
    e("genus", 1, false, 1),
    e("approx_xlib", 1, false, 3),
    e("approx_olib", 1, false, 3),
    e("xlib", 1, false, 5),
    e("olib", 1, false, 5),
    t("xcut", 1, false, 1),
    t("ocut", 1, false, 5),
    e("edge_double_sente", 4, true, 300),
    e("xplay_defend_both", 2, true, 300),
    e("oplay_defend_both", 2, true, 300),
    e("xplay_attack_either", 2, true, 300),
    e("oplay_attack_either", 2, true, 300),
    e("xplay_defend", 1, true, 100),
    e("oplay_defend", 1, true, 100),
    e("xplay_attack", 1, true, 100),
    e("oplay_attack", 1, true, 100),
    e("xplay_break_through", 3, true, 500),
    e("oplay_break_through", 3, true, 500),
    e("oplay_connect", 2, true, 1000),
    e("xplay_connect", 2, true, 1000),
    e("oplay_disconnect", 2, true, 1000),
    e("xplay_disconnect", 2, true, 1000),
    e("oplay_lib", 1, true, 6),
    e("xplay_lib", 1, true, 6),
    t("seki_helper", 1, false, 1),
    t("threaten_to_save", 1, false, 1),
    t("threaten_to_capture", 1, false, 1),
    t("prevent_attack_threat", 1, false, 1),
    t("eye", 1, false, 1),
    t("proper_eye", 1, false, 1),
    t("marginal_eye", 1, false, 1),
    t("halfeye", 1, false, 1),
    e("max_eye_value", 1, false, 1),
    e("owl_topological_eye", 2, false, 1),
    t("obvious_false_oeye", 1, false, 1),
    t("obvious_false_xeye", 1, false, 1),
    e("antisuji", 1, false, 1),
    e("add_connect_move", 2, false, 1),
    e("add_cut_move", 2, false, 1),
    e("test_attack_either_move", 2, false, 1),
    e("add_defend_both_move", 2, false, 1),
    t("same_dragon", 2, false, 1),
    t("same_string", 2, false, 1),
    e("dragonsize", 1, false, 1),
    e("wormsize", 1, false, 1),
    f("effective_size", 1, 1),
    e("vital_chain", 1, false, 5),
    t("potential_cutstone", 1, false, 1),
    e("amalgamate_most_valuable_helper", 3, false, 1),
    e("amalgamate", 2, false, 1),
    e("owl_escape_value", 1, false, 1),
    t("owl_goal_dragon", 1, false, 1),
    t("owl_eyespace", 1, false, 1),
    t("owl_big_eyespace", 1, false, 1),
    e("owl_mineye", 1, false, 1),
    e("owl_maxeye", 1, false, 1),
    e("owl_proper_eye", 1, false, 1),
    e("owl_eye_size", 1, false, 1),
    t("owl_lunch", 1, false, 1),
    t("owl_strong_dragon", 1, false, 1),
    t("has_aji", 1, false, 1),
    e("finish_ko_helper", 1, false, 5),
    e("squeeze_ko_helper", 1, false, 3),
    e("backfill_helper", 3, false, 150),
    e("connect_and_cut_helper2", 3, false, 300),
    e("connect_and_cut_helper", 3, false, 300),
    e("owl_threatens", 2, false, 1),
    e("replace", 2, false, 1),
    e("backfill_replace", 2, false, 1),
    e("non_oterritory", 1, false, 1),
    e("non_xterritory", 1, false, 1),
    e("remaining_handicap_stones", 0, false, 1),
    e("total_handicap_stones", 0, false, 1),
    t("o_captures_something", 1, false, 2),
    t("x_captures_something", 1, false, 2),
    e("false_eye_territory", 1, false, 1),
    t("false_eye", 1, false, 1),
    t("o_visible_along_edge", 2, false, 5),
    t("x_visible_along_edge", 2, false, 5),
    e("is_surrounded", 1, false, 1),
    // `compute_surroundings`: 1 surrounded, 2 weakly surrounded (a number, not a truth value).
    e("does_surround", 2, false, 100),
    e("surround_map", 2, false, 1),
    t("oracle_threatens", 2, false, 1),
    t("adjacent_to_stone_in_atari", 1, false, 100),
    t("adjacent_to_defendable_stone_in_atari", 1, false, 100),
    e("good_attack_threat", 2, false, 1),
    t("known_safe_move", 1, false, 1),
    e("break_mirror_helper", 1, false, 1),
];

pub fn lookup(name: &str) -> Option<&'static Autohelper> {
    AUTOHELPERS.iter().find(|a| a.name == name)
}

/// Cost of a hand-written C helper or an unknown call (tactical reading class).
pub const UNKNOWN_COST: u32 = 100;

/// C constants of GNU Go's `liberty.h`: reading results, and the dragon statuses `status(a)`
/// returns (`enum dragon_status`, in its order).
pub fn constant(name: &str) -> Option<i64> {
    Some(match name {
        "WIN" => 5,
        "KO_A" => 4,
        "GAIN" => 3,
        "LOSS" => 2,
        "KO_B" => 1,
        "LOSE" => 0,
        _ => {
            return DRAGON_STATUS
                .iter()
                .position(|s| *s == name)
                .map(|i| i as i64);
        }
    })
}

/// `enum dragon_status` up to the statuses a dragon can have (the rest are territory marks).
const DRAGON_STATUS: [&str; 13] = [
    "DEAD",
    "ALIVE",
    "CRITICAL",
    "UNKNOWN",
    "UNCHECKED",
    "CAN_THREATEN_ATTACK",
    "CAN_THREATEN_DEFENSE",
    "INESSENTIAL",
    "TACTICALLY_DEAD",
    "ALIVE_IN_SEKI",
    "STRONGLY_ALIVE",
    "INVINCIBLE",
    "INSUBSTANTIAL",
];
