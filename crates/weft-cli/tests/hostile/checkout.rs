//! The hostile checkout the tests run weft in, and how a command is run there: with secrets
//! in the environment, under a deadline, and checked for ESC bytes and leaks.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::common::ScriptServer;
use super::hostile;
use super::sandbox::{Finished, Sandbox, repo, run_bounded};

/// Secrets in the environment of every run: none may reach an output, a request, a cache or a
/// file under the home directory.
pub const SECRETS: [(&str, &str); 4] = [
    ("OPENAI_API_KEY", "sk-hostile-canary-7f3a9c"),
    ("ANTHROPIC_API_KEY", "sk-ant-hostile-canary-41d2"),
    ("GITHUB_TOKEN", "ghp_hostilecanary9e77"),
    ("AWS_SECRET_ACCESS_KEY", "hostile/aws/canary/0b5f"),
];

/// Secrets in files of the home directory that the checkout's links lead to: none may reach
/// an output either.
pub const FILE_SECRETS: [(&str, &str); 2] = [
    ("~/.ssh/id_rsa", hostile::FILE_SECRET),
    ("~/notes/secret.md", hostile::BANK_PIN),
];

/// Long enough for a debug build on a busy machine; a FIFO would block forever.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// The generated tree in a temporary directory: the checkout as the project, `home/` as the
/// home directory.
pub struct Checkout {
    pub s: Sandbox,
}

impl Checkout {
    /// The generated tree, every trap included (the links to `/` and `/sys` too: an
    /// untrusted project's links stay inside it).
    pub fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let tree = tmp.path().join("tree");
        hostile::generate(&tree, false).unwrap();
        let root = tree.join(hostile::CHECKOUT);
        let home = tree.join(hostile::HOME);
        Self {
            s: Sandbox::with(tmp, home, root),
        }
    }

    /// The generated checkout, where the commands run (the sandbox's project).
    pub fn dir(&self) -> &Path {
        &self.s.project
    }

    pub fn home(&self) -> &Path {
        &self.s.home
    }

    /// Runs `weft args...` in `dir` (relative to the checkout) with the secrets in the
    /// environment, within `deadline`, and checks that no secret and no ESC byte came out.
    pub fn run_in(&self, dir: &str, args: &[&str], deadline: Duration) -> Finished {
        let mut cmd = self.s.process_in(&self.dir().join(dir));
        cmd.args(args);
        for (name, value) in SECRETS {
            cmd.env(name, value);
        }
        let out = run_bounded(&mut cmd, deadline);
        for (name, value) in SECRETS.into_iter().chain(FILE_SECRETS) {
            assert!(
                !out.stdout.contains(value) && !out.stderr.contains(value),
                "{name} leaked from `weft {}`",
                args.join(" ")
            );
        }
        assert!(
            !out.stdout.contains('\x1b') && !out.stderr.contains('\x1b'),
            "an ESC byte reached the terminal from `weft {}`:\n{}\n{}",
            args.join(" "),
            out.stdout,
            out.stderr
        );
        out
    }

    pub fn weft_in(&self, dir: &str, args: &[&str]) -> Finished {
        self.run_in(dir, args, DEADLINE)
    }

    pub fn weft(&self, args: &[&str]) -> Finished {
        self.weft_in(".", args)
    }

    pub fn path(&self, rel: &str) -> String {
        self.dir().join(rel).display().to_string()
    }

    pub fn home_path(&self, rel: &str) -> String {
        self.home().join(rel).display().to_string()
    }

    pub fn replay_config(&self) -> String {
        repo()
            .join("fixtures/replay/config.json")
            .display()
            .to_string()
    }

    /// Points the user's mis-named provider at `server` (the only provider: the default
    /// model `anthropic/gpt-hostile` goes there).
    pub fn use_server(&self, server: &ScriptServer) {
        let config =
            hostile::USER_CONFIG.replace(hostile::PROVIDER_URL, &format!("{}/v1", server.url));
        std::fs::write(self.home().join(".clawft/config.json"), config).unwrap();
    }

    /// The transcripts written under the home directory.
    pub fn transcripts(&self) -> Vec<PathBuf> {
        self.s.transcripts()
    }
}

/// A multi-threaded runtime for the loopback server while the test thread runs weft.
pub fn server_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

/// The name of each skill `skills list --format json` printed.
pub fn listed_names(stdout: &str) -> Vec<String> {
    let items: Value = serde_json::from_str(stdout).unwrap();
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_owned())
        .collect()
}
