//! A Kafka Streams application: consume → process → produce, with a state store.
//!
//! What it follows (apache/kafka `streams/`):
//! - The application is a consumer group whose id is `application.id`; each instance is
//!   one member (one `StreamThread`) with Streams' consumer overrides
//!   (`StreamsConfig.CONSUMER_DEFAULT_OVERRIDES`: `max.poll.records` 1000,
//!   `auto.offset.reset` earliest, `enable.auto.commit` false) and one producer with its
//!   producer override (`linger.ms` 100).
//! - Each record is processed in turn (`StreamTask.process`): the topology's one operator
//!   runs and its output goes to the sink topic through the producer, keyed as the input,
//!   so with equal partition counts an input partition's output lands, in order, in the
//!   same sink partition.
//! - Offsets are committed every `commit.interval.ms` (30000 under `at_least_once`,
//!   `TaskManager.commit`): records processed after the last commit are processed again
//!   by the next owner after a crash, so their output appears twice in the sink.
//! - `count_by_key` keeps a key-value state store per task (input partition), like
//!   `groupByKey().count(Materialized.as(store))`; each update is written to the store's
//!   changelog topic `<application.id>-<store>-changelog` (same partition as the task,
//!   `ProcessorStateManager`/`RecordCollector`) and sent downstream. A task that starts
//!   on an instance (after a crash, a restart or a move) restores its store from the
//!   changelog first (`StoreChangelogReader`): the last value per key.
//!
//! Where it departs: commits are the consumer's commits inside `poll()` at the commit
//! interval (Streams commits from its own loop after flushing the producer, with
//! `enable.auto.commit=false`); the record cache (`statestore.cache.max.bytes`) is off, so
//! every count update is emitted; the assignor is cooperative-sticky, not
//! `StreamsPartitionAssignor`; only `at_least_once` (no `exactly_once_v2`); null keys are
//! skipped by `count_by_key`, as Streams skips them; the changelog topic has replication
//! factor 1 (`replication.factor` -1 = the broker's default). It is compacted, as Streams
//! creates a key-value store's changelog (`UnwindowedUnversionedChangelogTopicConfig`:
//! `cleanup.policy=compact`, issue 19), so a restore reads the newest count per key plus
//! the dirty part's older ones, and ends with the same store; an
//! instance's producer outlives its crash (its buffered output still goes out).

use super::*;
use crate::command::{GroupSpec, MemberSpec};
use crate::config::ProcessingGuarantee;
use crate::config::{ConsumerConfig, GroupConfig};
use crate::error::ScenarioError;
use crate::event::StreamsEvent;
pub use crate::limits::{MAX_INSTANCES, MAX_STREAMS};
use serde::{Deserialize, Serialize};

/// `streams[]` in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StreamsSpecText")]
pub struct StreamsSpec {
    /// `application.id`: the group id, the prefix of internal topics and client ids.
    pub application_id: String,
    /// The topic it reads (`builder.stream(source)`).
    pub source: String,
    /// The topic its output goes to (`.to(sink)`).
    pub sink: String,
    /// The operator applied to each record.
    pub op: StreamsOp,
    /// How many instances run (members `<application_id>-1` …), 1-8.
    #[serde(default = "one")]
    pub instances: u32,
    /// `commit.interval.ms` (30000 under `at_least_once`, 100 under `exactly_once_v2`:
    /// `StreamsConfig`'s default follows the guarantee when the scenario leaves it out).
    pub commit_interval_ms: u64,
    /// **Sandbox only**: time spent on each record.
    pub processing_ms: u64,
    /// `processing.guarantee`: `at_least_once` (the default) or `exactly_once_v2` (one
    /// transactional producer per instance; output, changelog and offsets commit together).
    #[serde(skip_serializing_if = "ProcessingGuarantee::is_at_least_once")]
    pub processing_guarantee: ProcessingGuarantee,
}

/// `streams[]` as written: `commit_interval_ms` may be left out, and its default follows
/// `processing_guarantee` (`StreamsConfig.EOS_DEFAULT_COMMIT_INTERVAL_MS`, 100).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StreamsSpecText {
    application_id: String,
    source: String,
    sink: String,
    op: StreamsOp,
    #[serde(default = "one")]
    instances: u32,
    #[serde(default)]
    commit_interval_ms: Option<u64>,
    #[serde(default = "default_processing_ms")]
    processing_ms: u64,
    #[serde(default)]
    processing_guarantee: ProcessingGuarantee,
}

