//! Amounts for people: token counts (`950`, `12.3k`, `1.05M`) and money (`$0.0123`,
//! `$4.56`), as `/context`, `/cost`, the status line and the CLI show them.

/// A token count, short: exact below 1,000, then thousands and millions with three
/// significant digits.
///
/// ```
/// use weft_term::tokens;
///
/// assert_eq!(tokens(950), "950");
/// assert_eq!(tokens(12_345), "12.3k");
/// assert_eq!(tokens(200_000), "200k");
/// assert_eq!(tokens(1_047_576), "1.05M");
/// ```
pub fn tokens(n: u64) -> String {
    let scaled = |value: f64, unit: &str| {
        let text = if value < 10.0 {
            format!("{value:.2}")
        } else if value < 100.0 {
            format!("{value:.1}")
        } else {
            format!("{value:.0}")
        };
        // `2.00k` reads as `2k`, `12.0k` as `12k`.
        let text = if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            text
        };
        format!("{text}{unit}")
    };
    match n {
        0..=999 => n.to_string(),
        1_000..=999_499 => scaled(n as f64 / 1_000.0, "k"),
        _ => scaled(n as f64 / 1_000_000.0, "M"),
    }
}

/// US dollars: four decimals below a dollar (token prices are small), two from there on.
///
/// ```
/// use weft_term::dollars;
///
/// assert_eq!(dollars(0.012345), "$0.0123");
/// assert_eq!(dollars(4.5678), "$4.57");
/// assert_eq!(dollars(0.0), "$0.0000");
/// ```
pub fn dollars(amount: f64) -> String {
    if amount.abs() < 1.0 {
        format!("${amount:.4}")
    } else {
        format!("${amount:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_counts_round_to_three_digits() {
        assert_eq!(tokens(0), "0");
        assert_eq!(tokens(1_000), "1k");
        assert_eq!(tokens(1_499), "1.5k");
        assert_eq!(tokens(99_950), "100k");
        assert_eq!(tokens(999_499), "999k");
        assert_eq!(tokens(999_500), "1M");
        assert_eq!(tokens(16_384), "16.4k");
        assert_eq!(tokens(128_000), "128k");
    }
}
