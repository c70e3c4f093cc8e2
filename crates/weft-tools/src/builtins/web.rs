//! The `web_fetch` tool: an HTTP GET with a domain allow-list, a timeout and a size cap.

use async_trait::async_trait;
use reqwest::Url;
use serde::Deserialize;
use serde_json::json;
use weft_types::tool_names;

use super::WebFetchConfig;
use super::content::floor_boundary;
use super::input::parse;
use crate::{Tool, ToolError, ToolOutput};

/// Redirects followed before giving up.
const MAX_REDIRECTS: usize = 10;

/// How much of an error response's body is shown with the status.
const ERROR_SNIPPET: usize = 2_048;

/// `web_fetch`: fetches a URL and returns its body as text.
pub(crate) struct WebFetch {
    config: WebFetchConfig,
    /// Built once; an error (TLS setup failed) is reported by every call instead of
    /// panicking at construction.
    client: Result<reqwest::Client, reqwest::Error>,
}

impl WebFetch {
    pub(crate) fn new(config: WebFetchConfig) -> Self {
        let allowed = config.allowed_domains.clone();
        // Every redirect hop is checked like the first URL, so a redirect cannot leave the
        // allow-list.
        let policy = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= MAX_REDIRECTS {
                return attempt.error(format!("more than {MAX_REDIRECTS} redirects"));
            }
            match check_url(attempt.url(), allowed.as_deref()) {
                Ok(()) => attempt.follow(),
                Err(reason) => attempt.error(format!("redirect refused: {reason}")),
            }
        });
        install_crypto_provider();
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .redirect(policy)
            // Proxies would come from environment variables, which a library must not read.
            .no_proxy()
            .user_agent(concat!("weft-tools/", env!("CARGO_PKG_VERSION")))
            .build()
            .inspect_err(|e| {
                tracing::warn!(error = %e, "web_fetch could not build its HTTP client");
            });
        Self { config, client }
    }
}

/// Why a URL may not be fetched.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum UrlRefused {
    /// Not http or https.
    #[error("only http and https URLs can be fetched, not {0}:")]
    Scheme(String),
    /// No host to check against the allow-list.
    #[error("{0} has no host")]
    NoHost(Url),
    /// The host is not on the allow-list.
    #[error("{host} is not an allowed domain (allowed: {})", allowed.join(", "))]
    NotAllowed {
        /// The host, lowercase.
        host: String,
        /// The allow-list.
        allowed: Vec<String>,
    },
}

