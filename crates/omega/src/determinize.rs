//! Determinisation of a (transition-based, generalized) Büchi automaton into a deterministic
//! parity automaton by Safra trees with dynamic naming.
//!
//! Paper: N. Piterman, "From nondeterministic Büchi and Streett automata to deterministic parity
//! automata", LMCS 3(3:5), 2007 (LICS'06), §3 (compact Safra trees, names reused in order of
//! age, and the parity condition read from the smallest name that is erased or flashes green);
//! transition-based in the form of Spot's `tgba_determinize` (Redziejowski, "An improved
//! construction of deterministic omega-automaton using derivatives", Fund. Inf. 119, 2012, and
//! Schewe, "Tighter bounds for the determinisation of Büchi automata", FoSSaCS'09, §3: history
//! trees), as described in Spot's documentation.
//!
//! A macro-state is an ordered tree of *braces* numbered in order of age (a parent is older than
//! its children, an older sibling older than a younger one) and a map from the input's states to
//! the innermost brace containing them. On a letter: every state moves along its edges into its
//! brace, except that accepting edges lead into a new child brace of that brace (one per brace);
//! a state reached several ways keeps the lexicographically least brace path (older brace first,
//! a deeper brace over its ancestor); braces left empty are erased (colour `2i` for the old
//! position `i`); a brace all of whose states sit in its children flashes green (colour `2i+1`),
//! and its descendants are merged into it. Braces are renumbered by age. The edge carries the
//! smallest colour of the step; the condition is `parity min odd`: a run is accepting iff the
//! smallest colour seen infinitely often is odd, i.e. some position eventually stays stable
//! and flashes green infinitely often.
//!
//! Generalized Büchi input is first made a transition-based Büchi automaton
//! ([`crate::degen::degeneralize_tba`]); edges outside the accepting SCCs are treated as
//! non-accepting (SCC-aware, as Spot). The budget is polled once per macro-state.
//!
//! Five options make the macro-states fewer, each keeping the language (checked against the
//! Büchi translation in the tests): `use_scc` keeps the states of SCCs without accepting cycles
//! in the root brace — moving a state up to an ancestor brace only forgets progress, and along a
//! run it happens finitely often unless the run ends in such an SCC, where it rejects anyway;
//! `scc_reset` completes it as Spot's `use_scc` does: the root then stands for "no brace" (it
//! holds only those states and never flashes green), the initial state of an accepting SCC gets
//! a brace of its own, and a state entering another accepting SCC starts a fresh brace under the
//! root whatever brace its source was in — a run changes SCC finitely often, so forgetting the
//! progress made before is harmless, and macro-states differing only in that history are one;
//! `reduce_input` quotients the Büchi automaton by direct simulation first ([`crate::direct_sim`],
//! as Spot's `tgba_determinize` runs `simulation` on its input);
//! `simulation` drops states dominated by direct simulation ([`crate::sim_pruning`]);
//! `stutter_invariant` follows each letter to a cycle of macro-states
//! ([`crate::stutter_det`]). Spot's `tgba_determinize` has options of the same names.

use crate::degen::degeneralize_tba;
use crate::error::OmegaError;
use crate::parity::{ParityAut, ParityKind};
use crate::scc_info::scc_info;
use crate::sim_pruning::Pruner;
use crate::stutter_det::closed_step;
use crate::twa::{Marks, Twa, MAX_SETS};
use biodivine_lib_bdd::Bdd;
use std::collections::{BTreeMap, HashMap};
use verikit_diag::Budget;

const NONE: u32 = u32::MAX;

/// Options of the determinisation.
#[derive(Clone, Debug)]
pub struct Options {
    /// Give up beyond this many macro-states ([`OmegaError::Limit`]).
    pub max_states: usize,
    /// Polled once per macro-state.
    pub budget: Budget,
    /// Drop from every macro-state the input states made redundant by direct simulation
    /// ([`crate::sim_pruning`]; Spot's `use_simulation`).
    pub simulation: bool,
    /// The caller vouches that the input's language is stutter-invariant: every letter is
    /// followed to a cycle of macro-states ([`crate::stutter_det`]; Spot's `use_stutter`).
    /// Used with at most [`MAX_STUTTER_APS`] propositions.
    pub stutter_invariant: bool,
    /// States of SCCs without an accepting cycle are kept in the root brace (the only brace
    /// that claims nothing about the runs reaching its states), so macro-states differing only
    /// in where such states sit are one.
    pub use_scc: bool,
    /// With `use_scc`, an edge entering another accepting SCC puts its destination into a fresh
    /// brace under the root (whatever brace its source was in), the initial state of an
    /// accepting SCC too, and the root (holding only states of SCCs without accepting cycles)
    /// never flashes green: Spot's `use_scc` in full.
    pub scc_reset: bool,
    /// Reduce the Büchi automaton by direct simulation before the construction (Spot's
    /// `tgba_determinize` with `use_simulation` does so).
    pub reduce_input: bool,
}

