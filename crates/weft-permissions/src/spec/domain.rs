//! `WebFetch(domain:example.com)`: the URL's host is the domain or one of its subdomains.
//!
//! The host is read without a URL crate: `scheme://[userinfo@]host[:port][/?#\...]`, lowercased,
//! trailing dot removed. `domain:*.example.com` admits subdomains only. A URL whose host cannot
//! be read (no scheme, empty host, `%`-escapes, unusual characters) cannot be judged.

use serde_json::Value;

use super::{Verdict, Why, scalar, shorten};
use crate::PatternErrorKind;

/// The input fields holding the URL.
pub(super) const KEYS: &[&str] = &["url"];

/// A compiled domain specifier.
#[derive(Debug, Clone)]
pub(crate) struct DomainSpec {
    domain: String,
    subdomains_only: bool,
}

/// True for the characters a host name may use here.
fn host_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')
}

/// The lowercase host of `url`, when it can be read.
pub(crate) fn host(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split_once(']')?.0
    } else {
        match host_port.rsplit_once(':') {
            Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
            Some(_) => return None,
            None => host_port,
        }
    };
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    let valid = !host.is_empty()
        && host.chars().all(|c| host_char(c) || c == ':')
        && !host.split('.').any(str::is_empty);
    valid.then_some(host)
}

impl DomainSpec {
    /// Compiles `domain:<host>` or `domain:*.<host>`.
    pub(crate) fn compile(spec: &str) -> Result<Self, PatternErrorKind> {
        let bad = || {
            PatternErrorKind::Specifier(
                "a WebFetch specifier is `domain:<host>`, e.g. `WebFetch(domain:example.com)`"
                    .to_owned(),
            )
        };
        let value = spec.trim().strip_prefix("domain:").ok_or_else(bad)?.trim();
        let (subdomains_only, domain) = match value.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, value),
        };
        let domain = domain
            .strip_suffix('.')
            .unwrap_or(domain)
            .to_ascii_lowercase();
        if domain.is_empty()
            || !domain.chars().all(host_char)
            || domain.split('.').any(str::is_empty)
        {
            return Err(bad());
        }
        Ok(Self {
            domain,
            subdomains_only,
        })
    }

    /// Compares the call's URL with the domain.
    pub(crate) fn verdict(&self, input: &Value) -> Verdict {
        let url = match scalar(input, KEYS) {
            Ok(url) => url,
            Err(why) => return Verdict::Unjudgeable(why),
        };
        let Some(host) = host(&url) else {
            return Verdict::Unjudgeable(Why::BadUrl(shorten(&url)));
        };
        let sub = host.len() > self.domain.len()
            && host.ends_with(&self.domain)
            && host.as_bytes()[host.len() - self.domain.len() - 1] == b'.';
        if sub || (!self.subdomains_only && host == self.domain) {
            Verdict::Match
        } else {
            Verdict::NoMatch
        }
    }

    /// The specifier in canonical form.
    pub(crate) fn write_key(&self, out: &mut String) {
        out.push_str(if self.subdomains_only {
            "domain:*."
        } else {
            "domain:"
        });
        out.push_str(&self.domain);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(spec: &str, url: &str) -> Verdict {
        DomainSpec::compile(spec)
            .unwrap()
            .verdict(&json!({ "url": url }))
    }

    #[test]
    fn hosts_are_read() {
        assert_eq!(
            host("https://Example.COM/x").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host("http://user:pw@api.example.com:8080/").as_deref(),
            Some("api.example.com")
        );
        assert_eq!(
            host("http://example.com@evil.com/").as_deref(),
            Some("evil.com")
        );
        assert_eq!(
            host("http://evil.com\\@example.com/").as_deref(),
            Some("evil.com")
        );
        assert_eq!(host("http://example.com./").as_deref(), Some("example.com"));
        assert_eq!(host("http://[::1]:80/").as_deref(), Some("::1"));
        assert_eq!(host("example.com/x"), None);
        assert_eq!(host("http:///x"), None);
        assert_eq!(host("http://ex%61mple.com/"), None);
        assert_eq!(host("http://a..b/"), None);
    }

    #[test]
    fn domains_and_subdomains() {
        assert_eq!(
            check("domain:example.com", "https://example.com/a"),
            Verdict::Match
        );
        assert_eq!(
            check("domain:example.com", "https://api.example.com/a"),
            Verdict::Match
        );
        assert_eq!(
            check("domain:example.com", "https://badexample.com/"),
            Verdict::NoMatch
        );
        assert_eq!(
            check("domain:example.com", "https://example.com.evil.io/"),
            Verdict::NoMatch
        );
        assert_eq!(
            check("domain:*.example.com", "https://example.com/"),
            Verdict::NoMatch
        );
        assert_eq!(
            check("domain:*.example.com", "https://a.example.com/"),
            Verdict::Match
        );
        assert!(matches!(
            check("domain:example.com", "not a url"),
            Verdict::Unjudgeable(Why::BadUrl(_))
        ));
    }

    #[test]
    fn malformed_domains() {
        for spec in [
            "example.com",
            "domain:",
            "domain:a b",
            "domain:a..b",
            "domain:*",
        ] {
            assert!(DomainSpec::compile(spec).is_err(), "{spec}");
        }
    }
}
