//! Tuning parameters by name: `-x key=value` (as Spot's `-x`). Each engine lists its parameters
//! once, with default, range and meaning, in a `PARAMS: &[Param]` table; `--help-params` prints the
//! tables and unknown or out-of-range values are usage errors.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// One documented tuning parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The key, `engine.name` style (`smt.restart-base`).
    pub name: &'static str,
    /// The default, as text.
    pub default: &'static str,
    /// The accepted values, as text (`1..=1000`, `true|false`).
    pub range: &'static str,
    /// What it changes.
    pub doc: &'static str,
}

/// Declares an engine's tuning parameters once: a `const` per parameter and the table
/// `pub const PARAMS: &[Param]` listing them in order, one line each
/// (`IDENT = "engine.key", "default", "range", "meaning";`).
#[macro_export]
macro_rules! params {
    ($($id:ident = $name:literal, $default:literal, $range:literal, $doc:literal;)*) => {
        $(const $id: $crate::Param =
            $crate::Param { name: $name, default: $default, range: $range, doc: $doc };)*
        /// The tuning parameters of this engine (`-x key=value`).
        pub const PARAMS: &[$crate::Param] = &[$($id),*];
    };
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "  {:<32} default {:<8} range {:<14} {}",
            self.name, self.default, self.range, self.doc
        )
    }
}

/// The `-x key=value` settings given by the user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    map: BTreeMap<String, String>,
}

impl Params {
    /// Parses `key=value` items (each item may also be a comma-separated list, as Spot allows).
    pub fn parse<S: AsRef<str>>(items: &[S]) -> Result<Params, String> {
        let mut map = BTreeMap::new();
        for item in items {
            for kv in item.as_ref().split(',').filter(|s| !s.trim().is_empty()) {
                let (k, v) = match kv.split_once('=') {
                    Some((k, v)) => (k.trim(), v.trim()),
                    // `-x key` alone means `key=true`, as in Spot.
                    None => (kv.trim(), "true"),
                };
                if k.is_empty() {
                    return Err(format!("-x `{kv}`: expected key=value"));
                }
                map.insert(k.to_string(), v.to_string());
            }
        }
        Ok(Params { map })
    }

    /// True if no parameter was given.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Rejects keys no table lists.
    pub fn validate(&self, known: &[&[Param]]) -> Result<(), String> {
        for k in self.map.keys() {
            if !known.iter().any(|t| t.iter().any(|p| p.name == k)) {
                return Err(format!(
                    "unknown tuning parameter `{k}` (`--help-params` lists them)"
                ));
            }
        }
        Ok(())
    }

    /// The value of `p`: the user's, parsed, or the documented default.
    pub fn get<T: FromStr>(&self, p: &Param) -> Result<T, String> {
        let raw = self
            .map
            .get(p.name)
            .map(String::as_str)
            .unwrap_or(p.default);
        raw.parse::<T>().map_err(|_| {
            format!(
                "-x {}={raw}: expected a value in {} ({})",
                p.name, p.range, p.doc
            )
        })
    }

    /// Like [`Params::get`] for numbers, also checking `lo <= value <= hi`.
    pub fn get_in<T: FromStr + PartialOrd + fmt::Display>(
        &self,
        p: &Param,
        lo: T,
        hi: T,
    ) -> Result<T, String> {
        let v: T = self.get(p)?;
        if v < lo || v > hi {
            return Err(format!("-x {}={v}: out of range {}", p.name, p.range));
        }
        Ok(v)
    }

    /// The raw text given for `name`, if any.
    pub fn raw(&self, name: &str) -> Option<&str> {
        self.map.get(name).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Param = Param {
        name: "x.limit",
        default: "16",
        range: "1..=100",
        doc: "a limit",
    };

    #[test]
    fn defaults_values_and_errors() {
        let none = Params::parse::<&str>(&[]).unwrap();
        assert_eq!(none.get::<u32>(&P).unwrap(), 16);
        let p = Params::parse(&["x.limit=40,y"]).unwrap();
        assert_eq!(p.get_in::<u32>(&P, 1, 100).unwrap(), 40);
        assert_eq!(p.raw("y"), Some("true"));
        assert!(p.validate(&[&[P]]).is_err());
        let bad = Params::parse(&["x.limit=400"]).unwrap();
        assert!(bad.get_in::<u32>(&P, 1, 100).is_err());
        assert!(Params::parse(&["x.limit=abc"])
            .unwrap()
            .get::<u32>(&P)
            .is_err());
        assert!(Params::parse(&["=3"]).is_err());
    }
}