/// The most atomic propositions for the stutter closure (it steps letter by letter).
pub(crate) const MAX_STUTTER_APS: usize = 6;

impl Default for Options {
    fn default() -> Self {
        Options {
            max_states: 100_000,
            budget: Budget::unlimited(),
            simulation: true,
            stutter_invariant: false,
            use_scc: true,
            scc_reset: true,
            reduce_input: true,
        }
    }
}

/// A macro-state: `(input state, innermost brace)` sorted by state, and each brace's parent
/// (`NONE` for the root; a parent's number is smaller than its children's).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Tree {
    nodes: Vec<(u32, u32)>,
    parent: Vec<u32>,
}

struct InEdge {
    dst: u32,
    label: Bdd,
    acc: bool,
    /// The destination goes to the root brace (`Options::use_scc`: it lies in an SCC without
    /// accepting cycles).
    to_root: bool,
    /// The edge enters another accepting SCC (`Options::scc_reset`): the destination goes into
    /// a fresh brace under the root.
    enter: bool,
}

/// The brace path from the root down to `b`.
fn path(mut b: u32, parent: &[u32]) -> Vec<u32> {
    let mut p = Vec::new();
    while b != NONE {
        p.push(b);
        b = parent.get(b as usize).copied().unwrap_or(NONE);
    }
    p.reverse();
    p
}

/// Is brace `a` preferred over brace `b` for a state reached in both (older at the first
/// difference, deeper when one path extends the other)?
fn preferred(a: u32, b: u32, parent: &[u32]) -> bool {
    let (pa, pb) = (path(a, parent), path(b, parent));
    for (x, y) in pa.iter().zip(pb.iter()) {
        if x != y {
            return x < y;
        }
    }
    pa.len() > pb.len()
}

/// The successor of `t` on the letters of `part`: the new tree and the colour of the step.
fn successor(
    t: &Tree,
    edges: &[Vec<InEdge>],
    part: &Bdd,
    pruner: Option<&Pruner>,
    reset: bool,
) -> (Tree, Option<u32>) {
    let old = t.parent.len() as u32;
    let mut parent = t.parent.clone();
    let mut child_of = vec![NONE; old as usize];
    let mut cand: BTreeMap<u32, u32> = BTreeMap::new();
    for &(q, b) in &t.nodes {
        for e in edges.get(q as usize).into_iter().flatten() {
            if e.label.and(part).is_false() {
                continue;
            }
            let tb = if e.to_root {
                0
            } else if e.acc || e.enter {
                // An edge entering another accepting SCC starts the root's fresh child, whatever
                // brace its source was in; an accepting edge starts its source brace's child.
                let owner = if e.enter { 0 } else { b };
                let slot = &mut child_of[owner as usize];
                if *slot == NONE {
                    *slot = parent.len() as u32;
                    parent.push(owner);
                }
                *slot
            } else {
                b
            };
            match cand.get_mut(&e.dst) {
                Some(cur) => {
                    if preferred(tb, *cur, &parent) {
                        *cur = tb;
                    }
                }
                None => {
                    cand.insert(e.dst, tb);
                }
            }
        }
    }
    if let Some(p) = pruner {
        p.prune(&mut cand);
    }
    let nb = parent.len();
    let mut direct = vec![0u32; nb];
    for &b in cand.values() {
        direct[b as usize] += 1;
    }
    let mut nonempty: Vec<bool> = direct.iter().map(|&d| d > 0).collect();
    for b in (0..nb).rev() {
        if nonempty[b] && parent[b] != NONE {
            nonempty[parent[b] as usize] = true;
        }
    }
    // rep[b]: the brace b's states end up in (itself, or its green ancestor).
    let mut rep: Vec<u32> = (0..nb as u32).collect();
    let mut green = vec![false; nb];
    let mut colour: Option<u32> = None;
    let emit = |c: u32, colour: &mut Option<u32>| {
        *colour = Some(colour.map_or(c, |x: u32| x.min(c)));
    };
    for b in 0..nb {
        let p = parent[b];
        if p != NONE && (green[p as usize] || rep[p as usize] != p) {
            rep[b] = rep[p as usize];
            continue;
        }
        if !nonempty[b] {
            if (b as u32) < old {
                emit(2 * b as u32, &mut colour);
            }
            continue;
        }
        if (b as u32) < old && direct[b] == 0 && !(reset && b == 0) {
            green[b] = true;
            emit(2 * b as u32 + 1, &mut colour);
        }
    }
    // Renumber the kept braces by age.
    let mut new_id = vec![NONE; nb];
    let mut new_parent = Vec::new();
    for b in 0..nb {
        if rep[b] == b as u32 && nonempty[b] {
            new_id[b] = new_parent.len() as u32;
            let p = parent[b];
            new_parent.push(if p == NONE { NONE } else { new_id[p as usize] });
        }
    }
    let nodes = cand
        .into_iter()
        .map(|(q, b)| (q, new_id[rep[b as usize] as usize]))
        .collect();
    (
        Tree {
            nodes,
            parent: new_parent,
        },
        colour,
    )
}

