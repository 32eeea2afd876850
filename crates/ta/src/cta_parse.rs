//! Communicating timed automata (CTA) with FIFO channels: the model and its text format.
//!
//! Seed: Krčál, Yi, "Communicating timed automata: the more synchronous, the more difficult"
//! (CAV 2006, C24), §2: a network `(A1, …, An, c_{i1,j1}, …, c_{im,jm})` of timed automata with
//! disjoint local clocks and unidirectional unbounded FIFO channels; an edge is internal (`ε`),
//! sends a letter on a channel (`k!a`) or receives one (`k?a`), with a guard and resets.
//!
//! The format (`.cta`) is a documented extension of TChecker's `.tck` text, one declaration per
//! line, `#` comments:
//!
//! ```text
//! system:NAME
//! process:P
//! clock:P:x                    # a clock local to process P (the paper's C_i are disjoint)
//! channel:c:P:Q                # a FIFO channel from P to Q
//! location:P:l{initial: : labels: a, b}
//! edge:P:src:tgt:c!a{provided: x==1 && y<3 : do: x=0}   # send letter a on channel c
//! edge:Q:src:tgt:c?a{provided: y>=1 : do: y=0}          # receive letter a from channel c
//! edge:P:src:tgt:eps{provided: x>2}                      # internal move ε
//! ```
//!
//! Guards are conjunctions (`&&`) of `x OP n` with `OP` in `< <= == >= >` and `n` a natural
//! number; `do` resets clocks to 0 (`x=0`, separated by `;` or `,`). The paper's model has no
//! invariants: an `invariant` attribute is refused. A process sends only on channels leaving it
//! and receives only on channels entering it. Errors are located [`Diagnostic`]s.

use crate::model::Cmp;
use rustc_hash::FxHashMap;
use verikit_diag::{Diagnostic, Span};

/// `clock OP value` (clock: index into [`Cta::clocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtaAtom {
    /// Clock index.
    pub clock: usize,
    /// Comparison.
    pub cmp: Cmp,
    /// Constant.
    pub value: i32,
}

/// What an edge does with the channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CtaAction {
    /// `ε`: an internal move (urgent reading forbids it while a receive is enabled, §2).
    Internal,
    /// `c!a`: appends letter `letter` to channel `channel`.
    Send {
        /// Channel index.
        channel: usize,
        /// Letter index into [`Cta::letters`].
        letter: u32,
    },
    /// `c?a`: removes letter `letter` from the head of channel `channel`.
    Receive {
        /// Channel index.
        channel: usize,
        /// Letter index.
        letter: u32,
    },
}

/// An edge of one process.
#[derive(Clone, Debug)]
pub struct CtaEdge {
    /// Source location.
    pub src: u32,
    /// Target location.
    pub tgt: u32,
    /// Channel action.
    pub action: CtaAction,
    /// Guard (conjunction).
    pub guard: Vec<CtaAtom>,
    /// Clocks reset to 0.
    pub resets: Vec<usize>,
    /// Declaration in the source.
    pub span: Span,
}

/// One timed automaton of the network.
#[derive(Clone, Debug)]
pub struct CtaProcess {
    /// Name.
    pub name: String,
    /// Location names.
    pub locations: Vec<String>,
    /// Label indices (into [`Cta::labels`]) per location.
    pub location_labels: Vec<Vec<u32>>,
    /// Initial location.
    pub initial: u32,
    /// Edges.
    pub edges: Vec<CtaEdge>,
    /// Declaration in the source.
    pub span: Span,
}

/// A FIFO channel from one process to another.
#[derive(Clone, Debug)]
pub struct CtaChannel {
    /// Name.
    pub name: String,
    /// Sending process.
    pub from: usize,
    /// Receiving process.
    pub to: usize,
    /// Declaration in the source.
    pub span: Span,
}

/// A network of communicating timed automata.
#[derive(Clone, Debug, Default)]
pub struct Cta {
    /// System name.
    pub name: String,
    /// Processes.
    pub processes: Vec<CtaProcess>,
    /// Channels.
    pub channels: Vec<CtaChannel>,
    /// Clock names and owning process.
    pub clocks: Vec<(String, usize)>,
    /// Letters of the communication alphabet.
    pub letters: Vec<String>,
    /// Location labels.
    pub labels: Vec<String>,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '.')
}

