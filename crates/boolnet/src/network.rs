//! Boolean networks (SETTA'17, Mizera–Pang–Qu–Yuan, "A New Decomposition Method for Attractor
//! Detection in Large Synchronous Boolean Networks", Sect. 2.1, Definition 1): named variables, each
//! with an update function over the variables, updated synchronously.
//!
//! Inputs are variables without an update function, or whose function is the identity `f(x) = x`
//! (as BoolNet and PyBoolNet write them). [`InputMode`] says how they evolve: `Free` keeps every
//! input constant at whatever value it starts with (so every valuation is explored, identity
//! function), `Zero`/`One` fix them to a constant.

use verikit_diag::Span;
use verikit_logic::BoolExpr;

/// How inputs (variables with no function or the identity function) are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InputMode {
    /// Each input keeps its initial value; all valuations are explored.
    #[default]
    Free,
    /// Every input is the constant `0`.
    Zero,
    /// Every input is the constant `1`.
    One,
}

/// A Boolean network as read from a file.
#[derive(Clone, Debug, Default)]
pub struct Network {
    /// Variable names, in file order (targets first, then free inputs in order of first use).
    pub names: Vec<String>,
    /// The update function of each variable; `None` for a free input.
    pub functions: Vec<Option<BoolExpr>>,
    /// Where each variable's function is defined in the source (if it came from a file).
    pub spans: Vec<Option<Span>>,
}

impl Network {
    pub fn new() -> Self {
        Network::default()
    }

    /// Builds a network from names and complete update functions.
    pub fn from_functions(names: Vec<String>, functions: Vec<BoolExpr>) -> Self {
        let n = names.len();
        Network {
            names,
            functions: functions.into_iter().map(Some).collect(),
            spans: vec![None; n],
        }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The index of a variable by name.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// True if variable `i` is an input: no function, or the identity function.
    pub fn is_input(&self, i: usize) -> bool {
        match self.functions.get(i) {
            Some(None) | None => true,
            Some(Some(BoolExpr::Var(v))) => *v as usize == i,
            Some(Some(_)) => false,
        }
    }

    /// The input variables.
    pub fn inputs(&self) -> Vec<usize> {
        (0..self.len()).filter(|&i| self.is_input(i)).collect()
    }

    /// The update functions with inputs resolved according to `mode`.
    pub fn resolved(&self, mode: InputMode) -> Vec<BoolExpr> {
        (0..self.len())
            .map(|i| {
                if self.is_input(i) {
                    match mode {
                        InputMode::Free => BoolExpr::Var(i as u32),
                        InputMode::Zero => BoolExpr::Const(false),
                        InputMode::One => BoolExpr::Const(true),
                    }
                } else {
                    self.functions[i].clone().unwrap_or(BoolExpr::Var(i as u32))
                }
            })
            .collect()
    }

    /// Regulators (parents) of each variable in the resolved functions.
    pub fn regulators(functions: &[BoolExpr]) -> Vec<Vec<u32>> {
        functions.iter().map(|f| f.vars()).collect()
    }

    /// The number of regulations (edges regulator → target) in the file's functions.
    pub fn regulation_count(&self) -> usize {
        self.functions
            .iter()
            .map(|f| f.as_ref().map_or(0, |f| f.vars().len()))
            .sum()
    }
}

/// One synchronous step on an explicit state (a full valuation of all variables).
pub(crate) fn step(functions: &[BoolExpr], state: &[bool]) -> Vec<bool> {
    functions
        .iter()
        .map(|f| f.eval(&|v| state.get(v as usize).copied().unwrap_or(false)))
        .collect()
}

/// A state as a 0/1 string in variable order.
pub(crate) fn state_string(state: &[bool]) -> String {
    state.iter().map(|&b| if b { '1' } else { '0' }).collect()
}
