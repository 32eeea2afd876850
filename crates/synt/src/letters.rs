//! Letters of a game as BDDs over its propositions, the automaton's edges as BDD guards, letter
//! classes and first-mover groups computed symbolically (no enumeration of the 2^n letters).
//!
//! The game's propositions are one `verikit-bdd` dictionary, the *first mover*'s first, the
//! second mover's after them. Every edge label of the automaton is imported into it by name. A
//! *class* is a set of letters enabling exactly the same edges (for every counter function they
//! lead to the same successor): the classes are the cells of the partition of the letter space
//! refined by every distinct edge label, which is what the games iterate over. A *group* is a set
//! of first-mover letters after which the second mover can reach the same set of classes: the
//! cells of the partition of the first mover's space refined by the projections `∃second. c` of
//! the classes. Both partitions are computed with BDD operations; their size is the number of
//! cells, not of letters.

use crate::error::SyntError;
use crate::mealy::Row;
use verikit_bdd::{Bdd, BddDict, BddValuation, BddVariable, Limits};
use verikit_diag::Budget;
use verikit_omega::Twa;

/// A letter as the values of its BDD variables.
type Letter = Vec<(BddVariable, bool)>;

/// Largest number of classes (or groups) a game is played with.
pub(crate) const MAX_CELLS: usize = 1 << 16;

/// A set of first-mover letters and the classes the second mover can reach from each of them.
pub(crate) struct Group {
    pub(crate) cell: Bdd,
    pub(crate) classes: Vec<u32>,
}

pub(crate) struct Letters {
    /// The game's propositions, first mover first.
    pub(crate) dict: BddDict,
    pub(crate) n_first: usize,
    pub(crate) n_second: usize,
    /// Per automaton state, its edges: `(destination, acceptance marks, guard)`.
    pub(crate) edges: Vec<Vec<(u32, u64, Bdd)>>,
    /// The classes, a partition of the letter space.
    pub(crate) classes: Vec<Bdd>,
    /// Per class, its enabled edges `(source, destination, marked)`.
    pub(crate) class_edges: Vec<Vec<(u32, u32, bool)>>,
    /// The first-mover groups, a partition of the first mover's letters.
    pub(crate) groups: Vec<Group>,
}

/// Refines the partition `cells` by `f`: every cell split into its parts inside and outside `f`
/// (a cell on one side kept whole), polling the budget per cell.
pub(crate) fn split_cells(
    cells: Vec<Bdd>,
    f: &Bdd,
    budget: &Budget,
) -> Result<Vec<Bdd>, SyntError> {
    let mut out = Vec::with_capacity(cells.len());
    for c in cells {
        budget.check()?;
        let a = c.and(f);
        if a.is_false() {
            out.push(c);
            continue;
        }
        let b = c.and_not(f);
        out.push(a);
        if !b.is_false() {
            out.push(b);
        }
    }
    Ok(out)
}

/// [`split_cells`], refused beyond [`MAX_CELLS`] classes.
fn refine(cells: Vec<Bdd>, f: &Bdd, budget: &Budget) -> Result<Vec<Bdd>, SyntError> {
    let out = split_cells(cells, f, budget)?;
    if out.len() > MAX_CELLS {
        return Err(SyntError::Limit(format!(
            "more than {MAX_CELLS} letter classes"
        )));
    }
    Ok(out)
}

/// The distinct BDDs of a list (semantic equality), polling the budget before each one: the
/// equivalence tests are pairwise, so a large alphabet's labels can take long.
fn distinct(v: impl IntoIterator<Item = Bdd>, budget: &Budget) -> Result<Vec<Bdd>, SyntError> {
    let mut out: Vec<Bdd> = Vec::new();
    for b in v {
        budget.check()?;
        if b.is_true() || b.is_false() || out.iter().any(|x| x == &b || x.iff(&b).is_true()) {
            continue;
        }
        out.push(b);
    }
    Ok(out)
}

