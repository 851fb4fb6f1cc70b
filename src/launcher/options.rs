//! Command line of `rpnrun`: mpirun's syntax where it matters.
//!
//! `rpnrun [options] -n N program [args] [: -n N program [args]]...` — the options before the
//! first program are the job's; each application context after a `:` may give its own `-n` and
//! `-x`. Ranks follow the contexts in order.

use std::path::PathBuf;

use crate::transport::shm::job::MAX_PES;
use std::time::Duration;

/// What `--stats` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatsRequest {
    /// `--stats`: the table, unless the PEs' own RPNCOMM_STATS (environment or -x) asks for JSON.
    Table,
    /// `--stats=json:FILE`: the JSON file.
    Json(String),
}

/// Where PEs are bound (`--bind-to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindTo {
    /// Each PE to one CPU of the launcher's affinity mask.
    Core,
    /// PEs run anywhere in the launcher's affinity mask.
    None,
}

/// In which order PEs take CPUs (`--map-by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapBy {
    /// Consecutive cores: PE 0 and PE 1 share a socket (and its cache).
    Core,
    /// Round robin over sockets (packages): PE 0 on socket 0, PE 1 on socket 1, ...
    Socket,
}

/// One `-x`: a variable passed to the PEs, with its value or (`-x VAR`) rpnrun's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvVar {
    pub name: String,
    pub value: Option<String>,
}

/// One program of the job and the number of PEs that run it.
#[derive(Debug, Clone, PartialEq)]
pub struct AppContext {
    pub npes: usize,
    pub program: String,
    pub args: Vec<String>,
    /// `-x` given after the `:` that starts this context: for its PEs only.
    pub env: Vec<EnvVar>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub contexts: Vec<AppContext>,
    pub timeout: Option<Duration>,
    /// Seconds after which a waiting PE reports whom it waits for (RPNCOMM_HANG_REPORT).
    pub hang_report: Option<f64>,
    /// `--stats` or `--stats=json:FILE`: what RPNCOMM_STATS asks of the PEs.
    pub stats: Option<StatsRequest>,
    /// `None`: core when the launcher's affinity mask has a CPU for every PE, none otherwise.
    pub bind_to: Option<BindTo>,
    pub map_by: MapBy,
    /// CPUs bound to each PE (`None`: its OMP_NUM_THREADS, else 1).
    pub cpus_per_pe: Option<usize>,
    pub report_bindings: bool,
    pub tag_output: bool,
    pub output_dir: Option<PathBuf>,
    /// `-x` given before the first program: for every PE.
    pub env: Vec<EnvVar>,
}

impl Options {
    /// Number of PEs of the whole job.
    pub fn npes(&self) -> usize {
        self.contexts.iter().map(|c| c.npes).sum()
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Run(Options),
    Help,
    Version,
}

/// A command-line option, for the parser and for `--help`.
pub struct Flag {
    /// The first name is the one the parser matches on; the others are synonyms.
    pub names: &'static [&'static str],
    /// Name of the value, for options that take one.
    pub value: Option<&'static str>,
    pub help: &'static str,
    /// Allowed in an application context after a `:` (else only before the first program).
    pub per_context: bool,
}

