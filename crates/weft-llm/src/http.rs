//! The HTTP layer both clients share: POST JSON with one timeout per attempt (connect and
//! the whole body, streamed or not), retries with exponential backoff for 429, 5xx, timeouts
//! and transport failures, and the mapping of failures to [`LlmError`].
//!
//! A retry only happens while no text has reached the caller's sink: once the user has seen
//! part of an answer, replaying the request would show it twice, so the failure is returned.

use std::fmt;
use std::future::Future;
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use reqwest::{Client, Response, Url, redirect};
use serde_json::Value;

use crate::classify::{classify, in_band_status};
use crate::limits::read_error_body;
use crate::{
    ApiKey, LlmError, ProviderConfig, ResponseLimits, RetryNotice, RetryPolicy, RetryReason,
};

/// Why one attempt failed, before it is known whether it will be retried.
#[derive(Debug)]
pub(crate) enum Failure {
    /// An error status, or an error object inside a 200 answer (with the status it stands for).
    Status {
        /// HTTP status.
        status: u16,
        /// The body (or stream event) carrying the error.
        body: String,
        /// The server's `retry-after` / `retry-after-ms`.
        retry_after: Option<Duration>,
    },
    /// The attempt ran out of time.
    Timeout,
    /// The connection failed or broke.
    Transport(String),
    /// The answer is not the protocol.
    Malformed(String),
    /// The answer went over one of the [`ResponseLimits`](crate::ResponseLimits).
    TooLarge(crate::limits::Exceeded),
}

impl Failure {
    /// The failure for an `error` member inside a 200 body or stream event, if there is one.
    pub(crate) fn in_band(value: &Value, raw: &str) -> Option<Self> {
        let error = value.get("error").filter(|e| !e.is_null())?;
        Some(Self::Status {
            status: in_band_status(error),
            body: raw.to_owned(),
            retry_after: None,
        })
    }

    /// A failure of reqwest (sending, or reading the body).
    pub(crate) fn from_reqwest(error: reqwest::Error) -> Self {
        if error.is_timeout() {
            return Self::Timeout;
        }
        // The URL is dropped: it is shown separately, without credentials.
        let error = error.without_url();
        let mut message = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        Self::Transport(message)
    }

    /// A short description for logs (bodies may echo secrets, so they stay out).
    fn summary(&self) -> String {
        match self {
            Self::Status { status, .. } => format!("HTTP {status}"),
            Self::Timeout => "timeout".to_owned(),
            Self::Transport(_) => "transport error".to_owned(),
            Self::Malformed(_) => "malformed response".to_owned(),
            Self::TooLarge(e) => format!("{} over its limit", e.limit.what()),
        }
    }

    /// Why a retryable failure failed; `None` for failures that are never retried.
    fn retry_reason(&self) -> Option<RetryReason> {
        match self {
            Self::Status { status: 429, .. } => Some(RetryReason::RateLimited),
            Self::Status { status, .. } if (500..=599).contains(status) => {
                Some(RetryReason::Server(*status))
            }
            // A server that sent too much once would do it again.
            Self::Status { .. } | Self::Malformed(_) | Self::TooLarge(_) => None,
            Self::Timeout => Some(RetryReason::Timeout),
            Self::Transport(_) => Some(RetryReason::Connection),
        }
    }

    fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// Reads a successful (2xx) response of one attempt.
pub(crate) trait ReadResponse: Send {
    /// What a complete response becomes.
    type Output: Send;

    /// Reads the response; called once per attempt, so state lives in the future.
    fn read(
        &mut self,
        response: Response,
    ) -> impl Future<Output = Result<Self::Output, Failure>> + Send;

    /// True once text has been handed to the caller's sink: no retry after that.
    fn committed(&self) -> bool;

