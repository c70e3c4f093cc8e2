//! The text patterns: one regex per way of writing a dangerous thing, with its rule, where it
//! counts (scripts, documents) and how serious it is.
//!
//! Every regex stays within one line (`[^\n]`), so a match never spans unrelated text and the
//! `regex` crate's linear-time guarantee keeps hostile input cheap.

use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Rule, Severity};
use crate::rules::encoded;

/// How a match is judged after the regex: keep the pattern's verdict, drop it, or replace it.
/// It gets the matched text and the pattern's severity for the file at hand.
pub(crate) type Refine = fn(&str, Severity) -> Option<(Severity, String)>;

/// One pattern.
pub(crate) struct TextPattern {
    pub rule: Rule,
    pub regex: &'static str,
    /// Severity in scripts (`.sh`, `.py`, a `#!` line, ...); `None`: not reported there.
    pub in_scripts: Option<Severity>,
    /// Severity in every other text file, SKILL.md included.
    pub in_docs: Option<Severity>,
    pub message: &'static str,
    /// A closer look at the matched text.
    pub refine: Option<Refine>,
    /// Report only the first match in a file.
    pub once: bool,
    /// Words (ASCII, any case) of which every match contains at least one: the regex runs
    /// only on files that contain one. A leading `=` means a whole word (`=nc` is not the
    /// `nc` in `function`).
    pub triggers: &'static [&'static str],
}

