//! SplitMix64 (Steele, Lea, Flood, *Fast splittable pseudorandom number generators*, OOPSLA
//! 2014): the seeded generator of the random simulations (EverLost's traces, the candidate
//! classes of latch correspondence), deterministic for a seed.

pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
