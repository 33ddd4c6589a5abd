//! View models the panels compute from a snapshot or from the core's read layer
//! (`kafka_sandbox_core::read`): plain data, no Yew, tested natively.

use kafka_sandbox_core::event::{LossCause, ProduceError};
use kafka_sandbox_core::read::{Read, SentRecord};
use kafka_sandbox_core::record::RecordId;
use kafka_sandbox_core::snapshot::{PartitionView, ProducerView, Snapshot};
use kafka_sandbox_core::vecmap::VecMap;
use kafka_sandbox_core::SimTime;

/// What became of a record a leader change left behind, as far as the page can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostStatus {
    /// The producer was acknowledged: it will not send the record again. Gone for good.
    Acknowledged,
    /// The producer gave up on it with this error (its callback got the error).
    GivenUp(ProduceError),
    /// The producer has no answer yet and will send it again.
    Retrying,
    /// Sent again and now in the leader's log at this offset: not lost after all.
    Rewritten { offset: u64 },
    /// The producer no longer remembers it (its list of sends is bounded).
    Unknown,
}

impl LostStatus {
    /// Whether the record is really gone (shown struck through in red, class `lost`).
    pub fn is_lost(self) -> bool {
        matches!(self, LostStatus::Acknowledged | LostStatus::GivenUp(_) | LostStatus::Unknown)
    }
}

/// One record a leader change left behind, with what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    pub record: RecordId,
    pub value: String,
    pub offset: u64,
    pub was_committed: bool,
    pub cause: LossCause,
    pub at: SimTime,
    pub status: LostStatus,
}

/// Every producer's remembered sends by record id, built only when some partition lost
/// records (it costs one pass over the producers' bounded lists).
pub struct SentIndex<'a>(VecMap<RecordId, &'a SentRecord>);

impl<'a> SentIndex<'a> {
    /// No sends: for a partition that lost nothing.
    pub fn empty() -> Self {
        SentIndex(VecMap::new())
    }

    /// Empty unless some partition of `snap` lost records.
    pub fn new(snap: &'a Snapshot) -> Self {
        let any_lost = snap.topics.iter().any(|t| t.partitions.iter().any(|p| !p.lost.is_empty()));
        if !any_lost {
            return SentIndex(VecMap::new());
        }
        SentIndex::of(&snap.producers)
    }

    /// Every send of `producers`: for a partition that lost records (a panel holds the
    /// producers, not the whole snapshot).
    pub fn of(producers: &'a [ProducerView]) -> Self {
        SentIndex(producers.iter().flat_map(|p| p.sent.iter()).map(|s| (s.record, s)).collect())
    }
}

/// The records `part` lost at leader changes, by record id (the newest loss of each).
pub fn losses(part: &PartitionView, sent: &SentIndex<'_>) -> VecMap<RecordId, Loss> {
    if part.lost.is_empty() {
        return VecMap::new();
    }
    let in_log: VecMap<RecordId, u64> = part.records.iter().map(|r| (r.id, r.offset)).collect();
    part.lost
        .iter()
        .map(|l| {
            let status = if let Some(offset) = in_log.get(&l.record) {
                LostStatus::Rewritten { offset: *offset }
            } else {
                match sent.0.get(&l.record) {
                    Some(s) if s.acked_offset.is_some() => LostStatus::Acknowledged,
                    Some(s) => match s.failed {
                        Some(e) => LostStatus::GivenUp(e),
                        None => LostStatus::Retrying,
                    },
                    None => LostStatus::Unknown,
                }
            };
            let loss = Loss {
                record: l.record,
                value: l.value.clone(),
                offset: l.offset,
                was_committed: l.was_committed,
                cause: l.cause,
                at: l.at,
                status,
            };
            (l.record, loss)
        })
        .collect()
}

/// One cell of a big topic's partition map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapCell {
    pub partition: u32,
    pub leader: Option<u32>,
    pub log_end_offset: u64,
    pub high_watermark: u64,
    /// 0 (no records) to 4 (as many as the fullest partition): how dark the cell is.
    pub level: u8,
    /// Fewer in-sync replicas than replicas.
    pub under_replicated: bool,
}

