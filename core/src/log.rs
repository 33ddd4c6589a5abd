//! A replica's partition log: append-only, offsets assigned consecutively by the leader,
//! truncated only where a follower diverges from its leader (KIP-101).

use crate::record::{Record, StoredRecord, TimestampType};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// One replica's copy of a partition. The log end offset (LEO) is the offset the next
/// append gets; the high watermark (HW) is the end of what this replica knows to be
/// committed (held by every in-sync replica). Consumers read only below the leader's HW.
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

    /// What this replica knows to be committed.
    pub fn high_watermark(&self) -> u64 {
        self.high_watermark
    }

    /// Every record still in the log, in offset order.
    pub fn records(&self) -> &[StoredRecord] {
        &self.records
    }

    /// The record at `offset`, if the log holds it.
    pub fn get(&self, offset: u64) -> Option<&StoredRecord> {
        let i = offset.checked_sub(self.log_start_offset)?;
        self.records.get(usize::try_from(i).ok()?)
    }

    /// The leader epoch of the last record (0 for an empty log).
    pub fn last_epoch(&self) -> u32 {
        self.records.last().map(|r| r.leader_epoch).unwrap_or(0)
    }

    /// The end offset of `epoch` in this log: the first offset written under a later
    /// epoch, or the LEO (the answer to `OffsetsForLeaderEpoch`, KIP-101).
    pub fn end_offset_for_epoch(&self, epoch: u32) -> u64 {
        self.records.iter().find(|r| r.leader_epoch > epoch).map(|r| r.offset).unwrap_or_else(|| self.log_end_offset())
    }

    /// The leader appends a producer's record at the log end under `epoch`. Under
    /// `LogAppendTime` the broker's clock replaces the producer's timestamp.
    pub fn append(&mut self, record: Record, now: SimTime, timestamp_type: TimestampType, epoch: u32) -> &StoredRecord {
        let timestamp = match timestamp_type {
            TimestampType::CreateTime => record.create_time,
            TimestampType::LogAppendTime => now,
        };
        let offset = self.log_end_offset();
        self.records.push(StoredRecord { offset, record, timestamp, timestamp_type, appended_at: now, leader_epoch: epoch });
        let last = self.records.len() - 1;
        &self.records[last]
    }

    /// A follower copies a record it fetched from the leader. Returns false (and copies
    /// nothing) unless the record continues this log exactly at its end.
    pub fn append_replica(&mut self, record: StoredRecord) -> bool {
        if record.offset != self.log_end_offset() {
            return false;
        }
        self.records.push(record);
        true
    }

    /// Removes every record at `offset` and above; returns them, oldest first. The HW
    /// drops with the log end if it was above it.
    pub fn truncate_to(&mut self, offset: u64) -> Vec<StoredRecord> {
        let keep = offset.saturating_sub(self.log_start_offset).min(self.records.len() as u64) as usize;
        let removed = self.records.split_off(keep);
        self.high_watermark = self.high_watermark.min(self.log_end_offset());
        removed
    }

    /// Sets the HW, never above the LEO and never backwards (it is monotonic).
    pub fn advance_high_watermark(&mut self, hw: u64) -> bool {
        let hw = hw.min(self.log_end_offset());
        if hw > self.high_watermark {
            self.high_watermark = hw;
            true
        } else {
            false
        }
    }

    /// Up to `max_records` committed records from `from` (inclusive), in offset order.
    pub fn read_committed(&self, from: u64, max_records: u32) -> &[StoredRecord] {
        self.read_up_to(from, max_records, self.high_watermark)
    }

    /// Up to `max_records` records from `from` below `limit` (followers read to the LEO).
    pub fn read_up_to(&self, from: u64, max_records: u32, limit: u64) -> &[StoredRecord] {
        let start = from.max(self.log_start_offset);
        let limit = limit.min(self.log_end_offset());
        if start >= limit {
            return &[];
        }
        let lo = (start - self.log_start_offset) as usize;
        let hi_offset = limit.min(start.saturating_add(u64::from(max_records)));
        let hi = (hi_offset - self.log_start_offset) as usize;
        &self.records[lo..hi]
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
    fn offsets_are_consecutive_and_only_records_below_the_hw_are_readable() {
        let mut log = PartitionLog::default();
        for i in 0..3 {
            let stored = log.append(rec(i, 5), SimTime(9), TimestampType::CreateTime, 0);
            assert_eq!(stored.offset, i);
        }
        assert_eq!(log.log_end_offset(), 3);
        assert!(log.read_committed(0, 10).is_empty(), "nothing committed yet");
        assert!(log.advance_high_watermark(2));
        let read: Vec<u64> = log.read_committed(0, 10).iter().map(|r| r.offset).collect();
        assert_eq!(read, vec![0, 1]);
        assert!(!log.advance_high_watermark(1), "the HW never moves back");
        assert!(log.advance_high_watermark(99));
        assert_eq!(log.high_watermark(), 3, "never above the LEO");
        assert_eq!(log.read_up_to(1, 10, 3).len(), 2);
    }

    #[test]
    fn log_append_time_replaces_the_producer_timestamp() {
        let mut log = PartitionLog::default();
        let create = log.append(rec(1, 5), SimTime(9), TimestampType::CreateTime, 0).timestamp;
        let append = log.append(rec(2, 5), SimTime(9), TimestampType::LogAppendTime, 0).timestamp;
        assert_eq!((create, append), (SimTime(5), SimTime(9)));
    }

    #[test]
    fn epoch_end_offsets_and_truncation_follow_kip_101() {
        let mut log = PartitionLog::default();
        log.append(rec(1, 0), SimTime(0), TimestampType::CreateTime, 0);
        log.append(rec(2, 0), SimTime(0), TimestampType::CreateTime, 0);
        log.append(rec(3, 0), SimTime(0), TimestampType::CreateTime, 2);
        assert_eq!(log.end_offset_for_epoch(0), 2);
        assert_eq!(log.end_offset_for_epoch(1), 2);
        assert_eq!(log.end_offset_for_epoch(2), 3);
        assert_eq!(log.last_epoch(), 2);
        log.advance_high_watermark(3);
        let removed = log.truncate_to(2);
        assert_eq!(removed.iter().map(|r| r.record.id.0).collect::<Vec<_>>(), vec![3]);
        assert_eq!((log.log_end_offset(), log.high_watermark()), (2, 2));
        let mut follower = PartitionLog::default();
        assert!(!follower.append_replica(removed[0].clone()), "a gap is refused");
        assert!(follower.append_replica(log.records()[0].clone()));
    }
}