/// The classes of letters that enable the same edges of the states of `t`: the atoms of the
/// Boolean algebra generated by their labels.
fn letter_classes(t: &Tree, edges: &[Vec<InEdge>], tt: &Bdd) -> Vec<Bdd> {
    let mut labels: Vec<&Bdd> = Vec::new();
    for &(q, _) in &t.nodes {
        for e in edges.get(q as usize).into_iter().flatten() {
            if !labels.contains(&&e.label) {
                labels.push(&e.label);
            }
        }
    }
    let mut parts = vec![tt.clone()];
    for l in labels {
        let mut next = Vec::with_capacity(parts.len() * 2);
        for p in parts {
            let a = p.and(l);
            if a.is_false() {
                next.push(p);
                continue;
            }
            let b = p.and_not(l);
            next.push(a);
            if !b.is_false() {
                next.push(b);
            }
        }
        parts = next;
    }
    parts
}

/// `tba` with one acceptance set that marks exactly the edges `edges` treats as accepting.
fn accepting_edges_only(tba: &Twa, edges: &[Vec<InEdge>]) -> Twa {
    let mut t = Twa::new(tba.aps.clone());
    t.vars = tba.vars.clone();
    for _ in 0..tba.num_states() {
        t.add_state();
    }
    t.init = tba.init.clone();
    for (s, es) in edges.iter().enumerate() {
        for e in es {
            t.add_edge(s as u32, e.dst, e.label.clone(), u64::from(e.acc));
        }
    }
    t.num_sets = 1;
    t
}