/// Above this many partitions a topic shows a map of all of them above the rows.
pub const MAP_FROM_PARTITIONS: usize = 16;

/// A big topic's partitions at a glance: which hold records (the sticky partitioner fills
/// one at a time), which are under-replicated or offline.
pub fn partition_map(t: &kafka_sandbox_core::snapshot::TopicView) -> Vec<MapCell> {
    let records = |p: &PartitionView| p.log_end_offset.saturating_sub(p.log_start_offset);
    let most = t.partitions.iter().map(records).max().unwrap_or(0);
    t.partitions
        .iter()
        .map(|p| {
            let n = records(p);
            let level = if n == 0 || most == 0 { 0 } else { (1 + (n * 3) / most).min(4) as u8 };
            MapCell {
                partition: p.partition,
                leader: p.leader,
                log_end_offset: p.log_end_offset,
                high_watermark: p.high_watermark,
                level,
                under_replicated: p.isr.len() < p.replicas.len(),
            }
        })
        .collect()
}

/// How serious a guarantee finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Something Kafka promises cannot happen under the settings in force.
    PromiseBroken,
    /// Allowed by the settings (acks=1, no idempotence, unclean election), worth seeing.
    Warning,
}

/// One line of the guarantees panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuaranteeRow {
    pub time: SimTime,
    pub severity: Severity,
    pub text: String,
}

/// The monitors' findings as panel rows, newest first, in `lang`.
pub fn guarantee_rows(lang: crate::i18n::Lang, read: Read<'_>, max: usize) -> Vec<GuaranteeRow> {
    read.findings()
        .iter()
        .rev()
        .take(max)
        .map(|f| GuaranteeRow {
            time: f.time,
            severity: if f.promised { Severity::PromiseBroken } else { Severity::Warning },
            text: crate::i18n::finding_text(lang, f),
        })
        .collect()
}

/// A partition's name on a card: `P0` where one topic is shown, Kafka's own `topic-partition`
/// (`TopicPartition.toString`, `T1-0`) where several are, so two topics' partition 0 never
/// read alike.
pub fn part_label(tp: &kafka_sandbox_core::record::TopicPartition, many_topics: bool) -> String {
    if many_topics {
        tp.to_string()
    } else {
        format!("P{}", tp.partition)
    }
}

/// One consumer group's offset on a partition: its committed offset (the next offset it
/// reads after a restart or a rebalance) or a member's position (the next offset that
/// member fetches). `group_index` picks the group's colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetMark {
    pub group: String,
    pub group_index: usize,
    /// The member's client id for a position; `None` for the group's committed offset.
    pub client_id: Option<String>,
    pub offset: u64,
}

/// A record a member received and has not processed yet (it holds it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InHand {
    pub offset: u64,
    pub group: String,
    pub group_index: usize,
    pub client_id: String,
}

/// What is drawn on one partition's log: its offsets (log start, HW, LEO; the LSO once
/// transactions exist), each group's committed offset, each member's position, and the
/// records members hold unprocessed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartMarks {
    pub log_start: u64,
    pub high_watermark: u64,
    pub log_end: u64,
    /// The last stable offset (transactions, KIP-98): the slot is drawn and in the legend;
    /// `None` until the transactions feature fills it (read_committed reads below it).
    pub last_stable: Option<u64>,
    pub committed: Vec<OffsetMark>,
    pub positions: Vec<OffsetMark>,
    pub in_hand: Vec<InHand>,
}

/// Every partition's marks, by topic and partition.
pub type OffsetMarks = VecMap<(String, u32), PartMarks>;