impl From<StreamsSpecText> for StreamsSpec {
    fn from(t: StreamsSpecText) -> Self {
        let commit_interval_ms = t.commit_interval_ms.unwrap_or(match t.processing_guarantee {
            ProcessingGuarantee::AtLeastOnce => default_commit_interval_ms(),
            ProcessingGuarantee::ExactlyOnceV2 => EOS_COMMIT_INTERVAL_MS,
        });
        StreamsSpec {
            application_id: t.application_id,
            source: t.source,
            sink: t.sink,
            op: t.op,
            instances: t.instances,
            commit_interval_ms,
            processing_ms: t.processing_ms,
            processing_guarantee: t.processing_guarantee,
        }
    }
}

/// `StreamsConfig.EOS_DEFAULT_COMMIT_INTERVAL_MS`.
pub const EOS_COMMIT_INTERVAL_MS: u64 = 100;

/// `StreamsConfig.DEFAULT_TRANSACTION_TIMEOUT`: the producer's `transaction.timeout.ms`
/// under exactly_once_v2.
pub const EOS_TRANSACTION_TIMEOUT_MS: u64 = 10_000;

fn one() -> u32 {
    1
}

fn default_commit_interval_ms() -> u64 {
    30_000
}

fn default_processing_ms() -> u64 {
    10
}

/// The topology's one operator.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StreamsOp {
    /// `filter((k, v) -> v.contains(value_contains))`.
    Filter {
        /// The text a value must contain to be kept; at most
        /// [`crate::limits::MAX_VALUE_CHARS`] characters.
        value_contains: String,
    },
    /// `mapValues(v -> v.toUpperCase())`.
    MapUpper {},
    /// `groupByKey().count(Materialized.as(store)).toStream()`: the running count per key.
    CountByKey {
        /// The state store's name (`counts` by default); its changelog topic is
        /// `<application_id>-<store>-changelog`.
        #[serde(default = "default_store")]
        store: String,
    },
}

fn default_store() -> String {
    "counts".into()
}

impl StreamsSpec {
    /// The state store's changelog topic, if the operator has a store.
    pub fn changelog(&self) -> Option<String> {
        match &self.op {
            StreamsOp::CountByKey { store } => Some(format!("{}-{store}-changelog", self.application_id)),
            _ => None,
        }
    }

    /// The instances' client ids.
    pub fn instance_ids(&self) -> Vec<String> {
        (1..=self.instances).map(|i| format!("{}-{i}", self.application_id)).collect()
    }

    /// The producer the instances share in the sandbox.
    pub fn producer_name(&self) -> String {
        format!("{}-producer", self.application_id)
    }
}

/// One task's state store: counts by key, and which instance incarnation holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TaskStore {
    /// (client id, incarnation) of the instance that restored it and writes it.
    pub(super) owner: Option<(String, u64)>,
    counts: VecMap<String, u64>,
}

/// A running Streams application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamsApp {
    /// Its settings as the scenario gave them.
    pub spec: StreamsSpec,
    /// By input partition.
    pub(crate) stores: VecMap<u32, TaskStore>,
    /// Records its instances have processed, reprocessing after a crash included.
    pub processed_total: u64,
    /// Records it has sent to the sink topic (a filter's dropped records and changelog
    /// writes not counted).
    pub output_total: u64,
    /// Under `exactly_once_v2`, each instance's transactional producer and commit state
    /// (`streams_eos.rs`), by client id.
    pub(crate) eos: VecMap<String, crate::sim::streams_eos::EosInstance>,
}

