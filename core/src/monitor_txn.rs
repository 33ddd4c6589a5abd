//! The exactly-once monitor (issue 17): from the trace alone it follows each transactional
//! record to its transaction's fate (the COMMIT or ABORT marker of its producer id on its
//! partition), each group's `isolation.level`, and each Streams output back to its input,
//! and finds:
//!
//! - a record of an aborted or undecided transaction delivered to a consumer — a broken
//!   promise under read_committed; under read_uncommitted the promise does not apply
//!   (reported, not promised);
//! - an input whose output a reader can see twice: promised not to happen under
//!   exactly_once_v2 (committed outputs), expected under at_least_once (not promised);
//! - an input an exactly_once_v2 application processed again: its output stays once, but a
//!   side effect outside Kafka would have happened twice (not promised).
//!
//! What exactly-once does not promise (`docs/design`, "Using Transactions"): effects
//! outside Kafka, what read_uncommitted readers see, atomic visibility across partitions.

use crate::chunked::ChunkedMap;
use crate::config::{IsolationLevel, ProcessingGuarantee};
use crate::event::{ConsumeEvent, Event, EventKind, ProduceEvent, StreamsEvent, TxnEvent};
use crate::monitor::{FindingKind, Names, Shared};
use crate::record::{ControlType, RecordId, TopicPartition};
use crate::vecmap::VecSet;
use std::collections::BTreeMap;

/// A finding the exactly-once monitor makes: partition, records with values, kind, promised.
pub(crate) type TxnFinding = (TopicPartition, Vec<(RecordId, String)>, FindingKind, bool);

/// An input of a Streams application: (application id, topic, partition, offset), ordered
/// as (application id, `TopicPartition`, offset) would be; the names shared.
type Input = (Shared, Shared, u32, u64);

/// A consumer that read a record: (group, client id).
type Reader = (Shared, Shared);

/// What the exactly-once monitor keeps (bounded like the other monitors'). The maps that
/// grow with records are [`ChunkedMap`]s (a clone shares their chunks) and hold shared
/// names and values (see `monitor.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TxnMonitor {
    /// Transactional records not yet decided, by (partition, producer id), with their values.
    open: BTreeMap<(TopicPartition, u64), Vec<(RecordId, Shared)>>,
    /// The producer id of each transactional record still tracked.
    pid_of: ChunkedMap<RecordId, u64>,
    /// Each decided transactional record's fate.
    fate: ChunkedMap<RecordId, ControlType>,
    /// Undecided records delivered to read_uncommitted groups: who got them (group,
    /// client id).
    read_early: ChunkedMap<RecordId, Vec<Reader>>,
    /// Groups reading read_committed.
    read_committed: VecSet<String>,
    /// Streams applications under exactly_once_v2.
    exactly_once: VecSet<String>,
    /// Streams output records back to their input.
    lineage: ChunkedMap<RecordId, Input>,
    /// How many visible outputs each input has: in all, and written in a transaction
    /// (by the application under exactly_once_v2).
    outputs: ChunkedMap<Input, (u32, u32)>,
    /// Inputs an application processed.
    processed: ChunkedMap<Input, u32>,
    /// The record values seen sent, for findings (shared with the other monitors').
    values: ChunkedMap<RecordId, Shared>,
    /// The group, client, application and topic names the maps above hold.
    names: Names,
}

impl TxnMonitor {
    /// Forgets the oldest entries beyond `max` per map; returns how many.
    pub(crate) fn prune(&mut self, max: usize) -> u64 {
        let mut n = 0u64;
        macro_rules! cut {
            ($m:expr) => {
                n += $m.trim_first(max) as u64;
            };
        }
        cut!(self.pid_of);
        cut!(self.fate);
        cut!(self.read_early);
        cut!(self.lineage);
        cut!(self.outputs);
        cut!(self.processed);
        cut!(self.values);
        n
    }

