//! Decidability of CTA reachability by the topology of the communication graph.
//!
//! Seed: Krčál, Yi, "Communicating timed automata: the more synchronous, the more difficult"
//! (CAV 2006, C24). The communication graph has the processes as vertices and one edge `i → j`
//! per channel `c_{i,j}`. The paper's classification, as applied here:
//!
//! - no channel: a plain network of timed automata — decidable (zone graphs);
//! - exactly one channel `(A1, A2, c_{1,2})` (processes on no channel run alongside): state
//!   reachability and channel boundedness are decidable (§3, Theorem 1: such a CTA is simulated by
//!   a one-counter machine);
//! - a chain `c_{1,2}, c_{2,3}` through a middle process (`A2` receives from `A1` and sends to
//!   `A3 ≠ A1`), and every graph containing one: undecidable (§4, Theorem 2, a two-counter
//!   machine is simulated);
//! - two channels between the same two processes, in the same direction (Pachl, cited in §1) or in
//!   opposite directions (Finkel–McKinnon / Brand–Zafiropulo, §1), or a channel from a process to
//!   itself (a FIFO automaton): undecidable already for untimed CFSMs, which CTA subsume (§2);
//! - anything else with two or more channels (several senders into one receiver, one sender into
//!   several receivers, disjoint pairs): not decided by the paper, refused as such.
//!
//! Containment is by sub-graph: unused channels do not restrict behaviour, so a graph containing an
//! undecidable pattern is undecidable.

use crate::cta_parse::Cta;

/// The class of a communication graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    /// No channel.
    NoChannel,
    /// One channel (Theorem 1, §3): decidable.
    OneChannel,
    /// A channel from a process to itself.
    SelfLoop,
    /// Channels both ways between two processes.
    TwoWay,
    /// Two channels the same way between two processes.
    Parallel,
    /// `c_{1,2}, c_{2,3}` (Theorem 2, §4).
    Chain,
    /// Two or more channels in a pattern the paper does not classify.
    Unclassified,
}

impl Topology {
    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Topology::NoChannel => "no channel",
            Topology::OneChannel => "one channel (A1, A2, c1,2)",
            Topology::SelfLoop => "self-loop channel",
            Topology::TwoWay => "two-way channels (A1, A2, c1,2, c2,1)",
            Topology::Parallel => "parallel channels (A1, A2, c1,2, c'1,2)",
            Topology::Chain => "chain (A1, A2, A3, c1,2, c2,3)",
            Topology::Unclassified => "unclassified topology",
        }
    }

    /// `Some(true)` decidable, `Some(false)` undecidable, `None` not decided by the paper.
    pub fn decidable(self) -> Option<bool> {
        match self {
            Topology::NoChannel | Topology::OneChannel => Some(true),
            Topology::Unclassified => None,
            _ => Some(false),
        }
    }

    /// Where the paper settles the class.
    pub fn reason(self) -> &'static str {
        match self {
            Topology::NoChannel => "a network of timed automata without channels",
            Topology::OneChannel => {
                "simulated by a one-counter machine (Krčál–Yi CAV'06, §3, Theorem 1)"
            }
            Topology::SelfLoop => {
                "a timed automaton with a FIFO queue of its own simulates a Turing machine \
                 (untimed CFSM results apply, Krčál–Yi CAV'06 §2)"
            }
            Topology::TwoWay => {
                "two automata with channels both ways simulate Turing machines already untimed \
                 ([BZ83], [FM97] in Krčál–Yi CAV'06 §1)"
            }
            Topology::Parallel => {
                "two channels in the same direction simulate Post's correspondence problem already \
                 untimed ([Pac03, Pac82] in Krčál–Yi CAV'06 §1)"
            }
            Topology::Chain => {
                "CTA (A1, A2, A3, c1,2, c2,3) simulate two-counter machines (Krčál–Yi CAV'06, §4, \
                 Theorem 2)"
            }
            Topology::Unclassified => "not decided by Krčál–Yi CAV'06 (only one channel is)",
        }
    }
}

/// Classifies the communication graph; the channels returned are a witness of the pattern (the
/// first channels found forming it).
pub fn classify_topology(cta: &Cta) -> (Topology, Vec<usize>) {
    let ch = &cta.channels;
    if ch.is_empty() {
        return (Topology::NoChannel, Vec::new());
    }
    if let Some(i) = ch.iter().position(|c| c.from == c.to) {
        return (Topology::SelfLoop, vec![i]);
    }
    for (i, a) in ch.iter().enumerate() {
        for (j, b) in ch.iter().enumerate().skip(i + 1) {
            if a.from == b.to && a.to == b.from {
                return (Topology::TwoWay, vec![i, j]);
            }
        }
    }
    for (i, a) in ch.iter().enumerate() {
        for (j, b) in ch.iter().enumerate().skip(i + 1) {
            if a.from == b.from && a.to == b.to {
                return (Topology::Parallel, vec![i, j]);
            }
        }
    }
    for (i, a) in ch.iter().enumerate() {
        for (j, b) in ch.iter().enumerate() {
            // a = c_{1,2}, b = c_{2,3} with 3 ≠ 1 (two-way was excluded above)
            if i != j && a.to == b.from && b.to != a.from {
                return (Topology::Chain, vec![i, j]);
            }
        }
    }
    if ch.len() == 1 {
        (Topology::OneChannel, vec![0])
    } else {
        (Topology::Unclassified, (0..ch.len()).collect())
    }
}
