//! How text becomes index terms, for skills and queries alike: lowercase, split, drop
//! one-character tokens and stopwords, stem lightly. Separate from the index because it is the
//! one tokenizer both sides share, with rules (the stopword list, the stemmer) of its own.

/// Words dropped by [`tokenize`] (compared before stemming): English function words, the
/// pronouns and politeness of a request ("please help me ..."), and the words every skill
/// description uses ("Use when the user asks ...").
pub const STOPWORDS: &[&str] = &[
    "a", "about", "all", "also", "am", "an", "and", "any", "are", "as", "ask", "asks", "at", "be",
    "been", "both", "by", "can", "could", "do", "each", "had", "has", "have", "he", "her", "here",
    "his", "just", "kindly", "more", "most", "no", "not", "now", "one", "only", "other", "she",
    "such", "than", "thank", "thanks", "there", "these", "they", "those", "too", "very", "were",
    "where", "who", "why", "yes", "does", "for", "from", "how", "i", "if", "in", "into", "is",
    "it", "its", "me", "my", "of", "on", "or", "our", "please", "should", "skill", "skills", "so",
    "some", "that", "the", "their", "them", "then", "this", "to", "us", "use", "used", "user",
    "uses", "using", "want", "was", "we", "what", "when", "which", "will", "with", "would", "you",
    "your",
];

/// [`STOPWORDS`] packed by [`pack`] and sorted, for a quick lookup of short tokens.
const STOPWORD_KEYS: [u64; STOPWORDS.len()] = {
    let mut keys = [0u64; STOPWORDS.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = pack(STOPWORDS[i].as_bytes());
        i += 1;
    }
    // Insertion sort (const context).
    let mut i = 1;
    while i < keys.len() {
        let mut j = i;
        while j > 0 && keys[j - 1] > keys[j] {
            let t = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    keys
};

/// A word of at most 8 bytes as an integer; one-to-one for words without NUL bytes, which
/// tokens never contain.
const fn pack(word: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < word.len() {
        key = (key << 8) | word[i] as u64;
        i += 1;
    }
    key
}

/// True for a token in [`STOPWORDS`].
fn is_stopword(token: &str) -> bool {
    token.len() <= 8 && STOPWORD_KEYS.binary_search(&pack(token.as_bytes())).is_ok()
}

/// Splits `text` into index terms; used for skills and queries alike.
///
/// 1. Lowercase (Unicode) and split on every character that is not alphanumeric
///    (`code-review` → `code`, `review`; `what's` → `what`, `s`).
/// 2. Drop tokens of one character and [`STOPWORDS`].
/// 3. Light stemming, each step only when the stem keeps at least four characters:
///    strip `ing` or `ed` (then undouble a final consonant: `committing` → `commit`);
///    otherwise `ies` → `y`, `es` after `s`/`x`/`z`/`ch`/`sh` (`matches` → `match`), or a
///    final `s`, which needs only three characters left (`bugs` → `bug`, `pdfs` → `pdf`) and
///    stays after `ss`, `us` and `sis` (`process`, `status`, `analysis`); finally drop a
///    final `e`, so that `change`, `changes`, `changed` and `changing` all become `chang`.
///    Hence `reviewing`, `reviews` and `reviewed` all become `review`.
///
/// Tokens are returned in text order, repeats included.
///
/// ```
/// use weft_registry::matcher::tokenize;
///
/// assert_eq!(tokenize("Reviewing the code-review PRs"), ["review", "code", "review", "prs"]);
/// assert_eq!(tokenize("changes changed"), ["chang", "chang"]);
/// ```
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |token| out.push(token.to_owned()));
    out
}

/// Calls `f` with each term of `text`, as [`tokenize`] returns them (the `&str` is only
/// valid for the call: one buffer is reused for every term).
pub(super) fn for_each_token(text: &str, mut f: impl FnMut(&str)) {
    let lower = text.to_lowercase();
    let mut buf = String::new();
    for raw in lower.split(|c: char| !c.is_alphanumeric()) {
        let mut chars = raw.chars();
        if chars.next().is_none() || chars.next().is_none() {
            continue; // empty or a single character
        }
        if is_stopword(raw) {
            continue;
        }
        stem_into(raw, &mut buf);
        f(&buf);
    }
}

