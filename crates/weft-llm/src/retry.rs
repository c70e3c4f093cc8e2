//! What a caller is told when a request is about to be retried: the library never prints, so
//! the notice goes to the caller's [`TextSink`](crate::TextSink), which decides how to show it
//! ("rate limited, retrying in 3 s (2/3)").

use std::fmt;
use std::time::Duration;

/// Why an attempt failed in a way worth retrying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryReason {
    /// HTTP 429.
    RateLimited,
    /// HTTP 5xx (overloaded, bad gateway, ...), with the status.
    Server(u16),
    /// No complete answer within the per-attempt timeout.
    Timeout,
    /// The connection failed or broke.
    Connection,
}

impl fmt::Display for RetryReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RateLimited => f.write_str("rate limited"),
            Self::Server(529) => f.write_str("provider overloaded (HTTP 529)"),
            Self::Server(status) => write!(f, "server error (HTTP {status})"),
            Self::Timeout => f.write_str("no answer in time"),
            Self::Connection => f.write_str("connection failed"),
        }
    }
}

/// A retry about to happen, after `delay`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryNotice {
    /// The provider's name.
    pub provider: String,
    /// The model requested.
    pub model: String,
    /// Why the last attempt failed.
    pub reason: RetryReason,
    /// Which retry this is, from 1.
    pub retry: u32,
    /// How many retries the policy allows.
    pub max_retries: u32,
    /// The wait before it.
    pub delay: Duration,
}

impl fmt::Display for RetryNotice {
    /// `rate limited, retrying in 3 s (2/3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, retrying in {} ({}/{})",
            self.reason,
            seconds(self.delay),
            self.retry,
            self.max_retries
        )
    }
}

/// `3 s`, `1.5 s`, `250 ms`: as precise as a person needs.
fn seconds(delay: Duration) -> String {
    let millis = delay.as_millis();
    if millis < 1000 {
        return format!("{millis} ms");
    }
    if millis.is_multiple_of(1000) || millis >= 10_000 {
        return format!("{} s", (millis + 500) / 1000);
    }
    format!("{:.1} s", delay.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(reason: RetryReason, delay: Duration) -> String {
        RetryNotice {
            provider: "p".to_owned(),
            model: "m".to_owned(),
            reason,
            retry: 2,
            max_retries: 3,
            delay,
        }
        .to_string()
    }

    #[test]
    fn notices_read_as_a_sentence() {
        assert_eq!(
            notice(RetryReason::RateLimited, Duration::from_secs(3)),
            "rate limited, retrying in 3 s (2/3)"
        );
        assert_eq!(
            notice(RetryReason::Server(503), Duration::from_millis(1500)),
            "server error (HTTP 503), retrying in 1.5 s (2/3)"
        );
        assert_eq!(
            notice(RetryReason::Timeout, Duration::from_millis(250)),
            "no answer in time, retrying in 250 ms (2/3)"
        );
        assert_eq!(
            notice(RetryReason::Connection, Duration::from_millis(12_400)),
            "connection failed, retrying in 12 s (2/3)"
        );
    }
}
