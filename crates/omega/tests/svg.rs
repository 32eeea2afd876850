//! The SVG drawing of translated automata: one node group per state, one edge group per edge,
//! the acceptance marks and the formula in the picture.

use verikit_omega::{parse_ltl as parse, Arena};
use verikit_omega::{translate, TranslateOptions as Options};

#[test]
fn translated_automata_are_drawn_whole() {
    for (f, sba) in [
        ("G(a -> F b)", false),
        ("GFa & GFb", false),
        ("a U b", true),
        ("FGa", true),
    ] {
        let mut arena = Arena::new();
        let phi = parse(f, &mut arena).unwrap();
        let opts = Options {
            sba,
            ..Options::default()
        };
        let mut aut = translate(&mut arena, phi, &opts).unwrap();
        aut.name = Some(f.to_string());
        let svg = verikit_omega::to_svg(&aut);
        assert_eq!(
            svg.matches("<g class=\"node\"").count(),
            aut.num_states(),
            "{f}"
        );
        assert_eq!(
            svg.matches("<g class=\"edge\"").count(),
            aut.num_edges(),
            "{f}"
        );
        assert_eq!(
            svg.matches("<g class=\"initial\"").count(),
            aut.init.len(),
            "{f}"
        );
        let accepting = (0..aut.num_states() as u32)
            .filter(|&s| aut.state_marks(s) != 0)
            .count();
        if sba && aut.num_sets > 0 {
            assert_eq!(
                svg.matches("<circle").count(),
                aut.num_states() + accepting,
                "{f}"
            );
        } else if aut.num_sets > 0 {
            assert!(svg.contains("{0}"), "{f}: marks missing");
        }
        assert!(
            svg.contains(&f.replace('&', "&amp;").replace('>', "&gt;")),
            "{f}: title missing"
        );
        assert_eq!(svg, verikit_omega::to_svg(&aut));
    }
}
