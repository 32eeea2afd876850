//! Mintermisation: turning transitions labelled by Boolean formulas over bit atoms (`.mata`
//! `@NFA-bits`) into transitions over explicit letters.
//!
//! The letters are the classes of the coarsest partition of the bit vectors `{0,1}^k` such that
//! every label formula is either true on a whole class or false on it (the minterms of the label
//! set). Each formula is evaluated once into a truth table over all `2^k` vectors (bit-parallel,
//! 64 vectors per machine word), the partition is refined by each distinct table, and each formula
//! then covers the classes inside its table. This is exact and takes `O(#formulas · 2^k / 64)` word
//! operations for the tables plus `O(#distinct formulas · 2^k)` for the refinement; it is limited
//! to [`MAX_ATOMS`] atoms. Letters with no transitions are kept, since they belong to `Σ` (they
//! matter for universality and inclusion).

use rustc_hash::FxHashMap;
use verikit_logic::BoolExpr;

/// The largest number of atoms mintermised explicitly (2^16 bit vectors).
pub(crate) const MAX_ATOMS: usize = 16;

/// The result of mintermisation.
#[derive(Clone, Debug)]
pub(crate) struct Minterms {
    /// For each formula (in input order), the letters (classes) on which it is true, sorted.
    pub cover: Vec<Vec<u32>>,
    /// For each letter, a representative bit vector (bit `i` = atom `i`), the smallest in the class.
    pub representative: Vec<u64>,
    /// For each letter, how many bit vectors it stands for.
    pub class_size: Vec<u64>,
    /// For each bit vector (bit `i` = atom `i`), its letter.
    pub class: Vec<u32>,
}

fn table(e: &BoolExpr, k: usize, words: usize) -> Vec<u64> {
    let mask_last = if k >= 6 {
        u64::MAX
    } else {
        (1u64 << (1u64 << k)) - 1
    };
    let fix = |mut v: Vec<u64>| {
        if let Some(l) = v.last_mut() {
            *l &= mask_last;
        }
        v
    };
    match e {
        BoolExpr::Const(b) => fix(vec![if *b { u64::MAX } else { 0 }; words]),
        BoolExpr::Var(i) => {
            let i = *i as usize;
            let mut v = vec![0u64; words];
            if i < 6 {
                // Patterns within one word.
                let pat: u64 = match i {
                    0 => 0xAAAA_AAAA_AAAA_AAAA,
                    1 => 0xCCCC_CCCC_CCCC_CCCC,
                    2 => 0xF0F0_F0F0_F0F0_F0F0,
                    3 => 0xFF00_FF00_FF00_FF00,
                    4 => 0xFFFF_0000_FFFF_0000,
                    _ => 0xFFFF_FFFF_0000_0000,
                };
                v.iter_mut().for_each(|w| *w = pat);
            } else {
                for (wi, w) in v.iter_mut().enumerate() {
                    if (wi >> (i - 6)) & 1 == 1 {
                        *w = u64::MAX;
                    }
                }
            }
            fix(v)
        }
        BoolExpr::Not(x) => fix(table(x, k, words).into_iter().map(|w| !w).collect()),
        BoolExpr::And(es) => {
            let mut acc = fix(vec![u64::MAX; words]);
            for x in es {
                let t = table(x, k, words);
                acc.iter_mut().zip(t).for_each(|(a, b)| *a &= b);
            }
            acc
        }
        BoolExpr::Or(es) => {
            let mut acc = vec![0u64; words];
            for x in es {
                let t = table(x, k, words);
                acc.iter_mut().zip(t).for_each(|(a, b)| *a |= b);
            }
            acc
        }
        BoolExpr::Xor(a, b) | BoolExpr::Imp(a, b) | BoolExpr::Iff(a, b) => {
            let ta = table(a, k, words);
            let tb = table(b, k, words);
            let out = ta
                .into_iter()
                .zip(tb)
                .map(|(x, y)| match e {
                    BoolExpr::Xor(..) => x ^ y,
                    BoolExpr::Imp(..) => !x | y,
                    _ => !(x ^ y),
                })
                .collect();
            fix(out)
        }
    }
}