/// Determinises `aut` (generalized Büchi, transition- or state-based) into a complete-where-the-
/// input-is deterministic parity automaton `parity min odd` with the same language. Edges are
/// coloured as the construction emits them (see [`ParityAut::reduce_colours`] to reduce).
pub fn determinize(aut: &Twa, opts: &Options) -> Result<ParityAut, OmegaError> {
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.name = aut.name.clone();
    if aut.acc_false {
        out.add_state();
        out.init = vec![0];
        return Ok(ParityAut {
            aut: out,
            kind: ParityKind::MIN_ODD,
        });
    }
    let tba = if aut.num_sets > 1 {
        degeneralize_tba(aut)
    } else {
        aut.clone()
    };
    let tba = if opts.reduce_input {
        crate::direct_sim::reduce(&tba)
    } else {
        tba
    };
    let reset = opts.use_scc && opts.scc_reset;
    let info = scc_info(&tba);
    let accepting_scc = |s: u32| {
        info.accepting
            .get(info.sccs.comp[s as usize] as usize)
            .copied()
            .unwrap_or(true)
    };
    let edges: Vec<Vec<InEdge>> = tba
        .states
        .iter()
        .enumerate()
        .map(|(s, es)| {
            let c = info.sccs.comp[s];
            es.iter()
                .filter(|e| !e.label.is_false())
                .map(|e| InEdge {
                    dst: e.dst,
                    label: e.label.clone(),
                    acc: info.sccs.comp[e.dst as usize] == c
                        && info.accepting[c as usize]
                        && (tba.num_sets == 0 || e.marks & 1 == 1),
                    to_root: opts.use_scc && !accepting_scc(e.dst),
                    enter: reset && info.sccs.comp[e.dst as usize] != c && accepting_scc(e.dst),
                })
                .collect()
        })
        .collect();
    let pruner = if opts.simulation {
        Pruner::new(&accepting_edges_only(&tba, &edges))
    } else {
        None
    };
    let tt = tba.tt();
    // The single letters, when the stutter closure steps letter by letter.
    let letters: Option<Vec<Bdd>> = (opts.stutter_invariant && tba.aps.len() <= MAX_STUTTER_APS)
        .then(|| {
            (0u64..1 << tba.aps.len())
                .map(|v| {
                    (0..tba.aps.len()).fold(tt.clone(), |m, i| {
                        let x = tba.ap_var(i);
                        if (v >> i) & 1 == 1 {
                            m.and(&x)
                        } else {
                            m.and_not(&x)
                        }
                    })
                })
                .collect()
        });
    let mut init: Vec<u32> = tba.init.clone();
    init.sort_unstable();
    init.dedup();
    let first = if init.is_empty() {
        Tree {
            nodes: Vec::new(),
            parent: Vec::new(),
        }
    } else if reset && init.iter().any(|&q| accepting_scc(q)) {
        // The root stands for "no brace": an accepting SCC's initial state has its own brace.
        Tree {
            nodes: init
                .into_iter()
                .map(|q| (q, u32::from(accepting_scc(q))))
                .collect(),
            parent: vec![NONE, 0],
        }
    } else {
        Tree {
            nodes: init.into_iter().map(|q| (q, 0)).collect(),
            parent: vec![NONE],
        }
    };
    let mut ids: HashMap<Tree, u32> = HashMap::new();
    let mut trees: Vec<Tree> = Vec::new();
    ids.insert(first.clone(), 0);
    trees.push(first);
    out.add_state();
    out.init = vec![0];
    let mut max_colour = 0u32;
    let mut i = 0usize;
    while i < trees.len() {
        opts.budget.check()?;
        let t = trees[i].clone();
        // Successors grouped by (destination, colour), labels joined.
        let mut succ: Vec<((u32, Marks), Bdd)> = Vec::new();
        let parts = match &letters {
            Some(l) => l.clone(),
            None => letter_classes(&t, &edges, &tt),
        };
        for part in parts {
            let (nt, colour) = if letters.is_some() {
                closed_step(
                    &t,
                    |x| successor(x, &edges, &part, pruner.as_ref(), reset),
                    |x| x.nodes.is_empty(),
                )
            } else {
                successor(&t, &edges, &part, pruner.as_ref(), reset)
            };
            if nt.nodes.is_empty() {
                // The empty tree accepts nothing: leave the letters undefined.
                continue;
            }
            let dst = match ids.get(&nt) {
                Some(&d) => d,
                None => {
                    if trees.len() >= opts.max_states {
                        return Err(OmegaError::Limit(format!(
                            "determinisation: more than {} states",
                            opts.max_states
                        )));
                    }
                    let d = trees.len() as u32;
                    ids.insert(nt.clone(), d);
                    trees.push(nt);
                    out.add_state();
                    d
                }
            };
            let marks = match colour {
                Some(c) if c >= MAX_SETS => {
                    return Err(OmegaError::Limit(format!(
                        "determinisation: more than {MAX_SETS} colours"
                    )))
                }
                Some(c) => {
                    max_colour = max_colour.max(c + 1);
                    1u64 << c
                }
                None => 0,
            };
            match succ.iter_mut().find(|(k, _)| *k == (dst, marks)) {
                Some((_, l)) => *l = l.or(&part),
                None => succ.push(((dst, marks), part)),
            }
        }
        for ((dst, marks), label) in succ {
            out.add_edge(i as u32, dst, label, marks);
        }
        i += 1;
    }
    // An even number of colours: the uncoloured edges count as colour n, rejecting.
    out.num_sets = max_colour + max_colour % 2;
    if out.num_sets > MAX_SETS {
        return Err(OmegaError::Limit(format!(
            "determinisation: more than {MAX_SETS} colours"
        )));
    }
    Ok(ParityAut {
        aut: out,
        kind: ParityKind::MIN_ODD,
    })
}
