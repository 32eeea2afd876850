//! The explicit model: states packed into machine words, transitions in compressed sparse rows
//! with a choice level (one choice per state for DTMCs/CTMCs, several for MDPs).

use crate::lang::ast::ModelType;
use crate::lang::typecheck::VarInfo;

/// How variable values are packed into words: each variable occupies `bits` bits at `shift` of
/// word `word` and stores `value - lo`. Variables never straddle two words.
#[derive(Clone, Debug)]
pub struct Layout {
    pub fields: Vec<Field>,
    pub words: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub word: u32,
    pub shift: u32,
    pub mask: u64,
    pub lo: i64,
}

impl Layout {
    pub fn new(vars: &[VarInfo]) -> Layout {
        let mut fields = Vec::with_capacity(vars.len());
        let (mut word, mut used) = (0u32, 0u32);
        for v in vars {
            let span = (v.hi - v.lo) as u64;
            let bits = (64 - span.leading_zeros()).max(1);
            if used + bits > 64 {
                word += 1;
                used = 0;
            }
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            fields.push(Field {
                word,
                shift: used,
                mask,
                lo: v.lo,
            });
            used += bits;
        }
        let words = if vars.is_empty() {
            1
        } else {
            word as usize + 1
        };
        Layout { fields, words }
    }

    pub fn pack(&self, vals: &[i64], out: &mut [u64]) {
        out.iter_mut().for_each(|w| *w = 0);
        for (f, &v) in self.fields.iter().zip(vals) {
            out[f.word as usize] |= ((v - f.lo) as u64 & f.mask) << f.shift;
        }
    }

    pub fn unpack(&self, words: &[u64], out: &mut [i64]) {
        for (f, o) in self.fields.iter().zip(out.iter_mut()) {
            *o = ((words[f.word as usize] >> f.shift) & f.mask) as i64 + f.lo;
        }
    }
}

/// An explicit DTMC, CTMC or MDP (possibly with interval probabilities).
#[derive(Clone, Debug)]
pub struct Model {
    pub model_type: ModelType,
    pub vars: Vec<VarInfo>,
    pub layout: Layout,
    /// Packed states, `layout.words` words each, in exploration (breadth-first) order.
    pub states: Vec<u64>,
    pub initial: Vec<u32>,
    /// Choices of state `s`: `row_choices[s]..row_choices[s+1]`.
    pub row_choices: Vec<u32>,
    /// Transitions of choice `c`: `choice_start[c]..choice_start[c+1]`.
    pub choice_start: Vec<u64>,
    pub cols: Vec<u32>,
    /// Probabilities (DTMC/MDP), rates (CTMC), or lower bounds (interval models).
    pub vals: Vec<f64>,
    /// Upper bounds for interval models (empty otherwise).
    pub upper: Vec<f64>,
    /// Action label index of each choice (`u32::MAX` for none or mixed).
    pub choice_action: Vec<u32>,
    pub actions: Vec<String>,
    /// Per reward structure: the expected transition (impulse) reward of each choice, or empty.
    pub trans_rewards: Vec<Vec<f64>>,
    /// States that had no enabled command and received a self-loop.
    pub fixed_deadlocks: Vec<u32>,
}

impl Model {
    /// A model of the given type with no states, choices or variables yet: fill `states`
    /// (`layout.words` words per state), then add each state's choices with
    /// `push_interval_choice` and close the state with `end_state`.
    pub fn empty(model_type: ModelType) -> Model {
        Model {
            model_type,
            vars: Vec::new(),
            layout: Layout::new(&[]),
            states: Vec::new(),
            initial: Vec::new(),
            row_choices: vec![0],
            choice_start: vec![0],
            cols: Vec::new(),
            vals: Vec::new(),
            upper: Vec::new(),
            choice_action: Vec::new(),
            actions: Vec::new(),
            trans_rewards: Vec::new(),
            fixed_deadlocks: Vec::new(),
        }
    }

    /// Appends an unlabelled choice with interval successors `(target, lower, upper)` to the
    /// state being built.
    pub fn push_interval_choice(&mut self, succ: impl IntoIterator<Item = (u32, f64, f64)>) {
        for (d, l, u) in succ {
            self.cols.push(d);
            self.vals.push(l);
            self.upper.push(u);
        }
        self.choice_start.push(self.cols.len() as u64);
        self.choice_action.push(u32::MAX);
    }

    /// Closes the state being built: the choices pushed since the previous `end_state` are its.
    pub fn end_state(&mut self) {
        self.row_choices.push(self.choice_start.len() as u32 - 1);
    }

    pub fn num_states(&self) -> usize {
        self.row_choices.len().saturating_sub(1)
    }
    pub fn num_choices(&self) -> usize {
        self.choice_start.len().saturating_sub(1)
    }
    pub fn num_transitions(&self) -> usize {
        self.cols.len()
    }
    pub fn is_interval(&self) -> bool {
        !self.upper.is_empty()
    }
    pub fn choices(&self, s: usize) -> std::ops::Range<usize> {
        self.row_choices[s] as usize..self.row_choices[s + 1] as usize
    }
    pub fn trans(&self, c: usize) -> std::ops::Range<usize> {
        self.choice_start[c] as usize..self.choice_start[c + 1] as usize
    }
    /// Variable values of state `s`.
    pub fn valuation(&self, s: usize, out: &mut [i64]) {
        let w = self.layout.words;
        self.layout.unpack(&self.states[s * w..(s + 1) * w], out);
    }
    /// Exit rate (CTMC) or total outgoing mass of each state's single choice.
    pub fn exit_rates(&self) -> Vec<f64> {
        (0..self.num_states())
            .map(|s| {
                self.choices(s)
                    .flat_map(|c| self.trans(c))
                    .map(|t| self.vals[t])
                    .sum()
            })
            .collect()
    }
    /// Approximate memory use of the explicit representation in bytes.
    pub fn memory_bytes(&self) -> usize {
        self.states.len() * 8
            + self.row_choices.len() * 4
            + self.choice_start.len() * 8
            + self.cols.len() * 4
            + self.vals.len() * 8
            + self.upper.len() * 8
            + self.choice_action.len() * 4
    }
}
