//! Which partition a producer record goes to: Kafka's murmur2 key hashing, the built-in sticky partitioner (KIP-794) and `RoundRobinPartitioner`.
//!
//! Everything here follows the Java client bit for bit where Kafka is deterministic
//! (`Utils.murmur2`, `Utils.toPositive`, `BuiltInPartitioner.partitionForKey`,
//! `String.hashCode`, `DefaultRecord.sizeInBytes`). Where Kafka draws a random number
//! (`ThreadLocalRandom` in `BuiltInPartitioner.randomPartition`), the simulation's
//! seeded [`SimRng`] takes its place, so the same seed gives the same choices.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::config::PartitionerKind;
pub use crate::event::PartitionReason;
use crate::rng::SimRng;

/// Kafka's 32-bit murmur2 (`org.apache.kafka.common.utils.Utils.murmur2`), bit-exact.
///
/// Seed `0x9747b28c`, multiplier `0x5bd1e995`, shift 24; 4-byte blocks are read
/// little-endian; all arithmetic wraps at 32 bits and shifts are unsigned (`>>>`).
pub fn murmur2(data: &[u8]) -> i32 {
    const SEED: u32 = 0x9747_b28c;
    const M: u32 = 0x5bd1_e995;
    const R: u32 = 24;

    // Java's `int length` is at most i32::MAX; truncating to 32 bits is what
    // `seed ^ length` does for any array Java can hold.
    let mut h: u32 = SEED ^ (data.len() as u32);

    let mut blocks = data.chunks_exact(4);
    for block in &mut blocks {
        let mut k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }

    // The Java switch falls through: 3 left mixes byte 2, then byte 1, then byte 0.
    let tail = blocks.remainder();
    if tail.len() >= 3 {
        h ^= u32::from(tail[2]) << 16;
    }
    if tail.len() >= 2 {
        h ^= u32::from(tail[1]) << 8;
    }
    if !tail.is_empty() {
        h ^= u32::from(tail[0]);
        h = h.wrapping_mul(M);
    }

    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    h as i32
}

/// `Utils.toPositive`: clears the sign bit (`n & 0x7fffffff`). This is **not**
/// `Math.abs`: `toPositive(-1)` is `i32::MAX`, and `toPositive(i32::MIN)` is 0.
pub fn to_positive(n: i32) -> i32 {
    n & 0x7fff_ffff
}

/// `BuiltInPartitioner.partitionForKey`: `toPositive(murmur2(keyBytes)) % numPartitions`.
///
/// `num_partitions` counts **all** partitions of the topic, leaderless ones included,
/// so a key always maps to the same partition while the partition count is unchanged.
/// Returns 0 when `num_partitions` is 0 (Kafka never calls it then).
///
/// The partition Kafka's producer picks for a key (values from Kafka's own murmur2):
///
/// ```
/// use kafka_sandbox_core::partitioner::partition_for_key;
/// assert_eq!(partition_for_key(b"key1", 3), 2);
/// assert_eq!(partition_for_key(b"key2", 6), 5);
/// // Adding partitions moves keys: "kafka" goes from partition 0 of 4 to 4 of 6.
/// assert_eq!((partition_for_key(b"kafka", 4), partition_for_key(b"kafka", 6)), (0, 4));
/// ```
pub fn partition_for_key(key: &[u8], num_partitions: u32) -> u32 {
    if num_partitions == 0 {
        return 0;
    }
    // to_positive never returns a negative number, so the cast is lossless.
    (to_positive(murmur2(key)) as u32) % num_partitions
}

/// Java's `String.hashCode`: `h = 31*h + c` over the UTF-16 code units, wrapping at 32 bits.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| h.wrapping_mul(31).wrapping_add(i32::from(unit)))
}

/// The `__consumer_offsets` partition whose leader coordinates `group_id`:
/// `Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions`
/// (GroupMetadataManager `partitionFor`, GroupCoordinatorService `partitionFor`).
///
/// `Utils.abs(Integer.MIN_VALUE)` is 0 (unlike `Math.abs`), so "polygenelubricants",
/// whose hash is `i32::MIN`, lands on partition 0. Returns 0 when the count is 0.
pub fn coordinator_partition(group_id: &str, offsets_topic_partitions: u32) -> u32 {
    if offsets_topic_partitions == 0 {
        return 0;
    }
    let h = java_string_hash(group_id);
    let abs = if h == i32::MIN { 0 } else { h.unsigned_abs() };
    abs % offsets_topic_partitions
}

