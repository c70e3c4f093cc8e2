//! Calendar dates for times weft prints or records (transcript listings, the lockfile's
//! `installed_at`): one date algorithm for every crate, UTC only, no time-zone data.

/// A moment in UTC, to the second, split into calendar fields.
///
/// ```
/// use weft_types::time::UtcTime;
///
/// let t = UtcTime::from_unix_secs(951_782_400 + 3661); // 2000-02-29 01:01:01
/// assert_eq!((t.year, t.month, t.day), (2000, 2, 29));
/// assert_eq!((t.hour, t.minute, t.second), (1, 1, 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcTime {
    /// The year (proleptic Gregorian).
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 to 59.
    pub second: u32,
}

impl UtcTime {
    /// The calendar fields of `secs` seconds since 1970-01-01T00:00:00Z.
    pub fn from_unix_secs(secs: u64) -> Self {
        let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2);
        let rem = secs % 86_400;
        let (year, month, day) = civil_from_days(days);
        // `rem` is below 86,400: each part fits.
        let part = |n: u64| u32::try_from(n).unwrap_or(0);
        Self {
            year,
            month,
            day,
            hour: part(rem / 3600),
            minute: part(rem % 3600 / 60),
            second: part(rem % 60),
        }
    }

    /// `YYYY-MM-DD`.
    pub fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `HH:MM:SS`.
    pub fn time_of_day(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }
}

/// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// exact for the proleptic Gregorian calendar).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    // Both are small and positive by construction.
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_including_leap_days_and_century_rules() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        let last = UtcTime::from_unix_secs(4_107_542_399);
        assert_eq!(
            (last.date(), last.time_of_day()),
            ("2100-02-28".to_owned(), "23:59:59".to_owned())
        );
        assert_eq!(UtcTime::from_unix_secs(4_107_542_400).date(), "2100-03-01");
    }
}
