//! What a URL's host says about where it leads.

/// True when `url`'s host is this machine: `localhost`, an address in `127.0.0.0/8`, `[::1]`
/// or `0.0.0.0` (which connects to this machine too). A model server there needs no key, and
/// plain `http://` to it never crosses a network.
///
/// ```
/// use weft_types::net::is_local_url;
///
/// assert!(is_local_url("http://localhost:11434/v1"));
/// assert!(is_local_url("http://127.0.0.1:8080") && is_local_url("http://[::1]:9/x"));
/// assert!(!is_local_url("https://api.openai.com/v1"));
/// assert!(!is_local_url("http://localhost.evil.example/"));
/// assert!(!is_local_url("http://127.evil.example/"));
/// assert!(!is_local_url("localhost")); // not a URL
/// ```
pub fn is_local_url(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    // Past any `user:password@`, up to the path.
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port.split_inclusive(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host == "[::1]"
        || host == "0.0.0.0"
        || host.strip_prefix("127.").is_some_and(|rest| {
            let parts: Vec<&str> = rest.split('.').collect();
            parts.len() == 3 && parts.iter().all(|p| p.parse::<u8>().is_ok())
        })
}