/// The marks of every partition, read through the read layer: groups in their order
/// (their colours), members in theirs.
pub fn offset_marks(read: kafka_sandbox_core::read::Read<'_>) -> OffsetMarks {
    let mut marks: OffsetMarks = VecMap::new();
    for t in read.topics() {
        for p in t.partitions() {
            marks.insert(
                (t.name().to_string(), p.index()),
                PartMarks {
                    log_start: p.log_start_offset(),
                    high_watermark: p.high_watermark(),
                    log_end: p.log_end_offset(),
                    ..PartMarks::default()
                },
            );
        }
    }
    for (gi, g) in read.groups().enumerate() {
        for (tp, offset) in g.committed_offsets() {
            if let Some(m) = marks.get_mut(&(tp.topic.to_string(), tp.partition)) {
                m.committed.push(OffsetMark { group: g.id().to_string(), group_index: gi, client_id: None, offset });
            }
        }
        for member in g.members() {
            for (tp, offset) in member.positions() {
                if let Some(m) = marks.get_mut(&(tp.topic.to_string(), tp.partition)) {
                    let client_id = Some(member.client_id().to_string());
                    m.positions.push(OffsetMark { group: g.id().to_string(), group_index: gi, client_id, offset });
                }
            }
            for d in member.in_hand() {
                if let Some(m) = marks.get_mut(&(d.tp.topic.to_string(), d.tp.partition)) {
                    let (group, client_id) = (g.id().to_string(), member.client_id().to_string());
                    m.in_hand.push(InHand { offset: d.offset, group, group_index: gi, client_id });
                }
            }
        }
    }
    marks
}

/// What stands at one place of a log: the markers whose offset is `offset`, in the order
/// drawn (log start, committed offsets, positions, LSO, HW, LEO).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marker {
    LogStart,
    Committed { group: String, group_index: usize },
    Position { group: String, group_index: usize, client_id: String },
    LastStable,
    HighWatermark,
    LogEnd,
}

impl PartMarks {
    /// The markers at each offset, in offset order: a marker stands just before the record
    /// at its offset (or after the last record when it is the log end).
    pub fn markers(&self) -> Vec<(u64, Vec<Marker>)> {
        let mut all: Vec<(u64, u8, Marker)> = vec![(self.log_start, 0, Marker::LogStart)];
        for c in &self.committed {
            all.push((c.offset, 1, Marker::Committed { group: c.group.clone(), group_index: c.group_index }));
        }
        for p in &self.positions {
            let client_id = p.client_id.clone().unwrap_or_default();
            all.push((p.offset, 2, Marker::Position { group: p.group.clone(), group_index: p.group_index, client_id }));
        }
        if let Some(lso) = self.last_stable {
            all.push((lso, 3, Marker::LastStable));
        }
        all.push((self.high_watermark, 4, Marker::HighWatermark));
        all.push((self.log_end, 5, Marker::LogEnd));
        kafka_sandbox_core::sorted::sort_by_key(&mut all, |(o, rank, _)| (*o, *rank));
        let mut out: Vec<(u64, Vec<Marker>)> = Vec::new();
        for (o, _, m) in all {
            match out.last_mut() {
                Some((at, ms)) if *at == o => ms.push(m),
                _ => out.push((o, vec![m])),
            }
        }
        out
    }

    /// Who holds the record at `offset` unprocessed, if anyone.
    pub fn held_by(&self, offset: u64) -> Vec<&InHand> {
        self.in_hand.iter().filter(|h| h.offset == offset).collect()
    }
}