/// A Streams application for the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsView {
    /// `application.id`, also its consumer group's id.
    pub application_id: String,
    /// The topic it reads.
    pub source: String,
    /// The topic its output goes to.
    pub sink: String,
    /// The topology's one operator.
    pub op: StreamsOp,
    /// The state store's changelog topic, for `count_by_key`.
    pub changelog: Option<String>,
    /// The producer its instances share, `<application_id>-producer`.
    pub producer: String,
    /// The instances' client ids, `<application_id>-1` and on.
    pub instances: Vec<String>,
    /// `commit.interval.ms`.
    pub commit_interval_ms: u64,
    /// The state store per task (input partition): (partition, holder, counts by key).
    pub stores: Vec<StoreView>,
    /// Records its instances have processed, reprocessing after a crash included.
    pub processed_total: u64,
    /// Records it has sent to the sink topic.
    pub output_total: u64,
    /// `processing.guarantee` (issue 17).
    #[serde(default, skip_serializing_if = "ProcessingGuarantee::is_at_least_once")]
    pub processing_guarantee: ProcessingGuarantee,
}

/// One task's state store for the page: its input partition, the instance holding it and
/// its counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreView {
    /// The task's input partition (also its changelog partition).
    pub partition: u32,
    /// The instance holding the task's store (None: not restored anywhere yet).
    pub instance: Option<String>,
    /// The running count per key.
    pub counts: Vec<(String, u64)>,
}

impl StreamsApp {
    /// What the page shows of it: its settings, topics, stores and totals.
    pub fn view(&self) -> StreamsView {
        StreamsView {
            application_id: self.spec.application_id.clone(),
            source: self.spec.source.clone(),
            sink: self.spec.sink.clone(),
            op: self.spec.op.clone(),
            changelog: self.spec.changelog(),
            producer: self.spec.producer_name(),
            instances: self.spec.instance_ids(),
            commit_interval_ms: self.spec.commit_interval_ms,
            stores: self
                .stores
                .iter()
                .map(|(p, s)| StoreView {
                    partition: *p,
                    instance: s.owner.as_ref().map(|o| o.0.clone()),
                    counts: s.counts.iter().map(|(k, v)| (k.clone(), *v)).collect(),
                })
                .collect(),
            processed_total: self.processed_total,
            output_total: self.output_total,
            processing_guarantee: self.spec.processing_guarantee,
        }
    }

    /// The count for `key` in the store of input partition `partition`.
    pub fn count(&self, partition: u32, key: &str) -> Option<u64> {
        self.stores.get(&partition).and_then(|s| s.counts.get(key)).copied()
    }
}

/// The producer settings Streams overrides (`StreamsConfig.PRODUCER_DEFAULT_OVERRIDES`).
pub fn producer_config() -> crate::config::ProducerConfig {
    crate::config::ProducerConfig { linger_ms: 100, ..crate::config::ProducerConfig::default() }
}

/// The consumer settings Streams overrides, plus the commit interval.
pub fn consumer_config(spec: &StreamsSpec) -> ConsumerConfig {
    ConsumerConfig {
        max_poll_records: 1000,
        auto_commit_interval_ms: spec.commit_interval_ms,
        processing_ms: spec.processing_ms,
        // Under exactly_once_v2 the offsets go through the instance's transactions.
        commit_mode: match spec.processing_guarantee {
            ProcessingGuarantee::AtLeastOnce => crate::group::CommitMode::Auto,
            ProcessingGuarantee::ExactlyOnceV2 => crate::group::CommitMode::Off,
        },
        ..ConsumerConfig::default()
    }
}

