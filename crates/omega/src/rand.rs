//! Random LTL formulas in the manner of Spot's `randltl` (Duret-Lutz's `randltl`, after Tauriainen
//! and Heljanko's `lbtt` generator): a formula of a requested tree size is drawn by choosing an
//! operator with probability proportional to its weight among those that fit the remaining size
//! (atoms and constants for size 1, unary operators for size 2, unary or binary ones above; a
//! binary operator splits the remaining size uniformly between its operands).

use crate::ltl::ast::{Arena, F};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Operator weights (0 disables an operator), with `randltl`'s defaults (all 1, atoms 3).
#[derive(Clone, Debug)]
pub struct Weights {
    pub ap: u32,
    pub tt: u32,
    pub ff: u32,
    pub not: u32,
    pub x: u32,
    pub f: u32,
    pub g: u32,
    pub and: u32,
    pub or: u32,
    pub implies: u32,
    pub equiv: u32,
    pub xor: u32,
    pub u: u32,
    pub r: u32,
    pub w: u32,
    pub m: u32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            ap: 3,
            tt: 1,
            ff: 1,
            not: 1,
            x: 1,
            f: 1,
            g: 1,
            and: 1,
            or: 1,
            implies: 1,
            equiv: 1,
            xor: 1,
            u: 1,
            r: 1,
            w: 1,
            m: 1,
        }
    }
}

impl Weights {
    /// Sets weights from `name=value` pairs separated by commas (`randltl`'s names:
    /// `ap,false,true,not,X,F,G,and,or,implies,equiv,xor,U,R,W,M`).
    pub fn parse(spec: &str) -> Result<Weights, String> {
        let mut w = Weights::default();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("expected name=value, found `{part}`"))?;
            let v: u32 = v
                .trim()
                .parse()
                .map_err(|_| format!("`{v}` is not a weight"))?;
            let slot = match k.trim() {
                "ap" => &mut w.ap,
                "true" => &mut w.tt,
                "false" => &mut w.ff,
                "not" => &mut w.not,
                "X" => &mut w.x,
                "F" => &mut w.f,
                "G" => &mut w.g,
                "and" => &mut w.and,
                "or" => &mut w.or,
                "implies" => &mut w.implies,
                "equiv" => &mut w.equiv,
                "xor" => &mut w.xor,
                "U" => &mut w.u,
                "R" => &mut w.r,
                "W" => &mut w.w,
                "M" => &mut w.m,
                other => return Err(format!("unknown operator `{other}`")),
            };
            *slot = v;
        }
        if w.ap == 0 {
            return Err("the weight of `ap` must be positive".into());
        }
        Ok(w)
    }
}

/// A random-formula generator.
pub struct RandLtl {
    rng: SmallRng,
    aps: Vec<String>,
    pub weights: Weights,
}

impl RandLtl {
    pub fn new(aps: Vec<String>, seed: u64, weights: Weights) -> Self {
        RandLtl {
            rng: SmallRng::seed_from_u64(seed),
            aps,
            weights,
        }
    }

    /// A formula whose tree size is drawn uniformly in `lo..=hi`.
    pub fn formula_in(&mut self, arena: &mut Arena, lo: usize, hi: usize) -> F {
        let n = self.rng.gen_range(lo.max(1)..=hi.max(lo.max(1)));
        self.formula(arena, n)
    }

    /// A formula of tree size `size` (at least 1).
    pub fn formula(&mut self, arena: &mut Arena, size: usize) -> F {
        let size = size.max(1);
        let w = self.weights.clone();
        if size == 1 || self.aps.is_empty() {
            let total = w.ap + w.tt + w.ff;
            let mut r = self.rng.gen_range(0..total.max(1));
            if r < w.ap || self.aps.is_empty() && w.tt + w.ff == 0 {
                let i = self.rng.gen_range(0..self.aps.len().max(1));
                let name = self.aps.get(i).cloned().unwrap_or_else(|| "p0".into());
                return arena.ap(&name);
            }
            r -= w.ap;
            return if r < w.tt { arena.tt() } else { arena.ff() };
        }
        let unary = [(w.not, 0u8), (w.x, 1), (w.f, 2), (w.g, 3)];
        let binary = [
            (w.and, 10u8),
            (w.or, 11),
            (w.implies, 12),
            (w.equiv, 13),
            (w.xor, 14),
            (w.u, 15),
            (w.r, 16),
            (w.w, 17),
            (w.m, 18),
        ];
        let mut choices: Vec<(u32, u8)> = unary.to_vec();
        if size >= 3 {
            choices.extend_from_slice(&binary);
        }
        let total: u32 = choices.iter().map(|c| c.0).sum();
        if total == 0 {
            return self.formula(arena, 1);
        }
        let mut r = self.rng.gen_range(0..total);
        let mut op = choices[0].1;
        for &(wt, o) in &choices {
            if r < wt {
                op = o;
                break;
            }
            r -= wt;
        }
        if op < 10 {
            let a = self.formula(arena, size - 1);
            return match op {
                0 => arena.not(a),
                1 => arena.x(a),
                2 => arena.ev(a),
                _ => arena.gl(a),
            };
        }
        let left = self.rng.gen_range(1..size - 1);
        let a = self.formula(arena, left);
        let b = self.formula(arena, size - 1 - left);
        match op {
            10 => arena.and2(a, b),
            11 => arena.or2(a, b),
            12 => arena.implies(a, b),
            13 => arena.equiv(a, b),
            14 => arena.xor(a, b),
            15 => arena.u(a, b),
            16 => arena.r(a, b),
            17 => arena.w(a, b),
            _ => arena.m(a, b),
        }
    }
}

impl RandLtl {
    /// Up to `count` formulas of tree size in `lo..=hi`, as Spot's `randltl` outputs them: each
    /// one distinct from the previous ones (after `simplify`, if given) and not a constant
    /// (`1`, `0`). Stops early — returning what it has and the reason — when `max_trials` draws
    /// in a row (the parameter `omega.rand-max-trials`; Spot's `randltl` gives up the same way) give nothing new or when `budget` runs out.
    pub fn unique(
        &mut self,
        arena: &mut Arena,
        count: usize,
        (lo, hi): (usize, usize),
        simplify: Option<fn(&mut Arena, F) -> F>,
        max_trials: usize,
        budget: &verikit_diag::Budget,
    ) -> (Vec<F>, Option<String>) {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        while out.len() < count {
            let mut found = None;
            for _ in 0..max_trials {
                if let Err(e) = budget.check() {
                    return (out, Some(e.to_string()));
                }
                let mut f = self.formula_in(arena, lo, hi);
                if let Some(s) = simplify {
                    f = s(arena, f);
                }
                if !arena.is_true(f) && !arena.is_false(f) && seen.insert(f) {
                    found = Some(f);
                    break;
                }
            }
            match found {
                Some(f) => out.push(f),
                None => {
                    return (
                        out,
                        Some(format!(
                            "no new non-constant formula in {max_trials} draws (the size range has too few)"
                        )),
                    )
                }
            }
        }
        (out, None)
    }
}