/// Every record a producer was acknowledged for and a leader change then lost, with the
/// cause (the producer card marks them lost).
pub fn acked_lost(topics: &[kafka_sandbox_core::snapshot::TopicView], producers: &[ProducerView]) -> VecMap<RecordId, LossCause> {
    if topics.iter().all(|t| t.partitions.iter().all(|p| p.lost.is_empty())) {
        return VecMap::new();
    }
    let sent = SentIndex::of(producers);
    let mut out = VecMap::new();
    for t in topics {
        for p in &t.partitions {
            for (id, l) in losses(p, &sent).iter() {
                if l.status == LostStatus::Acknowledged {
                    out.insert(*id, l.cause);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lesson 6's picture: a slow consumer has polled a batch and holds most of it
    /// unprocessed; the log shows its position past them, the group's committed offset
    /// before them, which records it holds, and the HW and LEO.
    #[test]
    fn the_log_draws_positions_committed_offsets_and_records_held_unprocessed() {
        let json = r#"{
          "version": 1, "seed": 5,
          "cluster": { "group_initial_rebalance_delay_ms": 0 },
          "topics": [{ "name": "pay", "partitions": 1 }],
          "producers": [{ "name": "p", "send": [{ "topic": "pay", "values": ["a","b","c","d","e","f","g","h"], "start_ms": 3000, "interval_ms": 1 }] }],
          "groups": [{ "id": "billing", "topics": ["pay"], "config": { "auto_offset_reset": "earliest" },
            "members": [{ "client_id": "slow", "config": { "processing_ms": 2000, "commit_mode": "sync_after_processing" } }] }]
        }"#;
        let Ok(s) = Scenario::from_json(json) else { panic!("parses") };
        let Ok(mut sim) = s.build() else { panic!("builds") };
        sim.run_to(SimTime(7_500));
        let marks = offset_marks(sim.read());
        let Some(m) = marks.get(&("pay".to_string(), 0)) else { panic!("pay-0 has marks") };
        let Some(member) = sim.member("billing", "slow") else { panic!("the member") };
        let position = member.position("pay", 0).unwrap_or_default();
        let held: Vec<u64> = member.in_hand().map(|d| d.offset).collect();
        assert!(held.len() >= 2, "it holds records: {held:?}");
        assert_eq!(
            m.positions,
            vec![OffsetMark { group: "billing".into(), group_index: 0, client_id: Some("slow".into()), offset: position }]
        );
        assert_eq!(m.in_hand.iter().map(|h| h.offset).collect::<Vec<_>>(), held);
        let committed = sim.group("billing").and_then(|g| g.committed(&kafka_sandbox_core::record::TopicPartition::new("pay", 0)));
        assert_eq!(m.committed.first().map(|c| c.offset), committed);
        assert!(held.iter().all(|o| *o < position && Some(*o) >= committed), "held between the commit and the position");
        assert_eq!((m.high_watermark, m.log_end, m.last_stable), (8, 8, None));
        // The markers in offset order, each kind once where it stands.
        let markers = m.markers();
        assert!(markers.windows(2).all(|w| w[0].0 < w[1].0));
        let at = |o: u64| markers.iter().find(|(x, _)| *x == o).map(|(_, ms)| ms.clone()).unwrap_or_default();
        assert!(at(0).contains(&Marker::LogStart));
        assert!(at(position).iter().any(|k| matches!(k, Marker::Position { client_id, .. } if client_id == "slow")));
        assert!(at(8).contains(&Marker::HighWatermark) && at(8).contains(&Marker::LogEnd));
    }

    use kafka_sandbox_core::command::BrokerCommand;
    use kafka_sandbox_core::scenario::Scenario;

    /// Three brokers, one partition on all of them, acks=1; both followers slowed, then
    /// the leader crashes: what it had acknowledged alone is lost.
    pub(crate) fn acks1_failover() -> kafka_sandbox_core::Sim {
        let json = r#"{
          "version": 1, "seed": 7,
          "cluster": { "brokers": 3, "network_latency_ms": 50, "broker_session_timeout_ms": 2000, "group_initial_rebalance_delay_ms": 0 },
          "topics": [{ "name": "orders", "partitions": 1, "replication_factor": 3 }],
          "producers": [{ "name": "Producer1", "config": { "acks": "1", "request_timeout_ms": 1500 },
            "send": [{ "topic": "orders", "values": ["m1","m2","m3","m4","m5","m6","m7","m8"], "start_ms": 1000, "interval_ms": 300 }] }],
          "groups": [{ "id": "readers", "topics": ["orders"], "config": { "auto_offset_reset": "earliest" }, "members": [{ "client_id": "Consumer1" }] }]
        }"#;
        let Ok(s) = Scenario::from_json(json) else { panic!("the test scenario parses") };
        let Ok(mut sim) = s.build() else { panic!("the test scenario builds") };
        let leader = sim.snapshot().topics[0].partitions[0].leader.unwrap_or(0);
        for b in 0..3 {
            if b != leader {
                let _ = sim.apply(BrokerCommand::SlowBroker { broker: b, slow_ms: 2000 });
            }
        }
        sim.run_to(SimTime(2500));
        let _ = sim.apply(BrokerCommand::CrashBroker { broker: leader });
        sim.run_to(SimTime(12_000));
        sim
    }

    #[test]
    fn records_acknowledged_by_the_old_leader_alone_are_lost_and_the_rest_rewritten() {
        let sim = acks1_failover();
        let snap = sim.snapshot();
        let part = &snap.topics[0].partitions[0];
        let sent = SentIndex::new(&snap);
        let losses = losses(part, &sent);
        assert!(!losses.is_empty(), "the failover left records behind");
        assert!(losses.values().any(|l| l.status == LostStatus::Acknowledged), "{losses:?}");
        // Whatever is lost for good is really absent from the new leader's log.
        for l in losses.values().filter(|l| l.status.is_lost()) {
            assert!(part.records.iter().all(|r| r.id != l.record), "{l:?}");
        }
        let rows = guarantee_rows(crate::i18n::Lang::En, sim.read(), 10);
        assert!(rows.iter().any(|r| r.text.contains("acks=1")), "{rows:?}");
        assert!(rows.iter().all(|r| r.severity == Severity::Warning || !r.text.contains("acks=1")));
    }

    #[test]
    fn the_partition_map_shows_where_the_records_are_and_what_is_under_replicated() {
        let sim = acks1_failover();
        let mut topic = sim.snapshot().topics[0].clone();
        let mut other = topic.partitions[0].clone();
        other.partition = 1;
        other.log_start_offset = 0;
        other.log_end_offset = 0;
        other.isr = other.replicas.clone();
        other.leader = Some(1);
        topic.partitions.push(other);
        let cells = partition_map(&topic);
        assert_eq!(cells.len(), 2);
        assert!(cells[0].log_end_offset > 0);
        assert_eq!(cells[0].level, 4, "the fullest partition is the darkest");
        assert!(cells[0].under_replicated, "the crashed broker left the ISR: {:?}", topic.partitions[0].isr);
        assert_eq!((cells[1].level, cells[1].under_replicated), (0, false));
    }

    #[test]
    fn nothing_is_indexed_while_nothing_is_lost() {
        let Ok(sim) = kafka_sandbox_core::scenario::default_scenario().build() else { panic!("builds") };
        let snap = sim.snapshot();
        assert!(SentIndex::new(&snap).0.is_empty());
    }
}

/// The event log's filter: every event, or one part of Kafka (the core's [`Category`]).
///
/// [`Category`]: kafka_sandbox_core::event::Category
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EventCategory {
    #[default]
    All,
    Only(kafka_sandbox_core::event::Category),
}

impl EventCategory {
    /// The filter's choices, in the order the page lists them.
    pub fn choices() -> impl Iterator<Item = EventCategory> {
        std::iter::once(EventCategory::All).chain(kafka_sandbox_core::event::Category::ALL.into_iter().map(EventCategory::Only))
    }

    pub fn key(self) -> &'static str {
        use kafka_sandbox_core::event::Category as C;
        match self {
            EventCategory::All => "all",
            EventCategory::Only(C::Produce) => "produce",
            EventCategory::Only(C::Replication) => "replication",
            EventCategory::Only(C::Group) => "group",
            EventCategory::Only(C::Consume) => "consume",
            EventCategory::Only(C::Fault) => "fault",
            EventCategory::Only(C::Settings) => "settings",
        }
    }

    pub fn from_key(k: &str) -> Self {
        Self::choices().find(|c| c.key() == k).unwrap_or_default()
    }

    /// Whether an event passes the filter.
    pub fn admits(self, kind: &kafka_sandbox_core::EventKind) -> bool {
        match self {
            EventCategory::All => true,
            EventCategory::Only(c) => kind.category() == c,
        }
    }
}

/// The events shown by the log: the newest `max` of the last `window` that match. The
/// text filter matches the sentence the learner reads (in `lang`), ignoring the case of
/// ASCII letters (Unicode case folding would bring its tables into the page: 5 KB, for
/// Chinese, which has no case, and names that are mostly ASCII).
pub fn filtered_events(
    read: Read<'_>,
    lang: crate::i18n::Lang,
    category: EventCategory,
    entity: &str,
    max: usize,
    window: usize,
) -> Vec<kafka_sandbox_core::Event> {
    let entity = entity.trim().to_ascii_lowercase();
    // Newest first, cloning only what is shown (this runs every frame).
    let mut out: Vec<kafka_sandbox_core::Event> = read
        .events()
        .rev()
        .take(window)
        .filter(|e| category.admits(&e.kind))
        .filter(|e| entity.is_empty() || crate::i18n::event_line(lang, &e.kind).to_ascii_lowercase().contains(&entity))
        .take(max)
        .cloned()
        .collect();
    out.reverse();
    out
}

/// A name from a scenario inside a CSS attribute selector: every character outside
/// [A-Za-z0-9_-] is escaped as CSS hex, so no name can end the selector early.
pub fn css_escape(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c.to_string() } else { format!("\\{:x} ", c as u32) })
        .collect()
}