/// The automaton's edges with their guards imported into `dict`.
#[allow(clippy::type_complexity)]
fn import_edges(
    aut: &Twa,
    dict: &BddDict,
    budget: &Budget,
) -> Result<Vec<Vec<(u32, u64, Bdd)>>, SyntError> {
    if let Some(ap) = aut.aps.iter().find(|a| dict.var_of(a).is_none()) {
        return Err(SyntError::Internal(format!(
            "proposition {ap} not in the game"
        )));
    }
    let limits = Limits::new(None, budget.clone());
    let mut edges = Vec::with_capacity(aut.states.len());
    for st in &aut.states {
        let mut v = Vec::with_capacity(st.len());
        for e in st {
            budget.check()?;
            let g = dict
                .import(&aut.vars, &e.label, &limits)
                .map_err(|e| SyntError::Limit(e.to_string()))?;
            v.push((e.dst, e.marks, g));
        }
        edges.push(v);
    }
    Ok(edges)
}

impl Letters {
    /// The edges only, for a model check (`model_check` reads nothing else): no letter classes
    /// or groups, whose partition refinement can cost far more than the check on a large
    /// alphabet.
    pub(crate) fn edges_only(
        aut: &Twa,
        dict: &BddDict,
        n_first: usize,
        budget: &Budget,
    ) -> Result<Letters, SyntError> {
        Ok(Letters {
            dict: dict.clone(),
            n_first,
            n_second: dict.len().saturating_sub(n_first),
            edges: import_edges(aut, dict, budget)?,
            classes: Vec::new(),
            class_edges: Vec::new(),
            groups: Vec::new(),
        })
    }

    /// The game dictionary of `names` (first mover first).
    pub(crate) fn dict(names: &[String]) -> Result<BddDict, SyntError> {
        BddDict::try_new(names.iter().cloned()).map_err(|e| SyntError::Limit(e.to_string()))
    }