/// Bytes of a zig-zag varint (`ByteUtils.sizeOfVarint`) for a non-negative length,
/// or for -1 (`None`, a null field), which takes one byte.
fn varint_size(len: Option<u64>) -> u64 {
    let Some(len) = len else {
        return 1;
    };
    // Zig-zag of a non-negative value v is 2v; count its 7-bit groups.
    let mut v = len.saturating_mul(2);
    let mut bytes = 1;
    while v >= 0x80 {
        v >>= 7;
        bytes += 1;
    }
    bytes
}

/// Kafka's `DefaultRecord.sizeInBytes` for a record with offset delta 0 and timestamp
/// delta 0: attributes (1) + offset delta varint (1) + timestamp delta varlong (1) +
/// key and value (varint length, -1 for null, then the bytes) + header count varint +
/// each header's key (UTF-8) and value, all prefixed by the size of the body as a varint.
///
/// The simulation uses it to count bytes for `batch.size` (the producer's batches, the
/// sticky partitioner) and for log segments. (In Kafka the
/// `appendedBytes` given to `BuiltInPartitioner.updatePartitionInfo` is the growth of the
/// batch's estimated size, so the first record of a new batch also counts the batch
/// header; the caller decides what to pass to [`PartitionerState::on_sticky_append`].)
pub fn record_size_in_bytes(key: Option<&[u8]>, value: Option<&[u8]>, headers: &[(String, Vec<u8>)]) -> u32 {
    size_from_fields(fields_size(key, value, headers))
}

/// [`record_size_in_bytes`] for a record without headers whose key and value have these
/// lengths (`None`: null), for records the sandbox writes itself (a coordinator's).
pub fn record_size_of_lengths(key: Option<usize>, value: Option<usize>) -> u32 {
    let field = |len: Option<usize>| len.map_or(varint_size(None), |n| varint_size(Some(n as u64)) + n as u64);
    size_from_fields(field(key) + field(value) + varint_size(Some(0)))
}

/// A `DefaultRecord`'s size from the size of its key, value and headers.
fn size_from_fields(fields: u64) -> u32 {
    let body = 1 + 1 + 1 + fields; // attributes, offset delta 0, timestamp delta 0
    let total = body + varint_size(Some(body));
    u32::try_from(total).unwrap_or(u32::MAX)
}

/// Kafka's `DefaultRecord.recordSizeUpperBound`: `MAX_RECORD_OVERHEAD` (21) plus the key,
/// value and headers with their lengths. `RecordAccumulator.append` asks the `BufferPool`
/// for `max(batch.size, 61 + this)` bytes for a new batch
/// (`AbstractRecords.estimateSizeInBytesUpperBound`).
pub fn record_size_upper_bound(key: Option<&[u8]>, value: Option<&[u8]>, headers: &[(String, Vec<u8>)]) -> u32 {
    u32::try_from(21 + fields_size(key, value, headers)).unwrap_or(u32::MAX)
}

/// `DefaultRecord.sizeOf(keySize, valueSize, headers)`: key and value (varint length, -1
/// for null, then the bytes), the header count, each header's key and value.
fn fields_size(key: Option<&[u8]>, value: Option<&[u8]>, headers: &[(String, Vec<u8>)]) -> u64 {
    fn field(bytes: Option<&[u8]>) -> u64 {
        match bytes {
            None => varint_size(None),
            Some(b) => {
                let len = b.len() as u64;
                varint_size(Some(len)) + len
            }
        }
    }
    let mut size = field(key) + field(value);
    size += varint_size(Some(headers.len() as u64));
    for (header_key, header_value) in headers {
        size += field(Some(header_key.as_bytes()));
        size += field(Some(header_value));
    }
    size
}

/// Why a partition could not be chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PartitionError {
    /// The topic has no partitions.
    NoPartitions,
    /// The record names a partition the topic does not have.
    ExplicitOutOfRange {
        /// The partition the record named.
        partition: u32,
        /// The topic's partition count (partitions are 0 to `num_partitions − 1`).
        num_partitions: u32,
    },
}