/// CSS selectors for who an event involves ([`EventKind::subjects`]): its brokers,
/// consumers (within their group), producers, connectors and Streams apps. Names come from
/// scenarios, so each is escaped ([`css_escape`]).
///
/// [`EventKind::subjects`]: kafka_sandbox_core::EventKind::subjects
pub fn involved_selectors(kind: &kafka_sandbox_core::EventKind) -> Vec<String> {
    use kafka_sandbox_core::event::Subject as S;
    let q = css_escape;
    // A cleaner's pass (issue 19) outlines the partition it compacted: its segment strip.
    let cleaned = matches!(kind, kafka_sandbox_core::EventKind::Compaction(_));
    let mut out: Vec<String> = kind
        .subjects()
        .into_iter()
        .filter_map(|s| match s {
            S::Partition { topic, partition } if cleaned => Some(partition_selector(topic, partition)),
            S::Broker(b) => Some(format!("[data-broker=\"{b}\"]")),
            S::Member { group, client_id } => Some(format!("[data-group=\"{}\"] [data-client=\"{}\"]", q(group), q(client_id))),
            S::Producer(p) => Some(format!("[data-producer=\"{}\"]", q(p))),
            S::Connector(c) => Some(format!("[data-connector=\"{}\"]", q(c))),
            S::StreamsApp(a) => Some(format!("[data-streams=\"{}\"]", q(a))),
            S::Topic(_) | S::Partition { .. } | S::Record(_) | S::Group(_) => None,
        })
        .collect();
    kafka_sandbox_core::sorted::sort(&mut out);
    out.dedup();
    out
}