    /// Tells the caller's sink that the request is about to be sent again.
    fn retrying(&mut self, notice: &RetryNotice);
}

/// A request URL and its printable form (no userinfo, no query).
#[derive(Clone)]
pub(crate) struct Endpoint {
    url: Url,
    shown: String,
}

impl Endpoint {
    /// `base_url` (a trailing `/` trimmed) followed by `path`.
    pub(crate) fn new(provider: &str, base_url: &str, path: &str) -> Result<Self, LlmError> {
        let joined = format!("{}{path}", base_url.trim().trim_end_matches('/'));
        // The URL itself is not quoted: it may carry credentials.
        let url = Url::parse(&joined).map_err(|e| {
            LlmError::Config(format!(
                "provider `{provider}`: base_url is not a valid URL: {e}"
            ))
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(LlmError::Config(format!(
                "provider `{provider}`: base_url must start with http:// or https://"
            )));
        }
        let shown = shown_url(&url);
        Ok(Self { url, shown })
    }

    /// The URL without credentials, for messages and logs.
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

fn shown_url(url: &Url) -> String {
    let mut url = url.clone();
    // Both fail only for URLs that cannot have credentials, which is fine.
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.set_query(None);
    url.set_fragment(None);
    url.to_string()
}

/// A header value holding a secret: marked sensitive so `Debug` of the headers hides it.
pub(crate) fn secret_header(
    provider: &str,
    name: HeaderName,
    value: &str,
    headers: &mut HeaderMap,
) -> Result<(), LlmError> {
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        LlmError::Config(format!(
            "provider `{provider}`: the API key contains characters that cannot be sent in an HTTP header"
        ))
    })?;
    value.set_sensitive(true);
    headers.insert(name, value);
    Ok(())
}

/// An `f32` as the decimal number it was written as (`0.2`, not `0.20000000298023224`).
pub(crate) fn number_f32(value: f32) -> Value {
    value
        .to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The shared client of one provider.
/// True when the server answered with server-sent events.
pub(crate) fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"))
}

/// `headers` plus the `Accept` header for a streamed or whole answer.
pub(crate) fn with_accept(headers: &HeaderMap, stream: bool) -> HeaderMap {
    let mut headers = headers.clone();
    let accept = if stream {
        "text/event-stream"
    } else {
        "application/json"
    };
    headers.insert(reqwest::header::ACCEPT, HeaderValue::from_static(accept));
    headers
}

pub(crate) struct HttpClient {
    client: Client,
    provider: String,
    timeout: Duration,
    retry: RetryPolicy,
    limits: ResponseLimits,
    /// Only used to scrub the key from error messages a server might echo it in.
    key: Option<ApiKey>,
}

impl fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpClient")
            .field("provider", &self.provider)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl HttpClient {
    /// A client with `config`'s timeout, retries and key.
    pub(crate) fn new(config: &ProviderConfig) -> Result<Self, LlmError> {
        // Follow only redirects that keep the method and body; a 301/302 would turn the POST
        // into a GET and produce a confusing error.
        let policy = redirect::Policy::custom(|attempt| {
            if matches!(attempt.status().as_u16(), 307 | 308) && attempt.previous().len() < 5 {
                attempt.follow()
            } else {
                attempt.stop()
            }
        });
        install_crypto_provider();
        let client = Client::builder().redirect(policy).build().map_err(|e| {
            LlmError::Config(format!(
                "provider `{}`: cannot build the HTTP client: {e}",
                config.name
            ))
        })?;
        Ok(Self {
            client,
            provider: config.name.clone(),
            timeout: config.timeout,
            retry: config.retry,
            limits: config.limits,
            key: config.api_key.clone().filter(|k| !k.expose().is_empty()),
        })
    }

    /// The caps on an answer.
    pub(crate) fn limits(&self) -> ResponseLimits {
        self.limits
    }

    /// POSTs `body` to `endpoint`, retrying per the policy, and reads the answer with `reader`.
    pub(crate) async fn post<R: ReadResponse>(
        &self,
        endpoint: &Endpoint,
        headers: &HeaderMap,
        body: &Value,
        model: &str,
        reader: &mut R,
    ) -> Result<R::Output, LlmError> {
        let body = serde_json::to_vec(body)
            .map_err(|e| LlmError::Config(format!("cannot encode the request: {e}")))?;
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            tracing::debug!(
                url = endpoint.shown(),
                model,
                attempt,
                "sending chat request"
            );
            let outcome = tokio::time::timeout(
                self.timeout,
                self.attempt(endpoint, headers, &body, model, attempt, reader),
            )
            .await
            .unwrap_or(Err(Failure::Timeout));
            let failure = match outcome {
                Ok(output) => return Ok(output),
                Err(failure) => failure,
            };
            let reason = failure
                .retry_reason()
                .filter(|_| !reader.committed() && attempt <= self.retry.max_retries);
            let Some(reason) = reason else {
                tracing::debug!(
                    url = endpoint.shown(),
                    model,
                    attempt,
                    failure = failure.summary(),
                    "chat request failed"
                );
                return Err(self.error(failure, endpoint, model, attempt));
            };
            let delay = backoff(&self.retry, attempt, failure.retry_after());
            tracing::debug!(
                url = endpoint.shown(),
                model,
                attempt,
                delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                failure = failure.summary(),
                "retrying chat request"
            );
            reader.retrying(&RetryNotice {
                provider: self.provider.clone(),
                model: model.to_owned(),
                reason,
                retry: attempt,
                max_retries: self.retry.max_retries,
                delay,
            });
            tokio::time::sleep(delay).await;
        }
    }

    async fn attempt<R: ReadResponse>(
        &self,
        endpoint: &Endpoint,
        headers: &HeaderMap,
        body: &[u8],
        model: &str,
        attempt: u32,
        reader: &mut R,
    ) -> Result<R::Output, Failure> {
        let response = self
            .client
            .post(endpoint.url.clone())
            .headers(headers.clone())
            .body(body.to_vec())
            .send()
            .await
            .map_err(Failure::from_reqwest)?;
        let status = response.status();
        tracing::debug!(
            url = endpoint.shown(),
            model,
            attempt,
            status = status.as_u16(),
            "chat response"
        );
        if !status.is_success() {
            let retry_after = retry_after(response.headers(), SystemTime::now());
            let body = read_error_body(response).await;
            return Err(Failure::Status {
                status: status.as_u16(),
                body,
                retry_after,
            });
        }
        reader.read(response).await
    }