pub const FLAGS: &[Flag] = &[
    Flag {
        names: &["-n", "-np", "--np"],
        value: Some("N"),
        help: "number of PEs that run the program of this application context (required)",
        per_context: true,
    },
    Flag {
        names: &["-x"],
        value: Some("VAR[=VALUE]"),
        help: "pass VAR to the PEs, with VALUE or with rpnrun's own value (warning if unset); before the \
               first program: every PE, after a ':': the PEs of that context; repeatable",
        per_context: true,
    },
    Flag {
        names: &["--bind-to"],
        value: Some("core|none"),
        help: "core: each PE to its own CPUs of rpnrun's affinity mask, one or --cpus-per-pe (physical \
               cores before their second hardware thread); none: PEs run anywhere in the mask. Default: \
               core when the mask has the CPUs for every PE, none otherwise",
        per_context: false,
    },
    Flag {
        names: &["--map-by"],
        value: Some("core|socket"),
        help: "order in which bound PEs take CPUs: core (default) fills one socket before the next; \
               socket deals PEs round robin over the sockets (/sys .../topology/physical_package_id)",
        per_context: false,
    },
    Flag {
        names: &["--cpus-per-pe", "--cpus-per-proc"],
        value: Some("N"),
        help: "bind each PE to N CPUs, for its threads (default: the PE's OMP_NUM_THREADS, given with -x \
               or in rpnrun's environment, else 1); the default binding counts N CPUs per PE",
        per_context: false,
    },
    Flag {
        names: &["--report-bindings"],
        value: None,
        help: "one line per PE on stderr: 'rpnrun: PE R (pid P, PROGRAM) bound to CPU C (socket S, core K)' \
               or 'rpnrun: PE R (pid P, PROGRAM) not bound (CPUs LIST)'",
        per_context: false,
    },
    Flag {
        names: &["--tag-output"],
        value: None,
        help: "prefix every line of a PE's output with '[1,R]<stdout>:' or '[1,R]<stderr>:' (Open MPI's \
               form; R the rank); whole lines only, never mixed within a line",
        per_context: false,
    },
    Flag {
        names: &["--output-filename"],
        value: Some("DIR"),
        help: "write PE R's output to DIR/rank.R/stdout and DIR/rank.R/stderr (created, truncated) instead \
               of the terminal; tagged too with --tag-output",
        per_context: false,
    },
    Flag {
        names: &["--timeout"],
        value: Some("SECONDS"),
        help: "end the whole job (exit status 124) if it runs longer than SECONDS",
        per_context: false,
    },
    Flag {
        names: &["--hang-report"],
        value: Some("SECONDS"),
        help: "a PE that waits longer than SECONDS for another says whom it waits for (0: never; sets \
               RPNCOMM_HANG_REPORT)",
        per_context: false,
    },
    Flag {
        names: &["--stats"],
        value: None,
        help: "PE 0 prints a table of the time inside each RPN_COMM routine (and its share of the run) and \
               of every window's calls, bytes, epochs and waits at RPN_COMM_finalize (sets RPNCOMM_STATS=1, but keeps a json:FILE value given with -x or in the environment); \
               --stats=json:FILE writes them to FILE as JSON instead (RPNCOMM_STATS=json:FILE)",
        per_context: false,
    },
    Flag {
        names: &["--oversubscribe"],
        value: None,
        help: "accepted for Open MPI command lines, changes nothing: rpnrun always runs more PEs than CPUs \
               if asked (unbound by default)",
        per_context: false,
    },
    Flag {
        names: &["--allow-run-as-root"],
        value: None,
        help: "accepted for Open MPI command lines, changes nothing: rpnrun runs as root",
        per_context: false,
    },
    Flag { names: &["-h", "--help"], value: None, help: "print this help and exit", per_context: true },
    Flag { names: &["-V", "--version"], value: None, help: "print rpnrun's version and exit", per_context: true },
];

pub const USAGE: &str = "usage: rpnrun [options] -n N program [args...] [: -n N program [args...]]...";

fn find_flag(name: &str) -> Option<&'static Flag> {
    FLAGS.iter().find(|f| f.names.contains(&name))
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{flag} {v}: not a number"))
}

fn env_var(v: &str) -> Result<EnvVar, String> {
    let (name, value) = match v.split_once('=') {
        Some((n, val)) => (n, Some(val.to_string())),
        None => (v, None),
    };
    let valid =
        !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("-x {v}: not an environment variable name (VAR or VAR=VALUE)"));
    }
    Ok(EnvVar { name: name.to_string(), value })
}

/// The options of one application context while it is being read.
#[derive(Default)]
struct ContextOptions {
    npes: Option<usize>,
    env: Vec<EnvVar>,
}

