//! Times as a person reads them.

/// `YYYY-MM-DD HH:MM:SS` (UTC) for a time in milliseconds since the Unix epoch.
///
/// ```
/// use weft_term::utc_datetime;
///
/// assert_eq!(utc_datetime(1_795_376_471_000), "2026-11-22 19:41:11");
/// ```
pub fn utc_datetime(millis: u64) -> String {
    let secs = millis / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's algorithm, exact
/// for the proleptic Gregorian calendar).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_including_leap_days() {
        assert_eq!(utc_datetime(0), "1970-01-01 00:00:00");
        assert_eq!(utc_datetime(951_782_400_000), "2000-02-29 00:00:00");
        assert_eq!(utc_datetime(4_107_542_399_000), "2100-02-28 23:59:59");
        assert_eq!(utc_datetime(4_107_542_400_000), "2100-03-01 00:00:00");
    }
}
