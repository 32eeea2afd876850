//! Property checking: PCTL for DTMCs and MDPs, CSL for CTMCs, and reward operators (Baier &
//! Katoen, "Principles of Model Checking", ch. 10; Baier, Haverkort, Hermanns, Katoen, "Model
//! checking algorithms for continuous-time Markov chains", IEEE TSE 2003). State formulas are
//! evaluated on every state; nested P/R/S operators become per-state vectors. Unbounded operators
//! use graph precomputation ([`crate::precomp`]) and sound value iteration ([`crate::vi`]); step
//! bounds iterate the transition relation; CTMC time bounds use uniformisation with Poisson weights
//! ([`crate::foxglynn`]); steady state solves each bottom SCC ([`crate::steady`]).

use crate::error::ProbError;
use crate::foxglynn::poisson;
use crate::lang::ast::*;
use crate::lang::typecheck::Program;
use crate::mec::mecs;
use crate::model::Model;
use crate::precomp::{prob1, reach_exists, reach_forall, Preds};
use crate::prop_env::{input, Evaluated, Names, OpAt, StateFormulas};
use crate::vi::{solve, Problem};
use std::cell::Cell;
use std::sync::Arc;
use verikit_diag::{Budget, Exhausted, Span};

#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Relative precision of numerical results.
    pub eps: f64,
    pub max_sweeps: usize,
    /// Polled in the numerical loops; when it runs out, the property answers
    /// [`ProbError::Exhausted`].
    /// Also told the progress of long iterations (`budget.progress()`).
    pub budget: Budget,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            eps: 1e-6,
            max_sweeps: 1_000_000,
            budget: Budget::unlimited(),
        }
    }
}

pub use crate::prop_env::Answer;

#[derive(Clone, Debug)]
pub struct PropertyResult {
    pub name: Option<String>,
    /// The property text as written.
    pub text: String,
    /// The answer for the (first) initial state, or the filter's value.
    pub answer: Answer,
    /// Values over all initial states, when there are several and they differ.
    pub init_range: Option<(f64, f64)>,
    /// False if an iterative method stopped without a verified error bound.
    pub sound: bool,
    /// Interval MDPs: some operator lets nature cooperate with the controller (`Pmaxmax`,
    /// `Pminmin`, or a bound `P~p`, which holds for every scheduler and every nature), outside
    /// the ∃σ∀π semantics that alternating bisimulation preserves.
    pub cooperative_nature: bool,
    pub time_s: f64,
    /// The value in every state, indexed as the built model's states (Booleans as 0/1), when the
    /// checker was asked to keep them ([`Checker::keep_state_values`]) and the property is a state
    /// formula (a `filter` has one value only).
    pub state_values: Option<Vec<f64>>,
}

impl PropertyResult {
    /// The result of `prop` (written `text`), checked since `t0`, with its soundness and
    /// whether nature cooperated.
    pub(crate) fn new(
        prop: &Property,
        text: &str,
        ev: Evaluated,
        (sound, cooperative_nature): (bool, bool),
        t0: std::time::Instant,
    ) -> Self {
        PropertyResult {
            name: prop.name.clone(),
            text: text.to_string(),
            answer: ev.answer,
            init_range: ev.init_range,
            sound,
            cooperative_nature,
            time_s: t0.elapsed().as_secs_f64(),
            state_values: ev.state_values,
        }
    }
}

pub struct Checker<'a> {
    model: &'a Model,
    prog: &'a Program,
    opts: CheckOptions,
    names: Arc<Names>,
    preds: Option<Preds>,
    embedded: Option<Model>,
    exit: Option<Vec<f64>>,
    sound: bool,
    /// Set when the budget ran out during the current property.
    exhausted: Cell<Option<Exhausted>>,
    /// Fill [`PropertyResult::state_values`].
    keep_values: bool,
}

type R<T> = Result<T, ProbError>;

/// An error of omega's LTL automata, located at the path formula (`what` says what failed).
fn omega_error(e: verikit_omega::OmegaError, sp: Span, what: &str) -> ProbError {
    match e {
        verikit_omega::OmegaError::Exhausted(x) => ProbError::Exhausted(x),
        other => input(sp, format!("{what}: {other}")),
    }
}