impl fmt::Display for PartitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartitionError::NoPartitions => {
                write!(f, "the topic has no partitions, so no partition can be chosen")
            }
            PartitionError::ExplicitOutOfRange { partition, num_partitions } => write!(
                f,
                "partition {partition} does not exist: the topic has {num_partitions} \
                 partition(s), numbered 0 to {}; Kafka's producer waits for metadata that \
                 would show it and then fails with a TimeoutException (\"Partition \
                 {partition} ... with partition count {num_partitions} is not present in \
                 metadata after max.block.ms\")",
                num_partitions.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for PartitionError {}

/// Per producer and per topic: the state of partition choice.
///
/// Kafka keeps one `BuiltInPartitioner` per topic (the sticky partition and the bytes
/// produced to it) and `RoundRobinPartitioner` keeps one counter per topic.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PartitionerState {
    /// `RoundRobinPartitioner`'s counter: starts at 0, one value per record. Kept as
    /// `u32`; its bit pattern equals Java's wrapping `int`, and `toPositive` is applied
    /// when it is used.
    pub round_robin_counter: u32,
    /// The current sticky partition for keyless records (`StickyPartitionInfo.index`),
    /// or `None` before the first keyless record.
    pub sticky_partition: Option<u32>,
    /// Bytes produced to the sticky partition since it was chosen
    /// (`StickyPartitionInfo.producedBytes`).
    pub sticky_produced_bytes: u32,
}

