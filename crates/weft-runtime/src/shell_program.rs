//! Which shell `exec_shell` runs, chosen once per runtime and used both to run commands and to
//! read them in the permission checks (docs/PERMISSIONS.md, "The shell that runs").
//!
//! bash where there is one (`bash --norc --noprofile -c`, read as bash); otherwise `/bin/sh`,
//! read as a POSIX shell of unknown kind, so what bash and dash disagree on asks.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use weft_shell::ShellProgram;

use crate::env::EnvSnapshot;

/// Where bash is looked for first: the system's own directories, which a project cannot put
/// a program in.
const SYSTEM_BASH: &[&str] = &["/usr/bin/bash", "/bin/bash", "/usr/local/bin/bash"];

/// The shell for commands: bash from a system directory, else from an absolute directory of
/// `PATH` outside `project`; else `/bin/sh`.
pub fn choose_shell(env: &EnvSnapshot, project: Option<&Path>) -> ShellProgram {
    let on_path = env
        .var_os("PATH")
        .map(|path| std::env::split_paths(path).collect::<Vec<_>>())
        .unwrap_or_default();
    let candidates = SYSTEM_BASH.iter().map(PathBuf::from).chain(
        on_path
            .into_iter()
            .filter(|dir| dir.is_absolute() && !project.is_some_and(|p| dir.starts_with(p)))
            .map(|dir| dir.join("bash")),
    );
    for candidate in candidates {
        if is_executable_file(&candidate) {
            tracing::debug!(shell = %candidate.display(), "exec_shell runs bash");
            return ShellProgram::bash(candidate);
        }
    }
    tracing::debug!("no bash found: exec_shell runs /bin/sh, read as a POSIX shell");
    ShellProgram::default()
}

/// True for a regular file someone may execute.
fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use weft_shell::Dialect;

    use super::*;

    #[test]
    fn bash_from_a_system_directory_or_path_else_sh() {
        let chosen = choose_shell(&EnvSnapshot::default(), None);
        let system = SYSTEM_BASH
            .iter()
            .find(|p| is_executable_file(Path::new(p)));
        match system {
            Some(path) => {
                assert_eq!(chosen, ShellProgram::bash(path));
                assert_eq!(chosen.dialect(), Dialect::Bash);
            }
            None => assert_eq!(chosen, ShellProgram::default()),
        }
    }

    #[test]
    fn path_entries_inside_the_project_or_relative_are_not_searched() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("bash");
        std::fs::write(&fake, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let env = EnvSnapshot::default().with_var("PATH", dir.path());
        let chosen = choose_shell(&env, Some(dir.path()));
        assert_ne!(chosen.program(), fake);
        let relative = EnvSnapshot::default().with_var("PATH", "bin:.");
        assert!(choose_shell(&relative, None).program().is_absolute());
        if SYSTEM_BASH
            .iter()
            .all(|p| !is_executable_file(Path::new(p)))
        {
            assert_eq!(choose_shell(&env, None), ShellProgram::bash(&fake));
        }
    }
}
