//! Kafka's `Uuid` (KIP-516 topic ids): 16 bytes, printed as 22 characters of URL-safe base64 without padding.
//!
//! Ported from `org.apache.kafka.common.Uuid`: `hashCode` (the two halves XORed, then
//! folded to 32 bits), `compareTo` (the most significant half first, as signed `long`s),
//! `toString`, `fromString`, and the reserved ids `ZERO_UUID` and `METADATA_TOPIC_ID`.

use std::cmp::Ordering;
use std::fmt;

use crate::rng::SimRng;

/// A Kafka `Uuid`: the most and least significant 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Uuid {
    msb: u64,
    lsb: u64,
}

/// Why a text is not a Kafka topic id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UuidProblem {
    /// Not 22 characters long.
    Length,
    /// A character outside `A-Z a-z 0-9 - _`.
    Alphabet,
    /// The last character sets bits beyond the 16 bytes (not how Kafka prints an id).
    NotCanonical,
    /// `ZERO_UUID` or `METADATA_TOPIC_ID` (`AAAAAAAAAAAAAAAAAAAAAA`, `AAAAAAAAAAAAAAAAAAAAAQ`).
    Reserved,
    /// Starts with '-', which `Uuid.randomUuid` never gives.
    LeadingDash,
}

impl fmt::Display for UuidProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UuidProblem::Length => "a topic id is 22 characters of URL-safe base64",
            UuidProblem::Alphabet => "a topic id uses only A-Z, a-z, 0-9, '-' and '_'",
            UuidProblem::NotCanonical => "its last character does not end a 16-byte id (the last one is one of A, Q, g, w)",
            UuidProblem::Reserved => "Kafka reserves the zero id and the metadata topic's id",
            UuidProblem::LeadingDash => "Kafka never gives a topic an id starting with '-'",
        })
    }
}

impl Uuid {
    /// `ZERO_UUID`.
    pub const ZERO: Uuid = Uuid { msb: 0, lsb: 0 };
    /// `METADATA_TOPIC_ID` (= `ONE_UUID`).
    pub const METADATA_TOPIC_ID: Uuid = Uuid { msb: 0, lsb: 1 };

    /// The id of these 16 bytes (big-endian halves, as `Uuid.fromString` reads them).
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        let mut hi = [0u8; 8];
        let mut lo = [0u8; 8];
        hi.copy_from_slice(&bytes[..8]);
        lo.copy_from_slice(&bytes[8..]);
        Self { msb: u64::from_be_bytes(hi), lsb: u64::from_be_bytes(lo) }
    }

    /// The 16 bytes.
    pub fn to_bytes(self) -> [u8; 16] {
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&self.msb.to_be_bytes());
        out[8..].copy_from_slice(&self.lsb.to_be_bytes());
        out
    }

    /// Reads a topic id as Kafka prints it, refusing what Kafka would never assign.
    pub fn parse(text: &str) -> Result<Self, UuidProblem> {
        if text.len() != 22 {
            return Err(UuidProblem::Length);
        }
        // 22 characters carry 132 bits: the 16 bytes, then 4 bits that must be zero.
        let decoded = crate::base64url::decode(text).ok_or(UuidProblem::Alphabet)?;
        let bytes: [u8; 16] = decoded.try_into().map_err(|_| UuidProblem::Length)?;
        if crate::base64url::encode(&bytes) != text {
            return Err(UuidProblem::NotCanonical);
        }
        let id = Self::from_bytes(bytes);
        if id.is_reserved() {
            return Err(UuidProblem::Reserved);
        }
        if text.starts_with('-') {
            return Err(UuidProblem::LeadingDash);
        }
        Ok(id)
    }

    /// `Uuid.RESERVED.contains(this)`.
    pub fn is_reserved(self) -> bool {
        self == Self::ZERO || self == Self::METADATA_TOPIC_ID
    }

    /// `Uuid.hashCode`.
    pub fn hash_code(self) -> i32 {
        let xor = self.msb ^ self.lsb;
        ((xor >> 32) as i32) ^ (xor as i32)
    }

    /// A version-4 id drawn from `rng` as `Uuid.randomUuid` draws (again while reserved or
    /// printed with a leading '-').
    pub fn random(rng: &mut SimRng) -> Self {
        loop {
            let msb = (rng.next_u64() & !0xF000) | 0x4000;
            let lsb = (rng.next_u64() & !(0xC000_u64 << 48)) | (0x8000_u64 << 48);
            let id = Self { msb, lsb };
            if !id.is_reserved() && !id.to_string().starts_with('-') {
                return id;
            }
        }
    }

    /// The sandbox's topic id for `topic` in a run with `seed`: the first [`Uuid::random`]
    /// of a SplitMix64 seeded with `seed` XOR the 64-bit FNV-1a hash of the topic's name
    /// (UTF-8 bytes). The run's own RNG is not touched, so ids do not shift its draws.
    pub fn derived(seed: u64, topic: &str) -> Self {
        Self::random(&mut Self::stream(seed, topic))
    }

    /// The generator [`Uuid::derived`] draws from; a later draw replaces an id another
    /// topic already has.
    pub fn stream(seed: u64, topic: &str) -> SimRng {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in topic.as_bytes() {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        SimRng::new(seed ^ hash)
    }
}

