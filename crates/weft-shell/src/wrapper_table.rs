//! The wrapper table, as data: every program the analyser looks through, with its options
//! and their arities (from the programs' manual pages: coreutils, util-linux, sudo, GNU
//! time, GNU parallel, procps `watch`, strace, ltrace, numactl, firejail, systemd).

use super::wrappers::{Grammar, ShellIf, Wrapper, wrapper};

const HELP: &[&str] = &["--help", "--version"];
const HELP_V: &[&str] = &["-h", "--help", "-V", "--version"];

/// The wrappers the analyser looks through.
#[rustfmt::skip]
pub(crate) const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        flags: &[
            "-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "--default-signal",
            "--ignore-signal", "--block-signal", "--list-signal-handling",
        ],
        values: &["-u", "--unset", "-C", "--chdir", "-a", "--argv0"],
        splits: &["-S", "--split-string"],
        no_command: HELP,
        assignments: true,
        dash_option: true,
        ..wrapper("env")
    },
    Wrapper {
        flags: &["-p"],
        no_command: &["-v", "-V"],
        ..wrapper("command")
    },
    wrapper("builtin"),
    Wrapper {
        flags: &["-c", "-l"],
        values: &["-a"],
        ..wrapper("exec")
    },
    Wrapper {
        values: &["-n", "--adjustment"],
        no_command: HELP,
        numeric: true,
        ..wrapper("nice")
    },
    Wrapper {
        no_command: HELP,
        ..wrapper("nohup")
    },
    Wrapper {
        flags: &["--preserve-status", "--foreground", "-f", "-v", "--verbose"],
        values: &["-k", "--kill-after", "-s", "--signal"],
        no_command: HELP,
        operands: 1,
        ..wrapper("timeout")
    },
    // GNU time, which `/bin/sh` (dash) runs: it has no `time` keyword.
    Wrapper {
        flags: &["-p", "--portability", "-v", "--verbose", "-a", "--append", "-q", "--quiet"],
        values: &["-f", "--format", "-o", "--output"],
        no_command: &["--help", "-V", "--version"],
        ..wrapper("time")
    },
    Wrapper {
        flags: &[
            "-A", "--askpass", "-b", "--background", "-E", "--preserve-env", "-H",
            "--set-home", "-i", "--login", "-K", "--remove-timestamp", "-k",
            "--reset-timestamp", "-n", "--non-interactive", "-P", "--preserve-groups", "-S",
            "--stdin", "-s", "--shell", "-B", "--bell", "-N", "--no-update",
        ],
        values: &[
            "-C", "--close-from", "-D", "--chdir", "-g", "--group", "-h", "--host", "-p",
            "--prompt", "-R", "--chroot", "-r", "--role", "-T", "--command-timeout", "-t",
            "--type", "-U", "--other-user", "-u", "--user",
        ],
        no_command: &[
            "-e", "--edit", "-l", "--list", "-v", "--validate", "-V", "--version", "--help",
        ],
        shell: ShellIf::With(&["-s", "--shell", "-i", "--login"]),
        privileged: true,
        ..wrapper("sudo")
    },
    Wrapper {
        flags: &["-n", "-s", "-L"],
        values: &["-u", "-C"],
        shell: ShellIf::With(&["-s"]),
        privileged: true,
        ..wrapper("doas")
    },
    Wrapper {
        flags: &["--keep-cwd", "--disable-internal-agent"],
        values: &["--user"],
        no_command: HELP,
        shell: ShellIf::Always,
        privileged: true,
        ..wrapper("pkexec")
    },
    Wrapper {
        grammar: Grammar::Permuting {
            max_operands: 1,
            argv_with: &[],
        },
        flags: &[
            "-f", "--fast", "-l", "--login", "-m", "-p", "--preserve-environment", "-P",
            "--pty",
        ],
        values: &[
            "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w",
            "--whitelist-environment",
        ],
        strings: &["-c", "--command", "--session-command"],
        shell_choice: &["-s", "--shell"],
        no_command: HELP_V,
        dash_option: true,
        shell: ShellIf::Always,
        privileged: true,
        ..wrapper("su")
    },
    Wrapper {
        grammar: Grammar::Permuting {
            max_operands: 1,
            argv_with: &["-u", "--user"],
        },
        flags: &[
            "-f", "--fast", "-l", "--login", "-m", "-p", "--preserve-environment", "-P",
            "--pty",
        ],
        values: &[
            "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w",
            "--whitelist-environment", "-u", "--user",
        ],
        strings: &["-c", "--command", "--session-command"],
        shell_choice: &["-s", "--shell"],
        no_command: HELP_V,
        dash_option: true,
        shell: ShellIf::Always,
        privileged: true,
        ..wrapper("runuser")
    },
    Wrapper {
        grammar: Grammar::Permuting {
            max_operands: 1,
            argv_with: &[],
        },
        flags: &[
            "-a", "--append", "-e", "--return", "-f", "--flush", "--force", "-q", "--quiet",
            "--timing",
        ],
        values: &[
            "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T",
            "--log-timing", "-m", "--logging-format", "-o", "--output-limit",
        ],
        attached: &["-t"],
        strings: &["-c", "--command"],
        no_command: HELP_V,
        shell: ShellIf::Always,
        ..wrapper("script")
    },
    Wrapper {
        flags: &[
            "-s", "--shared", "-x", "-e", "--exclusive", "-u", "--unlock", "-n", "--nb",
            "--nonblock", "-o", "--close", "-F", "--no-fork", "--verbose", "--fcntl",
        ],
        values: &["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"],
        no_command: HELP_V,
        operands: 1,
        strings_after_operands: &["-c", "--command"],
        ..wrapper("flock")
    },
    Wrapper {
        flags: &["--skip-chdir"],
        values: &["--groups", "--userspec"],
        no_command: HELP,
        operands: 1,
        shell: ShellIf::Always,
        ..wrapper("chroot")
    },
    Wrapper {
        flags: &[
            "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U",
            "--user", "-C", "--cgroup", "-T", "--time", "-f", "--fork", "--kill-child",
            "--mount-proc", "--mount-binfmt", "-r", "--map-root-user", "-c",
            "--map-current-user", "--map-auto", "--keep-caps",
        ],
        values: &[
            "--map-user", "--map-group", "--map-users", "--map-groups", "--propagation",
            "--setgroups", "-R", "--root", "-w", "--wd", "-S", "--setuid", "-G", "--setgid",
            "--monotonic", "--boottime", "-l", "--load-interp",
        ],
        no_command: HELP_V,
        shell: ShellIf::Always,
        ..wrapper("unshare")
    },
    Wrapper {
        flags: &[
            "-a", "--all", "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p",
            "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time",
            "--preserve-credentials", "-r", "--root", "-w", "--wd", "-e", "--env", "-F",
            "--no-fork", "-Z", "--follow-context", "--keep-caps", "--user-parent", "-c",
            "--join-cgroup",
        ],
        values: &[
            "-t", "--target", "-G", "--setgid", "-S", "--setuid", "-W", "--wdns", "-N",
            "--net-socket",
        ],
        no_command: HELP_V,
        shell: ShellIf::Always,
        privileged: true,
        ..wrapper("nsenter")
    },
    Wrapper {
        flags: &[
            "--nnp", "--no-new-privs", "--keep-groups", "--clear-groups", "--init-groups",
            "--reset-env",
        ],
        values: &[
            "--inh-caps", "--ambient-caps", "--bounding-set", "--groups", "--egid", "--regid",
            "--rgid", "--euid", "--reuid", "--ruid", "--securebits", "--pdeathsig",
            "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule",
            "--seccomp-filter",
        ],
        no_command: &["-d", "--dump", "-h", "--help", "-V", "--version"],
        privileged: true,
        ..wrapper("setpriv")
    },
    Wrapper {
        flags: &["-a", "--all-tasks", "-c", "--cpu-list"],
        no_command: &["-p", "--pid", "-h", "--help", "-V", "--version"],
        operands: 1,
        ..wrapper("taskset")
    },
    Wrapper {
        flags: &[
            "-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-f", "--fifo", "-i",
            "--idle", "-o", "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v",
            "--verbose",
        ],
        values: &["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"],
        no_command: &["-m", "--max", "-p", "--pid", "-h", "--help", "-V", "--version"],
        operands: 1,
        ..wrapper("chrt")
    },
    Wrapper {
        flags: &["-u", "--unknown-is-real"],
        values: &["-l", "--lib", "--faked", "-i", "-s", "-b", "--fd-base"],
        no_command: &["-h", "--help", "-v", "--version"],
        shell: ShellIf::Always,
        ..wrapper("fakeroot")
    },
    Wrapper {
        flags: &[
            "--scope", "--user", "--system", "-t", "--pty", "-P", "--pipe", "-q", "--quiet",
            "-G", "--collect", "--wait", "-d", "--same-dir", "-r", "--remain-after-exit",
            "--send-sighup", "--no-block", "--no-ask-password", "--slice-inherit",
            "--on-clock-change", "--on-timezone-change", "-S", "--shell", "--ignore-failure",
            "--background",
        ],
        values: &[
            "-u", "--unit", "-p", "--property", "--description", "--slice", "-H", "--host",
            "-M", "--machine", "-E", "--setenv", "--uid", "--gid", "--nice",
            "--working-directory", "--service-type", "--on-active", "--on-boot",
            "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar",
            "--timer-property", "--path-property", "--socket-property", "--expand-environment",
            "--json",
        ],
        no_command: HELP_V,
        shell: ShellIf::With(&["-S", "--shell"]),
        privileged: true,
        ..wrapper("systemd-run")
    },
    Wrapper {
        flags: &[
            "-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose", "-p",
            "--interactive", "-x", "--exit", "-o", "--open-tty", "--eof", "--replace",
            "--max-lines",
        ],
        values: &[
            "-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args",
            "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var",
        ],
        attached: &["-e", "-i", "-l"],
        no_command: &["--help", "--version", "--show-limits"],
        appends: true,
        ..wrapper("xargs")
    },
    Wrapper {
        flags: &[
            "-k", "--keep-order", "-X", "-m", "-q", "--quote", "-u", "--ungroup", "--group",
            "--line-buffer", "--lb", "-v", "--verbose", "--dry-run", "--dryrun", "--tag", "-0",
            "--null", "-r", "--no-run-if-empty", "--bar", "--eta", "--progress", "--will-cite",
            "--pipe", "--pipepart", "--shuf", "--files", "--xargs", "-p", "--interactive",
            "--onall", "--nonall", "--transfer", "--cleanup", "--fg", "--bg", "--plain",
            "--no-notice", "--halt-on-error", "-t",
        ],
        values: &[
            "-j", "--jobs", "-P", "--max-procs", "-n", "--max-args", "-N", "-a", "--arg-file",
            "--colsep", "-C", "-d", "--delimiter", "-I", "-E", "--tagstring", "--halt",
            "--joblog", "--results", "--res", "--timeout", "--retries", "--delay", "--memfree",
            "--load", "--nice", "--block", "--block-size", "--recstart", "--recend",
            "--header", "--env", "-S", "--sshlogin", "--sshloginfile", "--slf", "--basefile",
            "--bf", "--return", "--tmpdir", "--id", "-s", "--max-chars", "-L", "--max-lines",
            "--workdir", "--wd", "--ssh", "--trc",
        ],
        attached: &["-i"],
        no_command: &[
            "--help", "--version", "--citation", "--number-of-cpus", "--number-of-cores",
            "--number-of-sockets", "--number-of-threads",
        ],
        joined: Some(&[]),
        ends: &[":::", "::::", ":::+", "::::+"],
        shell: ShellIf::Always,
        appends: true,
        ..wrapper("parallel")
    },
    Wrapper {
        flags: &[
            "-b", "--beep", "-c", "--color", "-C", "--no-color", "-d", "--differences", "-e",
            "--errexit", "-g", "--chgexit", "-p", "--precise", "-r", "--no-rerun", "-t",
            "--no-title", "-w", "--no-wrap", "-x", "--exec",
        ],
        values: &["-n", "--interval", "-q", "--equexit"],
        no_command: &["-h", "--help", "-v", "--version"],
        joined: Some(&["-x", "--exec"]),
        ..wrapper("watch")
    },
    Wrapper {
        values: &["-i", "--input", "-o", "--output", "-e", "--error"],
        no_command: HELP,
        ..wrapper("stdbuf")
    },
    Wrapper {
        flags: &["-c", "--ctty", "-f", "--fork", "-w", "--wait"],
        no_command: HELP,
        ..wrapper("setsid")
    },
    Wrapper {
        flags: &["-t", "--ignore"],
        values: &["-c", "--class", "-n", "--classdata"],
        no_command: &["-p", "--pid", "-P", "--pgid", "-u", "--uid", "--help"],
        ..wrapper("ionice")
    },
    Wrapper {
        flags: &["--sticky"],
        values: &["-g"],
        no_command: &["-h", "--help"],
        ..wrapper("cgexec")
    },
    Wrapper {
        flags: &[
            "-a", "--all", "-l", "--localalloc", "-b", "--balancing", "--huge", "--strict",
            "--touch",
        ],
        values: &[
            "-i", "--interleave", "-p", "--preferred", "--preferred-many", "-m", "--membind",
            "-N", "--cpunodebind", "-C", "--physcpubind", "-c", "--cpubind", "--offset",
            "--length", "--shm", "--file", "--shmmode", "--shmid",
        ],
        no_command: &[
            "-s", "--show", "-H", "--hardware", "-V", "--version", "-h", "--help", "--dump",
            "--dump-nodes",
        ],
        ..wrapper("numactl")
    },
    Wrapper {
        long_words: true,
        no_command: &["--help", "--version", "--list", "--tree", "--top"],
        shell: ShellIf::Always,
        ..wrapper("firejail")
    },
    Wrapper {
        flags: &[
            "-f", "-F", "-c", "-C", "-d", "-D", "-i", "-k", "-n", "-q", "-r", "-t", "-T", "-v",
            "-w", "-x", "-y", "-z", "-Z", "-Y", "--follow-forks", "--output-separately",
            "--summary-only", "--summary", "--summary-wall-clock", "--seccomp-bpf",
            "--no-abbrev", "--verbose", "--quiet", "--timestamps", "--relative-timestamps",
            "--syscall-times", "--decode-fds", "--decode-pids", "--instruction-pointer",
            "--stack-traces", "--daemonize", "--successful-only", "--failed-only",
            "--absolute-timestamps", "--raw", "--read", "--write", "--columns",
        ],
        values: &[
            "-e", "-o", "-p", "-u", "-E", "-s", "-S", "-a", "-b", "-I", "-O", "-P", "-X", "-U",
            "--output", "--env", "--user", "--trace", "--trace-path", "--signal", "--status",
            "--string-limit", "--summary-sort-by", "--summary-columns", "--attach",
            "--detach-on", "--interruptible", "--const-print-style", "--inject", "--fault",
            "--kvm",
        ],
        no_command: &["-h", "--help", "-V", "--version"],
        ..wrapper("strace")
    },
    Wrapper {
        flags: &[
            "-b", "-c", "-C", "-f", "-i", "-L", "-r", "-S", "-t", "-T", "--demangle",
            "--no-signals",
        ],
        values: &[
            "-a", "--align", "-A", "-D", "--debug", "-e", "-F", "--config", "-l", "--library",
            "-n", "--indent", "-o", "--output", "-p", "-s", "-u", "-w", "--where", "-x",
        ],
        no_command: &["-h", "--help", "-V", "--version"],
        ..wrapper("ltrace")
    },
    Wrapper {
        no_command: HELP,
        ..wrapper("catchsegv")
    },
    Wrapper {
        no_command: &["--help", "--list", "--list-full", "--install"],
        ..wrapper("busybox")
    },
    wrapper("toybox"),
    Wrapper {
        flags: &["-p"],
        ..wrapper("unbuffer")
    },
    Wrapper {
        flags: &["-e", "-v"],
        ..wrapper("chronic")
    },
];