    /// A record was sent with `value` (a `RecordSent`): kept for findings.
    pub(crate) fn sent(&mut self, record: RecordId, value: Shared) {
        self.values.insert(record, value);
    }

    /// Looks at one trace event (but `RecordSent`: [`TxnMonitor::sent`]); returns what it
    /// found.
    pub(crate) fn observe(&mut self, e: &Event) -> Vec<TxnFinding> {
        let mut found = Vec::new();
        match &e.kind {
            EventKind::Txn(TxnEvent::IsolationLevelSet { group, isolation_level }) => match isolation_level {
                IsolationLevel::ReadCommitted => {
                    self.read_committed.insert(group.clone());
                }
                IsolationLevel::ReadUncommitted => {
                    self.read_committed.remove(group);
                }
            },
            EventKind::Txn(TxnEvent::ProcessingGuaranteeSet { application_id, processing_guarantee }) => match processing_guarantee {
                ProcessingGuarantee::ExactlyOnceV2 => {
                    self.exactly_once.insert(application_id.clone());
                    self.read_committed.insert(application_id.clone());
                }
                ProcessingGuarantee::AtLeastOnce => {
                    self.exactly_once.remove(application_id);
                    self.read_committed.remove(application_id);
                }
            },
            EventKind::Txn(TxnEvent::TxnRecordsAppended { topic, partition, producer_id, records, .. }) => {
                let tp = TopicPartition::new(topic.clone(), *partition);
                let open = self.open.entry((tp.clone(), *producer_id)).or_default();
                for r in records {
                    let value = self.values.get(r).cloned().unwrap_or_default();
                    open.push((*r, value));
                    self.pid_of.insert(*r, *producer_id);
                }
            }
            EventKind::Produce(ProduceEvent::RecordAppended { record, topic, partition, .. }) => {
                // A Streams output outside a transaction is visible as soon as it is written.
                let tp = TopicPartition::new(topic.clone(), *partition);
                if !self.pid_of.contains_key(record) {
                    if let Some(input) = self.lineage.get(record).cloned() {
                        found.extend(self.output_visible(input, tp, *record, false));
                    }
                }
            }
            EventKind::Txn(TxnEvent::MarkerWritten { topic, partition, producer_id, kind, .. }) => {
                let tp = TopicPartition::new(topic.clone(), *partition);
                let decided = self.open.remove(&(tp.clone(), *producer_id)).unwrap_or_default();
                let mut early: BTreeMap<Reader, Vec<(RecordId, String)>> = BTreeMap::new();
                for (r, value) in decided {
                    self.fate.insert(r, *kind);
                    match kind {
                        ControlType::Commit => {
                            if let Some(input) = self.lineage.get(&r).cloned() {
                                found.extend(self.output_visible(input, tp.clone(), r, true));
                            }
                        }
                        ControlType::Abort => {
                            for who in self.read_early.remove(&r).unwrap_or_default() {
                                early.entry(who).or_default().push((r, value.to_string()));
                            }
                        }
                    }
                    self.read_early.remove(&r);
                }
                for ((group, client_id), records) in early {
                    // read_uncommitted: Kafka never promised to hide them.
                    let kind = FindingKind::AbortedRecordRead {
                        group: group.to_string(),
                        client_id: client_id.to_string(),
                        read_committed: false,
                    };
                    found.push((tp.clone(), records, kind, false));
                }
            }
            EventKind::Consume(ConsumeEvent::RecordDelivered { group, client_id, record, tp, value, .. }) => {
                if let Some(pid) = self.pid_of.get(record).copied() {
                    let rc = self.read_committed.contains(group.as_str());
                    match (self.fate.get(record), rc) {
                        (Some(ControlType::Commit), _) => {}
                        (Some(ControlType::Abort), rc) => {
                            let kind = FindingKind::AbortedRecordRead {
                                group: group.to_string(),
                                client_id: client_id.to_string(),
                                read_committed: rc,
                            };
                            found.push((tp.clone(), vec![(*record, value.to_string())], kind, rc));
                        }
                        (None, true) => {
                            let kind = FindingKind::UndecidedRecordRead { group: group.to_string(), client_id: client_id.to_string() };
                            found.push((tp.clone(), vec![(*record, value.to_string())], kind, true));
                        }
                        (None, false) => {
                            let _ = pid;
                            let who = (self.names.get(group), self.names.get(client_id));
                            self.read_early.get_or_insert_with(*record, Vec::new).push(who);
                        }
                    }
                }
            }
            EventKind::Streams(StreamsEvent::StreamsRecordProcessed { application_id, tp, offset, record, .. }) => {
                let input = (self.names.get(application_id), self.names.get(&tp.topic), tp.partition, *offset);
                let times = self.processed.get_or_insert_with(input.clone(), || 0);
                *times += 1;
                if *times > 1 && self.exactly_once.contains(application_id) {
                    let kind = FindingKind::ReprocessedOutsideKafka { application_id: application_id.clone() };
                    let value = record.and_then(|r| self.values.get(&r).map(|v| v.to_string())).unwrap_or_default();
                    found.push((tp.clone(), record.map(|r| vec![(r, value)]).unwrap_or_default(), kind, false));
                }
                if let Some(r) = record {
                    self.lineage.insert(*r, input);
                }
            }
            _ => {}
        }
        found
    }

