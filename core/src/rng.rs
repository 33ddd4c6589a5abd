//! The simulation's one source of randomness: SplitMix64, seeded from the scenario.
//!
//! A named algorithm written out here (rather than `rand`'s `StdRng`, whose
//! algorithm may change between versions) so that the same seed gives the same
//! numbers on every platform, natively and in wasm32. Only `u32`/`u64` are drawn,
//! never `usize`.

use serde::{Deserialize, Serialize};

/// SplitMix64 (Steele, Lea, Flood 2014; the seeding generator of Java's
/// `SplittableRandom`). Small state, so cloning a simulation is cheap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimRng {
    state: u64,
}

impl SimRng {
    /// A generator whose whole future is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 32 random bits (the high half, which mixes best).
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform integer in `0..bound`; `bound` of zero yields zero.
    ///
    /// Lemire's multiply-and-reject method, so there is no modulo bias.
    pub fn below(&mut self, bound: u32) -> u32 {
        if bound == 0 {
            return 0;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u64::from(self.next_u32()) * u64::from(bound);
            if (product as u32) >= threshold {
                return (product >> 32) as u32;
            }
        }
    }

    /// A random (version 4) UUID in its usual text form, as Kafka's
    /// `Uuid.randomUuid()` would print it in a member id.
    pub fn uuid_v4(&mut self) -> String {
        let hi = (self.next_u64() & !0xF000) | 0x4000;
        let lo = (self.next_u64() & !(0xC000_u64 << 48)) | (0x8000_u64 << 48);
        format!("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xFFFF, hi & 0xFFFF, lo >> 48, lo & 0xFFFF_FFFF_FFFF)
    }

    /// A Kafka `Uuid.randomUuid().toString()`: a version-4 UUID in URL-safe base64
    /// without padding (22 characters), never starting with '-' (Kafka draws again).
    /// KIP-848 consumers make their member id this way (KIP-1082).
    pub fn kafka_uuid(&mut self) -> String {
        const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        loop {
            let hi = (self.next_u64() & !0xF000) | 0x4000;
            let lo = (self.next_u64() & !(0xC000_u64 << 48)) | (0x8000_u64 << 48);
            let bytes: Vec<u8> = hi.to_be_bytes().into_iter().chain(lo.to_be_bytes()).collect();
            let mut out = String::with_capacity(22);
            for chunk in bytes.chunks(3) {
                let n = chunk.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
                let chars = chunk.len() + 1;
                for i in 0..chars {
                    out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
                }
            }
            if !out.starts_with('-') {
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafka_uuid_is_22_url_safe_characters() {
        let mut r = SimRng::new(7);
        for _ in 0..200 {
            let id = r.kafka_uuid();
            assert_eq!(id.len(), 22);
            assert!(!id.starts_with('-'));
            assert!(id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{id}");
        }
    }

    #[test]
    fn same_seed_same_sequence_and_known_first_value() {
        // First output of SplitMix64 seeded with 0, as published with the algorithm.
        let mut a = SimRng::new(0);
        assert_eq!(a.next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut b = SimRng::new(42);
        let mut c = SimRng::new(42);
        for _ in 0..100 {
            assert_eq!(b.next_u64(), c.next_u64());
        }
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = SimRng::new(7);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let v = r.below(5);
            assert!(v < 5);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn uuid_has_version_and_variant_bits() {
        let mut r = SimRng::new(1);
        let u = r.uuid_v4();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"), "{u}");
    }
}
