//! How many tokens well-known models take in one request: their context window, for a
//! session to size the conversation against (compaction, `/context`) when the configuration
//! does not say (`agent.context_window` always wins).
//!
//! The figures are the providers' published input limits as of 2026: Claude 200,000; GPT-4.1
//! 1,047,576; GPT-5 272,000 (its 400,000-token window less the 128,000 kept for output);
//! GPT-4o and o1-mini 128,000; o1, o3 and o4-mini 200,000; gpt-oss, Llama 3.1 to 4 131,072;
//! Qwen 3 40,960 and Qwen 2.5 32,768. A model served by Ollama gets Ollama's default context
//! (`num_ctx`) instead, whatever the model could take: Ollama cuts a longer prompt silently
//! rather than refusing it, so the window that matters is the server's.

/// The context Ollama gives every model unless `OLLAMA_CONTEXT_LENGTH` or the model's
/// `num_ctx` says otherwise.
pub const OLLAMA_DEFAULT_CONTEXT: u64 = 4096;

/// The input limit of a well-known model, by its id as its provider knows it (a router's
/// `vendor/` prefix and an Ollama `:tag` are looked through). `None` for a model weft does
/// not know.
///
/// ```
/// use weft_llm::known_context_window;
///
/// assert_eq!(known_context_window("claude-sonnet-4-5"), Some(200_000));
/// assert_eq!(known_context_window("openai/gpt-4o-mini"), Some(128_000));
/// assert_eq!(known_context_window("llama3.1:8b"), Some(131_072));
/// assert_eq!(known_context_window("my-finetune"), None);
/// ```
pub fn known_context_window(model: &str) -> Option<u64> {
    let id = model
        .rsplit('/')
        .next()
        .unwrap_or(model)
        .trim()
        .to_ascii_lowercase();
    // Longest prefixes first: `gpt-4.1` before `gpt-4`, `o1-mini` before `o1`.
    const TABLE: &[(&str, u64)] = &[
        ("claude-", 200_000),
        ("gpt-4.1", 1_047_576),
        ("gpt-5", 272_000),
        ("gpt-4o", 128_000),
        ("chatgpt-4o", 128_000),
        ("gpt-4-turbo", 128_000),
        ("gpt-4-32k", 32_768),
        ("gpt-4", 8_192),
        ("gpt-3.5-turbo", 16_385),
        ("gpt-oss", 131_072),
        ("o1-mini", 128_000),
        ("o1", 200_000),
        ("o3", 200_000),
        ("o4-mini", 200_000),
        ("llama3.1", 131_072),
        ("llama-3.1", 131_072),
        ("llama3.2", 131_072),
        ("llama-3.2", 131_072),
        ("llama3.3", 131_072),
        ("llama-3.3", 131_072),
        ("llama4", 131_072),
        ("llama-4", 131_072),
        ("llama3", 8_192),
        ("llama-3", 8_192),
        ("qwen3", 40_960),
        ("qwen2.5", 32_768),
        ("qwen-2.5", 32_768),
    ];
    TABLE
        .iter()
        .find(|(prefix, _)| id.starts_with(prefix))
        .map(|(_, window)| *window)
}

/// True when `base_url` is an Ollama server: its default port (11434).
pub(crate) fn is_ollama(name: &str, base_url: &str) -> bool {
    name == "ollama" || base_url.contains(":11434")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longer_prefixes_win_and_tags_and_routers_are_looked_through() {
        assert_eq!(known_context_window("gpt-4.1-mini"), Some(1_047_576));
        assert_eq!(known_context_window("gpt-4-0613"), Some(8_192));
        assert_eq!(known_context_window("o1-mini-2024-09-12"), Some(128_000));
        assert_eq!(known_context_window("o3-mini"), Some(200_000));
        assert_eq!(known_context_window("GPT-5-Codex"), Some(272_000));
        assert_eq!(
            known_context_window("meta-llama/llama-3.3-70b"),
            Some(131_072)
        );
        assert_eq!(known_context_window("qwen2.5-coder:7b"), Some(32_768));
        assert_eq!(
            known_context_window("anthropic/claude-3.5-sonnet"),
            Some(200_000)
        );
        assert_eq!(known_context_window(""), None);
        assert!(is_ollama("local", "http://localhost:11434/v1"));
        assert!(is_ollama("ollama", "http://gpu-box:8000/v1"));
        assert!(!is_ollama("openai", "https://api.openai.com/v1"));
    }
}
