//! RPN_COMM_DEBUG: a list of `name=value` fields separated by ':' (a value may be quoted with
//! ' or " to hold a ':'), read once, at the first question, as the original does.

use std::sync::OnceLock;

/// The environment variable of the debug flags.
pub const ENV_DEBUG: &str = "RPN_COMM_DEBUG";
/// The original reads the variable into 1024 characters; a longer one counts as unset there.
const ROOM: usize = 1024;

static MASTER: OnceLock<Option<String>> = OnceLock::new();

/// The value of field `name` (trailing blanks of `name` ignored) in `master` (the variable's
/// text), at most `room` characters; None where the variable is unset or has no such field.
pub fn field(master: Option<&str>, name: &str, room: usize) -> Option<String> {
    let master = master.filter(|m| m.len() <= ROOM)?;
    let text = format!(":{master}:");
    let key = format!(":{}=", name.trim_end_matches(' '));
    let start = text.find(&key)? + key.len();
    // the value's characters end where the variable ends: the closing ':' is not one of them
    let value = &text.as_bytes()[start..text.len() - 1];
    let (delim, value) = match value.first() {
        Some(&q @ (b'\'' | b'"')) => (q, &value[1..]),
        _ => (b':', value),
    };
    let end = value.iter().position(|&c| c == delim).unwrap_or(value.len()).min(room);
    Some(String::from_utf8_lossy(&value[..end]).into_owned())
}

/// `field` of RPN_COMM_DEBUG as it was at the first call.
pub fn debug_field(name: &str, room: usize) -> Option<String> {
    field(MASTER.get_or_init(|| std::env::var(ENV_DEBUG).ok()).as_deref(), name, room)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_as_the_original_splits_them() {
        let m = Some("IVAL=12:SVAL='a:b':RVAL=1.5:E=");
        assert_eq!(field(m, "IVAL", 32).as_deref(), Some("12"));
        assert_eq!(field(m, "IVAL  ", 32).as_deref(), Some("12"));
        assert_eq!(field(m, "SVAL", 32).as_deref(), Some("a:b"));
        assert_eq!(field(m, "RVAL", 2).as_deref(), Some("1."));
        assert_eq!(field(m, "E", 32).as_deref(), Some(""));
        assert_eq!(field(m, "VAL", 32), None, "a field name is whole");
        assert_eq!(field(m, "ival", 32), None, "names are case-sensitive");
        assert_eq!(field(None, "IVAL", 32), None);
        assert_eq!(field(Some("Q=\"open"), "Q", 32).as_deref(), Some("open"));
    }
}
