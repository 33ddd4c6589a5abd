//! Topics and partition logs: append-only, offsets assigned consecutively by the leader.

use crate::record::{Record, StoredRecord, TimestampType};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// One partition's log. The log end offset (LEO) is the offset the next append gets;
/// the high watermark (HW) is the end of what is committed and visible to consumers.
///
/// With a single broker and replication factor 1 the leader is the whole ISR, so the
/// HW moves with the LEO on every append (`Partition.maybeIncrementLeaderHW`); the
/// replication issue makes followers hold it back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionLog {
    records: Vec<StoredRecord>,
    log_start_offset: u64,
    high_watermark: u64,
}

impl PartitionLog {
    /// The first offset still in the log.
    pub fn log_start_offset(&self) -> u64 {
        self.log_start_offset
    }

    /// The offset the next appended record will get.
    pub fn log_end_offset(&self) -> u64 {
        self.log_start_offset + self.records.len() as u64
    }

    /// Records below the HW are committed; consumers (read_uncommitted) read only those.
    pub fn high_watermark(&self) -> u64 {
        self.high_watermark
    }

    /// Every record still in the log, in offset order.
    pub fn records(&self) -> &[StoredRecord] {
        &self.records
    }

    /// Appends `record` at the log end and returns the stored copy. Under
    /// `LogAppendTime` the broker's clock replaces the producer's timestamp.
    pub fn append(&mut self, record: Record, now: SimTime, timestamp_type: TimestampType) -> &StoredRecord {
        let timestamp = match timestamp_type {
            TimestampType::CreateTime => record.create_time,
            TimestampType::LogAppendTime => now,
        };
        let offset = self.log_end_offset();
        self.records.push(StoredRecord { offset, record, timestamp, timestamp_type, appended_at: now });
        // Single replica: the ISR is the leader alone, so everything appended is committed.
        self.high_watermark = self.log_end_offset();
        let last = self.records.len() - 1;
        &self.records[last]
    }

    /// Up to `max_records` committed records from `from` (inclusive), in offset order.
    pub fn read_committed(&self, from: u64, max_records: u32) -> &[StoredRecord] {
        let start = from.max(self.log_start_offset);
        if start >= self.high_watermark {
            return &[];
        }
        let lo = (start - self.log_start_offset) as usize;
        let hi_offset = self.high_watermark.min(start.saturating_add(u64::from(max_records)));
        let hi = (hi_offset - self.log_start_offset) as usize;
        &self.records[lo..hi]
    }
}

/// A topic: a name, its partitions and the settings that matter so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topic {
    pub name: String,
    pub partitions: Vec<PartitionLog>,
    /// `message.timestamp.type` (KIP-32).
    pub timestamp_type: TimestampType,
}

impl Topic {
    pub fn new(name: impl Into<String>, partitions: u32, timestamp_type: TimestampType) -> Self {
        Self {
            name: name.into(),
            partitions: (0..partitions).map(|_| PartitionLog::default()).collect(),
            timestamp_type,
        }
    }

    pub fn partition_count(&self) -> u32 {
        self.partitions.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RecordId;

    fn rec(id: u64, at: u64) -> Record {
        Record {
            id: RecordId(id),
            producer: "P".into(),
            key: None,
            value: format!("m{id}"),
            headers: vec![],
            create_time: SimTime(at),
            size_bytes: 10,
        }
    }

    #[test]
    fn offsets_are_consecutive_from_zero_and_hw_follows_single_replica() {
        let mut log = PartitionLog::default();
        for i in 0..3 {
            let stored = log.append(rec(i, 5), SimTime(9), TimestampType::CreateTime);
            assert_eq!(stored.offset, i);
        }
        assert_eq!(log.log_end_offset(), 3);
        assert_eq!(log.high_watermark(), 3);
        let read: Vec<u64> = log.read_committed(1, 10).iter().map(|r| r.offset).collect();
        assert_eq!(read, vec![1, 2]);
        assert_eq!(log.read_committed(0, 1).len(), 1);
        assert!(log.read_committed(3, 10).is_empty());
    }

    #[test]
    fn log_append_time_replaces_the_producer_timestamp() {
        let mut log = PartitionLog::default();
        let create = log.append(rec(1, 5), SimTime(9), TimestampType::CreateTime).timestamp;
        let append = log.append(rec(2, 5), SimTime(9), TimestampType::LogAppendTime).timestamp;
        assert_eq!((create, append), (SimTime(5), SimTime(9)));
    }
}
