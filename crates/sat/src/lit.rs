//! Variables and literals, shared by the solver, its proof log and the proof checker.

pub type Var = u32;

/// A literal: `2·var + sign` (sign 1 = negated).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Lit(pub u32);

impl Lit {
    #[inline]
    pub fn new(v: Var, negated: bool) -> Lit {
        Lit(2 * v + negated as u32)
    }
    #[inline]
    pub fn pos(v: Var) -> Lit {
        Lit(2 * v)
    }
    #[inline]
    pub fn var(self) -> Var {
        self.0 >> 1
    }
    #[inline]
    pub fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}
impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}
