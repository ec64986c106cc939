//! Numbers as the printed lines show them: fixed decimals without a minus sign on zero.

/// `x` with `decimals` digits after the point; a value that rounds to zero prints without a
/// sign (`0.0`, never `-0.0`).
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(unsigned) if unsigned.chars().all(|c| c == '0' || c == '.') => unsigned.to_owned(),
        _ => text,
    }
}

/// `x` with at most two decimals and no trailing zeros: `4.5`, `3`, `0.49`.
pub fn short(x: f64) -> String {
    let text = fixed(x, 2);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "" | "-" => "0".to_owned(),
        _ => text.to_owned(),
    }
}

/// A p-value: four decimals, or `< 0.0001` below that.
pub fn p_value(p: f64) -> String {
    if p < 0.000_1 { "p < 0.0001".to_owned() } else { format!("p = {p:.4}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_never_carries_a_sign() {
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.05001, 1), "-0.1");
        assert_eq!(fixed(45.44, 1), "45.4");
        assert_eq!(fixed(-2.944_438_979, 2), "-2.94");
    }

    #[test]
    fn short_numbers_drop_trailing_zeros_only() {
        assert_eq!(short(4.5), "4.5");
        assert_eq!(short(3.0), "3");
        assert_eq!(short(30.0), "30");
        assert_eq!(short(0.490_000_000_000_000_04), "0.49");
        assert_eq!(short(-0.001), "0");
        assert_eq!(short(-2.25), "-2.25");
    }

    #[test]
    fn tiny_p_values_are_bounded_not_rounded_to_zero() {
        assert_eq!(p_value(0.039_062_5), "p = 0.0391");
        assert_eq!(p_value(0.000_05), "p < 0.0001");
        assert_eq!(p_value(1.0), "p = 1.0000");
    }
}