/// A trimmed piece of text with its span.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'a> {
    pub(crate) text: &'a str,
    pub(crate) span: Span,
}

pub(crate) fn piece(s: &str, base: usize) -> Piece<'_> {
    let lead = s.len() - s.trim_start().len();
    let t = s.trim();
    Piece {
        text: t,
        span: Span::new(base + lead, base + lead + t.len()),
    }
}

/// Splits at every `sep` (a byte string), trimming the pieces.
pub(crate) fn split<'a>(s: &'a str, base: usize, sep: &str) -> Vec<Piece<'a>> {
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(i) = s.get(start..).and_then(|r| r.find(sep)) {
        let end = start + i;
        out.push(piece(&s[start..end], base + start));
        start = end + sep.len();
    }
    out.push(piece(&s[start..], base + start));
    out
}

pub(crate) fn ident<'a>(p: Piece<'a>, what: &str) -> Result<&'a str, Diagnostic> {
    if is_ident(p.text) {
        Ok(p.text)
    } else {
        Err(Diagnostic::at(
            p.span,
            format!("invalid {what} `{}` (expected an identifier)", p.text),
        ))
    }
}

/// Splits each non-empty line of a TChecker-style text (`#` starts a comment) into a
/// [`Declaration`] and hands it to `f`, except the `system:NAME` line, whose name is returned
/// (an error if there is none).
pub(crate) fn for_each_declaration<'a>(
    text: &'a str,
    mut f: impl FnMut(Declaration<'a>) -> Result<(), Diagnostic>,
) -> Result<String, Diagnostic> {
    let mut offset = 0;
    let mut system = None;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.find('#').map_or(raw, |i| &raw[..i]);
        let p = piece(line, start);
        if p.text.is_empty() {
            continue;
        }
        let decl = Declaration::split(p)?;
        if decl.kind() == "system" {
            decl.want(2)?;
            system = decl.fields.get(1).map(|f| f.text.to_string());
        } else {
            f(decl)?;
        }
    }
    system.ok_or_else(|| Diagnostic::at(Span::point(0), "missing `system:` declaration"))
}

/// The check at the end of a TChecker-style text: every component (`what`, with its span and
/// name) got an initial location.
pub(crate) fn complete<'a>(
    initial_seen: &[bool],
    components: impl Iterator<Item = (Span, &'a str)>,
    what: &str,
) -> Result<(), Diagnostic> {
    for (i, (span, name)) in components.enumerate() {
        if !initial_seen.get(i).copied().unwrap_or(false) {
            return Err(Diagnostic::at(
                span,
                format!("{what} `{name}` has no initial location"),
            ));
        }
    }
    Ok(())
}

/// The identifier `f` as the name of a new `what`: an error if it is not an identifier or
/// `map` already has it.
pub(crate) fn fresh_ident<'a, T>(
    map: &FxHashMap<String, T>,
    f: Piece<'a>,
    what: &str,
) -> Result<&'a str, Diagnostic> {
    let name = ident(f, &format!("{what} name"))?;
    if map.contains_key(name) {
        return Err(Diagnostic::at(
            f.span,
            format!("{what} `{name}` declared twice"),
        ));
    }
    Ok(name)
}

/// A clock constraint `clock OP n` (OP one of `< <= == >= >`, `n` a natural number up to
/// 1000000): the clock's text, the comparison and the constant.
pub(crate) fn clock_atom(a: Piece<'_>) -> Result<(Piece<'_>, Cmp, i32), Diagnostic> {
    for (op, cmp) in [
        ("<=", Cmp::Le),
        (">=", Cmp::Ge),
        ("==", Cmp::Eq),
        ("<", Cmp::Lt),
        (">", Cmp::Gt),
    ] {
        if let Some(i) = a.text.find(op) {
            let lhs = piece(&a.text[..i], a.span.start);
            let rhs = piece(&a.text[i + op.len()..], a.span.start + i + op.len());
            let value = rhs
                .text
                .parse::<i32>()
                .ok()
                .filter(|v| (0..=1_000_000).contains(v))
                .ok_or_else(|| {
                    Diagnostic::at(
                        rhs.span,
                        format!(
                            "invalid constant `{}` (a natural number up to 1000000)",
                            rhs.text
                        ),
                    )
                })?;
            return Ok((lhs, cmp, value));
        }
    }
    Err(Diagnostic::at(
        a.span,
        format!(
            "invalid clock constraint `{}` (expected `clock OP n`, OP one of < <= == >= >)",
            a.text
        ),
    ))
}