/// The light stemmer of [`tokenize`] (step 3), returning a new string.
#[cfg(test)]
fn stem(word: &str) -> String {
    let mut out = String::new();
    stem_into(word, &mut out);
    out
}

/// The light stemmer of [`tokenize`] (step 3): writes the stem of `word` into `out`.
fn stem_into(word: &str, out: &mut String) {
    out.clear();
    let len = word.chars().count();
    // Every suffix is ASCII, so byte slicing at `word.len() - suffix.len()` is on a boundary,
    // and the character count of the stem is `len - suffix.len()`.
    let keeps = |suffix: &str| word.ends_with(suffix) && len - suffix.len() >= 4;
    let cut = |suffix: &str| &word[..word.len() - suffix.len()];

    if keeps("ing") {
        out.push_str(undouble(cut("ing")));
    } else if keeps("ed") {
        out.push_str(undouble(cut("ed")));
    } else if keeps("ies") {
        out.push_str(cut("ies"));
        out.push('y');
    } else if keeps("es")
        && ["s", "x", "z", "ch", "sh"]
            .iter()
            .any(|s| cut("es").ends_with(s))
    {
        out.push_str(cut("es"));
    } else if word.ends_with('s')
        && len > 3
        && !["ss", "us", "sis"].iter().any(|s| word.ends_with(s))
    {
        out.push_str(cut("s"));
    } else {
        out.push_str(word);
    }
    if out.ends_with('e') && out.chars().count() > 4 {
        out.pop();
    }
}

/// `stopp` → `stop`, `committ` → `commit`; keeps `ll`, `ss` and `zz` (`install`, `process`).
fn undouble(stem: &str) -> &str {
    match stem.as_bytes() {
        [.., x, y] if x == y && x.is_ascii_lowercase() && !b"aeioulsz".contains(x) => {
            &stem[..stem.len() - 1]
        }
        _ => stem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenize_lowercases_splits_and_drops() {
        assert_eq!(
            tokenize("Use the PDF-Processing skill, when X happens!"),
            ["pdf", "process", "happen"]
        );
        assert_eq!(
            tokenize("v2 API ÜBER Straße"),
            ["v2", "api", "über", "straß"]
        );
        assert!(tokenize("").is_empty());
        assert!(tokenize("a I - , to the of").is_empty());
    }

    #[test]
    fn stopwords() {
        assert!(STOPWORDS.iter().all(|w| w.len() <= 8 && is_stopword(w)));
        assert!(STOPWORDS.iter().all(|w| tokenize(w).is_empty()));
        assert!(
            STOPWORD_KEYS.windows(2).all(|w| w[0] < w[1]),
            "no duplicates"
        );
        for word in ["", "th", "thee", "ab", "abouts", "youre", "yours", "über"] {
            assert!(!is_stopword(word), "{word}");
        }
    }

    #[test]
    fn stemming() {
        for word in ["review", "reviews", "reviewing", "reviewed"] {
            assert_eq!(stem(word), "review", "{word}");
        }
        for word in ["change", "changes", "changed", "changing"] {
            assert_eq!(stem(word), "chang", "{word}");
        }
        for word in ["commit", "commits", "committing", "committed"] {
            assert_eq!(stem(word), "commit", "{word}");
        }
        assert_eq!(stem("matches"), "match");
        assert_eq!(stem("match"), "match");
        assert_eq!(stem("queries"), "query");
        assert_eq!(stem("query"), "query");
        assert_eq!(stem("process"), "process");
        assert_eq!(stem("processes"), "process");
        assert_eq!(stem("processing"), "process");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("analysis"), "analysis");
        assert_eq!(stem("install"), "install");
        assert_eq!(stem("installing"), "install");
        assert_eq!(stem("files"), "file");
        assert_eq!(stem("file"), "file");
        assert_eq!(stem("bugs"), "bug");
        assert_eq!(stem("pdfs"), "pdf");
        assert_eq!(stem("apis"), "api");
        // Too short to stem.
        assert_eq!(stem("has"), "has");
        assert_eq!(stem("dns"), "dns");
        assert_eq!(stem("used"), "used");
        assert_eq!(stem("sing"), "sing");
        assert_eq!(stem("code"), "code");
        // Non-ASCII words are counted in characters.
        assert_eq!(stem("ñañing"), "ñañing");
        assert_eq!(stem("ñañaing"), "ñaña");
    }
}
