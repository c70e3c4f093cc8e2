//! Downloading an archive into memory, with a size cap checked while the body streams.

use std::time::Duration;

use futures_util::StreamExt;

use crate::error::InstallError;

/// Downloads `url` (at most `max_bytes`, within `timeout`), following at most 5 redirects
/// and never from HTTPS to plain HTTP.
pub async fn download(
    url: &str,
    max_bytes: u64,
    timeout: Duration,
) -> Result<Vec<u8>, InstallError> {
    let fail = |reason: String| InstallError::Download {
        url: url.to_owned(),
        reason,
    };
    install_crypto_provider();
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::custom(|attempt| {
            let downgrade = attempt.url().scheme() == "http"
                && attempt.previous().iter().any(|u| u.scheme() == "https");
            if attempt.previous().len() >= 5 || downgrade {
                attempt.stop()
            } else {
                attempt.follow()
            }
        }))
        .build()
        .map_err(|e| fail(e.to_string()))?;
    let response = client
        .get(url)
        .send()
        .await
        .map_err(|e| fail(e.to_string()))?;
    let status = response.status();
    if !status.is_success() {
        return Err(fail(format!("HTTP {status}")));
    }
    if response.content_length().is_some_and(|n| n > max_bytes) {
        return Err(InstallError::TooLarge(format!(
            "{url} is larger than {max_bytes} bytes"
        )));
    }
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| fail(e.to_string()))?;
        if body.len() as u64 + chunk.len() as u64 > max_bytes {
            return Err(InstallError::TooLarge(format!(
                "{url} is larger than {max_bytes} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_https_download_gets_as_far_as_connecting() {
        // Port 1 on loopback refuses: the error must come from the connection, not from a
        // client that could not be built (reqwest has no crypto provider of its own).
        let err = download(
            "https://127.0.0.1:1/x.tar.gz",
            1024,
            Duration::from_secs(10),
        )
        .await
        .unwrap_err();
        assert!(matches!(err, InstallError::Download { .. }), "{err}");
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}