/// What `f` names in `map`, or an error `undeclared {what}` located at `f`.
pub(crate) fn declared<T: Copy>(
    map: Option<&FxHashMap<String, T>>,
    f: Piece<'_>,
    what: &str,
) -> Result<T, Diagnostic> {
    map.and_then(|m| m.get(f.text))
        .copied()
        .ok_or_else(|| Diagnostic::at(f.span, format!("undeclared {what} `{}`", f.text)))
}

/// One declaration line split as TChecker writes it: the `:`-separated fields before the
/// optional `{attr:value:...}` list, and the attributes.
pub(crate) struct Declaration<'a> {
    pub(crate) line: Piece<'a>,
    pub(crate) fields: Vec<Piece<'a>>,
    pub(crate) attrs: Vec<(Piece<'a>, Piece<'a>)>,
}

impl<'a> Declaration<'a> {
    pub(crate) fn split(line: Piece<'a>) -> Result<Declaration<'a>, Diagnostic> {
        let base = line.span.start;
        let (head, attrs) = match line.text.find('{') {
            Some(i) => {
                let Some(body) = line.text[i + 1..].strip_suffix('}') else {
                    return Err(Diagnostic::at(
                        line.span,
                        "expected `}` at the end of the attribute list",
                    ));
                };
                (&line.text[..i], Some(piece(body, base + i + 1)))
            }
            None => (line.text, None),
        };
        let fields = split(head, base, ":");
        let attrs = match attrs {
            Some(a) => parse_attrs(a)?,
            None => Vec::new(),
        };
        Ok(Declaration {
            line,
            fields,
            attrs,
        })
    }

    /// The declaration's keyword (its first field).
    pub(crate) fn kind(&self) -> &'a str {
        self.fields.first().map_or("", |f| f.text)
    }

    /// An error unless the declaration has exactly `n` fields (its keyword included).
    pub(crate) fn want(&self, n: usize) -> Result<(), Diagnostic> {
        if self.fields.len() == n {
            return Ok(());
        }
        Err(Diagnostic::at(
            self.line.span,
            format!(
                "`{}` takes {} fields separated by `:`, found {}",
                self.kind(),
                n - 1,
                self.fields.len().saturating_sub(1)
            ),
        ))
    }
}

#[derive(Default)]
struct Builder {
    cta: Cta,
    procs: FxHashMap<String, usize>,
    clocks: FxHashMap<String, usize>,
    channels: FxHashMap<String, usize>,
    letters: FxHashMap<String, u32>,
    labels: FxHashMap<String, u32>,
    locs: Vec<FxHashMap<String, u32>>,
    initial_seen: Vec<bool>,
}

/// Parses a `.cta` text (see the module documentation for the format).
pub fn parse_cta(text: &str) -> Result<Cta, Diagnostic> {
    let mut b = Builder::default();
    b.cta.name = for_each_declaration(text, |d| b.declaration(d))?;
    complete(
        &b.initial_seen,
        b.cta.processes.iter().map(|p| (p.span, p.name.as_str())),
        "process",
    )?;
    Ok(b.cta)
}

