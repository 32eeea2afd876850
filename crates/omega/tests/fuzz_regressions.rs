//! Inputs found by the cargo-fuzz targets `ltl_parse` and `hoa_parse`, kept as regression tests.

use verikit_omega::{ltl_to_string as to_string, parse_ltl as parse, Arena};

#[test]
fn temporal_operator_before_an_uppercase_proposition_prints_back() {
    // `F(J)` used to print as `FJ`, which reads back as the proposition "FJ".
    for input in ["~F~~J", "XFGJ & F Ja", "G Ab -> X B", "F F J"] {
        let mut a = Arena::new();
        let f = parse(input, &mut a).unwrap();
        let text = to_string(&a, f);
        let g = parse(&text, &mut a).unwrap();
        assert_eq!(f, g, "{input} printed as {text}");
    }
}

#[test]
fn multibyte_text_inside_an_unterminated_hoa_comment_is_an_error() {
    let input = "2/*0@@)v)v\u{d6}\u{d7}\u{d6}(]_00";
    assert!(verikit_omega::parse_hoa(input).is_err());
    let input =
        "HOA: v1 /* é */ States: 1 Start: 0 AP: 0 Acceptance: 0 t --BODY-- State: 0 [t] 0 --END--";
    assert!(verikit_omega::parse_hoa(input).is_ok());
}