/// Mintermises `formulas` over atoms `0..k` (`k <= MAX_ATOMS`).
pub(crate) fn mintermise(formulas: &[BoolExpr], k: usize) -> Option<Minterms> {
    if k > MAX_ATOMS {
        return None;
    }
    let nvec: usize = 1 << k;
    let words = nvec.div_ceil(64);
    // Distinct formulas only.
    let mut ids: FxHashMap<&BoolExpr, usize> = FxHashMap::default();
    let mut distinct: Vec<&BoolExpr> = Vec::new();
    let which: Vec<usize> = formulas
        .iter()
        .map(|f| {
            *ids.entry(f).or_insert_with(|| {
                distinct.push(f);
                distinct.len() - 1
            })
        })
        .collect();
    let tables: Vec<Vec<u64>> = distinct.iter().map(|f| table(f, k, words)).collect();
    let bit = |t: &[u64], v: usize| (t[v >> 6] >> (v & 63)) & 1 == 1;
    // Refine the partition of the bit vectors by each table.
    let mut class = vec![0u32; nvec];
    let mut nclasses = 1usize;
    let mut remap: Vec<u32> = Vec::new();
    for t in &tables {
        remap.clear();
        remap.resize(2 * nclasses, u32::MAX);
        let mut next = 0u32;
        for (v, c) in class.iter_mut().enumerate() {
            let key = 2 * *c as usize + bit(t, v) as usize;
            if remap[key] == u32::MAX {
                remap[key] = next;
                next += 1;
            }
            *c = remap[key];
        }
        nclasses = next as usize;
    }
    // Classes are numbered in order of their smallest vector (the scan above preserves that).
    let mut representative = vec![u64::MAX; nclasses];
    let mut class_size = vec![0u64; nclasses];
    for (v, &c) in class.iter().enumerate() {
        let c = c as usize;
        if representative[c] == u64::MAX {
            representative[c] = v as u64;
        }
        class_size[c] += 1;
    }
    // The classes each distinct formula covers: a class is inside or outside a table, so its
    // representative decides.
    let dcover: Vec<Vec<u32>> = tables
        .iter()
        .map(|t| {
            (0..nclasses as u32)
                .filter(|&c| bit(t, representative[c as usize] as usize))
                .collect()
        })
        .collect();
    let cover = which.iter().map(|&i| dcover[i].clone()).collect();
    Some(Minterms {
        cover,
        representative,
        class_size,
        class,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(i: u32) -> BoolExpr {
        BoolExpr::Var(i)
    }

    #[test]
    fn full_minterms_give_single_vectors() {
        // a0 & !a1, !a0 & !a1 over 2 atoms: classes {01}, {00}, {10,11} (the rest).
        let fs = vec![
            BoolExpr::And(vec![v(0), BoolExpr::not(v(1))]),
            BoolExpr::And(vec![BoolExpr::not(v(0)), BoolExpr::not(v(1))]),
        ];
        let m = mintermise(&fs, 2).unwrap();
        assert_eq!(m.representative.len(), 3);
        assert_eq!(m.cover[0].len(), 1);
        assert_eq!(m.cover[1].len(), 1);
        assert_ne!(m.cover[0], m.cover[1]);
        assert_eq!(m.class_size.iter().sum::<u64>(), 4);
    }

    #[test]
    fn overlapping_formulas_split() {
        // Over 8 atoms: a7 | a0 and a7; classes: a7, !a7&a0, !a7&!a0.
        let fs = vec![BoolExpr::Or(vec![v(7), v(0)]), v(7)];
        let m = mintermise(&fs, 8).unwrap();
        assert_eq!(m.representative.len(), 3);
        assert_eq!(m.cover[0].len(), 2);
        assert_eq!(m.cover[1].len(), 1);
        for (c, &r) in m.representative.iter().enumerate() {
            let in0 = fs[0].eval_bits(r);
            assert_eq!(in0, m.cover[0].contains(&(c as u32)));
        }
        assert!(mintermise(&fs, 17).is_none());
    }
}