impl Builder {
    fn declaration(&mut self, decl: Declaration<'_>) -> Result<(), Diagnostic> {
        let line = decl.line;
        let (fields, attrs) = (&decl.fields, &decl.attrs);
        let kind = fields[0];
        let want = |n: usize| decl.want(n);
        match kind.text {
            "process" => {
                want(2)?;
                let name = fresh_ident(&self.procs, fields[1], "process")?;
                self.procs.insert(name.to_string(), self.cta.processes.len());
                self.cta.processes.push(CtaProcess {
                    name: name.to_string(),
                    locations: Vec::new(),
                    location_labels: Vec::new(),
                    initial: 0,
                    edges: Vec::new(),
                    span: line.span,
                });
                self.locs.push(FxHashMap::default());
                self.initial_seen.push(false);
            }
            "clock" => {
                want(3)?;
                let p = self.process(fields[1])?;
                let name = ident(fields[2], "clock name")?;
                self.fresh(fields[2])?;
                self.clocks.insert(name.to_string(), self.cta.clocks.len());
                self.cta.clocks.push((name.to_string(), p));
            }
            "channel" => {
                want(4)?;
                let name = ident(fields[1], "channel name")?;
                self.fresh(fields[1])?;
                let from = self.process(fields[2])?;
                let to = self.process(fields[3])?;
                self.channels.insert(name.to_string(), self.cta.channels.len());
                self.cta.channels.push(CtaChannel {
                    name: name.to_string(),
                    from,
                    to,
                    span: line.span,
                });
            }
            "location" => {
                want(3)?;
                let p = self.process(fields[1])?;
                let Some(locs) = self.locs.get_mut(p) else {
                    return Err(Diagnostic::at(fields[1].span, "unknown process"));
                };
                let name = fresh_ident(locs, fields[2], "location")?;
                let idx = locs.len() as u32;
                locs.insert(name.to_string(), idx);
                let mut labels = Vec::new();
                for (k, v) in attrs {
                    match k.text {
                        "initial" => {
                            if self.initial_seen[p] {
                                return Err(Diagnostic::at(
                                    k.span,
                                    "a second initial location (a CTA process has one)",
                                ));
                            }
                            self.initial_seen[p] = true;
                            self.cta.processes[p].initial = idx;
                        }
                        "labels" => {
                            for l in split(v.text, v.span.start, ",") {
                                let l = ident(l, "label")?;
                                let n = self.labels.len() as u32;
                                let id = *self.labels.entry(l.to_string()).or_insert(n);
                                if id == n {
                                    self.cta.labels.push(l.to_string());
                                }
                                labels.push(id);
                            }
                        }
                        "invariant" => {
                            return Err(Diagnostic::at(
                                k.span,
                                "invariants are not part of the CTA model (Krčál–Yi §2); \
                                 use guards",
                            ))
                        }
                        _ => {} // layout and other attributes are ignored, as TChecker does
                    }
                }
                let proc_ = &mut self.cta.processes[p];
                proc_.locations.push(name.to_string());
                proc_.location_labels.push(labels);
            }
            "edge" => {
                want(5)?;
                let p = self.process(fields[1])?;
                let src = self.location(p, fields[2])?;
                let tgt = self.location(p, fields[3])?;
                let action = self.action(p, fields[4])?;
                let mut guard = Vec::new();
                let mut resets = Vec::new();
                for (k, v) in attrs {
                    match k.text {
                        "provided" if !v.text.is_empty() => {
                            for a in split(v.text, v.span.start, "&&") {
                                guard.push(self.atom(p, a)?);
                            }
                        }
                        "provided" => {}
                        "do" => {
                            for s in v.text.split([';', ',']).scan(v.span.start, |at, s| {
                                let here = *at;
                                *at += s.len() + 1;
                                Some(piece(s, here))
                            }) {
                                if s.text.is_empty() {
                                    continue;
                                }
                                resets.push(self.reset(p, s)?);
                            }
                        }
                        _ => {}
                    }
                }
                self.cta.processes[p].edges.push(CtaEdge {
                    src,
                    tgt,
                    action,
                    guard,
                    resets,
                    span: line.span,
                });
            }
            other => {
                return Err(Diagnostic::at(
                    kind.span,
                    format!("unknown declaration `{other}` (expected system, process, clock, channel, location or edge)"),
                ))
            }
        }
        Ok(())
    }

    fn fresh(&self, f: Piece<'_>) -> Result<(), Diagnostic> {
        if self.clocks.contains_key(f.text) || self.channels.contains_key(f.text) {
            Err(Diagnostic::at(
                f.span,
                format!("`{}` declared twice", f.text),
            ))
        } else {
            Ok(())
        }
    }

    fn process(&self, f: Piece<'_>) -> Result<usize, Diagnostic> {
        declared(Some(&self.procs), f, "process")
    }