impl PartitionerState {
    /// `KafkaProducer.partition()`: an explicit partition, else `partitioner.class`
    /// (`RoundRobinPartitioner` ignores keys), else murmur2 of the key bytes
    /// (`BuiltInPartitioner.partitionForKey`), else the built-in sticky partition (KIP-794).
    ///
    /// `available` = partitions that currently have a leader, ascending, each below
    /// `num_partitions`; all `num_partitions` partitions count for key hashing.
    ///
    /// Round robin: `toPositive(counter++) % available.len()` indexes `available`, or
    /// `% num_partitions` when no partition is available. Kafka 4.x includes the
    /// KAFKA-17632 fix (PR #17620, backported to 3.9): before it, `KafkaProducer` called
    /// `partition()` twice whenever a new batch was needed (`abortOnNewBatch`), which
    /// skipped one counter value per new batch (KAFKA-9965). This simulation models 4.x:
    /// one counter value per record, none skipped.
    pub fn choose(
        &mut self,
        kind: PartitionerKind,
        rng: &mut SimRng,
        explicit: Option<u32>,
        key: Option<&[u8]>,
        num_partitions: u32,
        available: &[u32],
    ) -> Result<(u32, PartitionReason), PartitionError> {
        debug_assert!(available.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(available.iter().all(|p| *p < num_partitions));
        if num_partitions == 0 {
            return Err(PartitionError::NoPartitions);
        }
        if let Some(partition) = explicit {
            if partition >= num_partitions {
                return Err(PartitionError::ExplicitOutOfRange { partition, num_partitions });
            }
            return Ok((partition, PartitionReason::Explicit));
        }
        match kind {
            PartitionerKind::RoundRobin => {
                let counter = self.round_robin_counter;
                self.round_robin_counter = counter.wrapping_add(1);
                // toPositive on the Java int with the same bit pattern.
                let positive = counter & 0x7fff_ffff;
                let partition = pick_index(positive, num_partitions, available);
                Ok((partition, PartitionReason::RoundRobin { counter }))
            }
            PartitionerKind::BuiltIn => {
                if let Some(key) = key {
                    let hash = murmur2(key);
                    let partition = partition_for_key(key, num_partitions);
                    return Ok((partition, PartitionReason::KeyHash { murmur2: hash }));
                }
                // BuiltInPartitioner.peekCurrentPartitionInfo: keep the current sticky
                // partition (even if it lost its leader), or pick the first one.
                let partition = match self.sticky_partition {
                    Some(p) if p < num_partitions => p,
                    _ => {
                        let p = next_partition(rng, num_partitions, available);
                        self.sticky_partition = Some(p);
                        self.sticky_produced_bytes = 0;
                        p
                    }
                };
                Ok((partition, PartitionReason::Sticky))
            }
        }
    }

    /// After a keyless record was appended to the sticky partition:
    /// `BuiltInPartitioner.updatePartitionInfo`. Adds `appended_bytes`; once the bytes
    /// produced to the partition reach `batch_size` and `enable_switch` is set (the
    /// caller passes `RecordAccumulator.allBatchesFull`: the partition has no incomplete
    /// batch), or reach `2 * batch_size` regardless, switches to a new random partition,
    /// which may be the same one. The producer also calls it with 0 bytes and
    /// `enable_switch` before appending to a partition whose batches are all full or
    /// sent (`RecordAccumulator.partitionChanged`), so the switch falls between batches.
    ///
    /// Kafka's next partition (`nextPartition`) is uniform among available partitions
    /// unless `partitioner.adaptive.partitioning.enable` has load stats, in which case it
    /// is weighted by `maxQueue + 1 - queue`. `updatePartitionLoadStats` drops the stats
    /// when all queue sizes are equal, so with equal queues it is uniform, which is what
    /// this simulation models (it has no per-partition queue sizes here). The random
    /// number is `toPositive(nextInt()) % available.len()`, as in Kafka. When no partition
    /// is available, Kafka picks among all partitions; this function does not know the
    /// partition count, so it clears the sticky partition and the next
    /// [`choose`](Self::choose) picks among all of them.
    ///
    /// `batch_size` below 1 counts as 1 (`KafkaProducer` passes `max(1, batch.size)`).
    pub fn on_sticky_append(&mut self, rng: &mut SimRng, appended_bytes: u32, batch_size: u32, enable_switch: bool, available: &[u32]) {
        // partitionInfo is null when the caller did not use the built-in partitioner.
        if self.sticky_partition.is_none() {
            return;
        }
        self.sticky_produced_bytes = self.sticky_produced_bytes.saturating_add(appended_bytes);
        let produced = u64::from(self.sticky_produced_bytes);
        let batch_size = u64::from(batch_size.max(1));
        if (produced >= batch_size && enable_switch) || produced >= 2 * batch_size {
            self.sticky_produced_bytes = 0;
            if available.is_empty() {
                self.sticky_partition = None;
            } else {
                // num_partitions only matters when `available` is empty.
                let p = next_partition(rng, u32::MAX, available);
                self.sticky_partition = Some(p);
            }
        }
    }
}

/// `available[positive % available.len()]`, or `positive % num_partitions` when none is
/// available (as both `RoundRobinPartitioner` and `BuiltInPartitioner.nextPartition` do).
fn pick_index(positive: u32, num_partitions: u32, available: &[u32]) -> u32 {
    let len = u32::try_from(available.len()).unwrap_or(u32::MAX);
    if len == 0 {
        return positive % num_partitions.max(1);
    }
    let index = positive % len;
    available.get(index as usize).copied().unwrap_or(positive % num_partitions.max(1))
}

/// `BuiltInPartitioner.nextPartition` without load stats:
/// `toPositive(random) % available.size()`, with the simulation's RNG.
fn next_partition(rng: &mut SimRng, num_partitions: u32, available: &[u32]) -> u32 {
    let positive = rng.next_u32() & 0x7fff_ffff;
    pick_index(positive, num_partitions, available)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;

    /// UtilsTest.testMurmur2.
    #[test]
    fn murmur2_matches_kafka_utils_test() {
        let cases: [(&[u8], i32); 6] = [
            (b"21", -973932308),
            (b"foobar", -790332482),
            (b"a-little-bit-long-string", -985981536),
            (b"a-little-bit-longer-string", -1486304829),
            (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971),
            (b"abc", 479470107),
        ];
        for (input, expected) in cases {
            assert_eq!(murmur2(input), expected, "{:?}", String::from_utf8_lossy(input));
        }
    }

    /// kafka-python test_partitioner.py (1000 partitions), and librdkafka rdmurmur2.c.
    #[test]
    fn murmur2_matches_other_clients() {
        let cases: [(&[u8], u32); 6] = [(b"", 681), (b"a", 524), (b"ab", 434), (b"abc", 107), (b"123456789", 566), (b"\x00 ", 742)];
        for (input, expected) in cases {
            assert_eq!(partition_for_key(input, 1000), expected, "{input:?}");
        }
        assert_eq!(murmur2(b"kafka") as u32, 0xd067_cf64);
    }

    /// kafka-semantics §8 table (UTF-8 keys).
    #[test]
    fn key_table_mod_3_4_6() {
        let table: [(&str, i32, [u32; 3]); 8] = [
            ("", 275646681, [0, 1, 3]),
            ("a", -1563381124, [1, 0, 4]),
            ("abc", 479470107, [0, 3, 3]),
            ("foobar", -790332482, [0, 2, 0]),
            ("key1", 28543940, [2, 0, 2]),
            ("key2", 1674751211, [2, 3, 5]),
            ("key3", -1745673403, [1, 1, 1]),
            ("kafka", -798503068, [1, 0, 4]),
        ];
        for (key, hash, [p3, p4, p6]) in table {
            assert_eq!(murmur2(key.as_bytes()), hash, "{key:?}");
            assert_eq!(partition_for_key(key.as_bytes(), 3), p3, "{key:?} % 3");
            assert_eq!(partition_for_key(key.as_bytes(), 4), p4, "{key:?} % 4");
            assert_eq!(partition_for_key(key.as_bytes(), 6), p6, "{key:?} % 6");
        }
    }

    /// kafka-semantics §8 trace for "key1": h0, the mixed block, h after the block, final h.
    #[test]
    fn key1_trace() {
        let m: u32 = 0x5bd1_e995;
        let h0 = 0x9747_b28c_u32 ^ 4;
        assert_eq!(h0, 0x9747_b288);
        let mut k = u32::from_le_bytes(*b"key1");
        assert_eq!(k, 0x3179_656b);
        k = k.wrapping_mul(m);
        k ^= k >> 24;
        k = k.wrapping_mul(m);
        assert_eq!(k, 0x34d6_e6cd);
        let h = h0.wrapping_mul(m) ^ k;
        assert_eq!(h, 0x5396_57e5);
        assert_eq!(murmur2(b"key1") as u32, 0x01b3_8bc4);
    }

    #[test]
    fn to_positive_is_not_abs() {
        assert_eq!(to_positive(-1), i32::MAX);
        assert_eq!(to_positive(i32::MIN), 0);
        assert_eq!(to_positive(5), 5);
        assert_eq!(partition_for_key(b"x", 0), 0);
    }

    #[test]
    fn java_hash_and_coordinator_partitions() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("my-group"), -1906497762);
        assert_eq!(java_string_hash("group"), 98629247);
        assert_eq!(java_string_hash("test-group"), 627841412);
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
        assert_eq!(coordinator_partition("my-group", 50), 12);
        assert_eq!(coordinator_partition("group", 50), 47);
        assert_eq!(coordinator_partition("test-group", 50), 12);
        assert_eq!(coordinator_partition("polygenelubricants", 50), 0);
        assert_eq!(coordinator_partition("x", 0), 0);
        // Supplementary-plane characters hash as two UTF-16 surrogates.
        assert_eq!(java_string_hash("\u{1F600}"), 0xD83D * 31 + 0xDE00);
    }

    #[test]
    fn record_sizes_follow_default_record() {
        // 1 attr + 1 offset delta + 1 ts delta + 1 null key + 1 null value + 1 header count = 6, +1 length.
        assert_eq!(record_size_in_bytes(None, None, &[]), 7);
        // key "key1": 1+4, value "hello": 1+5 -> body 15, +1.
        assert_eq!(record_size_in_bytes(Some(b"key1"), Some(b"hello"), &[]), 16);
        // Empty (not null) key: varint 0 = 1 byte.
        assert_eq!(record_size_in_bytes(Some(b""), None, &[]), 7);
        // A header "h" -> [1,2]: 1+1 + 1+2 = 5 more.
        let headers = vec![("h".to_string(), vec![1u8, 2])];
        assert_eq!(record_size_in_bytes(None, None, &headers), 12);
        // Length 63 zig-zags to 126 (1 byte); 64 to 128 (2 bytes).
        let v63 = vec![0u8; 63];
        let v64 = vec![0u8; 64];
        assert_eq!(record_size_in_bytes(None, Some(&v63), &[]), 6 + 1 + 63 + 1);
        // body = 5 + 2 + 64 = 71 -> zig-zag 142 needs 2 bytes.
        assert_eq!(record_size_in_bytes(None, Some(&v64), &[]), 71 + 2);
    }

    #[test]
    fn round_robin_cycles_from_zero_without_skipping() {
        let mut state = PartitionerState::default();
        let mut rng = SimRng::new(1);
        let all = [0, 1, 2, 3];
        let got: Vec<u32> = (0..7)
            .map(|_| {
                let (p, _) = state.choose(PartitionerKind::RoundRobin, &mut rng, None, Some(b"k"), 4, &all).unwrap();
                p
            })
            .collect();
        assert_eq!(got, vec![0, 1, 2, 3, 0, 1, 2]);
        let (_, reason) = state.choose(PartitionerKind::RoundRobin, &mut rng, None, None, 4, &all).unwrap();
        assert_eq!(reason, PartitionReason::RoundRobin { counter: 7 });
    }

    #[test]
    fn round_robin_indexes_available_partitions() {
        let mut state = PartitionerState::default();
        let mut rng = SimRng::new(1);
        let available = [1, 3];
        let got: Vec<u32> =
            (0..4).map(|_| state.choose(PartitionerKind::RoundRobin, &mut rng, None, None, 4, &available).unwrap().0).collect();
        assert_eq!(got, vec![1, 3, 1, 3]);
        // None available: counter % all partitions.
        let p = state.choose(PartitionerKind::RoundRobin, &mut rng, None, None, 4, &[]).unwrap().0;
        assert_eq!(p, 0); // counter 4 % 4
    }

    #[test]
    fn round_robin_counter_wraps_like_java_int() {
        let mut state = PartitionerState { round_robin_counter: i32::MAX as u32, ..Default::default() };
        let mut rng = SimRng::new(1);
        let all = [0, 1, 2];
        let (p, _) = state.choose(PartitionerKind::RoundRobin, &mut rng, None, None, 3, &all).unwrap();
        assert_eq!(p, (i32::MAX % 3) as u32);
        // Next Java value is Integer.MIN_VALUE; toPositive gives 0.
        let (p, _) = state.choose(PartitionerKind::RoundRobin, &mut rng, None, None, 3, &all).unwrap();
        assert_eq!(p, 0);
    }

    #[test]
    fn explicit_partition_and_errors() {
        let mut state = PartitionerState::default();
        let mut rng = SimRng::new(1);
        assert_eq!(
            state.choose(PartitionerKind::BuiltIn, &mut rng, Some(2), Some(b"key1"), 3, &[0, 1, 2]),
            Ok((2, PartitionReason::Explicit))
        );
        let err = state.choose(PartitionerKind::RoundRobin, &mut rng, Some(3), None, 3, &[0, 1, 2]).unwrap_err();
        assert_eq!(err, PartitionError::ExplicitOutOfRange { partition: 3, num_partitions: 3 });
        assert!(err.to_string().contains("partition 3 does not exist"));
        assert_eq!(state.choose(PartitionerKind::BuiltIn, &mut rng, None, None, 0, &[]), Err(PartitionError::NoPartitions));
        // The explicit partition does not consume a round-robin counter value.
        assert_eq!(state.round_robin_counter, 0);
    }

    #[test]
    fn key_hash_counts_all_partitions_even_leaderless() {
        let mut state = PartitionerState::default();
        let mut rng = SimRng::new(1);
        // "key2" % 4 = 3 even though partition 3 has no leader.
        let got = state.choose(PartitionerKind::BuiltIn, &mut rng, None, Some(b"key2"), 4, &[0, 1, 2]).unwrap();
        assert_eq!(got, (3, PartitionReason::KeyHash { murmur2: 1674751211 }));
        assert_eq!(state.sticky_partition, None);
    }

    #[test]
    fn sticky_stays_until_batch_size_then_switches() {
        let all = [0, 1, 2, 3, 4, 5, 6, 7];
        let mut rng = SimRng::new(42);
        let mut state = PartitionerState::default();
        let batch_size = 1000;
        let mut switches = 0;
        let mut prev: Option<u32> = None;
        let mut seen = crate::vecmap::VecSet::new();
        for i in 0..200 {
            let (p, reason) = state.choose(PartitionerKind::BuiltIn, &mut rng, None, None, 8, &all).unwrap();
            assert_eq!(reason, PartitionReason::Sticky);
            // Each record is 100 bytes: the partition can only change after every 10th.
            if let (Some(prev), true) = (prev, i % 10 != 0) {
                assert_eq!(prev, p, "record {i} left the sticky partition early");
            }
            prev = Some(p);
            seen.insert(p);
            let before = state.sticky_produced_bytes;
            state.on_sticky_append(&mut rng, 100, batch_size, true, &all);
            if before + 100 >= batch_size {
                switches += 1;
                assert_eq!(state.sticky_produced_bytes, 0);
            }
        }
        assert!(seen.len() > 1, "never switched: {seen:?}");
        assert_eq!(switches, 20);
    }

    #[test]
    fn sticky_waits_for_switch_enable_but_not_past_twice_batch_size() {
        let all = [0, 1, 2, 3];
        let mut rng = SimRng::new(3);
        let mut state = PartitionerState::default();
        state.choose(PartitionerKind::BuiltIn, &mut rng, None, None, 4, &all).unwrap();
        state.on_sticky_append(&mut rng, 1500, 1000, false, &all);
        assert_eq!(state.sticky_produced_bytes, 1500, "no switch while disabled");
        state.on_sticky_append(&mut rng, 500, 1000, false, &all);
        assert_eq!(state.sticky_produced_bytes, 0, ">= 2 x batch.size switches anyway");
        assert!(state.sticky_partition.is_some());
        // Without a sticky partition (keyed or round-robin traffic) it is a no-op.
        let mut fresh = PartitionerState::default();
        fresh.on_sticky_append(&mut rng, 5000, 1000, true, &all);
        assert_eq!(fresh, PartitionerState::default());
    }

    #[test]
    fn sticky_with_no_available_partition_picks_among_all_on_next_choose() {
        let mut rng = SimRng::new(9);
        let mut state = PartitionerState::default();
        let (p, _) = state.choose(PartitionerKind::BuiltIn, &mut rng, None, None, 3, &[]).unwrap();
        assert!(p < 3);
        state.on_sticky_append(&mut rng, 10, 10, true, &[]);
        assert_eq!(state.sticky_partition, None);
        let (p, _) = state.choose(PartitionerKind::BuiltIn, &mut rng, None, None, 3, &[]).unwrap();
        assert!(p < 3);
    }

    #[test]
    fn sticky_only_picks_available_partitions_and_visits_them_all() {
        let available = [1, 4, 6];
        let mut rng = SimRng::new(5);
        let mut state = PartitionerState::default();
        let mut seen = crate::vecmap::VecSet::new();
        for _ in 0..300 {
            let (p, _) = state.choose(PartitionerKind::BuiltIn, &mut rng, None, None, 8, &available).unwrap();
            assert!(available.contains(&p));
            seen.insert(p);
            state.on_sticky_append(&mut rng, 50, 100, true, &available);
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![1, 4, 6]);
    }

    #[test]
    fn same_seed_same_choices() {
        let run = |seed: u64| {
            let all = [0, 1, 2, 3, 4];
            let mut rng = SimRng::new(seed);
            let mut state = PartitionerState::default();
            let mut out = Vec::new();
            for i in 0..500u32 {
                let (p, _) = state.choose(PartitionerKind::BuiltIn, &mut rng, None, None, 5, &all).unwrap();
                out.push(p);
                state.on_sticky_append(&mut rng, 10 + i % 7, 64, i % 3 == 0, &all);
            }
            (out, state)
        };
        assert_eq!(run(11), run(11));
        assert_ne!(run(11).0, run(12).0);
    }

    #[test]
    fn serde_names() {
        assert_eq!(serde_json::to_string(&PartitionerKind::RoundRobin).unwrap(), "\"round_robin\"");
        assert_eq!(serde_json::to_string(&PartitionReason::KeyHash { murmur2: -1 }).unwrap(), r#"{"kind":"key_hash","murmur2":-1}"#);
        let state = PartitionerState { round_robin_counter: 3, sticky_partition: Some(1), sticky_produced_bytes: 20 };
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(serde_json::from_str::<PartitionerState>(&json).unwrap(), state);
    }
}