/// Parses the arguments after the program name.
pub fn parse(argv: &[String]) -> Result<Request, String> {
    let mut opts = Options {
        contexts: Vec::new(),
        timeout: None,
        hang_report: None,
        stats: None,
        bind_to: None,
        map_by: MapBy::Core,
        cpus_per_pe: None,
        report_bindings: false,
        tag_output: false,
        output_dir: None,
        env: Vec::new(),
    };
    let mut i = 0;
    loop {
        let first = opts.contexts.is_empty();
        let mut ctx = ContextOptions::default();
        // options of this context, up to its program
        while i < argv.len() {
            let arg = argv[i].as_str();
            if arg == "--" {
                i += 1;
                break;
            }
            if arg == ":" {
                return Err("':' before a program: each application context needs '-n N program'".into());
            }
            if !arg.starts_with('-') || arg == "-" {
                break;
            }
            // --name=value for the long options that take a value
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v)),
                _ => (arg, None),
            };
            // --stats=json:FILE: the one option whose value is optional
            if name == "--stats" && first {
                opts.stats = Some(match inline {
                    None => StatsRequest::Table,
                    Some(v) if v.len() > 5 && v.starts_with("json:") => StatsRequest::Json(v[5..].to_string()),
                    Some(v) => return Err(format!("--stats={v}: only --stats or --stats=json:FILE")),
                });
                i += 1;
                continue;
            }
            let flag = find_flag(name).ok_or_else(|| format!("unknown option {arg} (rpnrun --help lists the options)"))?;
            if !first && !flag.per_context {
                return Err(format!("{name} applies to the whole job: give it before the first program"));
            }
            let value = match (flag.value, inline) {
                (None, Some(_)) => return Err(format!("{name} takes no value")),
                (None, None) => "",
                (Some(_), Some(v)) => v,
                (Some(what), None) => {
                    i += 1;
                    argv.get(i).map(String::as_str).ok_or_else(|| format!("{name} needs a value ({what})"))?
                }
            };
            i += 1;
            match flag.names[0] {
                "-n" => {
                    let n: usize = number(name, value)?;
                    if n == 0 {
                        return Err(format!("{name} 0: a job needs at least one PE"));
                    }
                    if n > MAX_PES {
                        return Err(format!("{name} {n}: a job has at most {MAX_PES} PEs"));
                    }
                    ctx.npes = Some(n);
                }
                "-x" => {
                    let var = env_var(value)?;
                    if first { opts.env.push(var) } else { ctx.env.push(var) }
                }
                "--bind-to" => {
                    opts.bind_to = Some(match value {
                        "core" => BindTo::Core,
                        "none" => BindTo::None,
                        v => return Err(format!("--bind-to {v}: expected core or none")),
                    })
                }
                "--map-by" => {
                    opts.map_by = match value {
                        "core" => MapBy::Core,
                        "socket" => MapBy::Socket,
                        v => return Err(format!("--map-by {v}: expected core or socket")),
                    }
                }
                "--cpus-per-pe" => {
                    let n: usize = number(name, value)?;
                    if n == 0 {
                        return Err(format!("{name} 0: a PE needs at least one CPU"));
                    }
                    opts.cpus_per_pe = Some(n);
                }
                "--report-bindings" => opts.report_bindings = true,
                "--stats" => unreachable!("--stats is read above"),
                "--oversubscribe" | "--allow-run-as-root" => {}
                "--tag-output" => opts.tag_output = true,
                "--output-filename" => {
                    if value.is_empty() {
                        return Err("--output-filename needs a directory".into());
                    }
                    opts.output_dir = Some(PathBuf::from(value));
                }
                "--timeout" => {
                    let secs: f64 = number(name, value)?;
                    if !(secs > 0.0 && secs.is_finite()) {
                        return Err(format!("--timeout {value}: must be a positive number of seconds"));
                    }
                    opts.timeout = Some(Duration::from_secs_f64(secs));
                }
                "--hang-report" => {
                    let secs: f64 = number(name, value)?;
                    if !(secs >= 0.0 && secs.is_finite()) {
                        return Err(format!("--hang-report {value}: must be a number of seconds (0: never report)"));
                    }
                    opts.hang_report = Some(secs);
                }
                "-h" => return Ok(Request::Help),
                "-V" => return Ok(Request::Version),
                other => unreachable!("flag {other} in FLAGS without a case"),
            }
        }
        let number = opts.contexts.len() + 1;
        let program = argv.get(i).cloned().filter(|p| p != ":").ok_or_else(|| {
            if first { format!("the program is missing\n{USAGE}") } else { format!("application context {number}: the program is missing") }
        })?;
        let npes = ctx.npes.ok_or_else(|| {
            if first {
                format!("the number of PEs is missing (-n N)\n{USAGE}")
            } else {
                format!("application context {number} ({program}): the number of PEs is missing (-n N)")
            }
        })?;
        i += 1;
        let end = argv[i..].iter().position(|a| a == ":").map_or(argv.len(), |p| i + p);
        opts.contexts.push(AppContext { npes, program, args: argv[i..end].to_vec(), env: ctx.env });
        if end == argv.len() {
            break;
        }
        i = end + 1;
    }
    if opts.npes() > MAX_PES {
        return Err(format!("{} PEs in all: a job has at most {MAX_PES} PEs", opts.npes()));
    }
    Ok(Request::Run(opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn run(s: &str) -> Options {
        match parse(&args(s)) {
            Ok(Request::Run(o)) => o,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn accepts_the_usual_forms() {
        let o = run("-n 4 ./prog a b");
        assert_eq!((o.npes(), o.contexts[0].program.as_str(), o.contexts[0].args.len()), (4, "./prog", 2));
        let o = run("-np 2 --timeout 1.5 -- ./prog -n 3");
        assert_eq!((o.npes(), o.timeout, o.contexts[0].args.clone()), (2, Some(Duration::from_millis(1500)), args("-n 3")));
        let o = run("--np=2 --hang-report 0.5 ./prog");
        assert_eq!((o.npes(), o.hang_report), (2, Some(0.5)));
        assert_eq!(o.stats, None);
        assert_eq!(run("-n 2 --stats ./prog").stats, Some(StatsRequest::Table));
        assert_eq!(run("--stats=json:s.json -n 2 ./prog").stats, Some(StatsRequest::Json("s.json".into())));
        assert!(parse(&args("--stats=yaml -n 2 ./prog")).is_err());
        assert!(parse(&args("-n 2000 ./prog")).is_err());
        assert!(parse(&args("-n 1000 ./a : -n 1000 ./b")).is_err());
        let o = run("-n 3 --bind-to none --map-by=socket --report-bindings --tag-output --output-filename out ./p");
        assert_eq!((o.bind_to, o.map_by, o.report_bindings, o.tag_output), (Some(BindTo::None), MapBy::Socket, true, true));
        assert_eq!(o.output_dir, Some(PathBuf::from("out")));
        assert_eq!((o.cpus_per_pe, run("--cpus-per-proc 4 -n 1 ./p").cpus_per_pe), (None, Some(4)));
        assert_eq!(run("-n 1 ./p").bind_to, None);
        assert_eq!(run("--oversubscribe --allow-run-as-root -n 2 ./p"), run("-n 2 ./p"));
    }

    #[test]
    fn environment_and_application_contexts() {
        let o = run("-x A=1 -x HOME -n 2 ./a x : -n 3 -x B=2=3 ./b y z : -np 1 ./a");
        assert_eq!(o.npes(), 6);
        assert_eq!(o.env, vec![EnvVar { name: "A".into(), value: Some("1".into()) }, EnvVar { name: "HOME".into(), value: None }]);
        let c: Vec<(usize, &str, usize)> = o.contexts.iter().map(|c| (c.npes, c.program.as_str(), c.args.len())).collect();
        assert_eq!(c, vec![(2, "./a", 1), (3, "./b", 2), (1, "./a", 0)]);
        assert_eq!(o.contexts[1].env, vec![EnvVar { name: "B".into(), value: Some("2=3".into()) }]);
        assert!(o.contexts[0].env.is_empty());
    }

    #[test]
    fn help_and_version_win() {
        assert_eq!(parse(&args("--help")), Ok(Request::Help));
        assert_eq!(parse(&args("-n 2 -h ./p")), Ok(Request::Help));
        assert_eq!(parse(&args("--version")), Ok(Request::Version));
        assert_eq!(parse(&args("-V")), Ok(Request::Version));
    }

    #[test]
    fn refuses_bad_lines() {
        for bad in [
            "./prog",
            "-n 0 ./prog",
            "-n x ./prog",
            "-n 2",
            "-n 2 --bogus ./prog",
            "-n 2 --timeout -1 ./prog",
            "-n 2 --hang-report x ./prog",
            "-n 2 --bind-to socket ./p",
            "-n 2 --map-by node ./p",
            "-n 2 --cpus-per-pe 0 ./p",
            "-n 2 -x 1A=2 ./p",
            "-n 2 -x =2 ./p",
            "-n 2 --tag-output=yes ./p",
            "-n 2 ./a :",
            "-n 2 ./a : ./b",
            "-n 2 ./a : -n 2 --tag-output ./b",
            "-n 2 : ./a",
            "-n 2 -x",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad} accepted");
        }
        assert_eq!(parse(&args("-n 2 --bogus ./p")), Err("unknown option --bogus (rpnrun --help lists the options)".into()));
    }
}