    fn location(&self, p: usize, f: Piece<'_>) -> Result<u32, Diagnostic> {
        declared(self.locs.get(p), f, "location")
    }

    fn clock(&self, p: usize, f: Piece<'_>) -> Result<usize, Diagnostic> {
        match self.clocks.get(f.text) {
            Some(&c) if self.cta.clocks.get(c).map(|x| x.1) == Some(p) => Ok(c),
            Some(_) => Err(Diagnostic::at(
                f.span,
                format!(
                    "clock `{}` belongs to another process (CTA clocks are local, Krčál–Yi §2)",
                    f.text
                ),
            )),
            None => Err(Diagnostic::at(
                f.span,
                format!("undeclared clock `{}`", f.text),
            )),
        }
    }

    fn action(&mut self, p: usize, f: Piece<'_>) -> Result<CtaAction, Diagnostic> {
        if f.text == "eps" {
            return Ok(CtaAction::Internal);
        }
        let Some(at) = f.text.find(['!', '?']) else {
            return Err(Diagnostic::at(
                f.span,
                format!(
                    "invalid action `{}` (expected `eps`, `chan!letter` or `chan?letter`)",
                    f.text
                ),
            ));
        };
        let send = f.text.as_bytes().get(at) == Some(&b'!');
        let chan = piece(&f.text[..at], f.span.start);
        let letter = piece(&f.text[at + 1..], f.span.start + at + 1);
        let Some(&channel) = self.channels.get(chan.text) else {
            return Err(Diagnostic::at(
                chan.span,
                format!("undeclared channel `{}`", chan.text),
            ));
        };
        let letter_name = ident(letter, "letter")?;
        let ch = &self.cta.channels[channel];
        let (ok, role) = if send {
            (ch.from == p, "sends on channels leaving it")
        } else {
            (ch.to == p, "receives from channels entering it")
        };
        if !ok {
            return Err(Diagnostic::at(
                chan.span,
                format!(
                    "process `{}` is not an end of channel `{}` in this direction (a process {role})",
                    self.cta.processes[p].name, chan.text
                ),
            ));
        }
        let n = self.letters.len() as u32;
        let id = *self.letters.entry(letter_name.to_string()).or_insert(n);
        if id == n {
            self.cta.letters.push(letter_name.to_string());
        }
        Ok(if send {
            CtaAction::Send {
                channel,
                letter: id,
            }
        } else {
            CtaAction::Receive {
                channel,
                letter: id,
            }
        })
    }

    fn atom(&self, p: usize, a: Piece<'_>) -> Result<CtaAtom, Diagnostic> {
        let (lhs, cmp, value) = clock_atom(a)?;
        Ok(CtaAtom {
            clock: self.clock(p, lhs)?,
            cmp,
            value,
        })
    }

    fn reset(&self, p: usize, s: Piece<'_>) -> Result<usize, Diagnostic> {
        let Some(i) = s.text.find('=') else {
            return Err(Diagnostic::at(
                s.span,
                format!("invalid reset `{}` (expected `x=0`)", s.text),
            ));
        };
        let lhs = piece(&s.text[..i], s.span.start);
        let rhs = piece(&s.text[i + 1..], s.span.start + i + 1);
        let c = self.clock(p, lhs)?;
        if rhs.text != "0" {
            return Err(Diagnostic::at(
                rhs.span,
                "CTA resets set a clock to 0 (Krčál–Yi §2)",
            ));
        }
        Ok(c)
    }
}

/// `{k:v : k:v}` attributes (values may be empty).
pub(crate) fn parse_attrs(body: Piece<'_>) -> Result<Vec<(Piece<'_>, Piece<'_>)>, Diagnostic> {
    if body.text.is_empty() {
        return Ok(Vec::new());
    }
    let parts = split(body.text, body.span.start, ":");
    if parts.len() % 2 == 1 {
        return Err(Diagnostic::at(
            body.span,
            "expected `key:value` attributes separated by `:`",
        ));
    }
    let mut out = Vec::new();
    for kv in parts.chunks(2) {
        if let [k, v] = kv {
            ident(*k, "attribute name")?;
            out.push((*k, *v));
        }
    }
    Ok(out)
}
