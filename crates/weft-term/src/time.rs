//! Times as a person reads them.

use weft_types::time::UtcTime;

/// `YYYY-MM-DD HH:MM:SS` (UTC) for a time in milliseconds since the Unix epoch.
///
/// ```
/// use weft_term::utc_datetime;
///
/// assert_eq!(utc_datetime(1_795_376_471_000), "2026-11-22 19:41:11");
/// ```
pub fn utc_datetime(millis: u64) -> String {
    let t = UtcTime::from_unix_secs(millis / 1000);
    format!("{} {}", t.date(), t.time_of_day())
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
