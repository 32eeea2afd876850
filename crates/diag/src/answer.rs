//! The one result type every command prints: [`Answer`], with one verdict vocabulary ([`Verdict`]).
//!
//! JSON shape (the CLI prints `to_json()` for `--json`, `text` otherwise):
//!
//! ```json
//! { "verdict": "true" | "false" | "unknown" | "timeout" | "error",   // decision commands only
//!   "<detail>": …,            // command-specific words, e.g. "result": "unsat", "relation": "included"
//!   "witness": …,             // counterexample / model / lasso / trace, when there is one
//!   "input": { … },           // sizes of what was read
//!   "stats": { … },           // statistics of the run (the CLI adds `peak_memory_mib`)
//!   "times": { "total_s": … },// seconds
//!   "results": [ … ] }        // one Answer per item of a batch (formulas, properties, automata)
//! ```
//!
//! Libraries build answers; the CLI only prints them. A batch prints each item as soon as it is
//! computed (text) and keeps the items computed before a timeout (JSON).

use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// The verdict of a decision command. SMT-LIB words (`sat`/`unsat`) and relation words stay as
/// detail fields; the verdict follows this vocabulary everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The property / question holds (sat, included, empty, …, as the command documents).
    True,
    /// It does not; a witness explains why.
    False,
    /// The engine could not decide (incomplete method, unsupported feature named in `reason`).
    Unknown,
    /// The budget ran out before an answer.
    Timeout,
    /// The input was rejected or the engine failed.
    Error,
}

impl Verdict {
    /// The JSON / text word.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::True => "true",
            Verdict::False => "false",
            Verdict::Unknown => "unknown",
            Verdict::Timeout => "timeout",
            Verdict::Error => "error",
        }
    }

    /// `True` for `true`, `False` for `false`.
    pub fn from_bool(b: bool) -> Verdict {
        if b {
            Verdict::True
        } else {
            Verdict::False
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn to_value(v: impl Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// One command's (or one batch item's) result: see the module docs for the JSON shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The verdict of a decision command (`None` for commands that produce an object: convert,
    /// translate, stats, generate).
    pub verdict: Option<Verdict>,
    /// Command-specific fields, printed at the top level after `verdict`.
    pub detail: Map<String, Value>,
    /// The witness, when there is one.
    pub witness: Option<Value>,
    /// Sizes of the input.
    pub input: Map<String, Value>,
    /// Statistics of the run.
    pub stats: Map<String, Value>,
    /// Times in seconds.
    pub times: Map<String, Value>,
    /// Batch items, in input order.
    pub results: Vec<Answer>,
    /// What a person reads (the text mode output).
    pub text: String,
}

impl Answer {
    /// An answer without a verdict (a command that produces an object).
    pub fn new() -> Answer {
        Answer::default()
    }

    /// A decision answer.
    pub fn decision(v: Verdict) -> Answer {
        Answer {
            verdict: Some(v),
            ..Answer::default()
        }
    }

    /// Sets the verdict.
    pub fn with_verdict(mut self, v: Verdict) -> Answer {
        self.verdict = Some(v);
        self
    }

    /// Adds a command-specific top-level field.
    pub fn detail(mut self, key: &str, value: impl Serialize) -> Answer {
        self.detail.insert(key.to_string(), to_value(value));
        self
    }

    /// Sets the witness.
    pub fn witness(mut self, value: impl Serialize) -> Answer {
        self.witness = Some(to_value(value));
        self
    }

    /// Records an input size.
    pub fn input(mut self, key: &str, value: impl Serialize) -> Answer {
        self.input.insert(key.to_string(), to_value(value));
        self
    }

    /// Records a statistic.
    pub fn stat(mut self, key: &str, value: impl Serialize) -> Answer {
        self.stats.insert(key.to_string(), to_value(value));
        self
    }

    /// Records a time in seconds.
    pub fn time(mut self, key: &str, secs: f64) -> Answer {
        self.times.insert(key.to_string(), to_value(secs));
        self
    }

    /// Appends a line of text for people.
    pub fn line(mut self, s: impl AsRef<str>) -> Answer {
        self.text.push_str(s.as_ref());
        self.text.push('\n');
        self
    }

    /// Appends a batch item (its text is appended to this answer's text).
    pub fn push_result(&mut self, item: Answer) {
        self.text.push_str(&item.text);
        if !item.text.is_empty() && !item.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.results.push(item);
    }

    /// The verdict of a batch whose items are all decisions: `false` if one is false, else
    /// `timeout`/`error`/`unknown` if one is, else `true`. `None` if an item has no verdict.
    pub fn combined_verdict(items: &[Answer]) -> Option<Verdict> {
        let mut out = Verdict::True;
        for a in items {
            let v = a.verdict?;
            let rank = |v: Verdict| match v {
                Verdict::True => 0,
                Verdict::Unknown => 1,
                Verdict::Timeout => 2,
                Verdict::Error => 3,
                Verdict::False => 4,
            };
            if rank(v) > rank(out) {
                out = v;
            }
        }
        Some(out)
    }

    /// The JSON object (see the module docs). Empty sections are omitted.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        if let Some(v) = self.verdict {
            m.insert("verdict".into(), Value::String(v.as_str().into()));
        }
        for (k, v) in &self.detail {
            m.insert(k.clone(), v.clone());
        }
        if let Some(w) = &self.witness {
            m.insert("witness".into(), w.clone());
        }
        for (k, sec) in [
            ("input", &self.input),
            ("stats", &self.stats),
            ("times", &self.times),
        ] {
            if !sec.is_empty() {
                m.insert(k.into(), Value::Object(sec.clone()));
            }
        }
        if !self.results.is_empty() {
            m.insert(
                "results".into(),
                Value::Array(self.results.iter().map(Answer::to_json).collect()),
            );
        }
        Value::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_shape() {
        let a = Answer::decision(Verdict::False)
            .detail("result", "sat")
            .witness(vec![1, 2])
            .input("states", 3)
            .stat("conflicts", 7)
            .time("total_s", 0.5)
            .line("false: L(A) ⊄ L(B)");
        let j = a.to_json();
        assert_eq!(j["verdict"], "false");
        assert_eq!(j["result"], "sat");
        assert_eq!(j["witness"][1], 2);
        assert_eq!(j["input"]["states"], 3);
        assert_eq!(j["stats"]["conflicts"], 7);
        assert_eq!(j["times"]["total_s"], 0.5);
        assert!(j.get("results").is_none());
        assert_eq!(a.text, "false: L(A) ⊄ L(B)\n");
    }

    #[test]
    fn batch_verdicts_combine() {
        let t = Answer::decision(Verdict::True);
        let f = Answer::decision(Verdict::False);
        let o = Answer::decision(Verdict::Timeout);
        assert_eq!(
            Answer::combined_verdict(&[t.clone(), t.clone()]),
            Some(Verdict::True)
        );
        assert_eq!(
            Answer::combined_verdict(&[t.clone(), o.clone()]),
            Some(Verdict::Timeout)
        );
        assert_eq!(Answer::combined_verdict(&[o, f, t]), Some(Verdict::False));
        assert_eq!(Answer::combined_verdict(&[Answer::new()]), None);
        let mut b = Answer::new();
        b.push_result(Answer::decision(Verdict::True).line("a"));
        b.push_result(Answer::decision(Verdict::False).line("b"));
        assert_eq!(b.text, "a\nb\n");
        assert_eq!(b.to_json()["results"][1]["verdict"], "false");
    }
}
