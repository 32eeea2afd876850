//! The binary reader (`aig`): inputs and latches implicit, AND gates as pairs of 7-bit varint
//! deltas. Errors name the byte offset.

use crate::aag::Cur;
use crate::aig::{Aig, Located, Raw};
use verikit_diag::Diagnostic;

pub(crate) fn parse(bytes: &[u8]) -> Result<Aig, Diagnostic> {
    inner(bytes).map_err(|(at, m)| {
        Diagnostic::error(format!("{m} (at byte offset {at})"))
            .with_note(format!("byte offset {at}"))
    })
}

fn varint(c: &mut Cur) -> Result<u32, Located> {
    let start = c.pos;
    let mut x: u64 = 0;
    let mut shift = 0;
    loop {
        let Some(&b) = c.b.get(c.pos) else {
            return Err((
                c.pos,
                "unexpected end of file inside the binary AND section".into(),
            ));
        };
        c.pos += 1;
        x |= ((b & 0x7f) as u64) << shift;
        if x > u32::MAX as u64 {
            return Err((start, "delta in the binary AND section is too large".into()));
        }
        if b & 0x80 == 0 {
            return Ok(x as u32);
        }
        shift += 7;
        if shift > 35 {
            return Err((start, "delta in the binary AND section is too long".into()));
        }
    }
}

fn inner(bytes: &[u8]) -> Result<Aig, Located> {
    let mut c = Cur::new(bytes);
    let h = c.header(b"aig")?;
    let defined = h.i as u64 + h.l as u64 + h.a as u64;
    if defined != h.m as u64 {
        return Err((
            4,
            format!(
                "wrong header counts: in binary AIGER M must be I + L + A = {defined}, found {}",
                h.m
            ),
        ));
    }
    let lines = h.l as u64 + h.o as u64 + h.b as u64 + h.c as u64 + h.j as u64 + h.f as u64;
    if lines * 2 + h.a as u64 * 2 > bytes.len() as u64 {
        return Err((
            0,
            "wrong header counts: more items announced than the file can hold".into(),
        ));
    }
    let mut raw = Raw {
        maxvar: h.m,
        ..Raw::default()
    };
    for k in 0..h.i {
        raw.inputs.push((2 * (k as u32 + 1), 0));
    }
    for k in 0..h.l {
        let v = c.nums(1, 2, "a latch line `next [reset]`")?;
        let lit = 2 * (h.i + k + 1) as u32;
        raw.latches.push((
            lit,
            v.first().map_or(0, |x| x.0),
            v.get(1).map(|x| x.0),
            v.first().map_or(0, |x| x.1),
        ));
    }
    c.properties(&h, &mut raw)?;
    for k in 0..h.a {
        let at = c.pos;
        let lhs = 2 * (h.i + h.l + k + 1) as u32;
        let d0 = varint(&mut c)?;
        let d1 = varint(&mut c)?;
        if d0 == 0 || d0 > lhs {
            return Err((
                at,
                format!("AND gate {lhs}: first delta {d0} must be in 1..={lhs}"),
            ));
        }
        let rhs0 = lhs - d0;
        if d1 > rhs0 {
            return Err((
                at,
                format!("AND gate {lhs}: second delta {d1} exceeds rhs0 = {rhs0}"),
            ));
        }
        raw.ands.push((lhs, rhs0, rhs0 - d1, at));
    }
    c.trailer(&h, &mut raw)?;
    raw.finish()
}