    /// An output of `input` became visible (`transactional`: committed by a transaction).
    /// The second one is a duplicate in the output. It breaks the exactly_once_v2 promise
    /// only when it and an earlier copy were both written in transactions: a copy written
    /// under at_least_once before the application switched to exactly_once_v2 was never
    /// covered, and replaying its uncommitted input after the switch is expected.
    fn output_visible(&mut self, input: Input, tp: TopicPartition, record: RecordId, transactional: bool) -> Vec<TxnFinding> {
        let (all, in_txn) = self.outputs.get_or_insert_with(input.clone(), || (0, 0));
        *all += 1;
        let earlier_in_txn = *in_txn;
        if transactional {
            *in_txn += 1;
        }
        if *all < 2 {
            return Vec::new();
        }
        let exactly_once = self.exactly_once.contains(&*input.0) && transactional && earlier_in_txn > 0;
        let value = self.values.get(&record).map(|v| v.to_string()).unwrap_or_default();
        let kind = FindingKind::OutputDuplicated { application_id: input.0.to_string(), exactly_once };
        vec![(tp, vec![(record, value)], kind, exactly_once)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::monitor::Monitors;
    use crate::time::SimTime;

    fn ev(seq: u64, kind: EventKind) -> Event {
        Event { seq, time: SimTime(seq), kind }
    }

    fn feed(kinds: Vec<EventKind>) -> Monitors {
        let mut m = Monitors::new();
        for (i, k) in kinds.into_iter().enumerate() {
            m.observe(&ev(i as u64, k));
        }
        m
    }

    fn appended(r: u64) -> EventKind {
        EventKind::Txn(TxnEvent::TxnRecordsAppended {
            topic: "t".into(),
            partition: 0,
            producer_id: 7,
            epoch: 0,
            records: vec![RecordId(r)],
            first_offset: r,
        })
    }

    fn marker(kind: ControlType) -> EventKind {
        EventKind::Txn(TxnEvent::MarkerWritten {
            transactional_id: "tx".into(),
            topic: "t".into(),
            partition: 0,
            offset: 9,
            kind,
            producer_id: 7,
            epoch: 1,
            broker: 0,
        })
    }

    fn delivered(group: &str, r: u64) -> EventKind {
        EventKind::Consume(ConsumeEvent::RecordDelivered {
            group: group.into(),
            client_id: "c".into(),
            record: RecordId(r),
            tp: TopicPartition::new("t", 0),
            offset: r,
            value: format!("v{r}").into(),
            high_watermark: 99,
        })
    }

    fn rc(group: &str) -> EventKind {
        EventKind::Txn(TxnEvent::IsolationLevelSet { group: group.into(), isolation_level: IsolationLevel::ReadCommitted })
    }

    #[test]
    fn a_read_committed_delivery_of_an_aborted_or_undecided_record_breaks_the_promise() {
        let m = feed(vec![rc("g"), appended(1), marker(ControlType::Abort), delivered("g", 1)]);
        assert_eq!(m.promised_total(), 1);
        assert!(matches!(&m.findings()[0].kind, FindingKind::AbortedRecordRead { read_committed: true, .. }));
        let m = feed(vec![rc("g"), appended(1), delivered("g", 1)]);
        assert!(matches!(&m.findings()[0].kind, FindingKind::UndecidedRecordRead { .. }) && m.findings()[0].promised);
        // Committed: nothing to say.
        let m = feed(vec![rc("g"), appended(1), marker(ControlType::Commit), delivered("g", 1)]);
        assert_eq!(m.total(), 0);
    }

    #[test]
    fn read_uncommitted_readers_of_an_aborted_transaction_are_found_when_it_aborts_not_promised() {
        let m = feed(vec![appended(1), delivered("u", 1)]);
        assert_eq!(m.total(), 0, "undecided yet: read_uncommitted may read it");
        let m = feed(vec![appended(1), delivered("u", 1), marker(ControlType::Abort)]);
        assert_eq!((m.total(), m.promised_total()), (1, 0));
        assert!(matches!(&m.findings()[0].kind, FindingKind::AbortedRecordRead { read_committed: false, .. }));
    }

    fn guarantee(g: ProcessingGuarantee) -> EventKind {
        EventKind::Txn(TxnEvent::ProcessingGuaranteeSet { application_id: "a".into(), processing_guarantee: g })
    }

    /// Input a/t-0@0 processed, its output record `r`.
    fn processed(r: u64) -> EventKind {
        EventKind::Streams(StreamsEvent::StreamsRecordProcessed {
            application_id: "a".into(),
            client_id: "c".into(),
            tp: TopicPartition::new("in", 0),
            offset: 0,
            output: Some((None, format!("v{r}"))),
            record: Some(RecordId(r)),
        })
    }

    fn plain_appended(r: u64) -> EventKind {
        EventKind::Produce(ProduceEvent::RecordAppended {
            record: RecordId(r),
            value: format!("v{r}").into(),
            topic: "t".into(),
            partition: 0,
            offset: r,
            timestamp: SimTime(r),
            broker: 0,
            leader_epoch: 0,
        })
    }

    fn dup(m: &Monitors) -> Vec<(bool, bool)> {
        m.findings()
            .iter()
            .filter_map(|f| match f.kind {
                FindingKind::OutputDuplicated { exactly_once, .. } => Some((exactly_once, f.promised)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_output_twice_breaks_the_promise_only_when_both_copies_were_written_in_transactions() {
        use ProcessingGuarantee::*;
        // Both copies committed by exactly_once_v2 transactions: broken.
        let both = vec![
            guarantee(ExactlyOnceV2),
            processed(1),
            appended(1),
            marker(ControlType::Commit),
            processed(2),
            appended(2),
            marker(ControlType::Commit),
        ];
        assert_eq!(dup(&feed(both)), vec![(true, true)]);
        // at_least_once wrote the first copy and left its input uncommitted; after the switch
        // to exactly_once_v2 the input is processed again (a case the fuzzer found): expected.
        let switched = vec![
            guarantee(AtLeastOnce),
            processed(1),
            plain_appended(1),
            guarantee(ExactlyOnceV2),
            processed(2),
            appended(2),
            marker(ControlType::Commit),
        ];
        assert_eq!(dup(&feed(switched)), vec![(false, false)]);
        // Two at_least_once copies: the price of at-least-once.
        let alos = vec![guarantee(AtLeastOnce), processed(1), plain_appended(1), processed(2), plain_appended(2)];
        assert_eq!(dup(&feed(alos)), vec![(false, false)]);
    }
}