impl Ord for Uuid {
    /// `Uuid.compareTo`: the halves compared as signed `long`s, most significant first.
    fn cmp(&self, other: &Self) -> Ordering {
        (self.msb as i64).cmp(&(other.msb as i64)).then((self.lsb as i64).cmp(&(other.lsb as i64)))
    }
}

impl PartialOrd for Uuid {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Uuid {
    /// `Uuid.toString`: URL-safe base64 of the 16 bytes, without padding.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::base64url::encode(&self.to_bytes()))
    }
}

impl serde::Serialize for Uuid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Uuid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Uuid::parse(&text).map_err(|e| serde::de::Error::custom(format!("{text:?} is not a topic id: {e}")))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;

    /// Values printed by Kafka's `Uuid` (UuidTest: `new Uuid(0, 1).toString()` and friends).
    #[test]
    fn prints_and_reads_like_kafka() {
        assert_eq!(Uuid::ZERO.to_string(), "AAAAAAAAAAAAAAAAAAAAAA");
        assert_eq!(Uuid::METADATA_TOPIC_ID.to_string(), "AAAAAAAAAAAAAAAAAAAAAQ");
        assert_eq!(Uuid::parse("AAAAAAAAAAAAAAAAAAAAAA"), Err(UuidProblem::Reserved));
        assert_eq!(Uuid::parse("AAAAAAAAAAAAAAAAAAAAAQ"), Err(UuidProblem::Reserved));
        assert_eq!(Uuid::parse("AAAAAAAAAAAAAAAAAAAAAB"), Err(UuidProblem::NotCanonical));
        assert_eq!(Uuid::parse("short"), Err(UuidProblem::Length));
        assert_eq!(Uuid::parse("AAAAAAAAAAAAAAAAAAAA+g"), Err(UuidProblem::Alphabet));
        let id = Uuid { msb: 0x0123_4567_89ab_cdef, lsb: 0xfedc_ba98_7654_3210 };
        let text = id.to_string();
        assert_eq!(text, "ASNFZ4mrze_-3LqYdlQyEA");
        assert_eq!(Uuid::parse(&text), Ok(id));
        // The top bits of the first character (printed by Kafka's Uuid.toString).
        let high = Uuid::parse("dLccQCXeGjwzN5MNSgPv5Q").unwrap();
        assert_eq!(high.msb as i64, 8410221890976487996);
        assert_eq!(high.to_string(), "dLccQCXeGjwzN5MNSgPv5Q");
    }

    /// `hashCode` folds the XOR of the halves; `compareTo` is signed.
    #[test]
    fn hash_code_and_order_follow_java() {
        let id = Uuid { msb: 0x0000_0001_0000_0002, lsb: 0x0000_0000_0000_0010 };
        assert_eq!(id.hash_code(), 1 ^ 0x12);
        let negative = Uuid { msb: 0x8000_0000_0000_0000, lsb: 0 };
        assert!(negative < Uuid { msb: 1, lsb: 0 });
    }

    #[test]
    fn derived_ids_are_stable_distinct_and_valid() {
        let a = Uuid::derived(42, "orders");
        assert_eq!(a, Uuid::derived(42, "orders"));
        assert_ne!(a, Uuid::derived(42, "payments"));
        assert_ne!(a, Uuid::derived(43, "orders"));
        for seed in 0..200 {
            let id = Uuid::derived(seed, "t");
            assert_eq!(Uuid::parse(&id.to_string()), Ok(id));
        }
    }
}
