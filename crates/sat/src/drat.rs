//! DRAT proof logging (Heule, Hunt, Wetzler, *Trimming while checking clausal proofs*, FMCAD 2013;
//! Wetzler, Heule, Hunt, *DRAT-trim*, SAT 2014): the CDCL core writes every learnt clause as an
//! addition and every clause it drops as a deletion `d`, in the text format (`1 -2 0`, `d 1 -2 0`)
//! or the binary one (`a`/`d`, then each literal `2·|l| + (l<0)` as a little-endian base-128
//! number, then `0`). A [`ProofLog`] is attached with [`crate::Cdcl::set_proof`]; without one the
//! core pays one branch per learnt or deleted clause.

use crate::lit::Lit;
use std::io::Write;

/// Where proof steps go: an in-memory buffer, flushed into a writer when one is given.
pub struct ProofLog {
    binary: bool,
    buf: Vec<u8>,
    out: Option<Box<dyn Write + Send>>,
    error: Option<std::io::Error>,
    additions: u64,
    deletions: u64,
}

const FLUSH_AT: usize = 1 << 16;

impl ProofLog {
    /// A proof kept in memory ([`ProofLog::finish`] returns it).
    pub fn in_memory(binary: bool) -> ProofLog {
        ProofLog {
            binary,
            buf: Vec::new(),
            out: None,
            error: None,
            additions: 0,
            deletions: 0,
        }
    }

    /// A proof streamed into `out` (buffered).
    pub fn to_writer(out: Box<dyn Write + Send>, binary: bool) -> ProofLog {
        ProofLog {
            out: Some(out),
            ..ProofLog::in_memory(binary)
        }
    }

    /// Number of clause additions and deletions logged so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.additions, self.deletions)
    }

    fn step(&mut self, tag: u8, lits: &[Lit]) {
        if self.binary {
            self.buf.push(tag);
            for l in lits {
                let mut u = 2 * (u64::from(l.var()) + 1) + u64::from(l.is_neg());
                while u > 127 {
                    self.buf.push((u & 127) as u8 | 128);
                    u >>= 7;
                }
                self.buf.push(u as u8);
            }
            self.buf.push(0);
        } else {
            if tag == b'd' {
                self.buf.extend_from_slice(b"d ");
            }
            for l in lits {
                let v = i64::from(l.var()) + 1;
                let _ = write!(self.buf, "{} ", if l.is_neg() { -v } else { v });
            }
            self.buf.extend_from_slice(b"0\n");
        }
        if self.buf.len() >= FLUSH_AT && self.out.is_some() {
            self.flush_buf();
        }
    }

    fn flush_buf(&mut self) {
        if let Some(out) = &mut self.out {
            if self.error.is_none() {
                if let Err(e) = out.write_all(&self.buf) {
                    self.error = Some(e);
                }
            }
            self.buf.clear();
        }
    }

    /// Logs the addition of a clause.
    pub fn add(&mut self, lits: &[Lit]) {
        self.additions += 1;
        self.step(b'a', lits);
    }

    /// Logs the deletion of a clause.
    pub fn delete(&mut self, lits: &[Lit]) {
        self.deletions += 1;
        self.step(b'd', lits);
    }

    /// Flushes the writer; returns the proof bytes of an in-memory log (empty when streamed), or
    /// the first write error.
    pub fn finish(mut self) -> std::io::Result<Vec<u8>> {
        self.flush_buf();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if let Some(out) = &mut self.out {
            out.flush()?;
        }
        Ok(std::mem::take(&mut self.buf))
    }
}
