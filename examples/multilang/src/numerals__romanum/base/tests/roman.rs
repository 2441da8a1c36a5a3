use romanum::{from_roman, to_roman};

#[test]
fn writes_standard_forms() {
    let cases = [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (90, "XC"),
                 (400, "CD"), (1994, "MCMXCIV"), (2024, "MMXXIV"), (3999, "MMMCMXCIX")];
    for (n, s) in cases {
        assert_eq!(to_roman(n).as_deref(), Some(s), "to_roman({n})");
    }
}

#[test]
fn refuses_out_of_range() {
    assert_eq!(to_roman(0), None);
    assert_eq!(to_roman(4000), None);
}

#[test]
fn reads_standard_forms() {
    for (s, n) in [("III", 3), ("IV", 4), ("XLII", 42), ("MCMXCIV", 1994), ("MMMCMXCIX", 3999)] {
        assert_eq!(from_roman(s), Some(n), "from_roman({s:?})");
    }
}

#[test]
fn rejects_junk() {
    for s in ["", "ABC", "X1", "MMMM"] {
        assert_eq!(from_roman(s), None, "from_roman({s:?})");
    }
}

#[test]
fn round_trips() {
    for n in 1..=3999 {
        let s = to_roman(n).unwrap();
        assert_eq!(from_roman(&s), Some(n), "{s}");
    }
}