/// Why `url` may not be fetched, if it may not: only http(s), and only allowed hosts.
fn check_url(url: &Url, allowed: Option<&[String]>) -> Result<(), UrlRefused> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(UrlRefused::Scheme(url.scheme().to_owned()));
    }
    let Some(host) = url.host_str() else {
        return Err(UrlRefused::NoHost(url.clone()));
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let Some(allowed) = allowed else {
        return Ok(());
    };
    let permitted = allowed.iter().any(|entry| {
        let entry = entry
            .trim()
            .trim_start_matches("*.")
            .trim_matches('.')
            .to_ascii_lowercase();
        !entry.is_empty()
            && (host == entry
                || host
                    .strip_suffix(entry.as_str())
                    .is_some_and(|rest| rest.ends_with('.')))
    });
    if permitted {
        Ok(())
    } else {
        Err(UrlRefused::NotAllowed {
            host,
            allowed: allowed.to_vec(),
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FetchInput {
    url: String,
    max_bytes: Option<usize>,
}

#[async_trait]
impl Tool for WebFetch {
    fn name(&self) -> &str {
        tool_names::WEB_FETCH
    }

    fn description(&self) -> &str {
        "Fetches an http(s) URL with GET and returns the status, content type and body as text (cut at max_bytes)."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "url": {"type": "string", "description": "The http or https URL to fetch."},
                "max_bytes": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": self.config.max_bytes,
                    "description": format!("Most body bytes to return (default and limit {}).", self.config.max_bytes)
                }
            },
            "required": ["url"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        let input: FetchInput = parse(self.name(), input)?;
        let url = Url::parse(input.url.trim())
            .map_err(|e| ToolError::InvalidInput(format!("invalid url {:?}: {e}", input.url)))?;
        match check_url(&url, self.config.allowed_domains.as_deref()) {
            Ok(()) => {}
            Err(reason @ UrlRefused::Scheme(_)) => {
                return Err(ToolError::InvalidInput(reason.to_string()));
            }
            Err(reason) => {
                return Err(ToolError::Failed(format!(
                    "web_fetch refused {url}: {reason}"
                )));
            }
        }
        let max = match input.max_bytes {
            Some(0) => {
                return Err(ToolError::InvalidInput(
                    "max_bytes must be at least 1".to_owned(),
                ));
            }
            Some(n) => n.min(self.config.max_bytes),
            None => self.config.max_bytes,
        };
        let client = self
            .client
            .as_ref()
            .map_err(|e| ToolError::Failed(format!("web_fetch is unavailable: {e}")))?;
        let timeout = self.config.timeout;
        let mut response = client
            .get(url.clone())
            .send()
            .await
            .map_err(|e| request_error(&e, &url, timeout))?;
        let status = response.status();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("(no content type)")
            .to_owned();
        if !status.is_success() {
            let snippet = match read_body(&mut response, ERROR_SNIPPET).await {
                Ok(body) if !body.bytes.is_empty() => {
                    format!(":\n{}", String::from_utf8_lossy(&body.bytes))
                }
                _ => String::new(),
            };
            return Err(ToolError::Failed(format!(
                "HTTP {status} from {url}{snippet}"
            )));
        }
        let body = read_body(&mut response, max)
            .await
            .map_err(|e| request_error(&e, &url, timeout))?;
        let mut text = format!(
            "HTTP {status} {content_type}\n\n{}",
            String::from_utf8_lossy(&body.bytes)
        );
        if body.truncated {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!("[truncated: the body is longer than {max} bytes]"));
        }
        Ok(ToolOutput::text(text))
    }
}

struct Body {
    bytes: Vec<u8>,
    truncated: bool,
}

/// Reads at most `max` bytes of the body, stopping as soon as there is more.
async fn read_body(response: &mut reqwest::Response, max: usize) -> Result<Body, reqwest::Error> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if bytes.len() + chunk.len() > max {
            bytes.extend_from_slice(&chunk[..max - bytes.len()]);
            // Cut where a character ends, so the text does not end in a replacement mark.
            let end = floor_boundary(&bytes, bytes.len());
            bytes.truncate(end);
            return Ok(Body {
                bytes,
                truncated: true,
            });
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Body {
        bytes,
        truncated: false,
    })
}

/// A request error as the model should see it, with the causes reqwest wraps.
fn request_error(err: &reqwest::Error, url: &Url, timeout: std::time::Duration) -> ToolError {
    if err.is_timeout() {
        return ToolError::Timeout(timeout);
    }
    let mut message = format!("fetching {url} failed: {err}");
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        message.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    ToolError::Failed(message)
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
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn allowed(url: &str, list: &[&str]) -> bool {
        let list: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
        check_url(&Url::parse(url).unwrap(), Some(&list)).is_ok()
    }

    #[test]
    fn domains_match_themselves_and_subdomains() {
        assert!(allowed("https://example.com/x", &["example.com"]));
        assert!(allowed("https://docs.Example.com./x", &["example.com"]));
        assert!(allowed("https://a.b.example.com", &["*.example.com"]));
        assert!(!allowed("https://notexample.com", &["example.com"]));
        assert!(!allowed("https://example.com.evil.io", &["example.com"]));
        assert!(!allowed("https://example.org", &["example.com", ""]));
        assert!(allowed("http://127.0.0.1:8080/", &["127.0.0.1"]));
    }

    #[test]
    fn the_client_builds_with_a_crypto_provider() {
        // reqwest has no provider of its own: without one installed, building panics.
        let fetch = WebFetch::new(WebFetchConfig::default());
        assert!(fetch.client.is_ok(), "{:?}", fetch.client.err());
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }

    #[test]
    fn only_http_and_https() {
        assert_eq!(
            check_url(&Url::parse("file:///etc/passwd").unwrap(), None),
            Err(UrlRefused::Scheme("file".to_owned()))
        );
        assert!(check_url(&Url::parse("ftp://example.com").unwrap(), None).is_err());
        assert!(check_url(&Url::parse("https://example.com").unwrap(), None).is_ok());
    }

    #[test]
    fn a_refused_host_names_the_allow_list() {
        let list = ["example.com".to_owned(), "docs.rs".to_owned()];
        let err = check_url(&Url::parse("https://Evil.io/x").unwrap(), Some(&list)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "evil.io is not an allowed domain (allowed: example.com, docs.rs)"
        );
    }
}
