//! `botlens bench`: bad input is refused. (A small run with every documented figure is in
//! `install.rs`: it runs the bench of an installed binary, with no checkout.)

use crate::support::botlens;

#[test]
fn bad_bench_input_is_refused() {
    let zero = botlens(&["bench", "--games", "0"]);
    assert_eq!(zero.code, Some(2));
    assert!(zero.stderr.contains("at least 1"), "{}", zero.stderr);
    let nowhere = botlens(&["bench", "--samples", "/no/such/samples"]);
    assert_eq!(nowhere.code, Some(2));
    assert!(nowhere.stderr.contains("--samples"), "{}", nowhere.stderr);
}
