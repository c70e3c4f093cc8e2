//! RFC 3339 timestamps (UTC, whole seconds) for the lockfile.

use std::time::{SystemTime, UNIX_EPOCH};

use weft_types::time::UtcTime;

/// `2026-11-23T14:05:09Z` for `time` (the epoch for times before it).
pub fn rfc3339(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let t = UtcTime::from_unix_secs(secs);
    format!("{}T{}Z", t.date(), t.time_of_day())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn known_dates() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661); // 2000-02-29 01:01:01
        assert_eq!(rfc3339(t), "2000-02-29T01:01:01Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_392_000); // 2026-11-23
        assert_eq!(rfc3339(t), "2026-11-23T00:00:00Z");
    }
}
