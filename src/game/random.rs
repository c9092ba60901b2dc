//! The project's one pseudo-random generator: splitmix64 (Steele, Lea and Flood, 2014).
//! Small, seedable and deterministic: it draws the hash keys of [`MoveTables`](super::MoveTables),
//! and the test support (`koma::fuzzing::Bytes`) picks moves and samples with it.

/// A splitmix64 generator: each call returns the next number of the sequence its seed
/// starts.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