/// Checks a scenario's `streams` against its topics, producers and groups.
pub(crate) fn check_streams(
    streams: &[StreamsSpec],
    topics: &VecMap<&str, u32>,
    producers: &crate::vecmap::VecSet<&str>,
    groups: &[GroupSpec],
) -> Result<(), ScenarioError> {
    use crate::error::{within, StreamsProblem as P};
    use crate::limits::{STREAMS_COMMIT_INTERVAL_MS, STREAMS_INSTANCES, STREAMS_PROCESSING_MS};
    let err = |path: String, p: P| ScenarioError::at(path, p);
    if streams.len() > MAX_STREAMS {
        return Err(ScenarioError::at("streams", P::TooManyApps { count: streams.len() }));
    }
    let mut ids = crate::vecmap::VecSet::new();
    let mut internal = 0;
    for (i, s) in streams.iter().enumerate() {
        let path = format!("streams[{i}]");
        check_name(crate::command::NameOf::ApplicationId, &s.application_id)
            .map_err(|e| ScenarioError::at(format!("{path}.application_id"), e))?;
        if !ids.insert(s.application_id.as_str()) {
            return Err(err(format!("{path}.application_id"), P::Duplicate { application_id: s.application_id.clone() }));
        }
        if groups.iter().any(|g| g.id == s.application_id) {
            return Err(err(format!("{path}.application_id"), P::IsAGroup { application_id: s.application_id.clone() }));
        }
        if producers.contains(s.producer_name().as_str()) {
            return Err(err(format!("{path}.application_id"), P::ProducerNameTaken { producer: s.producer_name() }));
        }
        for (field, t) in [("source", &s.source), ("sink", &s.sink)] {
            if !topics.contains_key(t.as_str()) {
                return Err(err(format!("{path}.{field}"), P::UnknownTopic { topic: t.clone() }));
            }
        }
        if s.source == s.sink {
            return Err(err(format!("{path}.sink"), P::SinkIsSource));
        }
        within(&format!("{path}.instances"), s.instances.into(), &STREAMS_INSTANCES)?;
        within(&format!("{path}.commit_interval_ms"), s.commit_interval_ms, &STREAMS_COMMIT_INTERVAL_MS)?;
        within(&format!("{path}.processing_ms"), s.processing_ms, &STREAMS_PROCESSING_MS)?;
        match &s.op {
            StreamsOp::Filter { value_contains } if value_contains.chars().count() > MAX_VALUE_CHARS => {
                return Err(err(format!("{path}.op.filter.value_contains"), P::FilterTooLong));
            }
            StreamsOp::CountByKey { store } => {
                check_name(crate::command::NameOf::Store, store)
                    .map_err(|e| ScenarioError::at(format!("{path}.op.count_by_key.store"), e))?;
            }
            _ => {}
        }
        if let Some(changelog) = s.changelog() {
            // The changelog is a topic Streams creates: Kafka's topic naming rule holds for
            // it (an application.id or store name with a space makes a name the broker
            // refuses with InvalidTopicException).
            check_name(crate::command::NameOf::Topic, &changelog).map_err(|e| ScenarioError::at(format!("{path}.application_id"), e))?;
            if topics.contains_key(changelog.as_str()) {
                return Err(err(format!("{path}.op"), P::ChangelogIsATopic { changelog }));
            }
            internal += 1;
        }
    }
    if topics.len() + internal > crate::limits::MAX_TOPICS {
        return Err(ScenarioError::at("streams", P::TooManyTopics { topics: topics.len(), changelogs: internal }));
    }
    Ok(())
}

impl Apps {
    /// Which application a group is, if any.
    pub(super) fn streams_index(&self, group_id: &str) -> Option<usize> {
        if self.streams.is_empty() {
            return None;
        }
        self.streams.iter().position(|s| s.spec.application_id == group_id)
    }

    /// The instance finished processing `d`: run the operator and send its output.
    pub(super) fn streams_process(
        &mut self,
        index: usize,
        client_id: &str,
        d: Delivery,
        cluster: &Cluster,
        clients: &mut Clients,
        consumers: &Consumers,
        out: &mut Driver,
    ) {
        let Some(shared) = self.streams.get(index).map(|a| a.spec.producer_name()) else { return };
        // Under exactly_once_v2 the instance's own producer, in a transaction it begins now
        // if none is open (`StreamsProducer.maybeBeginTransaction`).
        let producer = self.eos_producer_for_send(index, client_id, clients, out).unwrap_or(shared);
        let Some(app) = self.streams.get(index) else { return };
        let (sink, op) = (app.spec.sink.clone(), app.spec.op.clone());
        let changelog = app.spec.changelog();
        let application_id = app.spec.application_id.clone();
        let output = match &op {
            StreamsOp::Filter { value_contains } => d.value.contains(value_contains.as_str()).then(|| (d.key.clone(), d.value.clone())),
            StreamsOp::MapUpper {} => Some((d.key.clone(), to_upper_case(&d.value).into())),
            StreamsOp::CountByKey { store } => match &d.key {
                // Streams skips records with a null key in an aggregation.
                None => None,
                Some(key) => {
                    self.restore_if_needed(index, client_id, d.tp.partition, store, changelog.as_deref(), cluster, consumers, out);
                    let Some(s) = self.streams.get_mut(index).and_then(|a| a.stores.get_mut(&d.tp.partition)) else { return };
                    let count = s.counts.entry(key.to_string()).or_insert(0);
                    *count += 1;
                    let value = count.to_string();
                    if let Some(changelog) = &changelog {
                        clients.send(
                            &producer,
                            changelog,
                            Some(key.to_string()),
                            Some(value.clone()),
                            Some(d.tp.partition),
                            Vec::new(),
                            cluster,
                            out,
                        );
                    }
                    Some((Some(key.clone()), value.into()))
                }
            },
        };
        if let Some(app) = self.streams.get_mut(index) {
            app.processed_total += 1;
            app.output_total += u64::from(output.is_some());
        }
        let record = match &output {
            Some((key, value)) => {
                clients.send(&producer, &sink, key.as_ref().map(|k| k.to_string()), Some(value.to_string()), None, Vec::new(), cluster, out)
            }
            None => None,
        };
        out.emit(EventKind::Streams(StreamsEvent::StreamsRecordProcessed {
            application_id,
            client_id: client_id.to_string(),
            tp: d.tp,
            offset: d.offset,
            output: output.map(|(k, v)| (k.map(String::from), String::from(v))),
            record,
        }));
    }

