//! What a consumer's fetch returns and `poll()` hands over under its `isolation.level`
//! (KIP-98): read_uncommitted reads below the high watermark, read_committed below the
//! last stable offset with the aborted transactions of that range
//! (`UnifiedLog.read` with `FetchIsolation.TXN_COMMITTED`, `collectAbortedTransactions`);
//! the client then drops control records and the records of aborted transactions
//! (`CompletedFetch.nextFetchedRecord`) while its position moves past them
//! (`FetchCollector`): offset gaps the application sees.

use super::*;
use crate::config::IsolationLevel;
use crate::log::PartitionLog;
use crate::record::StoredRecord;

/// How many records a fetch skips at most beyond those it returns (a bound: the next
/// fetch goes on where this one stopped).
const SKIP_MAX: usize = 4096;

/// One partition's part of a consumer fetch.
pub(in crate::sim) struct ConsumerRead {
    /// The end the consumer reads up to: the HW, or the LSO under read_committed.
    pub(in crate::sim) end: u64,
    /// The records read, each with whether `poll()` hides it.
    pub(in crate::sim) records: Vec<(StoredRecord, bool)>,
    /// How many of them `poll()` returns (what `max.poll.records` counts).
    pub(in crate::sim) visible: u32,
}

/// The offset a consumer of `isolation` reads up to (and what `seekToEnd()` /
/// `auto.offset.reset=latest` / `endOffsets()` give it): the HW, or the LSO.
pub(in crate::sim) fn end_offset(log: &PartitionLog, isolation: IsolationLevel) -> u64 {
    log.end_for(isolation)
}

/// A fetch of `log` from `from` returning at most `budget` records `poll()` shows.
pub(in crate::sim) fn consumer_read(log: &PartitionLog, from: u64, budget: u32, isolation: IsolationLevel) -> ConsumerRead {
    let end = end_offset(log, isolation);
    let read_committed = isolation == IsolationLevel::ReadCommitted;
    let all = log.read_up_to(from, u32::MAX, end);
    let slice = all.sub(0, (budget as usize).saturating_add(SKIP_MAX));
    let aborted: Vec<crate::txn::AbortedTxn> = if read_committed {
        let to = slice.last().map_or(from, |r| r.offset + 1);
        log.producer_states().aborted_between(from, to).copied().collect()
    } else {
        Vec::new()
    };
    let hidden = crate::txn::hidden_records(slice, &aborted, read_committed);
    let mut records = Vec::new();
    let mut visible = 0u32;
    for (r, h) in slice.iter().zip(hidden) {
        if !h {
            if visible == budget {
                break;
            }
            visible += 1;
        }
        records.push((r.clone(), h));
    }
    ConsumerRead { end, records, visible }
}