/// The selector of a partition's compaction view (issue 19): in the topic panel, or the
/// `__consumer_offsets` view.
pub fn partition_selector(topic: &str, partition: u32) -> String {
    if topic == kafka_sandbox_core::record::OFFSETS_TOPIC {
        return format!("#offsets-view[data-partition=\"{partition}\"] .compaction");
    }
    format!("[data-topic=\"{}\"] #partition-{partition} .compaction", css_escape(topic))
}

#[cfg(test)]
mod event_filter_tests {
    use super::*;
    use kafka_sandbox_core::event::{ClusterEvent, GroupEvent, ProduceEvent, SettingsEvent};
    use kafka_sandbox_core::EventKind as E;

    #[test]
    fn the_filter_admits_by_the_cores_category() {
        use kafka_sandbox_core::event::Category as C;
        let crash = E::Group(GroupEvent::MemberCrashed { group: "g".into(), client_id: "c1".into() });
        assert!(EventCategory::Only(C::Fault).admits(&crash));
        assert!(!EventCategory::Only(C::Group).admits(&crash));
        assert!(EventCategory::All.admits(&crash));
        let changed =
            E::Settings(SettingsEvent::ConfigChanged { entity: "t".into(), setting: "min.insync.replicas".into(), value: "2".into() });
        assert!(EventCategory::Only(C::Settings).admits(&changed), "a setting is not a group event");
        // Every choice has its own key, and the key reads back.
        let keys: Vec<&str> = EventCategory::choices().map(|c| c.key()).collect();
        assert_eq!(keys, ["all", "produce", "replication", "group", "consume", "fault", "settings"]);
        for c in EventCategory::choices() {
            assert_eq!(EventCategory::from_key(c.key()), c);
        }
        assert_eq!(EventCategory::from_key("bogus"), EventCategory::All);
    }