    /// `dict` = the game's propositions (first mover first, see [`Letters::dict`]); the
    /// automaton's propositions must be among them.
    pub(crate) fn new(
        aut: &Twa,
        dict: &BddDict,
        n_first: usize,
        budget: &Budget,
    ) -> Result<Letters, SyntError> {
        let bits = dict.len();
        let edges = import_edges(aut, dict, budget)?;
        let n_edges: usize = edges.iter().map(Vec::len).sum();
        let labels = distinct(edges.iter().flatten().map(|(_, _, g)| g.clone()), budget)?;
        let mut classes = vec![dict.tt()];
        for l in &labels {
            classes = refine(classes, l, budget)?;
        }
        // The edges the game counts: with acceptance `t` (no sets) every infinite run is accepting,
        // so every edge counts; with acceptance `f` none does (the language is empty).
        let counted = |marks: u64| !aut.acc_false && (aut.num_sets == 0 || marks != 0);
        let mut class_edges = Vec::with_capacity(classes.len());
        for c in &classes {
            budget.check()?;
            let mut v = Vec::new();
            for (q, st) in edges.iter().enumerate() {
                for (dst, marks, g) in st {
                    // A class lies inside or outside every label.
                    if !c.and(g).is_false() {
                        v.push((q as u32, *dst, counted(*marks)));
                    }
                }
            }
            class_edges.push(v);
        }
        // Groups: the first mover's space refined by the projections of the classes.
        let second: Vec<BddVariable> = (n_first..bits).filter_map(|i| dict.var(i)).collect();
        let proj: Vec<Bdd> = classes.iter().map(|c| c.exists(&second)).collect();
        let mut cells = vec![dict.tt()];
        for p in distinct(proj.iter().cloned(), budget)? {
            cells = refine(cells, &p, budget)?;
        }
        let mut groups = Vec::with_capacity(cells.len());
        for cell in cells {
            budget.check()?;
            let cs = proj
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.and(&cell).is_false())
                .map(|(i, _)| i as u32)
                .collect();
            groups.push(Group { cell, classes: cs });
        }
        tracing::debug!(
            propositions = bits,
            edges = n_edges,
            classes = classes.len(),
            groups = groups.len(),
            "letter classes"
        );
        Ok(Letters {
            dict: dict.clone(),
            n_first,
            n_second: bits - n_first,
            edges,
            classes,
            class_edges,
            groups,
        })
    }

    pub(crate) fn first_vars(&self) -> Vec<BddVariable> {
        (0..self.n_first).filter_map(|i| self.dict.var(i)).collect()
    }

    pub(crate) fn second_vars(&self) -> Vec<BddVariable> {
        (self.n_first..self.n_first + self.n_second)
            .filter_map(|i| self.dict.var(i))
            .collect()
    }

    /// One first-mover letter of a group (its values on the first mover's variables).
    pub(crate) fn representative(&self, g: &Group) -> Result<Vec<(BddVariable, bool)>, SyntError> {
        let w: BddValuation = g
            .cell
            .sat_witness()
            .ok_or_else(|| SyntError::Internal("empty group".into()))?;
        Ok(self.first_vars().into_iter().map(|v| (v, w[v])).collect())
    }

    /// The class `c`.
    pub(crate) fn class(&self, c: u32) -> Result<&Bdd, SyntError> {
        self.classes
            .get(c as usize)
            .ok_or_else(|| SyntError::Internal("class out of range".into()))
    }

    /// The first mover's letter for `g` (its representative) and that letter as constant answers.
    pub(crate) fn first_letter(&self, g: &Group) -> Result<(Letter, Vec<Bdd>), SyntError> {
        let x = self.representative(g)?;
        let answer = x
            .iter()
            .map(|&(_, b)| if b { self.dict.tt() } else { self.dict.ff() })
            .collect();
        Ok((x, answer))
    }

    /// The second mover's machine row for the first mover's group `g`: answers (over the
    /// controlled variables `ctl`) that bring every letter of `g` into class `c`, then `target`;
    /// and the row's allowed letters `c ∧ g` (every answer in them reaches class `c`).
    pub(crate) fn answer_row(
        &self,
        g: &Group,
        c: u32,
        ctl: &[BddVariable],
        target: u32,
    ) -> Result<(Row, Bdd), SyntError> {
        let rel = self.class(c)?.and(&g.cell);
        let row = Row {
            guard: g.cell.clone(),
            answer: skolem(&rel, ctl),
            target,
        };
        Ok((row, rel))
    }
}

/// Functions `ys = f(xs)` choosing, for every `xs` with a completion in `rel`, one such
/// completion (the variables in order, each 0 unless only 1 is possible): the answer of a
/// strategy that must reach a class from any letter of a group.
pub(crate) fn skolem(rel: &Bdd, ys: &[BddVariable]) -> Vec<Bdd> {
    let mut r = rel.clone();
    let mut out = Vec::with_capacity(ys.len());
    for (i, &y) in ys.iter().enumerate() {
        let rest = ys.get(i + 1..).unwrap_or(&[]);
        let hi = r.var_restrict(y, true);
        let lo = r.var_restrict(y, false);
        let one = lo.exists(rest).not();
        r = one.and(&hi).or(&one.not().and(&lo));
        out.push(one);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_keeps_one_of_each_function_and_stops_on_a_spent_budget() {
        let dict = Letters::dict(&["a".to_string(), "b".to_string()]).unwrap();
        let (x, y) = (dict.literal(0, true), dict.literal(1, true));
        // a ∧ b twice (built two ways), a, b, and the constants (dropped)
        let ab = x.and(&y);
        let ba = y.and(&x);
        let list = vec![ab, ba, x.clone(), y, dict.tt(), x.and_not(&x)];
        let out = distinct(list.clone(), &Budget::unlimited()).unwrap();
        assert_eq!(out.len(), 3);
        let spent = Budget::unlimited();
        spent.cancel();
        assert!(distinct(list, &spent).is_err());
    }
}