const fn both(
    rule: Rule,
    severity: Severity,
    (regex, triggers): (&'static str, &'static [&'static str]),
    message: &'static str,
) -> TextPattern {
    TextPattern {
        rule,
        regex,
        triggers,
        in_scripts: Some(severity),
        in_docs: Some(severity),
        message,
        refine: None,
        once: false,
    }
}

/// A shell or interpreter reading a program from its standard input.
macro_rules! shell {
    () => {
        // The program comes from standard input: no argument but options (`-s` takes any),
        // never `-c` (then the download is data, e.g. `| python3 -c 'import json...'`).
        r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:/usr/bin/|/bin/|/usr/local/bin/)?(?:(?:ba|z|k|da|fi|a|c|tc)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression)\b(?:[ \t]+-[a-zA-Z]*s[a-zA-Z]*\b|(?:[ \t]+-{1,2}[abd-zABD-Z-]*)*[ \t]*(?:(?m:$)|[;&|)`'\x22\\<>]))"
    };
}

/// Where text sends something: a URL, a `host.tld/path`, or an e-mail address.
macro_rules! dest {
    () => {
        r"(?:https?://|[a-z0-9-]+(?:\.[a-z0-9-]+)+/|[\w.+-]+@[a-z0-9-]+\.)"
    };
}

/// `base64 -d` and its spellings.
macro_rules! b64d {
    () => {
        r"base64\s+(?:-\w*d\w*|--decode|-D)\b"
    };
}

use High as H;
use Low as L;
use Medium as M;
use Rule::*;
use Severity::{High, Low, Medium};

/// Every text pattern, in rule order.
pub(crate) const PATTERNS: &[TextPattern] = &[
    // S101: downloads piped into a shell, or a shell reading a download.
    TextPattern {
        refine: Some(refine_download_to_shell),
        ..both(
            PipeToShell,
            M,
            (
                concat!(
                    r"(?i)\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*(?:\|[^\n|]*)*?\|\s*",
                    shell!()
                ),
                &["curl", "wget", "fetch", "iwr", "irm", "invoke-"],
            ),
            "a download is piped into a shell: whatever the server sends runs",
        )
    },
    TextPattern {
        refine: Some(refine_download_to_shell),
        ..both(
            PipeToShell,
            M,
            (
                r"(?i)(?:\b(?:ba|z|k)?sh\s+(?:-s\s+)?|\bsource\s+|(?:^|[;&|]\s*)\.\s+)<\(\s*(?:curl|wget)\b[^\n]*",
                &["<("],
            ),
            "a shell reads a download through process substitution: whatever the server sends runs",
        )
    },
    TextPattern {
        refine: Some(refine_download_to_shell),
        ..both(
            PipeToShell,
            M,
            (
                r#"(?i)\b(?:(?:ba|z|k)?sh\s+-c|eval|iex)\s*\(?\s*["']?\$?\(\s*(?:curl|wget|iwr|irm|\(?new-object\s+net\.webclient\)?\.downloadstring)\b[^\n]*"#,
                &["curl", "wget", "iwr", "irm", "downloadstring"],
            ),
            "a download is run through `sh -c`/`eval`: whatever the server sends runs",
        )
    },
    both(
        PipeToShell,
        M,
        (
            r"(?i)\b(?:curl|wget)\b[^\n]*&&\s*chmod\s+(?:\+|[0-7]*[1357][0-7]*\s)[^\n]*&&\s*(?:sudo\s+)?(?:\./|/tmp/|\$)",
            &["chmod"],
        ),
        "a program is downloaded, made executable and run",
    ),
    // S102: decoded, then run.
    both(
        DecodeAndRun,
        H,
        (concat!(b64d!(), r"[^\n]*\|\s*", shell!()), &["base64"]),
        "base64-decoded text is piped into a shell",
    ),
    both(
        DecodeAndRun,
        H,
        (
            concat!(
                r#"(?i)\b(?:eval|exec|source|(?:ba|z)?sh\s+-c)\b\s*["']?\$\([^\n]*"#,
                b64d!()
            ),
            &["base64"],
        ),
        "base64-decoded text is run with eval / sh -c",
    ),
    both(
        DecodeAndRun,
        H,
        (
            concat!(
                r"(?i)\bxxd\s+(?:-r\s+-p|-p\s+-r|-rp|-pr)\b[^\n]*\|\s*",
                shell!()
            ),
            &["xxd"],
        ),
        "hex-decoded text is piped into a shell",
    ),
    both(
        DecodeAndRun,
        H,
        (
            concat!(
                r#"(?i)\b(?:printf|echo\s+-e)\s+["']?(?:\\x[0-9a-f]{2}){4,}[^\n]*\|\s*"#,
                shell!()
            ),
            &["\\x"],
        ),
        "hex-escaped text is piped into a shell",
    ),
    both(
        DecodeAndRun,
        H,
        (
            // printf reads `\NNN`, `echo -e` `\0NNN`; printable ASCII is `\040`-`\176`.
            concat!(
                r#"(?i)\b(?:printf|echo\s+-e)\s+["']?[^\n|]*?(?:\\0?[0-7]{3}[^\n|\\]*){4,}[^\n]*\|\s*"#,
                shell!()
            ),
            &["\\0", "\\1"],
        ),
        "octal-escaped text is piped into a shell",
    ),
    both(
        DecodeAndRun,
        H,
        (
            r#"(?i)\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.b64decode|base64\.decodebytes|bytes\.fromhex|codecs\.decode|binascii\.unhexlify|__import__\(\s*["'](?:base64|codecs|binascii))"#,
            &["=exec", "=eval"],
        ),
        "decoded bytes are run with exec/eval",
    ),
    both(
        DecodeAndRun,
        H,
        (
            r"(?i)\b(?:eval|new\s+function|settimeout|setinterval)\s*\(\s*(?:atob|buffer\.from|unescape|decodeURIComponent)\s*\(",
            &["eval", "function", "settimeout", "setinterval"],
        ),
        "decoded text is run with eval",
    ),
    both(
        DecodeAndRun,
        H,
        (
            r"(?i)\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-e(?:c|nc|ncodedcommand)?\s+[A-Za-z0-9+/]{16,}={0,2}",
            &["powershell", "pwsh"],
        ),
        "PowerShell runs a base64-encoded command",
    ),
    both(
        DecodeAndRun,
        H,
        (
            r"(?i)(?:\biex\b|invoke-expression)[^\n]*frombase64string|frombase64string[^\n]*\|\s*(?:iex|invoke-expression)\b",
            &["frombase64string"],
        ),
        "PowerShell runs base64-decoded text",
    ),
    // S103: encoded text (base64 and hex runs are found by `encoded::scan_blobs`).
    TextPattern {
        refine: Some(encoded::judge_hex_escapes),
        ..both(
            EncodedPayload,
            M,
            (r"(?i)(?:\\x[0-9a-f]{2}){8,}", &["\\x"]),
            "hex escapes hide text",
        )
    },
    // S104: written to hide what it does.
    both(
        ObfuscatedCommand,
        H,
        (concat!(r"(?i)\|\s*rev\s*\|\s*", shell!()), &["rev"]),
        "reversed text is piped into a shell",
    ),
    both(
        ObfuscatedCommand,
        M,
        (
            r"\$\{IFS\}|\$IFS\$\d|\b(?:c['\x22]{2}u['\x22]{2}r['\x22]{2}l|w['\x22]{2}g['\x22]{2}e['\x22]{2}t)\b",
            &["ifs", "''", "\"\""],
        ),
        "a command split with ${IFS} or empty quotes, a way to slip past filters",
    ),
    both(
        ObfuscatedCommand,
        M,
        (
            r"(?i)string\.fromcharcode\s*\(\s*\d+(?:\s*,\s*\d+){8,}|(?:\bchr\(\s*\d+\s*\)\s*\+\s*){6,}",
            &["fromcharcode", "chr("],
        ),
        "text assembled from character codes",
    ),
    both(
        ObfuscatedCommand,
        M,
        (
            r"(?i)\bxattr\s+(?:-\w*d\w*\s+com\.apple\.quarantine|-c\b|-cr\b|-rc\b)",
            &["xattr"],
        ),
        "removes macOS's quarantine flag, so Gatekeeper does not check the file",
    ),
    // S105: shells connected to a remote host.
    both(
        ReverseShell,
        H,
        (r"/dev/(?:tcp|udp)/[\w.\-\x24{}]+/\d+", &["/dev/"]),
        "a shell redirected to a network socket (/dev/tcp)",
    ),
    both(
        ReverseShell,
        H,
        (
            r"(?i)\b(?:nc|ncat|netcat)\b[^\n]*\s-[a-z]*[ec]\s+(?:/bin/|/usr/bin/)?(?:ba|z)?sh\b",
            &["=nc", "=ncat", "=netcat"],
        ),
        "netcat hands a shell to a remote host",
    ),
    both(
        ReverseShell,
        H,
        (
            r"(?i)\bmkfifo\b[^\n]*\b(?:nc|ncat|netcat|openssl\s+s_client)\b",
            &["mkfifo"],
        ),
        "a FIFO wires a shell to netcat",
    ),
    both(
        ReverseShell,
        H,
        (
            r"(?i)\bsocat\b[^\n]*\bexec:[^\n]*\b(?:ba|z)?sh\b",
            &["socat"],
        ),
        "socat hands a shell to a remote host",
    ),
    both(
        ReverseShell,
        H,
        (
            r#"(?i)\bos\.dup2\(\s*\w+\.fileno\(\)|\bpty\.spawn\(\s*["'](?:/bin/)?(?:ba|z)?sh"#,
            &["dup2", "pty.spawn"],
        ),
        "a Python socket is wired to a shell",
    ),
    // S301: instructions that try to take over the agent.
    both(
        PromptInjection,
        H,
        (
            r"(?i)\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+|my\s+)*(?:previous|prior|above|earlier|preceding|original|system|existing)(?:\s+and\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|original|system|existing))?\s+(?:instructions?|prompts?|rules|directives|guidelines|guidance|messages|context)\b",
            &["ignore", "disregard", "forget", "override", "bypass"],
        ),
        "text that tells the agent to drop its instructions",
    ),
    both(
        PromptInjection,
        H,
        (
            r"(?i)\byou\s+are\s+now\s+(?:in\s+)?(?:DAN\b|developer\s+mode|jailbroken|unrestricted|an?\s+unrestricted|free\s+from\s+(?:all\s+)?(?:rules|restrictions))",
            &["=now"],
        ),
        "text that tries to switch the agent into an unrestricted persona",
    ),
    both(
        PromptInjection,
        M,
        (
            r"(?i)\b(?:do\s+not|don't|never)\s+(?:tell|inform|reveal\s+(?:this\s+)?to|mention\s+(?:this\s+)?to|alert|notify|warn|show)\s+the\s+user\b",
            &["=user"],
        ),
        "text that tells the agent to hide something from the user",
    ),
    both(
        PromptInjection,
        M,
        (
            r"(?i)<\|im_start\|>\s*system|<\|system\|>|<<SYS>>|\bnew\s+system\s+prompt\s*:",
            &["im_start", "<|system|>", "<<sys>>", "system"],
        ),
        "a forged system-prompt marker",
    ),
    // S302: asking for secrets.
    TextPattern {
        in_scripts: None,
        ..both(
            SecretRequest,
            M,
            (
                r"(?i)\b(?:print|output|reveal|send|share|dump|echo|display|show|give|tell|paste|leak|exfiltrate|upload|post|forward|email)\s+(?:me\s+|us\s+)?(?:all\s+|every\s+|your\s+|the\s+|any\s+|of\s+)*(?:environment\s+variables|env\s+vars|api\s+keys|secret\s+keys|private\s+keys?|credentials|passwords|secrets|ssh\s+keys?)\b",
                &[
                    "environment",
                    "vars",
                    "key",
                    "credential",
                    "password",
                    "secret",
                ],
            ),
            "text that asks for keys, credentials or the environment",
        )
    },
    TextPattern {
        in_scripts: None,
        ..both(
            SecretRequest,
            M,
            (
                r#"(?i)\brun\s+(?:the\s+)?(?:command\s+)?[`'"]?(?:env|printenv|set|export\s+-p)[`'"]?\s+(?:and|then)\s+(?:paste|print|include|share|send|show|post|return|output|give|copy|reply\s+with)\b"#,
                &["=env", "=printenv", "=set", "=export"],
            ),
            "text that asks the agent to run `env` and hand over its output (every secret in the environment)",
        )
    },
    // S401: reading secrets (scripts: medium; documents: low).
    TextPattern {
        in_scripts: Some(M),
        in_docs: Some(L),
        refine: Some(not_a_public_key),
        ..both(
            SecretRead,
            M,
            (
                SECRET_FILES,
                &[
                    ".ssh/",
                    ".aws/",
                    ".gnupg/",
                    ".netrc",
                    ".config/gcloud/",
                    "/etc/shadow",
                    "security",
                    "login",
                    "wallet.dat",
                ],
            ),
            "reads SSH keys, cloud credentials, a keychain or browser passwords",
        )
    },
    TextPattern {
        in_docs: None,
        ..both(
            SecretRead,
            L,
            (
                r#"(?i)(?:\bopen|\bcat|\bsource|readFileSync|read_text|load_dotenv|dotenv)\b[^\n]{0,24}["'\s(/]\.env\b"#,
                &[".env"],
            ),
            "reads a .env file",
        )
    },
    TextPattern {
        in_docs: None,
        refine: Some(encoded::judge_api_key_read),
        once: true,
        ..both(
            SecretRead,
            L,
            (
                r"\b[A-Z][A-Z0-9_]*_(?:API_KEY|APIKEY|SECRET_KEY|ACCESS_KEY|SECRET|TOKEN)\b",
                &["_api_key", "_apikey", "_secret", "_access_key", "_token"],
            ),
            "reads an API key from the environment",
        )
    },
    TextPattern {
        in_docs: None,
        ..both(
            SecretRead,
            M,
            (
                r"(?i)\bdict\(\s*os\.environ\s*\)|\bos\.environ\.copy\(\)|\*\*os\.environ\b|json\.dumps\(\s*(?:dict\()?os\.environ|object\.(?:keys|entries)\(\s*process\.env\s*\)|json\.stringify\(\s*process\.env\b",
                &["environ", "process.env"],
            ),
            "reads the whole environment",
        )
    },
    // S402: secrets sent out.
    both(
        SecretExfiltration,
        H,
        (
            r"(?i)\b(?:env|printenv|set)\s*\|\s*(?:curl|wget|nc|ncat|netcat|base64)\b",
            &["=env", "=printenv", "=set"],
        ),
        "the whole environment is sent to a program that can post it",
    ),
    both(
        SecretExfiltration,
        H,
        (
            r"(?i)\b(?:cat|base64|tar|zip|gzip)\b[^\n|]*(?:\.ssh/|\bid_rsa|\bid_ed25519|\.aws/credentials|\.env\b|\.netrc|\.gnupg|Keychains)[^\n]*\|\s*(?:curl|wget|nc|ncat|netcat)\b",
            &[
                ".ssh/",
                "id_rsa",
                "id_ed25519",
                ".aws/credentials",
                ".env",
                ".netrc",
                ".gnupg",
                "keychains",
            ],
        ),
        "credentials are read and piped to the network",
    ),
    both(
        SecretExfiltration,
        H,
        (
            r"(?i)\b(?:curl|wget)\b[^\n]*(?:\s-d|--data(?:-binary|-raw|-urlencode)?|\s-F|--form|\s-T|--upload-file|--post-file)[=\s]+[^\n]*(?:\.ssh/|\bid_rsa|\bid_ed25519|\.aws/credentials|@\.env\b|\$\(\s*(?:env|printenv)\s*\)|\.netrc)",
            &[
                ".ssh/",
                "id_rsa",
                "id_ed25519",
                ".aws/credentials",
                "env",
                ".netrc",
            ],
        ),
        "credentials or the environment are uploaded",
    ),
    both(
        SecretExfiltration,
        H,
        (
            concat!(
                r#"(?i)\b(?:send|post|upload|forward|email|e-mail|exfiltrate|transmit|submit|paste)\b[^\n]{0,60}?(?:\.env\b|\.ssh/|\bid_rsa\b|\bid_ed25519\b|\.aws/credentials|\.netrc\b|\.gnupg\b|environment\s+variables|\benv\s+vars\b|output\s+of\s+[`'"]?(?:env|printenv)\b)[^\n]{0,60}?\bto\s+"#,
                dest!()
            ),
            &[
                ".env",
                ".ssh/",
                "id_rsa",
                "id_ed25519",
                ".aws/",
                ".netrc",
                ".gnupg",
                "environment",
                "env vars",
                "printenv",
            ],
        ),
        "text that tells the agent to send secret files or the environment to an address",
    ),
    both(
        SecretExfiltration,
        H,
        (
            concat!(
                r#"(?i)\b(?:read|cat|open|get|grab|collect|copy|take|load)\b[^\n]{0,40}?(?:\.env\b|\.ssh/|\bid_rsa\b|\bid_ed25519\b|\.aws/credentials|\.netrc\b|\.gnupg\b)[^\n]{0,60}?\b(?:send|post|upload|forward|email|e-mail|exfiltrate|transmit|submit)\b[^\n]{0,40}?\bto\s+"#,
                dest!()
            ),
            &[
                ".env",
                ".ssh/",
                "id_rsa",
                "id_ed25519",
                ".aws/",
                ".netrc",
                ".gnupg",
            ],
        ),
        "text that tells the agent to read credentials and send them to an address",
    ),
    both(
        SecretExfiltration,
        H,
        (
            concat!(
                r#"(?i)\bask\b[^\n]{0,30}?\bfor\s+(?:their|your|the|his|her)\b[^\n]{0,40}?(?:api[_ -]?keys?|tokens?|passwords?|credentials|secrets?|private\s+keys?|seed\s+phrases?|recovery\s+phrases?)[^\n]{0,60}?\b(?:send|post|upload|forward|email|e-mail|transmit|submit)\b[^\n]{0,40}?\bto\s+"#,
                dest!()
            ),
            &["=ask"],
        ),
        "text that tells the agent to ask the user for a secret and send it to an address",
    ),
    both(
        SecretExfiltration,
        H,
        (
            r"(?i)\.(?:post|put)\s*\([^\n]*(?:dict\(\s*os\.environ\s*\)|os\.environ\.copy\(\)|\*\*os\.environ|json\.stringify\(\s*process\.env\b)",
            &["environ", "process.env"],
        ),
        "the environment is posted to a server",
    ),
];

/// Hosts that serve throwaway pastes, shortened links or anonymous uploads: no vendor ships
/// an installer from them.
const UNTRUSTED_HOSTS: [&str; 16] = [
    "pastebin.com",
    "paste.ee",
    "hastebin.com",
    "glot.io",
    "bit.ly",
    "tinyurl.com",
    "t.co",
    "is.gd",
    "transfer.sh",
    "0x0.st",
    "termbin.com",
    "ngrok.io",
    "ngrok-free.app",
    "trycloudflare.com",
    "file.io",
    "temp.sh",
];

/// A vendor installer fetched over HTTPS from a named host is medium (it is how rustup,
/// Homebrew and uv install); plain HTTP, an IP address, a paste or link-shortener host, or
/// a URL hidden in a variable is high.
pub(crate) fn refine_download_to_shell(
    matched: &str,
    _base: Severity,
) -> Option<(Severity, String)> {
    let (scheme, host) = match url_host(matched) {
        Some(found) => found,
        None => {
            return Some((
                Medium,
                "a download is piped into a shell from a URL the text does not show (a variable or an argument)".to_owned(),
            ));
        }
    };
    let is_ip = !host.is_empty() && host.chars().all(|c| c.is_ascii_digit() || c == '.');
    let untrusted = UNTRUSTED_HOSTS
        .iter()
        .any(|h| host == *h || host.ends_with(&format!(".{h}")));
    if host == "localhost" || host.starts_with("127.") {
        return Some((Medium, format!("a download from {host} is run by a shell")));
    }
    if scheme.is_empty() {
        return Some((
            High,
            format!(
                "a download from {host} without a scheme (curl and wget then use plain HTTP) is run by a shell: anyone on the path can change it"
            ),
        ));
    }
    if scheme == "http" {
        return Some((
            High,
            format!(
                "a download over plain HTTP from {host} is run by a shell: anyone on the path can change it"
            ),
        ));
    }
    if is_ip || untrusted {
        return Some((
            High,
            format!(
                "a download from {host} (an IP address, paste or link-shortener host) is run by a shell"
            ),
        ));
    }
    Some((
        Medium,
        format!("a download from {host} is run by a shell: check that you trust {host}"),
    ))
}

/// A URL (`https://host/...`) or a bare `host.tld/path` in `text`: its scheme (empty when
/// bare) and lower-cased host.
fn url_host(text: &str) -> Option<(String, String)> {
    static URL: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\b(?:(https?)://([^\s/?#'\x22|)`]+)|((?:[a-z0-9-]+\.)+[a-z]{2,}|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?/)",
        )
        .ok()
    });
    let caps = URL.as_ref()?.captures(text)?;
    if let (Some(scheme), Some(authority)) = (caps.get(1), caps.get(2)) {
        let authority = authority.as_str();
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let host = host_port.split(':').next().unwrap_or("");
        return Some((
            scheme.as_str().to_ascii_lowercase(),
            host.to_ascii_lowercase(),
        ));
    }
    let bare = caps.get(3)?;
    Some((String::new(), bare.as_str().to_ascii_lowercase()))
}

/// The secret files S401 looks for (SSH keys, cloud credentials, `.netrc`, keychains,
/// browser password stores), for the checks outside the table (dynamic context).
pub(crate) const SECRET_FILES: &str = r"(?i)\.ssh/(?:id_[a-z0-9]+|identity)(?:\.pub)?|\.aws/credentials|\.gnupg/|[~/]\.netrc\b|\.config/gcloud/|/etc/shadow\b|\bsecurity\s+(?:dump-keychain|find-internet-password)\b|\bLogin\s+Data\b|\blogins\.json\b|\bwallet\.dat\b";

/// Public keys (`id_rsa.pub`) are meant to be read.
fn not_a_public_key(matched: &str, base: Severity) -> Option<(Severity, String)> {
    if matched.ends_with(".pub") {
        return None;
    }
    Some((
        base,
        "reads SSH keys, cloud credentials, a keychain or browser passwords".to_owned(),
    ))
}