/// `poll()` hands over a fetch's records in order: the visible ones as deliveries, the
/// hidden ones moving the position past them, traced once per run of them
/// (`RecordsSkipped`, before the delivery that follows). A record that does not continue
/// the member's position is dropped, as `Member::hand_over` drops it.
///
/// With the events, the offsets passed with nothing to process: hidden records, and the
/// gaps the log cleaner left before a record (as (partition, from, to)), so the group does
/// not count them as committed past unprocessed.
pub(in crate::sim) fn hand_over_all(
    member: &mut Member,
    group: &crate::name::Name,
    records: Vec<Fetched>,
    now: SimTime,
    kept: usize,
) -> (Vec<EventKind>, Vec<(TopicPartition, u64, u64)>) {
    let mut events = Vec::new();
    let mut nothing: Vec<(TopicPartition, u64, u64)> = Vec::new();
    let mut note = |tp: &TopicPartition, from: u64, to: u64| {
        if from >= to {
            return;
        }
        match nothing.last_mut() {
            Some(last) if last.0 == *tp && last.2 == from => last.2 = to,
            _ => nothing.push((tp.clone(), from, to)),
        }
    };
    // (tp, from, to, aborted, markers) of the run of hidden records being skipped.
    let mut skipping: Option<(TopicPartition, u64, u64, u32, u32)> = None;
    let flush = |skipping: &mut Option<(TopicPartition, u64, u64, u32, u32)>, events: &mut Vec<EventKind>, client_id: &str| {
        if let Some((tp, from, to, aborted, markers)) = skipping.take() {
            events.push(EventKind::Txn(TxnEvent::RecordsSkipped {
                group: group.to_string(),
                client_id: client_id.to_string(),
                tp,
                from,
                to,
                aborted,
                markers,
            }));
        }
    };
    for (tp, stored, end, hidden, from) in records {
        let before = member.positions.get(&tp).copied().unwrap_or(stored.offset);
        if hidden {
            if !member.skip(&tp, stored.offset, from) {
                continue;
            }
            note(&tp, before.min(stored.offset), stored.offset + 1);
            let control = stored.record.is_control();
            match &mut skipping {
                Some(s) if s.0 == tp && s.2 == stored.offset => {
                    s.2 = stored.offset + 1;
                    s.3 += u32::from(!control);
                    s.4 += u32::from(control);
                }
                _ => {
                    flush(&mut skipping, &mut events, &member.client_id);
                    skipping = Some((tp, stored.offset, stored.offset + 1, u32::from(!control), u32::from(control)));
                }
            }
            continue;
        }
        if skipping.as_ref().is_some_and(|s| s.0 == tp) {
            flush(&mut skipping, &mut events, &member.client_id);
        }
        let offset = stored.offset;
        if let Some(e) = member.hand_over(group, tp.clone(), &stored, (end, from), now, kept) {
            note(&tp, before, offset);
            events.push(e);
        }
    }
    flush(&mut skipping, &mut events, &member.client_id);
    (events, nothing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Control, ControlType, Record, TimestampType};

    fn log_with_an_aborted_transaction() -> PartitionLog {
        // 0 plain, 1-2 transactional (pid 7), 3 ABORT marker, 4 plain, 5 open (pid 8).
        let mut log = PartitionLog::default();
        let t = Some(TxnTag { producer_id: 7, producer_epoch: 0 });
        for (id, txn) in [(1, None), (2, t), (3, t)] {
            log.append(Record { txn, ..Record::sample(id, 0) }, SimTime(id), TimestampType::CreateTime, 0);
        }
        let tag = TxnTag { producer_id: 7, producer_epoch: 1 };
        log.append_marker(
            RecordId(crate::record::MARKER_ID_BASE),
            tag,
            Control { kind: ControlType::Abort, coordinator_epoch: 0 },
            SimTime(4),
            0,
        );
        log.append(Record::sample(4, 0), SimTime(5), TimestampType::CreateTime, 0);
        let open = Some(TxnTag { producer_id: 8, producer_epoch: 0 });
        log.append(Record { txn: open, ..Record::sample(5, 0) }, SimTime(6), TimestampType::CreateTime, 0);
        log.advance_high_watermark(6);
        log
    }

    #[test]
    fn read_committed_stops_at_the_lso_and_hides_the_aborted_records_and_the_marker() {
        let log = log_with_an_aborted_transaction();
        assert_eq!(log.last_stable_offset(), 5, "the open transaction at 5 holds it");
        let rc = consumer_read(&log, 0, 500, IsolationLevel::ReadCommitted);
        assert_eq!(rc.end, 5);
        let seen: Vec<(u64, bool)> = rc.records.iter().map(|(r, h)| (r.offset, *h)).collect();
        assert_eq!(seen, [(0, false), (1, true), (2, true), (3, true), (4, false)]);
        assert_eq!(rc.visible, 2);
        let ru = consumer_read(&log, 0, 500, IsolationLevel::ReadUncommitted);
        assert_eq!(ru.end, 6);
        let seen: Vec<(u64, bool)> = ru.records.iter().map(|(r, h)| (r.offset, *h)).collect();
        assert_eq!(seen, [(0, false), (1, false), (2, false), (3, true), (4, false), (5, false)], "only the marker is hidden");
    }

    #[test]
    fn max_poll_records_counts_only_what_poll_returns() {
        let log = log_with_an_aborted_transaction();
        let rc = consumer_read(&log, 0, 1, IsolationLevel::ReadCommitted);
        assert_eq!(rc.records.iter().map(|(r, _)| r.offset).collect::<Vec<_>>(), [0, 1, 2, 3], "skipped records follow the one returned");
        let rc = consumer_read(&log, 1, 1, IsolationLevel::ReadCommitted);
        assert_eq!(rc.records.iter().map(|(r, _)| r.offset).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert_eq!(rc.visible, 1);
    }
}
