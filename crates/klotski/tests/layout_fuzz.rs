//! Layout files are untrusted input (a user plays or solves a board somebody sent them):
//! whatever a layout file holds, parsing it gives a layout or a located error, never a panic,
//! and a layout that parses can be rendered, solved (or found too large) and written back.
//! Real bundled layouts are mutated at random — characters replaced, lines dropped or
//! doubled, numbers made extreme — and arbitrary text is tried too.

use botlens_klotski::{Count, Layout, bundled, solve};
use proptest::prelude::*;

/// Characters a hostile layout may be built from: the format's own, digits, CJK, controls.
const ALPHABET: &[char] = &[
    'a', 'Z', 'C', '.', ' ', '\n', '\t', ':', '#', '1', '9', '0', '-', '曹', '兵', '\u{1b}',
    '\u{202e}', '\u{feff}', '\r', '\0',
];

fn mutate(text: &str, edits: &[(usize, u8)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for &(at, choice) in edits {
        if lines.is_empty() {
            break;
        }
        let line = at % lines.len();
        match choice % 6 {
            0 => {
                lines.remove(line);
            }
            1 => {
                let copy = lines[line].clone();
                lines.insert(line, copy);
            }
            2 => lines[line].push_str(" 4294967295"),
            3 => lines[line] = lines[line].replace(|c: char| c.is_ascii_digit(), "99999999999"),
            _ => {
                let mut chars: Vec<char> = lines[line].chars().collect();
                if !chars.is_empty() {
                    let i = at % chars.len();
                    chars[i] = ALPHABET[usize::from(choice) % ALPHABET.len()];
                }
                lines[line] = chars.into_iter().collect();
            }
        }
    }
    lines.join("\n")
}

/// Whatever parses must be usable: shown, solved within the solver's bound, written back.
fn use_it(text: &str) {
    if let Ok(layout) = Layout::parse(text) {
        let _ = layout.to_text();
        let _ = solve(&layout, Count::Steps);
        let _ = Layout::parse(&layout.to_text()).expect("a written layout parses again");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mutated_bundled_layouts_never_panic(
        which in 0usize..5,
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..5),
    ) {
        let layout = &bundled::all()[which];
        use_it(&mutate(&layout.to_text(), &edits));
    }

    #[test]
    fn arbitrary_text_never_panics(text in prop::collection::vec(prop::sample::select(ALPHABET), 0..300)) {
        use_it(&text.into_iter().collect::<String>());
    }
}
