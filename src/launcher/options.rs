//! Command line of `rpnrun`.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub npes: usize,
    pub timeout: Option<Duration>,
    /// Seconds after which a waiting PE reports whom it waits for (RPNCOMM_HANG_REPORT).
    pub hang_report: Option<f64>,
    pub program: String,
    pub args: Vec<String>,
}

pub const USAGE: &str = "usage: rpnrun -n N [--timeout SECONDS] [--hang-report SECONDS] [--] program [args...]";

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse().map_err(|_| format!("{flag} {v}: not a number"))
}

/// Parses the arguments after the program name.
pub fn parse(argv: &[String]) -> Result<Options, String> {
    let mut npes = None;
    let mut timeout = None;
    let mut hang_report = None;
    let mut i = 0;
    while i < argv.len() {
        let arg = argv[i].as_str();
        match arg {
            "-n" | "-np" | "--np" => {
                npes = Some(number::<usize>(arg, argv.get(i + 1))?);
                i += 2;
            }
            "--timeout" => {
                let secs: f64 = number(arg, argv.get(i + 1))?;
                if !(secs > 0.0 && secs.is_finite()) {
                    return Err(format!("--timeout {secs}: must be a positive number of seconds"));
                }
                timeout = Some(Duration::from_secs_f64(secs));
                i += 2;
            }
            "--hang-report" => {
                let secs: f64 = number(arg, argv.get(i + 1))?;
                if !(secs >= 0.0 && secs.is_finite()) {
                    return Err(format!("--hang-report {secs}: must be a number of seconds (0: never report)"));
                }
                hang_report = Some(secs);
                i += 2;
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            "--" => {
                i += 1;
                break;
            }
            a if a.starts_with('-') => return Err(format!("unknown option {a}\n{USAGE}")),
            _ => break,
        }
    }
    let npes = npes.ok_or_else(|| format!("the number of PEs is missing\n{USAGE}"))?;
    if npes == 0 {
        return Err("-n 0: a job needs at least one PE".into());
    }
    let program = argv.get(i).cloned().ok_or_else(|| format!("the program is missing\n{USAGE}"))?;
    Ok(Options { npes, timeout, hang_report, program, args: argv[i + 1..].to_vec() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn accepts_the_usual_forms() {
        let o = parse(&args("-n 4 ./prog a b")).unwrap();
        assert_eq!((o.npes, o.program.as_str(), o.args.len()), (4, "./prog", 2));
        let o = parse(&args("-np 2 --timeout 1.5 -- ./prog -n 3")).unwrap();
        assert_eq!((o.npes, o.timeout, o.args), (2, Some(Duration::from_millis(1500)), args("-n 3")));
        let o = parse(&args("-n 2 --hang-report 0.5 ./prog")).unwrap();
        assert_eq!(o.hang_report, Some(0.5));
    }

    #[test]
    fn refuses_bad_lines() {
        assert!(parse(&args("./prog")).is_err());
        assert!(parse(&args("-n 0 ./prog")).is_err());
        assert!(parse(&args("-n x ./prog")).is_err());
        assert!(parse(&args("-n 2")).is_err());
        assert!(parse(&args("-n 2 --bogus ./prog")).is_err());
        assert!(parse(&args("-n 2 --timeout -1 ./prog")).is_err());
        assert!(parse(&args("-n 2 --hang-report x ./prog")).is_err());
    }
}