    /// A task whose store another instance (or an earlier incarnation of this one) held
    /// restores it from the changelog partition: the last value per key up to the end.
    fn restore_if_needed(
        &mut self,
        index: usize,
        client_id: &str,
        partition: u32,
        store: &str,
        changelog: Option<&str>,
        cluster: &Cluster,
        consumers: &Consumers,
        out: &mut Driver,
    ) {
        let incarnation =
            consumers.groups.get(&self.streams[index].spec.application_id).and_then(|g| g.member(client_id)).map(|m| m.incarnation);
        let Some(incarnation) = incarnation else { return };
        let owner = Some((client_id.to_string(), incarnation));
        if self.streams[index].stores.get(&partition).is_some_and(|s| s.owner == owner) {
            return;
        }
        let mut counts = VecMap::new();
        let mut records = 0u32;
        if let Some(log) = changelog
            .map(|c| TopicPartition::new(c, partition))
            .and_then(|tp| cluster.partition(&tp).and_then(|p| p.leader.and_then(|l| p.logs.get(&l))))
        {
            // The restore consumer reads to the log end (read_uncommitted); here, the HW.
            // Under exactly_once_v2 it reads committed data only (`StoreChangelogReader`
            // with read_committed): aborted counts and markers are skipped.
            let isolation = if self.streams[index].spec.processing_guarantee == ProcessingGuarantee::ExactlyOnceV2 {
                crate::config::IsolationLevel::ReadCommitted
            } else {
                crate::config::IsolationLevel::ReadUncommitted
            };
            let read = crate::sim::txn::fetch::consumer_read(log, log.log_start_offset(), u32::MAX, isolation);
            for r in read.records.iter().filter(|(_, hidden)| !hidden).map(|(r, _)| r) {
                if let (Some(k), Ok(v)) = (&r.record.key, r.record.value.parse::<u64>()) {
                    counts.insert(k.to_string(), v);
                    records += 1;
                }
            }
        }
        let keys = counts.len() as u32;
        self.streams[index].stores.insert(partition, TaskStore { owner, counts });
        let application_id = self.streams[index].spec.application_id.clone();
        out.emit(EventKind::Streams(StreamsEvent::StateStoreRestored {
            application_id,
            client_id: client_id.to_string(),
            store: store.to_string(),
            partition,
            records,
            keys,
        }));
    }
}

