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

/// `x` to `digits` significant digits as C's `%.{digits}g` (and Qt's `'g'` format) prints it:
/// fixed notation without trailing zeros, or scientific (`1.23e+03`, `5e-05`) when the exponent
/// is below −4 or at least `digits`; zero as `0`, never `-0`.
pub fn general(x: f64, digits: usize) -> String {
    match x {
        _ if x == 0.0 => return "0".to_owned(),
        _ if x.is_nan() => return "nan".to_owned(),
        _ if x.is_infinite() => return if x > 0.0 { "inf" } else { "-inf" }.to_owned(),
        _ => {}
    }
    let scientific = format!("{x:.*e}", digits.saturating_sub(1));
    let (mantissa, exponent) = scientific.split_once('e').expect("`e` formatting has an exponent");
    let exponent: i32 = exponent.parse().expect("`e` formatting has an integer exponent");
    let trim = |text: &str| -> String {
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            text.to_owned()
        }
    };
    if exponent < -4 || exponent >= digits as i32 {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exponent.abs())
    } else {
        let decimals = (digits as i32 - 1 - exponent).max(0) as usize;
        trim(&fixed(x, decimals))
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
    fn general_numbers_follow_c_and_qt() {
        // Each as printf("%.3g") prints it.
        for (x, printed) in [
            (2.950_4, "2.95"),
            (-2.944_438_979, "-2.94"),
            (0.4, "0.4"),
            (12.345, "12.3"),
            (100.0, "100"),
            (999.5, "1e+03"),
            (1234.0, "1.23e+03"),
            (0.000_123_4, "0.000123"),
            (0.000_012_34, "1.23e-05"),
            (0.0, "0"),
            (-0.0, "0"),
            (7.0, "7"),
        ] {
            assert_eq!(general(x, 3), printed, "{x}");
        }
    }

    #[test]
    fn tiny_p_values_are_bounded_not_rounded_to_zero() {
        assert_eq!(p_value(0.039_062_5), "p = 0.0391");
        assert_eq!(p_value(0.000_05), "p < 0.0001");
        assert_eq!(p_value(1.0), "p = 1.0000");
    }
}