impl<'a> Checker<'a> {
    /// A checker for `model` (built from `prog`) with the constants, labels and formulas of a
    /// properties file; undefined property constants come from `overrides`.
    pub fn new(
        model: &'a Model,
        prog: &'a Program,
        props: &PropertiesFile,
        overrides: &[(String, String)],
        opts: CheckOptions,
    ) -> R<Checker<'a>> {
        let names = Names::new(prog, props, overrides)?;
        Ok(Checker::fresh(model, prog, opts, names))
    }

    /// A checker with nothing computed yet.
    fn fresh(
        model: &'a Model,
        prog: &'a Program,
        opts: CheckOptions,
        names: Arc<Names>,
    ) -> Checker<'a> {
        Checker {
            model,
            prog,
            opts,
            names,
            preds: None,
            embedded: None,
            exit: None,
            sound: true,
            exhausted: Cell::new(None),
            keep_values: false,
        }
    }

    /// Whether [`Checker::check`] also reports the value of every state.
    pub fn keep_state_values(&mut self, on: bool) {
        self.keep_values = on;
    }

    /// Checks one property.
    pub fn check(&mut self, prop: &Property, text: &str) -> R<PropertyResult> {
        let t0 = std::time::Instant::now();
        self.sound = true;
        self.opts.budget.check()?;
        let ev = self.evaluate(&prop.expr, self.keep_values)?;
        if let Some(e) = self.exhausted.take() {
            return Err(ProbError::Exhausted(e));
        }
        Ok(PropertyResult::new(prop, text, ev, (self.sound, false), t0))
    }

    /// An optimal memoryless scheduler for a top-level `Pmin`/`Pmax` (or bounded `P~p`) of an
    /// unbounded `F`/`U` on an MDP: per state, the chosen choice among the state's choices
    /// (see [`crate::scheduler`]).
    pub fn scheduler(&mut self, prop: &Property) -> R<Vec<u32>> {
        let what = "Pmin/Pmax of an unbounded F or U on an MDP";
        let (opt, path) = self.scheduled(prop, what)?;
        let PathFormula::Until(l, r, tb) = path else {
            return Err(unsupported_scheduler(prop, what));
        };
        if !tb.is_none() {
            return Err(unsupported_scheduler(prop, what));
        }
        let phi = self.states(l)?;
        let psi = self.states(r)?;
        let values = self.until(&phi, &psi, opt);
        self.preds();
        let Some(p) = self.preds.as_ref() else {
            return Err(unsupported_scheduler(prop, what));
        };
        Ok(crate::scheduler::reach_scheduler(
            self.model,
            p,
            &values,
            &phi,
            &psi,
            opt,
            10.0 * self.opts.eps,
        ))
    }

    /// The direction and path formula of a top-level `Pmin`/`Pmax` (or bounded `P~p`) on an MDP,
    /// the properties a scheduler is exported for; else a refusal naming `what` is supported.
    fn scheduled<'p>(&self, prop: &'p Property, what: &str) -> R<(Opt, &'p PathFormula)> {
        if !self.model.model_type.nondeterministic() {
            return Err(unsupported_scheduler(prop, what));
        }
        let ExprKind::Prob { opt, bound, path } = &prop.expr.kind else {
            return Err(unsupported_scheduler(prop, what));
        };
        let opt = self.effective_opt(*opt, bound, prop.expr.span)?;
        Ok((opt, path.as_ref()))
    }

    /// `A [ path ]` / `E [ path ]` on the underlying graph ([`crate::ctl`]); `G`, `W` and `R`
    /// by duality (`A [ G φ ] = ¬E [ F ¬φ ]`, `A [ ¬π ] = ¬E [ π ]`).
    fn ctl(&mut self, forall: bool, path: &PathFormula, sp: Span) -> R<Vec<bool>> {
        let bounded = |tb: &TimeBound| {
            if tb.is_none() {
                Ok(())
            } else {
                Err(input(
                    sp,
                    "bounded temporal operators inside CTL's A/E are not supported (PRISM's \
                     non-probabilistic checker has none either)",
                ))
            }
        };
        match path {
            PathFormula::Ltl(_) => Err(input(
                sp,
                "LTL path formulas inside CTL's A/E are not supported (only inside P[…])",
            )),
            PathFormula::Not(inner) => Ok(self
                .ctl(!forall, inner, sp)?
                .into_iter()
                .map(|b| !b)
                .collect()),
            PathFormula::Globally(e, tb) => {
                bounded(tb)?;
                let not_e = Expr::new(ExprKind::Unary(UnOp::Not, e.clone()), e.span);
                let f = PathFormula::Until(
                    Box::new(Expr::boolean(true, e.span)),
                    Box::new(not_e),
                    TimeBound::default(),
                );
                Ok(self.ctl(!forall, &f, sp)?.into_iter().map(|b| !b).collect())
            }
            PathFormula::Next(e) => {
                let set = self.states(e)?;
                self.prepare_chain();
                Ok(crate::ctl::next(self.chain_ref(), &set, forall))
            }
            PathFormula::Until(l, r, tb) => {
                bounded(tb)?;
                let phi = self.states(l)?;
                let psi = self.states(r)?;
                self.preds();
                let Some((m, p)) = self.chain_preds() else {
                    return Ok(vec![false; self.model.num_states()]);
                };
                Ok(crate::ctl::until(m, p, &phi, &psi, forall))
            }
        }
    }

    fn effective_opt(&self, opt: Opt, bound: &Bound, sp: Span) -> R<Opt> {
        if self.model.is_interval() {
            return Err(input(
                sp,
                "checking interval models (idtmc/imdp) is not supported yet",
            ));
        }
        if !self.model.model_type.nondeterministic() {
            return Ok(Opt::None);
        }
        match (opt, bound) {
            (Opt::None, Bound::Query) => Err(input(
                sp,
                "for an MDP, write Pmin=?/Pmax=? (or Rmin=?/Rmax=?)",
            )),
            (Opt::None, Bound::Cmp(op, _)) => Ok(match op {
                CmpOp::Ge | CmpOp::Gt => Opt::Min,
                _ => Opt::Max,
            }),
            (o, _) => Ok(o),
        }
    }

    // ------------------------------------------------------------------ helpers

    fn exit_rates(&mut self) -> &[f64] {
        if self.exit.is_none() {
            self.exit = Some(self.model.exit_rates());
        }
        self.exit.as_deref().unwrap_or(&[])
    }

    /// The discrete-time chain: the model itself, or the embedded DTMC of a CTMC.
    fn chain_ref(&self) -> &Model {
        self.embedded.as_ref().unwrap_or(self.model)
    }

    fn prepare_chain(&mut self) {
        if self.model.model_type != ModelType::Ctmc {
            return;
        }
        if self.embedded.is_none() {
            let exit = self.exit_rates().to_vec();
            let mut e = self.model.clone();
            e.model_type = ModelType::Dtmc;
            for s in 0..e.num_states() {
                for c in e.choices(s) {
                    let r = e.trans(c);
                    if exit[s] > 0.0 {
                        for k in r {
                            e.vals[k] /= exit[s];
                        }
                    }
                }
            }
            // Absorbing states (exit rate 0) have no transitions to normalise; give them a self-loop.
            let mut fixed = Model {
                cols: vec![],
                vals: vec![],
                choice_start: vec![0],
                ..e.clone()
            };
            for s in 0..e.num_states() {
                for c in e.choices(s) {
                    if exit[s] > 0.0 {
                        for k in e.trans(c) {
                            fixed.cols.push(e.cols[k]);
                            fixed.vals.push(e.vals[k]);
                        }
                    } else {
                        fixed.cols.push(s as u32);
                        fixed.vals.push(1.0);
                    }
                    fixed.choice_start.push(fixed.cols.len() as u64);
                }
            }
            self.embedded = Some(fixed);
            self.preds = None;
        }
    }

    fn preds(&mut self) {
        self.prepare_chain();
        if self.preds.is_none() {
            let p = Preds::new(self.chain_ref());
            self.preds = Some(p);
        }
    }

    fn eps(&self) -> f64 {
        self.opts.eps
    }

    /// A solver's values, noting whether they are verified and whether the budget ran out.
    fn accept(&mut self, sol: crate::vi::Solution) -> Vec<f64> {
        self.sound &= sol.sound;
        self.note(sol.exhausted);
        sol.values
    }

    /// Computes the predecessor lists; the precision and sweep limit of the solvers.
    fn solver_settings(&mut self) -> (f64, usize) {
        self.preds();
        (self.eps(), self.opts.max_sweeps)
    }

    /// The chain the solvers work on (embedded for a CTMC) with its predecessor lists, once
    /// [`Self::preds`] has computed them.
    fn chain_preds(&self) -> Option<(&Model, &Preds)> {
        Some((self.chain_ref(), self.preds.as_ref()?))
    }

    // ------------------------------------------------------------------ P operator

    fn prob(&mut self, opt: Opt, path: &PathFormula, sp: Span) -> R<Vec<f64>> {
        match path {
            PathFormula::Next(e) => {
                let set = self.states(e)?;
                self.prepare_chain();
                let m = self.chain_ref();
                Ok((0..m.num_states())
                    .map(|s| {
                        let vals = m.choices(s).map(|c| {
                            m.trans(c)
                                .filter(|&k| set[m.cols[k] as usize])
                                .map(|k| m.vals[k])
                                .sum::<f64>()
                        });
                        match opt {
                            Opt::Min => vals.fold(f64::INFINITY, f64::min),
                            _ => vals.fold(f64::NEG_INFINITY, f64::max),
                        }
                    })
                    .collect())
            }
            PathFormula::Globally(e, tb) => {
                let not_e = Expr::new(ExprKind::Unary(UnOp::Not, e.clone()), e.span);
                let flipped = match opt {
                    Opt::Min => Opt::Max,
                    Opt::Max => Opt::Min,
                    Opt::None => Opt::None,
                };
                let f = PathFormula::Until(
                    Box::new(Expr::boolean(true, e.span)),
                    Box::new(not_e),
                    tb.clone(),
                );
                Ok(self
                    .prob(flipped, &f, sp)?
                    .into_iter()
                    .map(|x| 1.0 - x)
                    .collect())
            }
            PathFormula::Not(inner) => {
                let flipped = match opt {
                    Opt::Min => Opt::Max,
                    Opt::Max => Opt::Min,
                    Opt::None => Opt::None,
                };
                Ok(self
                    .prob(flipped, inner, sp)?
                    .into_iter()
                    .map(|x| 1.0 - x)
                    .collect())
            }
            PathFormula::Ltl(l) => self.ltl(opt, l, sp),
            PathFormula::Until(l, r, tb) => {
                let phi = self.states(l)?;
                let psi = self.states(r)?;
                if let Some(rb) = &tb.reward {
                    return self.reward_bounded(&phi, &psi, rb, opt);
                }
                if tb.is_none() {
                    return Ok(self.until(&phi, &psi, opt));
                }
                if self.model.model_type == ModelType::Ctmc {
                    let t1 = match &tb.lower {
                        Some((e, _)) => self.const_f64(e)?,
                        None => 0.0,
                    };
                    let t2 = match &tb.upper {
                        Some((e, _)) => self.const_f64(e)?,
                        None => f64::INFINITY,
                    };
                    if !(t1 >= 0.0 && t2 >= t1) {
                        return Err(input(sp, format!("bad time bounds [{t1}, {t2}]")));
                    }
                    self.ctmc_until(&phi, &psi, t1, t2)
                } else {
                    let k1 = self.step_bound(&tb.lower, false)?.unwrap_or(0);
                    let k2 = self.step_bound(&tb.upper, true)?;
                    if k2.is_some_and(|k2| k2 < k1) {
                        return Ok(vec![0.0; self.model.num_states()]);
                    }
                    let x = match k2 {
                        Some(k2) => self.bounded_until(&phi, &psi, (k2 - k1) as usize, opt),
                        None => self.until(&phi, &psi, opt),
                    };
                    Ok(self.phase(&phi, x, k1 as usize, opt))
                }
            }
        }
    }

    /// `P[ ltl ]` on a DTMC or MDP ([`crate::ldba_product`]): the formula (for `Pmin`, its
    /// negation: `Pmin φ = 1 − Pmax ¬φ`) goes through omega's LTL translation and
    /// limit-deterministic automaton; the value is the maximal probability of reaching an
    /// accepting end component of the product. On a CTMC the (untimed) formula is checked on
    /// the embedded DTMC, as PRISM's `CTMCModelChecker.checkProbPathFormulaLTL` does: the
    /// probability of a set of untimed paths depends only on the sequence of states visited.
    fn ltl(&mut self, opt: Opt, l: &Ltl, sp: Span) -> R<Vec<f64>> {
        let (prod, x) = self.ltl_product(opt, l, sp)?;
        let v = prod.project(&x);
        Ok(if opt == Opt::Min {
            v.into_iter().map(|x| 1.0 - x).collect()
        } else {
            v
        })
    }

    /// The product of the chain (embedded for a CTMC) with the LDBA of `l` (of `¬l` for
    /// `Pmin`) and the maximal probability of reaching its accepting end components, per
    /// product state.
    fn ltl_product(
        &mut self,
        opt: Opt,
        l: &Ltl,
        sp: Span,
    ) -> R<(crate::ldba_product::Product, Vec<f64>)> {
        let (mut arena, f, atoms) = self.ltl_input(l, sp, "LTL path formulas are")?;
        let f = if opt == Opt::Min { arena.not(f) } else { f };
        let budget = self.opts.budget.clone();
        let topts = verikit_omega::TranslateOptions {
            redirect_merges: false,
            budget: budget.clone(),
            ..Default::default()
        };
        let tgba = verikit_omega::translate(&mut arena, f, &topts)
            .map_err(|e| omega_error(e, sp, "translating the LTL formula"))?;
        let letters = self.letters(&tgba.aps, &atoms);
        let mut ldba = verikit_omega::Ldba::new(&tgba);
        self.prepare_chain();
        let prod = crate::ldba_product::product(self.chain_ref(), &letters, &mut ldba, &budget)?;
        let mut sub = self.on(&prod.model);
        let all = vec![true; prod.model.num_states()];
        let x = sub.until(&all, &prod.target, Opt::Max);
        self.sound &= sub.sound;
        self.note(sub.exhausted.take());
        Ok((prod, x))
    }

    /// An optimal scheduler with memory for a top-level `Pmin`/`Pmax` (or bounded `P~p`) of an
    /// LTL path formula on an MDP ([`crate::ltl_scheduler`]): the memory is the state of the
    /// automaton of the formula (of its negation for `Pmin`).
    pub fn ltl_scheduler(&mut self, prop: &Property) -> R<crate::MemoryScheduler> {
        let what = "Pmin/Pmax of an LTL path formula on an MDP";
        let (opt, path) = self.scheduled(prop, what)?;
        let PathFormula::Ltl(l) = path else {
            return Err(unsupported_scheduler(prop, what));
        };
        self.sound = true;
        let (prod, x) = self.ltl_product(opt, l, prop.expr.span)?;
        if let Some(e) = self.exhausted.take() {
            return Err(ProbError::Exhausted(e));
        }
        Ok(crate::ltl_scheduler::ltl_scheduler(
            self.model,
            &prod,
            &x,
            10.0 * self.opts.eps,
        ))
    }

    /// The omega formula of an LTL path formula on a DTMC, CTMC or MDP, with the state set of
    /// each atom; on interval models a located refusal (`what` names the feature).
    fn ltl_input(
        &mut self,
        l: &Ltl,
        sp: Span,
        what: &str,
    ) -> R<(verikit_omega::Arena, verikit_omega::F, Vec<Vec<bool>>)> {
        if self.model.is_interval() {
            return Err(input(
                sp,
                format!(
                    "{what} supported on DTMCs, CTMCs and MDPs, not on {}s",
                    self.model.model_type.name()
                ),
            ));
        }
        let mut arena = verikit_omega::Arena::new();
        let mut atoms: Vec<Vec<bool>> = Vec::new();
        let f = self.ltl_formula(l, &mut arena, &mut atoms)?;
        Ok((arena, f, atoms))
    }

    /// A checker of the same program and options on a product model.
    fn on<'m>(&self, model: &'m Model) -> Checker<'m>
    where
        'a: 'm,
    {
        Checker::fresh(model, self.prog, self.opts.clone(), self.names.clone())
    }

    /// The letter of each model state over an automaton's APs (`p<i>` is atom `i`, the first 64).
    fn letters(&self, aps: &[String], atoms: &[Vec<bool>]) -> Vec<u64> {
        let mut letters = vec![0u64; self.model.num_states()];
        for (bit, name) in aps.iter().enumerate().take(64) {
            let set = name
                .strip_prefix('p')
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| atoms.get(i));
            if let Some(set) = set {
                for (s, l) in letters.iter_mut().enumerate() {
                    if set.get(s).copied().unwrap_or(false) {
                        *l |= 1 << bit;
                    }
                }
            }
        }
        letters
    }

    /// `R[ φ ]` over a co-safe LTL formula on a DTMC or MDP (PRISM's `checkRewardCoSafeLTL`):
    /// the reward accumulated until the formula's good prefix is read, i.e. the reachability
    /// reward of the accepting states of the product with omega's DFA of the formula
    /// ([`verikit_omega::CosafeDfa`], [`crate::ldba_product::dfa_product`]); infinite where that
    /// target is not reached almost surely, as for `R[ F φ ]`. On a CTMC the product is built
    /// on the embedded DTMC and `rew` is already per visit of it (state reward divided by the
    /// exit rate, plus the expected impulse: [`Self::choice_rewards`]), as PRISM's
    /// `CTMCModelChecker.checkRewardCoSafeLTL` and verikit's own `R[ F φ ]` on CTMCs.
    fn cosafe_reward(&mut self, rew: &[f64], opt: Opt, l: &Ltl, sp: Span) -> R<Vec<f64>> {
        let (arena, f, atoms) = self.ltl_input(l, sp, "rewards of co-safe LTL formulas are")?;
        let mut dfa = verikit_omega::CosafeDfa::new(&arena, f)
            .map_err(|e| omega_error(e, sp, "R operator"))?;
        let letters = self.letters(dfa.aps(), &atoms);
        let budget = self.opts.budget.clone();
        self.prepare_chain();
        let prod = crate::ldba_product::dfa_product(self.chain_ref(), &letters, &mut dfa, &budget)?;
        let prew: Vec<f64> = prod
            .choice_origin
            .iter()
            .map(|&c| rew.get(c as usize).copied().unwrap_or(0.0))
            .collect();
        let mut sub = self.on(&prod.model);
        let x = sub.reach_reward(&prod.target, &prew, opt);
        self.sound &= sub.sound;
        self.note(sub.exhausted.take());
        Ok(prod.project(&x))
    }

    /// The omega formula of an LTL path formula; each distinct state set of an atom becomes
    /// the AP `p<i>` (`atoms[i]`). Step bounds `F<=k`, `G<=k`, `U<=k` are expanded into `X`.
    fn ltl_formula(
        &mut self,
        l: &Ltl,
        a: &mut verikit_omega::Arena,
        atoms: &mut Vec<Vec<bool>>,
    ) -> R<verikit_omega::F> {
        Ok(match l {
            Ltl::Atom(e) => {
                if let ExprKind::Bool(b) = e.kind {
                    return Ok(a.constant(b));
                }
                let set = self.states(e)?;
                let i = match atoms.iter().position(|x| *x == set) {
                    Some(i) => i,
                    None => {
                        atoms.push(set);
                        atoms.len() - 1
                    }
                };
                a.ap(&format!("p{i}"))
            }
            Ltl::Not(x) => {
                let x = self.ltl_formula(x, a, atoms)?;
                a.not(x)
            }
            Ltl::And(x, y) | Ltl::Or(x, y) | Ltl::Implies(x, y) | Ltl::Iff(x, y) => {
                let fx = self.ltl_formula(x, a, atoms)?;
                let fy = self.ltl_formula(y, a, atoms)?;
                match l {
                    Ltl::And(..) => a.and2(fx, fy),
                    Ltl::Or(..) => a.or2(fx, fy),
                    Ltl::Implies(..) => a.implies(fx, fy),
                    _ => a.equiv(fx, fy),
                }
            }
            Ltl::Next(x, _) => {
                let x = self.ltl_formula(x, a, atoms)?;
                a.x(x)
            }
            Ltl::Finally(x, tb, sp) => {
                let fx = self.ltl_formula(x, a, atoms)?;
                match self.ltl_steps(tb, *sp)? {
                    None => a.ev(fx),
                    Some(k) => {
                        let tt = a.tt();
                        Self::ltl_bounded_until(a, tt, fx, k)
                    }
                }
            }
            Ltl::Globally(x, tb, sp) => {
                let fx = self.ltl_formula(x, a, atoms)?;
                match self.ltl_steps(tb, *sp)? {
                    None => a.gl(fx),
                    Some(k) => {
                        // G<=k φ = ¬(true U<=k ¬φ)
                        let (tt, nx) = (a.tt(), a.not(fx));
                        let u = Self::ltl_bounded_until(a, tt, nx, k);
                        a.not(u)
                    }
                }
            }
            Ltl::Until(x, y, tb, sp)
            | Ltl::WeakUntil(x, y, tb, sp)
            | Ltl::Release(x, y, tb, sp) => {
                let fx = self.ltl_formula(x, a, atoms)?;
                let fy = self.ltl_formula(y, a, atoms)?;
                let steps = self.ltl_steps(tb, *sp)?;
                match (l, steps) {
                    (Ltl::Until(..), None) => a.u(fx, fy),
                    (Ltl::WeakUntil(..), None) => a.w(fx, fy),
                    (_, None) => a.r(fx, fy),
                    (Ltl::Until(..), Some(k)) => Self::ltl_bounded_until(a, fx, fy, k),
                    (Ltl::WeakUntil(..), Some(k)) => {
                        // a W<=k b = ¬((a ∧ ¬b) U<=k (¬a ∧ ¬b)), as PRISM reads it.
                        let (na, nb) = (a.not(fx), a.not(fy));
                        let (l1, r1) = (a.and2(fx, nb), a.and2(na, nb));
                        let u = Self::ltl_bounded_until(a, l1, r1, k);
                        a.not(u)
                    }
                    (_, Some(k)) => {
                        // a R<=k b = ¬(¬a U<=k ¬b)
                        let (na, nb) = (a.not(fx), a.not(fy));
                        let u = Self::ltl_bounded_until(a, na, nb, k);
                        a.not(u)
                    }
                }
            }
        })
    }

    /// `x U<=k y` as `y ∨ (x ∧ X(x U<=k-1 y))` (`false` for `k < 0`).
    fn ltl_bounded_until(
        a: &mut verikit_omega::Arena,
        x: verikit_omega::F,
        y: verikit_omega::F,
        k: i64,
    ) -> verikit_omega::F {
        let mut f = a.ff();
        for _ in 0..=k {
            let nx = a.x(f);
            let c = a.and2(x, nx);
            f = a.or2(y, c);
        }
        f
    }

    /// The upper step bound of a temporal operator inside LTL (`None` if unbounded). On a CTMC a
    /// bound is a time bound, which PRISM does not support inside LTL either: refused by name,
    /// never approximated.
    fn ltl_steps(&mut self, tb: &TimeBound, sp: Span) -> R<Option<i64>> {
        if self.model.model_type == ModelType::Ctmc && !tb.is_none() {
            let at = tb
                .upper
                .as_ref()
                .or(tb.lower.as_ref())
                .map_or(tb.reward_bound.unwrap_or(sp), |(e, _)| e.span);
            return Err(input(
                at,
                "time-bounded operators inside LTL formulas are not supported on CTMCs (as in \
                 PRISM: LTL on a CTMC is checked on its embedded DTMC, which has no time)",
            ));
        }
        if tb.reward.is_some() || tb.lower.is_some() {
            return Err(input(
                tb.reward_bound.unwrap_or(sp),
                "inside LTL formulas only upper step bounds (`<=k`, `<k`) are supported",
            ));
        }
        let k = self.step_bound(&tb.upper, true)?;
        if let (Some(k), Some((e, strict))) = (k, &tb.upper) {
            if k + i64::from(*strict) > 10_000 {
                return Err(input(
                    e.span,
                    "step bounds above 10000 inside LTL formulas are not supported (they are expanded into X)",
                ));
            }
        }
        Ok(k)
    }

    /// `phi U^{rew{"r"} ⋈ b} psi` on a DTMC/MDP: ordinary until on the reward unfolding
    /// ([`crate::reward_bounded`]).
    fn reward_bounded(
        &mut self,
        phi: &[bool],
        psi: &[bool],
        rb: &RewardBound,
        opt: Opt,
    ) -> R<Vec<f64>> {
        if self.model.model_type == ModelType::Ctmc {
            // Rewards accumulate continuously in the state rewards of a CTMC: the unfolding
            // below would be wrong there (Storm refuses these too).
            return Err(input(
                rb.span,
                "reward-bounded path formulas are not supported on CTMCs (only on DTMCs and MDPs); \
                 time bounds (`F<=t`) and reward operators (`R{\"r\"}=? [ C<=t ]`) are",
            ));
        }
        if self.model.is_interval() {
            return Err(input(
                rb.span,
                "reward-bounded path formulas are supported on DTMCs and MDPs, not on interval models",
            ));
        }
        let r = self.reward_index(&rb.rew)?;
        let step = self.choice_rewards(r)?;
        let b = self.const_f64(&rb.bound)?;
        let Some(t) = crate::reward_bounded::threshold(rb.upper, rb.strict, b) else {
            return Ok(vec![0.0; self.model.num_states()]);
        };
        let u = crate::reward_bounded::unfold(self.model, &step, phi, psi, rb.upper, t, rb.span)?;
        let mut sub = self.on(&u.model);
        let x = sub.until(&u.phi, &u.psi, opt);
        self.sound &= sub.sound;
        self.note(sub.exhausted.take());
        Ok(u.project(&x))
    }

    /// Unbounded until `phi U psi` on the discrete chain.
    fn until(&mut self, phi: &[bool], psi: &[bool], opt: Opt) -> Vec<f64> {
        let (eps, max_sweeps) = self.solver_settings();
        let Some((m, p)) = self.chain_preds() else {
            return vec![];
        };
        let n = m.num_states();
        let allowed: Vec<bool> = (0..n).map(|s| phi[s] && !psi[s]).collect();
        let (yes, no) = match opt {
            Opt::Min => (
                prob1(m, p, &allowed, psi, true),
                reach_forall(m, p, &allowed, psi)
                    .iter()
                    .map(|b| !b)
                    .collect::<Vec<_>>(),
            ),
            _ => (
                prob1(m, p, &allowed, psi, false),
                reach_exists(m, p, &allowed, psi)
                    .iter()
                    .map(|b| !b)
                    .collect(),
            ),
        };
        let maybe: Vec<bool> = (0..n).map(|s| !yes[s] && !no[s]).collect();
        let fixed: Vec<f64> = yes.iter().map(|&b| b as u8 as f64).collect();
        let collapse = if opt == Opt::Max && m.model_type.nondeterministic() {
            Some(mecs(m, &maybe, &|_| true).0)
        } else {
            None
        };
        let sol = solve(&Problem {
            model: m,
            maybe: &maybe,
            fixed: &fixed,
            reward: None,
            opt,
            collapse: collapse.as_deref(),
            allowed_choice: None,
            upper: Some(1.0),
            eps,
            max_sweeps,
            budget: &self.opts.budget,
        });
        self.accept(sol)
    }

    /// `phi U<=k psi` by k steps of the Bellman operator.
    fn bounded_until(&self, phi: &[bool], psi: &[bool], k: usize, opt: Opt) -> Vec<f64> {
        let m = self.model;
        let n = m.num_states();
        let mut x: Vec<f64> = psi.iter().map(|&b| b as u8 as f64).collect();
        let mut y = x.clone();
        for _ in 0..k {
            if self.poll() {
                break;
            }
            for s in 0..n {
                y[s] = if psi[s] {
                    1.0
                } else if !phi[s] {
                    0.0
                } else {
                    step_opt(m, s, &x, opt, None)
                };
            }
            std::mem::swap(&mut x, &mut y);
        }
        x
    }

    /// Lower step bound: `k` steps through `phi` states before the window starts.
    fn phase(&self, phi: &[bool], mut x: Vec<f64>, k: usize, opt: Opt) -> Vec<f64> {
        let m = self.model;
        let n = m.num_states();
        let mut y = x.clone();
        for _ in 0..k {
            if self.poll() {
                break;
            }
            for s in 0..n {
                y[s] = if phi[s] {
                    step_opt(m, s, &x, opt, None)
                } else {
                    0.0
                };
            }
            std::mem::swap(&mut x, &mut y);
        }
        x
    }

    /// The uniformisation rate and the product x ↦ P·x of the uniformised chain (absorbing
    /// states keep their value).
    fn unif_rate(&mut self) -> f64 {
        let q = self.exit_rates().iter().cloned().fold(0.0, f64::max) * 1.02;
        if q > 0.0 {
            q
        } else {
            1.0
        }
    }

    /// Σ_k Poisson(q·t)(k) · P^k x over the uniformised chain ([`crate::uniformisation`]); the
    /// `fixed` states keep their value of `x0`.
    fn transient_sum(&mut self, x0: Vec<f64>, t: f64, fixed: Option<&[bool]>) -> Vec<f64> {
        let q = self.unif_rate();
        let fg = poisson(q * t, self.eps() * 1e-2);
        let tol = self.eps() * 1e-3;
        let r = crate::uniformisation::transient(
            self.model,
            q,
            &fg,
            &x0,
            fixed,
            tol,
            &self.opts.budget,
        );
        self.unwrap_budget(r, x0.len())
    }

    /// Notes that the budget ran out (the property then answers `Exhausted`).
    fn note(&self, e: Option<Exhausted>) {
        if let Some(e) = e {
            self.exhausted.set(Some(e));
        }
    }

    /// Polls the budget; true (and noted) when it ran out.
    fn poll(&self) -> bool {
        match self.opts.budget.check() {
            Ok(()) => false,
            Err(e) => {
                self.note(Some(e));
                true
            }
        }
    }

    /// The vector, or zeros of length `n` with the exhaustion noted.
    fn unwrap_budget(&self, r: Result<Vec<f64>, Exhausted>, n: usize) -> Vec<f64> {
        r.unwrap_or_else(|e| {
            self.note(Some(e));
            vec![0.0; n]
        })
    }

    fn ctmc_until(&mut self, phi: &[bool], psi: &[bool], t1: f64, t2: f64) -> R<Vec<f64>> {
        let n = self.model.num_states();
        let x = if t2.is_finite() {
            // Constant over time: ψ states (1), ¬φ states and states that cannot reach ψ
            // through φ states (0).
            self.preds();
            let allowed: Vec<bool> = (0..n).map(|s| phi[s] && !psi[s]).collect();
            let reach = match self.preds.as_ref() {
                Some(p) => reach_exists(self.chain_ref(), p, &allowed, psi),
                None => vec![true; n],
            };
            let constant: Vec<bool> = (0..n).map(|s| psi[s] || !phi[s] || !reach[s]).collect();
            let x0: Vec<f64> = psi.iter().map(|&b| b as u8 as f64).collect();
            self.transient_sum(x0, t2 - t1, Some(&constant))
        } else {
            self.until(phi, psi, Opt::None)
        };
        if t1 > 0.0 {
            // Before the window the path must stay in φ: the ¬φ states are constant 0.
            let x: Vec<f64> = (0..n).map(|s| if phi[s] { x[s] } else { 0.0 }).collect();
            let not_phi: Vec<bool> = phi.iter().map(|b| !b).collect();
            Ok(self.transient_sum(x, t1, Some(&not_phi)))
        } else {
            Ok(x)
        }
    }

    // ------------------------------------------------------------------ rewards

    fn trans_rewards(&self, r: Option<usize>) -> &'a [f64] {
        let m: &'a Model = self.model;
        match r {
            Some(r) => &m.trans_rewards[r],
            None => &[],
        }
    }

    fn state_rewards(&self, r: Option<usize>) -> R<Vec<f64>> {
        let m = self.model;
        let Some(r) = r else {
            return Ok(vec![1.0; m.num_states()]);
        };
        let items = &self.prog.rewards[r].state;
        let mut out = vec![0.0; m.num_states()];
        if items.is_empty() {
            return Ok(out);
        }
        let mut cur = vec![0i64; m.vars.len()];
        for (s, o) in out.iter_mut().enumerate() {
            m.valuation(s, &mut cur);
            for (g, v) in items {
                if g.eval_bool(&cur, s)? {
                    *o += v.eval_f64(&cur, s)?;
                }
            }
        }
        Ok(out)
    }

    /// Reward per step (DTMC/MDP: state + transition reward of each choice) or, for a CTMC, per
    /// visit of the embedded chain (state reward × mean sojourn time + impulse).
    fn choice_rewards(&mut self, r: Option<usize>) -> R<Vec<f64>> {
        let sr = self.state_rewards(r)?;
        let m = self.model;
        let tr = self.trans_rewards(r);
        let ctmc = m.model_type == ModelType::Ctmc;
        let exit = if ctmc {
            self.exit_rates().to_vec()
        } else {
            Vec::new()
        };
        let mut out = vec![0.0; m.num_choices()];
        for s in 0..m.num_states() {
            for c in m.choices(s) {
                let st = if ctmc {
                    if exit[s] > 0.0 {
                        sr[s] / exit[s]
                    } else if sr[s] > 0.0 {
                        f64::INFINITY
                    } else {
                        0.0
                    }
                } else {
                    sr[s]
                };
                out[c] = st + tr.get(c).copied().unwrap_or(0.0);
            }
        }
        Ok(out)
    }

    /// Reward per unit of time of a CTMC state (state reward + exit rate × impulse), or per step.
    fn rate_rewards(&mut self, r: Option<usize>) -> R<Vec<f64>> {
        let sr = self.state_rewards(r)?;
        let m = self.model;
        let tr = self.trans_rewards(r);
        if tr.is_empty() {
            return Ok(sr);
        }
        let ctmc = m.model_type == ModelType::Ctmc;
        let exit = if ctmc {
            self.exit_rates().to_vec()
        } else {
            Vec::new()
        };
        Ok((0..m.num_states())
            .map(|s| {
                let imp: f64 = m.choices(s).map(|c| tr[c]).sum();
                sr[s] + if ctmc { exit[s] * imp } else { imp }
            })
            .collect())
    }

    fn reward(&mut self, rew: &RewardRef, opt: Opt, path: &RewardPath, sp: Span) -> R<Vec<f64>> {
        let r = self.reward_index(rew)?;
        let ctmc = self.model.model_type == ModelType::Ctmc;
        match path {
            RewardPath::Reach(e) => {
                let target = self.states(e)?;
                let rew = self.choice_rewards(r)?;
                Ok(self.reach_reward(&target, &rew, opt))
            }
            RewardPath::Cumul(e) => {
                let t = self.const_f64(e)?;
                if ctmc {
                    let rr = self.rate_rewards(r)?;
                    return Ok(self.ctmc_cumulative(rr, t));
                }
                if t.fract() != 0.0 || t < 0.0 {
                    return Err(input(e.span, "step bounds must be non-negative integers"));
                }
                let sr = self.state_rewards(r)?;
                let m = self.model;
                let tr = self.trans_rewards(r);
                let cr: Vec<f64> = (0..m.num_choices())
                    .map(|c| tr.get(c).copied().unwrap_or(0.0))
                    .collect();
                let n = m.num_states();
                let mut x = vec![0.0; n];
                let mut y = vec![0.0; n];
                for _ in 0..t as usize {
                    for s in 0..n {
                        y[s] = sr[s] + step_opt(m, s, &x, opt, Some(&cr));
                    }
                    std::mem::swap(&mut x, &mut y);
                }
                Ok(x)
            }
            RewardPath::Inst(e) => {
                let t = self.const_f64(e)?;
                let sr = self.state_rewards(r)?;
                if ctmc {
                    return Ok(self.transient_sum(sr, t, None));
                }
                if t.fract() != 0.0 || t < 0.0 {
                    return Err(input(e.span, "step bounds must be non-negative integers"));
                }
                let m = self.model;
                let n = m.num_states();
                let mut x = sr;
                let mut y = vec![0.0; n];
                for _ in 0..t as usize {
                    for s in 0..n {
                        y[s] = step_opt(m, s, &x, opt, None);
                    }
                    std::mem::swap(&mut x, &mut y);
                }
                Ok(x)
            }
            RewardPath::Steady => {
                let rr = self.rate_rewards(r)?;
                self.steady(&rr, sp)
            }
            RewardPath::Ltl(l, lsp) => {
                let rew = self.choice_rewards(r)?;
                self.cosafe_reward(&rew, opt, l, *lsp)
            }
            RewardPath::Total => {
                if ctmc {
                    return Err(input(
                        sp,
                        "total rewards `C` are supported on DTMCs and MDPs, not on CTMCs",
                    ));
                }
                let rew = self.choice_rewards(r)?;
                Ok(self.total_reward(&rew, opt))
            }
        }
    }

    /// `R=? [ C ]` ([`crate::total_reward`]): the minimum (or a DTMC's value) is the reward to
    /// reach the zero-reward end components; the maximum is infinite from positive-reward end
    /// components' ancestors and solved with the zero-reward ones collapsed elsewhere.
    fn total_reward(&mut self, rew: &[f64], opt: Opt) -> Vec<f64> {
        if opt != Opt::Max || !self.model.model_type.nondeterministic() {
            let z = crate::total_reward::zero_reward_ec_states(self.model, rew);
            return self.reach_reward(&z, rew, opt);
        }
        let (eps, max_sweeps) = self.solver_settings();
        let Some((m, p)) = self.chain_preds() else {
            return vec![];
        };
        let t = crate::total_reward::max_total(m, p, rew);
        let fixed: Vec<f64> = t
            .infinite
            .iter()
            .map(|&inf| if inf { f64::INFINITY } else { 0.0 })
            .collect();
        let sol = solve(&Problem {
            model: m,
            maybe: &t.maybe,
            fixed: &fixed,
            reward: Some(rew),
            opt,
            collapse: Some(&t.collapse),
            allowed_choice: None,
            upper: None,
            eps,
            max_sweeps,
            budget: &self.opts.budget,
        });
        self.accept(sol)
    }

    fn reach_reward(&mut self, target: &[bool], rew: &[f64], opt: Opt) -> Vec<f64> {
        let (eps, max_sweeps) = self.solver_settings();
        let Some((m, p)) = self.chain_preds() else {
            return vec![];
        };
        let n = m.num_states();
        let all = vec![true; n];
        // States where the target is reached almost surely (under all schedulers for max, some for min).
        let finite = prob1(m, p, &all, target, opt != Opt::Min);
        let maybe: Vec<bool> = (0..n).map(|s| finite[s] && !target[s]).collect();
        let fixed: Vec<f64> = (0..n)
            .map(|s| if finite[s] { 0.0 } else { f64::INFINITY })
            .collect();
        let nondet = m.model_type.nondeterministic();
        let (allowed, collapse) = if opt == Opt::Min && nondet {
            let allowed: Vec<bool> = (0..m.num_choices())
                .map(|c| m.trans(c).all(|k| finite[m.cols[k] as usize]))
                .collect();
            let zero = |c: usize| allowed[c] && rew[c] == 0.0;
            let (ids, _) = mecs(m, &maybe, &zero);
            (Some(allowed), Some(ids))
        } else {
            (None, None)
        };
        let sol = solve(&Problem {
            model: m,
            maybe: &maybe,
            fixed: &fixed,
            reward: Some(rew),
            opt,
            collapse: collapse.as_deref(),
            allowed_choice: allowed.as_deref(),
            upper: None,
            eps,
            max_sweeps,
            budget: &self.opts.budget,
        });
        self.accept(sol)
    }

    fn ctmc_cumulative(&mut self, rr: Vec<f64>, t: f64) -> Vec<f64> {
        let q = self.unif_rate();
        let fg = poisson(q * t, self.eps() * 1e-2);
        let tol = self.eps() * 1e-3;
        let n = rr.len();
        let r =
            crate::uniformisation::cumulative(self.model, q, &fg, &rr, (t, tol), &self.opts.budget);
        self.unwrap_budget(r, n)
    }

    // ------------------------------------------------------------------ steady state

    /// Long-run average of `vals` (per unit time for CTMCs, per step for DTMCs) from each state.
    fn steady(&mut self, vals: &[f64], sp: Span) -> R<Vec<f64>> {
        if self.model.model_type.nondeterministic() {
            return Err(input(
                sp,
                "steady-state properties of MDPs are not supported",
            ));
        }
        let m = self.model;
        let n = m.num_states();
        let ctmc = m.model_type == ModelType::Ctmc;
        let bsccs = crate::steady::bsccs(m);
        let mut fixed = vec![0.0; n];
        let mut in_b = vec![false; n];
        let mut maxv: f64 = 0.0;
        for b in &bsccs {
            let pi = crate::steady::stationary(m, b, ctmc, self.opts.eps);
            let v: f64 = b.iter().zip(&pi).map(|(&s, p)| p * vals[s as usize]).sum();
            for &s in b {
                fixed[s as usize] = v;
                in_b[s as usize] = true;
            }
            maxv = maxv.max(v);
        }
        let maybe: Vec<bool> = in_b.iter().map(|b| !b).collect();
        let eps = self.eps();
        let max_sweeps = self.opts.max_sweeps;
        self.prepare_chain();
        let chain = self.chain_ref();
        let sol = solve(&Problem {
            model: chain,
            maybe: &maybe,
            fixed: &fixed,
            reward: None,
            opt: Opt::None,
            collapse: None,
            allowed_choice: None,
            upper: Some(maxv),
            eps,
            max_sweeps,
            budget: &self.opts.budget,
        });
        Ok(self.accept(sol))
    }
}