    fn error(&self, failure: Failure, endpoint: &Endpoint, model: &str, attempts: u32) -> LlmError {
        let provider = self.provider.clone();
        match failure {
            Failure::Status { status, body, .. } => {
                classify(&provider, model, status, &self.scrub(body), attempts)
            }
            Failure::Timeout => LlmError::Timeout {
                provider,
                timeout: self.timeout,
                attempts,
            },
            Failure::Transport(message) => LlmError::Transport {
                provider,
                url: endpoint.shown().to_owned(),
                message: self.scrub(message),
            },
            Failure::Malformed(message) => LlmError::Malformed {
                provider,
                message: self.scrub(message),
            },
            Failure::TooLarge(exceeded) => LlmError::TooLarge {
                provider,
                what: exceeded.limit.what(),
                limit: exceeded.bytes,
                key: exceeded.limit.key(),
            },
        }
    }

    /// Removes the key from text that came from the server.
    fn scrub(&self, text: String) -> String {
        match &self.key {
            Some(key) if text.contains(key.expose()) => text.replace(key.expose(), "<redacted>"),
            _ => text,
        }
    }
}

/// The delay before retry number `retry` (1-based): the server's hint if it gave one,
/// else `initial_backoff` doubled per retry; either way at most `max_backoff`.
pub(crate) fn backoff(policy: &RetryPolicy, retry: u32, hint: Option<Duration>) -> Duration {
    let delay = hint.unwrap_or_else(|| {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        policy.initial_backoff.saturating_mul(factor)
    });
    delay.min(policy.max_backoff)
}

/// The server's requested delay: `retry-after-ms` (milliseconds), else `retry-after`
/// (seconds, possibly fractional, or an HTTP date relative to `now`).
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(ms) = header("retry-after-ms").and_then(seconds) {
        return Some(ms / 1000);
    }
    let value = header(RETRY_AFTER.as_str())?;
    if let Some(secs) = seconds(value) {
        return Some(secs);
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// A non-negative decimal number as a duration in its unit.
fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    if !value.is_finite() || value < 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(value).ok()
}

/// Makes sure rustls has a crypto provider before a client is built: reqwest is compiled
/// without one (`rustls-no-provider`, to keep aws-lc's C build out) and would panic. Installs
/// `ring` as the process default unless a provider is installed already (by the embedding
/// program or another weft crate), which is then kept.
pub(crate) fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Losing a race to another thread installing one is fine: a provider is in place.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn retry_after_seconds_and_milliseconds() {
        let now = SystemTime::now();
        assert_eq!(
            retry_after(&headers(&[("retry-after", "0")]), now),
            Some(Duration::ZERO)
        );
        assert_eq!(
            retry_after(&headers(&[("retry-after", " 2 ")]), now),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            retry_after(&headers(&[("retry-after", "1.5")]), now),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            retry_after(&headers(&[("retry-after-ms", "250")]), now),
            Some(Duration::from_millis(250))
        );
        // The millisecond header is more precise and wins.
        let both = headers(&[("retry-after", "9"), ("retry-after-ms", "20.5")]);
        assert_eq!(retry_after(&both, now), Some(Duration::from_micros(20_500)));
        for bad in ["-1", "soon", "NaN", "inf", ""] {
            let map = headers(&[("retry-after", bad)]);
            assert_eq!(retry_after(&map, now), None, "{bad}");
        }
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }

    #[test]
    fn retry_after_http_date() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        let later = headers(&[("retry-after", "Sun, 06 Nov 1994 08:49:40 GMT")]);
        assert_eq!(retry_after(&later, now), Some(Duration::from_secs(3)));
        let past = headers(&[("retry-after", "Sun, 06 Nov 1994 08:49:00 GMT")]);
        assert_eq!(retry_after(&past, now), Some(Duration::ZERO));
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let policy = RetryPolicy {
            max_retries: 5,
            initial_backoff: Duration::from_millis(10),
            max_backoff: Duration::from_millis(100),
        };
        let delays: Vec<u128> = (1..=5)
            .map(|n| backoff(&policy, n, None).as_millis())
            .collect();
        assert_eq!(delays, [10, 20, 40, 80, 100]);
        assert_eq!(
            backoff(&policy, 1, Some(Duration::from_secs(60))),
            Duration::from_millis(100)
        );
        assert_eq!(backoff(&policy, 3, Some(Duration::ZERO)), Duration::ZERO);
        assert_eq!(backoff(&policy, u32::MAX, None), Duration::from_millis(100));
    }

    #[test]
    fn endpoints_hide_credentials() {
        let e = Endpoint::new("p", "https://user:pw@example.com/v1/", "/chat/completions").unwrap();
        assert_eq!(e.shown(), "https://example.com/v1/chat/completions");
        assert_eq!(format!("{e:?}"), "https://example.com/v1/chat/completions");
        let err = Endpoint::new("p", "not a url with secret", "/x").unwrap_err();
        assert!(!err.to_string().contains("secret"));
        assert!(Endpoint::new("p", "ftp://example.com", "/x").is_err());
    }
}