impl Sim {
    /// Starts an application at time 0: its changelog topic (created at startup, as
    /// `InternalTopicManager` does), its producer and its group of instances.
    pub(crate) fn add_streams(&mut self, spec: StreamsSpec) -> Result<(), CommandError> {
        if let Some(changelog) = spec.changelog() {
            let partitions = self.cluster.topics.get(&spec.source).map(Topic::partition_count).unwrap_or(1);
            // `cleanup.policy=compact` (`InternalTopicManager` with
            // `UnwindowedUnversionedChangelogTopicConfig`).
            let config = TopicConfig { cleanup_policy: crate::cluster::CleanupPolicy::Compact, ..TopicConfig::default() };
            self.add_topic(&changelog, partitions, 1, config);
        }
        self.add_producer(&spec.producer_name(), producer_config());
        let members =
            spec.instance_ids().into_iter().map(|id| MemberSpec { config: consumer_config(&spec), ..MemberSpec::new(id) }).collect();
        let group = GroupSpec {
            id: spec.application_id.clone(),
            topics: vec![spec.source.clone()],
            config: GroupConfig {
                assignor: crate::assign::Strategy::CooperativeSticky,
                auto_offset_reset: OffsetReset::Earliest,
                isolation_level: crate::sim::streams_eos::isolation_for(spec.processing_guarantee),
                ..GroupConfig::default()
            },
            members,
        };
        let guarantee = spec.processing_guarantee;
        let application_id = spec.application_id.clone();
        self.apps.streams.push(StreamsApp { spec, stores: VecMap::new(), processed_total: 0, output_total: 0, eos: VecMap::new() });
        self.add_streams_eos(&application_id, guarantee);
        self.apply_unlogged(Command::Group(GroupCommand::AddGroup { group }))
    }

    /// Every Streams application, in the scenario's order.
    pub fn streams(&self) -> impl Iterator<Item = &StreamsApp> {
        self.apps.streams.iter()
    }

    /// The Streams application with this `application.id`, if there is one.
    pub fn streams_app(&self, application_id: &str) -> Option<&StreamsApp> {
        self.apps.streams.iter().find(|s| s.spec.application_id == application_id)
    }
}

/// Java's `String.toUpperCase()` for the letters learners type: Latin (ASCII, Latin-1,
/// Latin Extended-A), Greek, Cyrillic and full-width Latin, each as `str::to_uppercase`
/// maps it (`ß` → `SS`, `ς` → `Σ`, `ŉ` → `ʼN`: a test compares every one). Other letters
/// are left as they are: the standard library's full Unicode table is 11 KB of the page's
/// gzipped wasm (BENCHMARKS.md, "Bundle"), for scripts a lesson's values do not use.
/// Chinese has no case either way.
pub(crate) fn to_upper_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let u = c as u32;
        let shift = |d: u32| char::from_u32(u - d).unwrap_or(c);
        match u {
            0x61..=0x7A | 0xE0..=0xF6 | 0xF8..=0xFE | 0x3B1..=0x3C1 | 0x3C3..=0x3CB | 0x430..=0x44F | 0xFF41..=0xFF5A => {
                out.push(shift(0x20))
            }
            0x450..=0x45F => out.push(shift(0x50)),
            // Latin Extended-A: pairs of capital then small, or small then capital.
            0x100..=0x12F | 0x132..=0x137 | 0x14A..=0x177 if u % 2 == 1 => out.push(shift(1)),
            0x139..=0x148 | 0x179..=0x17E if u % 2 == 0 => out.push(shift(1)),
            0xB5 => out.push('\u{39C}'),
            0xDF => out.push_str("SS"),
            0xFF => out.push('\u{178}'),
            0x131 => out.push('I'),
            0x149 => out.push_str("\u{2BC}N"),
            0x17F => out.push('S'),
            0x3AC => out.push('\u{386}'),
            0x3AD..=0x3AF => out.push(shift(0x25)),
            0x3C2 => out.push('\u{3A3}'),
            0x3CC => out.push('\u{38C}'),
            0x3CD | 0x3CE => out.push(shift(0x3F)),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod upper_case_tests {
    use super::to_upper_case;

    #[test]
    fn upper_case_is_the_standard_librarys_for_latin_greek_and_cyrillic() {
        let ranges = [0x20..0x180u32, 0x386..0x3CF, 0x400..0x460, 0xFF00..0xFF60];
        for c in ranges.into_iter().flatten().filter_map(char::from_u32) {
            // ΐ and ΰ become three characters each; left as they are.
            if c == '\u{390}' || c == '\u{3B0}' {
                continue;
            }
            assert_eq!(to_upper_case(&c.to_string()), c.to_uppercase().collect::<String>(), "{c} (U+{:04X})", c as u32);
        }
        assert_eq!(to_upper_case("order-1 paid, straße, ζωή, привет"), "ORDER-1 PAID, STRASSE, ΖΩΉ, ПРИВЕТ");
        assert_eq!(to_upper_case("订单 a1"), "订单 A1");
    }
}