/// opt over the choices of `s` of (reward + Σ P·x).
/// The refusal of a scheduler export for `prop`: only `what` is supported.
fn unsupported_scheduler(prop: &Property, what: &str) -> ProbError {
    input(
        prop.expr.span,
        format!("scheduler export is supported for {what}"),
    )
}

fn step_opt(m: &Model, s: usize, x: &[f64], opt: Opt, rew: Option<&[f64]>) -> f64 {
    let mut best = match opt {
        Opt::Min => f64::INFINITY,
        _ => f64::NEG_INFINITY,
    };
    for c in m.choices(s) {
        let mut v = rew.map_or(0.0, |r| r[c]);
        for k in m.trans(c) {
            v += m.vals[k] * x[m.cols[k] as usize];
        }
        best = match opt {
            Opt::Min => best.min(v),
            _ => best.max(v),
        };
    }
    best
}

impl<'a> StateFormulas<'a> for Checker<'a> {
    fn parts(&self) -> (&'a Model, &'a Program, &Arc<Names>) {
        (self.model, self.prog, &self.names)
    }
    fn prob_values(&mut self, op: OpAt<'_>, path: &PathFormula) -> R<Vec<f64>> {
        let opt = self.effective_opt(op.opt, op.bound, op.sp)?;
        self.prob(opt, path, op.sp)
    }
    fn reward_values(&mut self, op: OpAt<'_>, rew: &RewardRef, path: &RewardPath) -> R<Vec<f64>> {
        let opt = self.effective_opt(op.opt, op.bound, op.sp)?;
        self.reward(rew, opt, path, op.sp)
    }
    fn steady_values(&mut self, expr: &Expr, sp: Span) -> R<Vec<f64>> {
        let set = self.states(expr)?;
        let vals: Vec<f64> = set.iter().map(|&b| b as u8 as f64).collect();
        self.steady(&vals, sp)
    }
    fn ctl_states(&mut self, forall: bool, path: &PathFormula, sp: Span) -> R<Vec<bool>> {
        self.ctl(forall, path, sp)
    }
}