    #[test]
    fn who_an_event_involves_is_read_from_its_subjects_not_its_sentence() {
        let crash = E::Group(GroupEvent::MemberCrashed { group: "ConsumerGroup01".into(), client_id: "Consumer2".into() });
        assert_eq!(involved_selectors(&crash), ["[data-group=\"ConsumerGroup01\"] [data-client=\"Consumer2\"]"]);
        assert_eq!(involved_selectors(&E::Cluster(ClusterEvent::BrokerFenced { broker: 2 })), ["[data-broker=\"2\"]"]);
        let appended = E::Produce(ProduceEvent::RecordAppended {
            record: kafka_sandbox_core::record::RecordId(3),
            value: "broker 7".into(),
            topic: "t".into(),
            partition: 0,
            offset: 0,
            timestamp: SimTime(0),
            broker: 1,
            leader_epoch: 0,
        });
        // A value that reads like a name names nobody.
        assert_eq!(involved_selectors(&appended), ["[data-broker=\"1\"]"]);
        // A Chinese client id, and a name with quotes, are escaped.
        let odd = E::Group(GroupEvent::MemberCrashed { group: "g\"]".into(), client_id: "消费者2".into() });
        assert_eq!(involved_selectors(&odd), ["[data-group=\"g\\22 \\5d \"] [data-client=\"\\6d88 \\8d39 \\8005 2\"]"]);
    }

    #[test]
    fn the_filter_finds_a_members_events_further_back() {
        let scenario = kafka_sandbox_core::scenario::default_scenario();
        let mut sim = scenario.build().expect("builds");
        sim.run_to(kafka_sandbox_core::SimTime(20_000));
        let en = crate::i18n::Lang::En;
        let mine = filtered_events(sim.read(), en, EventCategory::All, "Consumer2", 30, 5000);
        assert!(!mine.is_empty());
        assert!(mine.iter().all(|e| crate::i18n::event_line(en, &e.kind).contains("Consumer2")));
        let group = EventCategory::Only(kafka_sandbox_core::event::Category::Group);
        let groups = filtered_events(sim.read(), en, group, "", 30, 5000);
        assert!(!groups.is_empty() && groups.iter().all(|e| group.admits(&e.kind)));
        assert!(groups.windows(2).all(|w| w[0].seq < w[1].seq), "oldest first");
    }

    #[test]
    fn the_filter_ignores_ascii_case() {
        let json = kafka_sandbox_core::scenario::default_scenario().to_json_pretty().replace("Consumer2", "消费者2");
        let mut sim = kafka_sandbox_core::Scenario::from_json(&json).expect("valid").build().expect("builds");
        sim.run_to(kafka_sandbox_core::SimTime(20_000));
        let en = crate::i18n::Lang::En;
        let found = filtered_events(sim.read(), en, EventCategory::All, "CONSUMER1", 30, 5000);
        assert!(!found.is_empty());
        assert!(found.iter().all(|e| crate::i18n::event_line(en, &e.kind).contains("Consumer1")));
    }
}
