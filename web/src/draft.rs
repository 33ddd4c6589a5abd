//! The scenario editor's working copy: the core `Scenario` being edited, a stable key per
//! list item, and each field's text as typed. No Yew here: every rule of the form is tested natively.
//!
//! The form follows the format's own schema, written as tables: [`FIELDS`] has one row per
//! field (its JSON path, how it is edited — with its row of `limits::TABLE` where the core
//! has one —, and how it reads and writes the `Scenario`), [`REFERENCES`] one row per place
//! that names a topic, producer, group, member, connector or Streams app (renames follow
//! them, removals cascade through them), and [`List`] the lists whose items are keyed. A
//! field is addressed by its path and the keys of the items along it ([`Field::at`]), not
//! by positions, so an event from a row rendered before another row was removed still
//! reaches the right item. A new scenario field is one row of [`FIELDS`] (and its place
//! on the form). What `finish` returns is exactly the `Scenario` the core checked.

use kafka_sandbox_core::command::{BrokerCommand, ConnectCommand, GroupCommand, ProduceCommand, TopicCommand};
use kafka_sandbox_core::command::{Command, GroupSpec, MemberSpec, MAX_GROUPS, MAX_MEMBERS_PER_GROUP};
use kafka_sandbox_core::config::CleanupPolicy;
use kafka_sandbox_core::config::CommitMode;
use kafka_sandbox_core::config::PartitionerKind;
use kafka_sandbox_core::config::ServerAssignor;
use kafka_sandbox_core::config::Strategy;
use kafka_sandbox_core::config::{Acks, DeliveryMode, GroupProtocol, IsolationLevel, KafkaVersion, OffsetReset, ProcessingGuarantee};
use kafka_sandbox_core::limits;
use kafka_sandbox_core::record::TimestampType;
use kafka_sandbox_core::scenario::{ProducerSpec, Scenario, ScenarioError, SendPlan, TopicSpec, MAX_PRODUCERS, MAX_TIME_MS, MAX_TOPICS};
use kafka_sandbox_core::sim::connect::{ConnectorSpec, QueryMode, Row, TableChange, TableSpec, MAX_CONNECTORS, MAX_TABLE_ROWS};
use kafka_sandbox_core::sim::streams::{StreamsOp, StreamsSpec, MAX_STREAMS};
use kafka_sandbox_core::vecmap::{VecMap, VecSet};

/// Most values one send plan may get from the editor's count field.
pub const MAX_PLAN_VALUES: u64 = 10_000;

/// Largest `push_buffer_max_records` the core accepts (one constant, the core's).
pub use kafka_sandbox_core::limits::MAX_PUSH_BUFFER_RECORDS as MAX_PUSH_BUFFER;

/// A Streams application's operator, by the format's own names.
pub const OPS: &[&str] = &["filter", "map_upper", "count_by_key"];

/// What a planned table change does.
pub const CHANGE_KINDS: &[&str] = &["insert", "update"];

// ----- the lists whose items are keyed ------------------------------------------------------

/// A list of the scenario whose items have keys. A path names it before `[]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum List {
    Topics,
    Producers,
    /// A producer's send plans (`producers[].send[]`).
    Sends,
    Groups,
    /// A group's members.
    Members,
    Connectors,
    /// A connector's table rows at time 0.
    Rows,
    /// A connector's planned table changes.
    Changes,
    Streams,
}

const LISTS: [List; 9] =
    [List::Topics, List::Producers, List::Sends, List::Groups, List::Members, List::Connectors, List::Rows, List::Changes, List::Streams];

impl List {
    /// The list named `name` in a path (`send` in `producers[].send[]`). A group's or a
    /// member's `topics[]` are the scenario's topics, by key.
    fn named(name: &str) -> Option<List> {
        let all = ["topics", "producers", "send", "groups", "members", "connectors", "rows", "changes", "streams"];
        all.iter().position(|n| *n == name).map(|i| LISTS[i])
    }

    /// The list whose items hold this one's (a producer holds its plans).
    fn parent(self) -> Option<List> {
        match self {
            List::Sends => Some(List::Producers),
            List::Members => Some(List::Groups),
            List::Rows | List::Changes => Some(List::Connectors),
            _ => None,
        }
    }

    /// How many items it has in item `p` of its parent (`p` is 0 for a top-level list).
    fn len(self, s: &Scenario, p: usize) -> usize {
        match self {
            List::Topics => s.topics.len(),
            List::Producers => s.producers.len(),
            List::Sends => s.producers.get(p).map_or(0, |x| x.send.len()),
            List::Groups => s.groups.len(),
            List::Members => s.groups.get(p).map_or(0, |g| g.members.len()),
            List::Connectors => s.connectors.len(),
            List::Rows => s.connectors.get(p).map_or(0, |c| c.table.rows.len()),
            List::Changes => s.connectors.get(p).map_or(0, |c| c.table.changes.len()),
            List::Streams => s.streams.len(),
        }
    }

    /// Removes item `i` of item `p` of its parent (which must exist).
    fn remove(self, s: &mut Scenario, p: usize, i: usize) {
        match self {
            List::Topics => {
                s.topics.remove(i);
            }
            List::Producers => {
                s.producers.remove(i);
            }
            List::Sends => {
                s.producers[p].send.remove(i);
            }
            List::Groups => {
                s.groups.remove(i);
            }
            List::Members => {
                s.groups[p].members.remove(i);
            }
            List::Connectors => {
                s.connectors.remove(i);
            }
            List::Rows => {
                s.connectors[p].table.rows.remove(i);
            }
            List::Changes => {
                s.connectors[p].table.changes.remove(i);
            }
            List::Streams => {
                s.streams.remove(i);
            }
        }
    }
}

/// The lists a path goes through, outermost first (`groups[].members[].topics[]`: groups,
/// members, topics), and how many; None for a name no list has.
#[inline(never)]
fn lists_along(path: &str) -> Option<([List; 3], usize)> {
    let mut out = ([List::Topics; 3], 0);
    for name in path.split('.').filter_map(|seg| seg.strip_suffix("[]")) {
        *out.0.get_mut(out.1)? = List::named(name)?;
        out.1 += 1;
    }
    Some(out)
}

/// The last list a path goes through: the one its item is in.
fn item_list(path: &str) -> Option<List> {
    let (lists, n) = lists_along(path)?;
    lists.get(n.checked_sub(1)?).copied()
}

/// The positions of the items along a field's path, outermost first.
pub type Ix = [usize; 3];

// ----- the fields ---------------------------------------------------------------------------

/// How a field is edited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// Text; empty means absent.
    OptText,
    /// A whole number within `lo..=hi` as the core checks it (`hi` None: the type's limit).
    Number {
        lo: i64,
        hi: Option<u64>,
    },
    /// A whole number, or empty for absent.
    OptNumber {
        lo: i64,
        hi: Option<u64>,
    },
    /// One of a few values (a select), by the format's own names.
    Choice(&'static [&'static str]),
    Check,
    /// Comma-separated texts.
    List,
    /// One of the scenario's topics, by name.
    Topic,
}

/// How a row of [`FIELDS`] is edited, with the range the core checks.
#[derive(Clone, Copy, Debug)]
pub enum How {
    /// A whole number within its row of the core's limits table (the row's path is the field's).
    Limit(&'static limits::Range),
    /// The same, or empty for absent.
    OptLimit(&'static limits::Range),
    /// A whole number within bounds the core checks in its own code (`None`: the type's limit).
    Int(i64, Option<u64>),
    /// A whole number from 1 to a bound the scenario sets (a replication factor: the brokers).
    UpTo(fn(&Scenario, Ix) -> u32),
    Text,
    OptText,
    /// A name that [`REFERENCES`] point to: a rename follows into them.
    Name(Names),
    /// One of the format's names for a value (from the core's config enums).
    Choice(&'static [&'static str]),
    Check,
    /// One of the scenario's topics.
    Topic,
    /// Comma-separated texts.
    List,
}

/// One field of the form: a row of [`FIELDS`].
#[derive(Debug)]
pub struct FieldSpec {
    /// Its JSON path, `[]` for each item along it (`topics[].partitions`); in a table change
    /// `*` is what the change does, `insert` or `update`.
    pub path: &'static str,
    pub how: How,
    /// Its value as the form shows it, from the items at these positions.
    pub get: fn(&Scenario, Ix) -> String,
    /// Reads the text into the value: false (value unchanged) when it is not one, None when
    /// the place is absent (an operator's setting under another operator).
    pub set: fn(&mut Scenario, Ix, &str) -> Option<bool>,
    /// Fields of the same item that show the new value once this one is read (their typed
    /// text goes).
    pub resets: &'static [&'static str],
}

/// A row whose value the `Value` trait reads and writes at a place of an item along its
/// path, named by the item and the format's field names, which give its path:
/// `slot!(topic.partitions, How::Int(..))` is `topics[].partitions`.
macro_rules! slot {
    (scenario . $field:ident, $how:expr) => { slot!(@ stringify!($field), $how, scenario.$field) };
    (cluster $(. $f:ident)+, $how:expr) => { slot!(@ concat!("cluster" $(, ".", stringify!($f))+), $how, cluster $(.$f)+) };
    (topic $(. $f:ident)+, $how:expr) => { slot!(@ concat!("topics[]" $(, ".", stringify!($f))+), $how, topic $(.$f)+) };
    (producer $(. $f:ident)+, $how:expr) => { slot!(@ concat!("producers[]" $(, ".", stringify!($f))+), $how, producer $(.$f)+) };
    (plan $(. $f:ident)+, $how:expr) => { slot!(@ concat!("producers[].send[]" $(, ".", stringify!($f))+), $how, plan $(.$f)+) };
    (group $(. $f:ident)+, $how:expr) => { slot!(@ concat!("groups[]" $(, ".", stringify!($f))+), $how, group $(.$f)+) };
    (member $(. $f:ident)+, $how:expr) => { slot!(@ concat!("groups[].members[]" $(, ".", stringify!($f))+), $how, member $(.$f)+) };
    (connector $(. $f:ident)+, $how:expr) => { slot!(@ concat!("connectors[]" $(, ".", stringify!($f))+), $how, connector $(.$f)+) };
    (row $(. $f:ident)+, $how:expr) => { slot!(@ concat!("connectors[].table.rows[]" $(, ".", stringify!($f))+), $how, row $(.$f)+) };
    (change $(. $f:ident)+, $how:expr) => { slot!(@ concat!("connectors[].table.changes[]" $(, ".", stringify!($f))+), $how, change $(.$f)+) };
    (app $(. $f:ident)+, $how:expr) => { slot!(@ concat!("streams[]" $(, ".", stringify!($f))+), $how, app $(.$f)+) };
    (@ $path:expr, $how:expr, $item:ident $(. $field:ident)+) => {
        FieldSpec {
            path: $path,
            how: $how,
            // `_ix`: a top-level item is at no position.
            get: |s: &Scenario, _ix: Ix| Value::show(&item!(get, s, _ix, $item)$(.$field)+),
            set: |s: &mut Scenario, _ix: Ix, text: &str| Some(Value::read(&mut item!(set, s, _ix, $item)$(.$field)+, text)),
            resets: &[],
        }
    };
}

/// The item a row's place is in, at the positions `ix` of the items along its path, through
/// one finder per kind of item and access (so no row has indexing code of its own).
macro_rules! item {
    ($m:ident, $s:ident, $ix:ident, scenario) => {
        $s
    };
    ($m:ident, $s:ident, $ix:ident, cluster) => {
        $s.cluster
    };
    ($m:ident, $s:ident, $ix:ident, $item:ident) => {
        $m::$item($s, $ix)
    };
}

/// Defines the finders of [`item!`] in modules `get` (shared) and `set` (unique).
macro_rules! finders {
    ($($item:ident -> $t:ty: |$s:ident, $ix:ident| $place:expr;)*) => {
        mod get {
            use super::*;
            $(#[inline(never)]
            pub fn $item($s: &Scenario, $ix: Ix) -> &$t {
                &$place
            })*
        }
        mod set {
            use super::*;
            $(#[inline(never)]
            pub fn $item($s: &mut Scenario, $ix: Ix) -> &mut $t {
                &mut $place
            })*
        }
    };
}

finders! {
    topic -> TopicSpec: |s, ix| s.topics[ix[0]];
    producer -> ProducerSpec: |s, ix| s.producers[ix[0]];
    plan -> SendPlan: |s, ix| s.producers[ix[0]].send[ix[1]];
    group -> GroupSpec: |s, ix| s.groups[ix[0]];
    member -> MemberSpec: |s, ix| s.groups[ix[0]].members[ix[1]];
    connector -> ConnectorSpec: |s, ix| s.connectors[ix[0]];
    row -> Row: |s, ix| s.connectors[ix[0]].table.rows[ix[1]];
    change -> TableChange: |s, ix| s.connectors[ix[0]].table.changes[ix[1]];
    app -> StreamsSpec: |s, ix| s.streams[ix[0]];
}

const WEEK: How = How::Int(0, Some(MAX_TIME_MS));
const ANY: How = How::Int(0, None);

/// Every field of the form, by its path in the scenario format.
///
/// What a new scenario field costs: when the core adds, say, `compression_type` to a
/// producer's config, the editor needs one row here,
/// `slot!(producer.config.compression_type, How::Choice(..))` (its path, read, write, kind
/// and range follow from it; a number with a row in `limits::TABLE` is `How::Limit(&row)`;
/// a config enum the editor has not met yet also needs its names, one line of `choices!`),
/// and one line placing it on the form with its label
/// (`cx.field(f("producers[].config.compression_type"), ..)` in `panels/editor.rs`). Tests
/// fail until both exist, and `a_field_that_is_one_row_works_end_to_end` shows a row alone
/// is a working field. A name others refer to is `How::Name` and its places are rows of
/// [`REFERENCES`].
pub static FIELDS: &[FieldSpec] = &[
    slot!(scenario.name, How::OptText),
    slot!(scenario.description, How::OptText),
    slot!(scenario.seed, ANY),
    slot!(scenario.duration_ms, How::OptLimit(&limits::DURATION_MS)),
    slot!(cluster.brokers, How::Limit(&limits::CLUSTER_BROKERS)),
    slot!(cluster.network_latency_ms, How::Limit(&limits::NETWORK_LATENCY_MS)),
    slot!(cluster.replica_lag_time_max_ms, How::Limit(&limits::REPLICA_LAG_TIME_MAX_MS)),
    slot!(cluster.replica_fetch_wait_max_ms, How::Limit(&limits::REPLICA_FETCH_WAIT_MAX_MS)),
    slot!(cluster.broker_session_timeout_ms, How::Limit(&limits::BROKER_SESSION_TIMEOUT_MS)),
    slot!(cluster.group_initial_rebalance_delay_ms, How::Limit(&limits::GROUP_INITIAL_REBALANCE_DELAY_MS)),
    slot!(cluster.group_consumer_heartbeat_interval_ms, How::Limit(&limits::GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS)),
    slot!(cluster.group_consumer_session_timeout_ms, How::Limit(&limits::GROUP_CONSUMER_SESSION_TIMEOUT_MS)),
    slot!(cluster.log_retention_check_interval_ms, How::Limit(&limits::LOG_RETENTION_CHECK_INTERVAL_MS)),
    slot!(cluster.group_min_session_timeout_ms, How::Limit(&limits::GROUP_MIN_SESSION_TIMEOUT_MS)),
    slot!(cluster.group_max_session_timeout_ms, How::Limit(&limits::GROUP_MAX_SESSION_TIMEOUT_MS)),
    slot!(cluster.offsets_retention_minutes, How::Limit(&limits::OFFSETS_RETENTION_MINUTES)),
    slot!(cluster.offsets_retention_check_interval_ms, How::Limit(&limits::OFFSETS_RETENTION_CHECK_INTERVAL_MS)),
    slot!(cluster.kafka_version, How::Choice(<KafkaVersion as Choice>::NAMES)),
    slot!(cluster.offsets_topic_replication_factor, How::Limit(&limits::OFFSETS_TOPIC_REPLICATION_FACTOR)),
    slot!(cluster.auto_leader_rebalance_enable, How::Check),
    slot!(cluster.leader_imbalance_check_interval_seconds, How::Limit(&limits::LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS)),
    slot!(cluster.transaction_state_log_replication_factor, How::Limit(&limits::TRANSACTION_STATE_LOG_REPLICATION_FACTOR)),
    slot!(cluster.transaction_state_log_min_isr, How::Limit(&limits::TRANSACTION_STATE_LOG_MIN_ISR)),
    slot!(cluster.transaction_max_timeout_ms, How::Limit(&limits::TRANSACTION_MAX_TIMEOUT_MS)),
    slot!(cluster.transaction_abort_timed_out_transaction_cleanup_interval_ms, How::Limit(&limits::TRANSACTION_ABORT_INTERVAL_MS)),
    slot!(cluster.log_cleaner_backoff_ms, How::Limit(&limits::LOG_CLEANER_BACKOFF_MS)),
    slot!(cluster.offsets_topic_segment_bytes, How::Limit(&limits::OFFSETS_TOPIC_SEGMENT_BYTES)),
    // A topic.
    slot!(topic.name, How::Name(Names::Topic)),
    slot!(topic.partitions, How::Limit(&limits::TOPIC_PARTITIONS)),
    slot!(topic.replication_factor, How::UpTo(|s, _| s.cluster.brokers)),
    slot!(topic.min_insync_replicas, How::UpTo(|s, ix| get::topic(s, ix).replication_factor)),
    slot!(topic.unclean_leader_election_enable, How::Check),
    slot!(topic.message_timestamp_type, How::Choice(<TimestampType as Choice>::NAMES)),
    slot!(topic.retention_ms, How::Int(-1, Some(i64::MAX as u64))),
    slot!(topic.retention_bytes, How::Int(-1, Some(i64::MAX as u64))),
    slot!(topic.segment_bytes, How::Limit(&limits::TOPIC_SEGMENT_BYTES)),
    slot!(topic.segment_ms, How::Limit(&limits::TOPIC_SEGMENT_MS)),
    slot!(topic.cleanup_policy, How::Choice(<CleanupPolicy as Choice>::NAMES)),
    slot!(topic.min_compaction_lag_ms, How::Limit(&limits::TOPIC_MIN_COMPACTION_LAG_MS)),
    slot!(topic.max_compaction_lag_ms, How::Limit(&limits::TOPIC_MAX_COMPACTION_LAG_MS)),
    slot!(topic.delete_retention_ms, How::Limit(&limits::TOPIC_DELETE_RETENTION_MS)),
    slot!(topic.topic_id, How::OptText),
    // A producer and its send plans.
    slot!(producer.name, How::Name(Names::Producer)),
    slot!(producer.config.partitioner, How::Choice(<PartitionerKind as Choice>::NAMES)),
    slot!(producer.config.acks, How::Choice(<Acks as Choice>::NAMES)),
    slot!(producer.config.enable_idempotence, How::Choice(<Option<bool> as Choice>::NAMES)),
    slot!(producer.config.linger_ms, How::Limit(&limits::LINGER_MS)),
    slot!(producer.config.batch_size, How::Limit(&limits::BATCH_SIZE)),
    slot!(producer.config.retries, ANY),
    slot!(producer.config.retry_backoff_ms, How::Limit(&limits::RETRY_BACKOFF_MS)),
    slot!(producer.config.retry_backoff_max_ms, How::Limit(&limits::RETRY_BACKOFF_MAX_MS)),
    slot!(producer.config.request_timeout_ms, How::Limit(&limits::REQUEST_TIMEOUT_MS)),
    slot!(producer.config.delivery_timeout_ms, How::Limit(&limits::DELIVERY_TIMEOUT_MS)),
    slot!(producer.config.max_in_flight_requests_per_connection, How::Int(1, None)),
    slot!(producer.config.buffer_memory, How::Limit(&limits::BUFFER_MEMORY)),
    slot!(producer.config.max_block_ms, How::Limit(&limits::MAX_BLOCK_MS)),
    slot!(producer.config.transactional_id, How::OptText),
    slot!(producer.config.transaction_timeout_ms, How::Limit(&limits::TRANSACTION_TIMEOUT_MS)),
    slot!(plan.topic, How::Topic),
    // How many values: changing it drops values from the end or adds m8, m9, …
    FieldSpec {
        path: "producers[].send[].count",
        how: How::Int(0, Some(MAX_PLAN_VALUES)),
        get: |s, ix| get::plan(s, ix).values.len().to_string(),
        set: |s, ix, text| {
            let n = text.trim().parse::<u64>().ok().filter(|n| *n <= MAX_PLAN_VALUES);
            n.map(|n| resize_plan(set::plan(s, ix), n as usize)).is_some().into()
        },
        resets: &["producers[].send[].values", "producers[].send[].keys"],
    },
    FieldSpec {
        path: "producers[].send[].values",
        how: How::List,
        get: |s, ix| get::plan(s, ix).values.join(", "),
        set: |s, ix, text| {
            set::plan(s, ix).values = split_list(text);
            Some(true)
        },
        resets: &["producers[].send[].count"],
    },
    FieldSpec {
        path: "producers[].send[].keys",
        how: How::List,
        get: |s, ix| {
            let keys = get::plan(s, ix).keys.as_ref();
            keys.map(|keys| keys.iter().map(|k| k.as_deref().unwrap_or("")).collect::<Vec<_>>().join(", ")).unwrap_or_default()
        },
        set: |s, ix, text| {
            let keys = (!text.trim().is_empty()).then(|| split_list(text).into_iter().map(|k| (!k.is_empty()).then_some(k)).collect());
            set::plan(s, ix).keys = keys;
            Some(true)
        },
        resets: &[],
    },
    slot!(plan.start_ms, WEEK),
    slot!(plan.interval_ms, WEEK),
    // A group, its subscription, its members.
    slot!(group.id, How::Name(Names::Group)),
    slot!(group.config.group_protocol, How::Choice(<GroupProtocol as Choice>::NAMES)),
    slot!(group.config.assignor, How::Choice(<Strategy as Choice>::NAMES)),
    slot!(group.config.remote_assignor, How::Choice(<ServerAssignor as Choice>::NAMES)),
    slot!(group.config.auto_offset_reset, How::Choice(<OffsetReset as Choice>::NAMES)),
    slot!(group.config.isolation_level, How::Choice(<IsolationLevel as Choice>::NAMES)),
    // pull (Kafka) or push (not Kafka, a teaching device).
    slot!(group.config.delivery, How::Choice(<DeliveryMode as Choice>::NAMES)),
    slot!(group.config.push_buffer_max_records, How::Limit(&limits::PUSH_BUFFER_MAX_RECORDS)),
    // Whether the group subscribes to the topic (by the topic's key).
    FieldSpec {
        path: "groups[].topics[]",
        how: How::Check,
        get: |s, [g, t, _]| s.groups[g].topics.contains(&s.topics[t].name).to_string(),
        set: |s, [g, t, _], text| {
            let (name, order) = (s.topics[t].name.clone(), topic_names(s));
            toggle(&mut s.groups[g].topics, &name, text == "true", &order);
            Some(true)
        },
        resets: &[],
    },
    slot!(member.client_id, How::Name(Names::Member)),
    slot!(member.group_instance_id, How::OptText),
    slot!(member.config.commit_mode, How::Choice(<CommitMode as Choice>::NAMES)),
    slot!(member.config.processing_ms, How::Limit(&limits::MEMBER_PROCESSING_MS)),
    slot!(member.config.session_timeout_ms, How::Limit(&limits::MEMBER_SESSION_TIMEOUT_MS)),
    slot!(member.config.heartbeat_interval_ms, How::Limit(&limits::MEMBER_HEARTBEAT_INTERVAL_MS)),
    slot!(member.config.max_poll_interval_ms, How::Limit(&limits::MEMBER_MAX_POLL_INTERVAL_MS)),
    slot!(member.config.max_poll_records, How::Limit(&limits::MEMBER_MAX_POLL_RECORDS)),
    slot!(member.config.fetch_max_wait_ms, How::Limit(&limits::MEMBER_FETCH_MAX_WAIT_MS)),
    slot!(member.config.auto_commit_interval_ms, How::Limit(&limits::MEMBER_AUTO_COMMIT_INTERVAL_MS)),
    slot!(member.config.metadata_max_age_ms, How::Limit(&limits::MEMBER_METADATA_MAX_AGE_MS)),
    // Whether the member names the topic in its own subscription (none ticked: the group's).
    FieldSpec {
        path: "groups[].members[].topics[]",
        how: How::Check,
        get: |s, [g, m, t]| s.groups[g].members[m].topics.iter().flatten().any(|n| *n == s.topics[t].name).to_string(),
        set: |s, [g, m, t], text| {
            let (name, order) = (s.topics[t].name.clone(), topic_names(s));
            let slot = &mut s.groups[g].members[m].topics;
            let mut list = slot.take().unwrap_or_default();
            toggle(&mut list, &name, text == "true", &order);
            *slot = (!list.is_empty()).then_some(list);
            Some(true)
        },
        resets: &[],
    },
    // A source connector, its table's rows and its planned changes.
    slot!(connector.name, How::Name(Names::Connector)),
    slot!(connector.topic, How::Topic),
    slot!(connector.mode, How::Choice(<QueryMode as Choice>::NAMES)),
    slot!(connector.poll_interval_ms, How::Limit(&limits::CONNECTOR_POLL_INTERVAL_MS)),
    slot!(connector.offset_flush_interval_ms, How::Limit(&limits::CONNECTOR_OFFSET_FLUSH_INTERVAL_MS)),
    slot!(row.id, ANY),
    slot!(row.value, How::Text),
    slot!(change.at_ms, How::Limit(&limits::TABLE_CHANGE_AT_MS)),
    // Insert or update: the row (id and value) moves between the two.
    FieldSpec {
        path: "connectors[].table.changes[]",
        how: How::Choice(CHANGE_KINDS),
        get: |s, ix| change_kind(get::change(s, ix)).to_string(),
        set: |s, ix, kind| {
            let ch = set::change(s, ix);
            let row = CHANGE_KINDS
                .contains(&kind)
                .then(|| ch.insert.take().or(ch.update.take()).unwrap_or(Row { id: 1, value: String::new() }))?;
            *(if kind == "insert" { &mut ch.insert } else { &mut ch.update }) = Some(row);
            Some(true)
        },
        resets: &[],
    },
    FieldSpec {
        path: "connectors[].table.changes[].*.id",
        how: ANY,
        get: |s, ix| change_row(get::change(s, ix)).map(|r| r.id.show()).unwrap_or_default(),
        set: |s, ix, text| change_row_mut(set::change(s, ix)).map(|r| r.id.read(text)),
        resets: &[],
    },
    FieldSpec {
        path: "connectors[].table.changes[].*.value",
        how: How::Text,
        get: |s, ix| change_row(get::change(s, ix)).map(|r| r.value.clone()).unwrap_or_default(),
        set: |s, ix, text| change_row_mut(set::change(s, ix)).map(|r| r.value.read(text)),
        resets: &[],
    },
    // A Streams application.
    slot!(app.application_id, How::Name(Names::Streams)),
    slot!(app.source, How::Topic),
    slot!(app.sink, How::Topic),
    // The operator; changing it starts the new one from its default.
    FieldSpec {
        path: "streams[].op",
        how: How::Choice(OPS),
        get: |s, ix| op_name(&get::app(s, ix).op).to_string(),
        set: set_op,
        resets: &[],
    },
    // `filter`'s text (only while the operator is `filter`).
    FieldSpec {
        path: "streams[].op.filter.value_contains",
        how: How::Text,
        get: |s, ix| match &get::app(s, ix).op {
            StreamsOp::Filter { value_contains } => value_contains.clone(),
            _ => String::new(),
        },
        set: |s, ix, text| match &mut set::app(s, ix).op {
            StreamsOp::Filter { value_contains } => Some(value_contains.read(text)),
            _ => None,
        },
        resets: &[],
    },
    // `count_by_key`'s store (only while the operator is `count_by_key`).
    FieldSpec {
        path: "streams[].op.count_by_key.store",
        how: How::Text,
        get: |s, ix| match &get::app(s, ix).op {
            StreamsOp::CountByKey { store } => store.clone(),
            _ => String::new(),
        },
        set: |s, ix, text| match &mut set::app(s, ix).op {
            StreamsOp::CountByKey { store } => Some(store.read(text)),
            _ => None,
        },
        resets: &[],
    },
    slot!(app.instances, How::Limit(&limits::STREAMS_INSTANCES)),
    slot!(app.commit_interval_ms, How::Limit(&limits::STREAMS_COMMIT_INTERVAL_MS)),
    slot!(app.processing_ms, How::Limit(&limits::STREAMS_PROCESSING_MS)),
    slot!(app.processing_guarantee, How::Choice(<ProcessingGuarantee as Choice>::NAMES)),
];

/// What [`Field::at`] gives for a path no row has: it has no place and shows nothing.
static NO_FIELD: FieldSpec = FieldSpec { path: "", how: How::Text, get: |_, _| String::new(), set: |_, _, _| None, resets: &[] };

/// A control of the form: a row of [`FIELDS`] and the keys of the items along its path.
#[derive(Clone, Copy)]
pub struct Field {
    spec: &'static FieldSpec,
    keys: [u64; 3],
}

impl Field {
    /// The field at `path` (a row of [`FIELDS`]) of the items with `keys`, outermost first:
    /// `Field::at("producers[].send[].topic", &[producer, plan])`.
    pub fn at(path: &str, keys: &[u64]) -> Field {
        Field::of(FIELDS.iter().find(|f| f.path == path).unwrap_or(&NO_FIELD), keys)
    }

    /// The field of row `spec` of the items with `keys`.
    pub fn of(spec: &'static FieldSpec, keys: &[u64]) -> Field {
        let mut k = [0; 3];
        k.iter_mut().zip(keys).for_each(|(to, from)| *to = *from);
        Field { spec, keys: k }
    }

    /// Its row's path, `[]` for each item.
    pub fn pattern(self) -> &'static str {
        self.spec.path
    }

    fn id(&self) -> (&'static str, [u64; 3]) {
        (self.spec.path, self.keys)
    }
}

impl PartialEq for Field {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl Eq for Field {}

impl PartialOrd for Field {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Field {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id().cmp(&other.id())
    }
}

impl std::fmt::Debug for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {:?}", self.spec.path, self.keys)
    }
}

// ----- the references -------------------------------------------------------------------------

/// What a name at a place names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Names {
    Topic,
    Producer,
    Group,
    /// A member by client id, within the group its place names.
    Member,
    Connector,
    /// A Streams application by its id (its group's id).
    Streams,
    /// A Streams application's instance, `<application_id>-<n>`, as a member of its group.
    Instance,
}

/// What removing the named item does to a place that names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cascade {
    /// The item holding the place goes too (a plan sending to a removed topic).
    Item(List),
    /// The name leaves its list (a subscription).
    Entry,
    /// It stays: Apply refuses it with its place (the timeline).
    Keep,
}

/// Calls back with each name at a place: the positions of its items, the group its command
/// names (for a client id), the name. Returning false drops a name from its list.
type Visit<'a> = &'a mut dyn FnMut(Ix, &str, &mut String) -> bool;

/// A place in the scenario that names another item: a row of [`REFERENCES`].
pub struct Reference {
    pub path: &'static str,
    pub names: Names,
    pub cascade: Cascade,
    /// Visits every name at the place (given the path, which a timeline command's place reads).
    visit: fn(&mut Scenario, &str, Visit),
}

/// Every place that names another item. A timeline command's places are the paths of
/// [`command_names`] under `commands[].command.`.
pub static REFERENCES: &[Reference] = &[
    Reference {
        path: "producers[].send[].topic",
        names: Names::Topic,
        cascade: Cascade::Item(List::Sends),
        visit: |s, _, f| {
            for (p, producer) in s.producers.iter_mut().enumerate() {
                producer.send.iter_mut().enumerate().for_each(|(j, plan)| {
                    f([p, j, 0], "", &mut plan.topic);
                });
            }
        },
    },
    Reference {
        path: "groups[].topics[]",
        names: Names::Topic,
        cascade: Cascade::Entry,
        visit: |s, _, f| s.groups.iter_mut().enumerate().for_each(|(g, group)| group.topics.retain_mut(|t| f([g, 0, 0], "", t))),
    },
    Reference {
        path: "groups[].members[].topics[]",
        names: Names::Topic,
        cascade: Cascade::Entry,
        visit: |s, _, f| {
            for (g, group) in s.groups.iter_mut().enumerate() {
                for (m, member) in group.members.iter_mut().enumerate() {
                    let Some(topics) = &mut member.topics else { continue };
                    let had = topics.len();
                    topics.retain_mut(|t| f([g, m, 0], "", t));
                    // No topic left: the group's subscription, as when the last box is unticked.
                    if topics.is_empty() && had > 0 {
                        member.topics = None;
                    }
                }
            }
        },
    },
    Reference {
        path: "connectors[].topic",
        names: Names::Topic,
        cascade: Cascade::Item(List::Connectors),
        visit: |s, _, f| {
            s.connectors.iter_mut().enumerate().for_each(|(c, conn)| {
                f([c, 0, 0], "", &mut conn.topic);
            })
        },
    },
    Reference {
        path: "streams[].source",
        names: Names::Topic,
        cascade: Cascade::Item(List::Streams),
        visit: |s, _, f| {
            s.streams.iter_mut().enumerate().for_each(|(a, app)| {
                f([a, 0, 0], "", &mut app.source);
            })
        },
    },
    Reference {
        path: "streams[].sink",
        names: Names::Topic,
        cascade: Cascade::Item(List::Streams),
        visit: |s, _, f| {
            s.streams.iter_mut().enumerate().for_each(|(a, app)| {
                f([a, 0, 0], "", &mut app.sink);
            })
        },
    },
    Reference { path: "commands[].command.topic", names: Names::Topic, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.topics[]", names: Names::Topic, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.member.topics[]", names: Names::Topic, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.group.topics[]", names: Names::Topic, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.group.members[].topics[]", names: Names::Topic, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.producer", names: Names::Producer, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.group", names: Names::Group, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.client_id", names: Names::Member, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.member.client_id", names: Names::Member, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.connector", names: Names::Connector, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.group", names: Names::Streams, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.application_id", names: Names::Streams, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.client_id", names: Names::Instance, cascade: Cascade::Keep, visit: commands },
    Reference { path: "commands[].command.member.client_id", names: Names::Instance, cascade: Cascade::Keep, visit: commands },
];

/// The names at a timeline command's place `path` (`commands[].command.topic`).
fn commands(s: &mut Scenario, path: &str, f: Visit) {
    let Some(place) = path.strip_prefix("commands[].command.") else { return };
    for (i, c) in s.commands.iter_mut().enumerate() {
        let names = command_names(&mut c.command);
        let group = names.iter().find(|(p, _)| *p == "group").map(|(_, g)| g.to_string()).unwrap_or_default();
        for (_, name) in names.into_iter().filter(|(p, _)| *p == place) {
            f([i, 0, 0], &group, name);
        }
    }
}

/// The names a timeline command holds, each with its path in the command.
fn command_names(c: &mut Command) -> Vec<(&'static str, &mut String)> {
    match c {
        Command::Produce(ProduceCommand::Produce { producer, topic, .. }) => vec![("producer", producer), ("topic", topic)],
        Command::Produce(ProduceCommand::SetPartitioner { producer, .. }) | Command::Produce(ProduceCommand::SetAcks { producer, .. }) => {
            vec![("producer", producer)]
        }
        Command::Group(GroupCommand::AddMember { group, member }) => {
            let mut v = vec![("group", group), ("member.client_id", &mut member.client_id)];
            v.extend(member.topics.iter_mut().flatten().map(|t| ("member.topics[]", t)));
            v
        }
        Command::Group(GroupCommand::RemoveMember { group, client_id })
        | Command::Group(GroupCommand::CrashMember { group, client_id })
        | Command::Group(GroupCommand::RestartMember { group, client_id })
        | Command::Group(GroupCommand::PauseMember { group, client_id, .. })
        | Command::Group(GroupCommand::SetProcessing { group, client_id, .. })
        | Command::Group(GroupCommand::SetCommitMode { group, client_id, .. }) => vec![("group", group), ("client_id", client_id)],
        Command::Group(GroupCommand::Seek { group, client_id, topic, .. }) => {
            vec![("group", group), ("client_id", client_id), ("topic", topic)]
        }
        Command::Group(GroupCommand::Subscribe { group, client_id, topics }) => {
            let mut v = vec![("group", group), ("client_id", client_id)];
            v.extend(topics.iter_mut().map(|t| ("topics[]", t)));
            v
        }
        Command::Group(GroupCommand::AddGroup { group }) => {
            let GroupSpec { topics, members, .. } = group;
            let mut v: Vec<_> = topics.iter_mut().map(|t| ("group.topics[]", t)).collect();
            v.extend(members.iter_mut().flat_map(|m| m.topics.iter_mut().flatten()).map(|t| ("group.members[].topics[]", t)));
            v
        }
        Command::Group(GroupCommand::SetAssignor { group, .. }) => vec![("group", group)],
        Command::Topic(TopicCommand::AddPartitions { topic, .. }) | Command::Topic(TopicCommand::SetTopicConfig { topic, .. }) => {
            vec![("topic", topic)]
        }
        Command::Connect(ConnectCommand::CrashConnector { connector })
        | Command::Connect(ConnectCommand::RestartConnector { connector }) => vec![("connector", connector)],
        Command::Broker(BrokerCommand::CrashBroker { .. })
        | Command::Broker(BrokerCommand::RestartBroker { .. })
        | Command::Broker(BrokerCommand::IsolateBroker { .. })
        | Command::Broker(BrokerCommand::HealBroker { .. })
        | Command::Broker(BrokerCommand::SlowBroker { .. })
        | Command::Broker(BrokerCommand::ShutdownBroker { .. }) => Vec::new(),
        Command::ShareGroup(c) => share_group_command_names(c),
        Command::Txn(c) => txn_command_names(c),
    }
}

/// The names a share-group command holds (its group and member names stay for Apply to
/// check; the topics of a new share group follow a rename).
fn share_group_command_names(c: &mut kafka_sandbox_core::command::ShareGroupCommand) -> Vec<(&'static str, &mut String)> {
    use kafka_sandbox_core::command::ShareGroupCommand as C;
    match c {
        C::AddShareGroup { share_group } => share_group.topics.iter_mut().map(|t| ("share_group.topics[]", t)).collect(),
        C::AddShareMember { .. }
        | C::RemoveShareMember { .. }
        | C::CrashShareMember { .. }
        | C::RestartShareMember { .. }
        | C::SetShareProcessing { .. }
        | C::SetAcknowledgementMode { .. }
        | C::SetAcknowledgeRule { .. } => Vec::new(),
    }
}

/// The names a transactions command holds (issue 17).
fn txn_command_names(c: &mut kafka_sandbox_core::command::TxnCommand) -> Vec<(&'static str, &mut String)> {
    use kafka_sandbox_core::command::TxnCommand as T;
    match c {
        T::BeginTransaction { producer }
        | T::CommitTransaction { producer }
        | T::AbortTransaction { producer }
        | T::CrashProducer { producer }
        | T::RestartProducer { producer }
        | T::AddProducer { producer, .. } => vec![("producer", producer)],
        T::SendOffsetsToTransaction { producer, group, client_id } => {
            vec![("producer", producer), ("group", group), ("client_id", client_id)]
        }
        T::SetIsolationLevel { group, .. } => vec![("group", group)],
        T::SetProcessingGuarantee { application_id, .. } => vec![("application_id", application_id)],
    }
}

/// Why the draft cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A field's text is not a number of its kind (the form keeps the text).
    Unreadable { path: String, text: String, lo: i64, hi: Option<u64> },
    /// The core's check refused the scenario.
    Invalid(ScenarioError),
}

impl Problem {
    /// The format path it is about (`topics[0].replication_factor`), when it names one.
    pub fn path(&self) -> &str {
        match self {
            Problem::Unreadable { path, .. } => path,
            Problem::Invalid(e) => &e.path,
        }
    }
}

// ----- values -----------------------------------------------------------------------------------

/// A value of a select, by the scenario format's own name for it.
trait Choice: Copy + PartialEq + 'static {
    const ALL: &'static [(&'static str, Self)];
    const NAMES: &'static [&'static str];
}

macro_rules! choices {
    ($($t:ty => [$($name:literal = $v:expr),*];)*) => {$(
        impl Choice for $t {
            const ALL: &'static [(&'static str, Self)] = &[$(($name, $v)),*];
            const NAMES: &'static [&'static str] = &[$($name),*];
        }
    )*};
}

choices! {
    KafkaVersion => ["4.0" = KafkaVersion::V4_0, "4.1" = KafkaVersion::V4_1, "4.2" = KafkaVersion::V4_2];
    Acks => ["0" = Acks::Zero, "1" = Acks::Leader, "all" = Acks::All];
    PartitionerKind => ["built_in" = PartitionerKind::BuiltIn, "round_robin" = PartitionerKind::RoundRobin];
    Option<bool> => ["default" = None, "true" = Some(true), "false" = Some(false)];
    TimestampType => ["CreateTime" = TimestampType::CreateTime, "LogAppendTime" = TimestampType::LogAppendTime];
    Strategy => ["range" = Strategy::Range, "roundrobin" = Strategy::RoundRobin, "sticky" = Strategy::Sticky,
        "cooperative-sticky" = Strategy::CooperativeSticky];
    ServerAssignor => ["uniform" = ServerAssignor::Uniform, "range" = ServerAssignor::Range];
    GroupProtocol => ["classic" = GroupProtocol::Classic, "consumer" = GroupProtocol::Consumer];
    OffsetReset => ["latest" = OffsetReset::Latest, "earliest" = OffsetReset::Earliest, "none" = OffsetReset::None];
    DeliveryMode => ["pull" = DeliveryMode::Pull, "push" = DeliveryMode::Push];
    CleanupPolicy => ["delete" = CleanupPolicy::Delete, "compact" = CleanupPolicy::Compact, "compact,delete" = CleanupPolicy::CompactDelete];
    IsolationLevel => ["read_uncommitted" = IsolationLevel::ReadUncommitted, "read_committed" = IsolationLevel::ReadCommitted];
    ProcessingGuarantee => ["at_least_once" = ProcessingGuarantee::AtLeastOnce, "exactly_once_v2" = ProcessingGuarantee::ExactlyOnceV2];
    QueryMode => ["incrementing" = QueryMode::Incrementing, "timestamp+incrementing" = QueryMode::TimestampIncrementing];
    CommitMode => ["auto" = CommitMode::Auto, "sync_after_processing" = CommitMode::SyncAfterProcessing,
        "async_after_processing" = CommitMode::AsyncAfterProcessing, "before_processing" = CommitMode::BeforeProcessing,
        "off" = CommitMode::Off];
}

/// A scenario value as the form shows it and reads it back.
trait Value {
    fn show(&self) -> String;
    /// Reads `text` into the value; false (and unchanged) when it is not one.
    fn read(&mut self, text: &str) -> bool;
}

impl<T: Choice> Value for T {
    fn show(&self) -> String {
        T::ALL.iter().find(|(_, v)| v == self).map_or("", |(n, _)| n).to_string()
    }

    fn read(&mut self, text: &str) -> bool {
        let Some((_, v)) = T::ALL.iter().find(|(n, _)| *n == text) else { return false };
        *self = *v;
        true
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn show(&self) -> String {
                self.to_string()
            }

            fn read(&mut self, text: &str) -> bool {
                text.trim().parse().map(|v| *self = v).is_ok()
            }
        }
    )*};
}

numbers!(u32, u64, i64);

impl Value for String {
    fn show(&self) -> String {
        self.clone()
    }

    fn read(&mut self, text: &str) -> bool {
        text.clone_into(self);
        true
    }
}

/// Text where empty means absent (a name, `group.instance.id`).
impl Value for Option<String> {
    fn show(&self) -> String {
        self.clone().unwrap_or_default()
    }

    fn read(&mut self, text: &str) -> bool {
        *self = (!text.is_empty()).then(|| text.to_string());
        true
    }
}

/// A number where empty means absent (`duration_ms`).
impl Value for Option<u64> {
    fn show(&self) -> String {
        self.map(|v| v.to_string()).unwrap_or_default()
    }

    fn read(&mut self, text: &str) -> bool {
        if text.trim().is_empty() {
            *self = None;
            return true;
        }
        text.trim().parse().map(|v| *self = Some(v)).is_ok()
    }
}

impl Value for bool {
    fn show(&self) -> String {
        self.to_string()
    }

    fn read(&mut self, text: &str) -> bool {
        *self = text == "true";
        true
    }
}

// ----- the draft --------------------------------------------------------------------------------

/// The form's working copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    scenario: Scenario,
    /// Per list (in [`LISTS`] order), per item of its parent (one entry for a top-level
    /// list), the keys of its items in the scenario's order.
    keys: [Vec<Vec<u64>>; 9],
    next_key: u64,
    /// Each number or list field's text as last typed (shown instead of the value, so the
    /// form never rewrites what the learner is typing).
    typed: VecMap<Field, String>,
    /// Fields whose typed text is not a value of their kind.
    bad: VecSet<Field>,
}

impl Draft {
    pub fn new(scenario: Scenario) -> Self {
        let mut d = Draft { scenario, keys: Default::default(), next_key: 1, typed: VecMap::new(), bad: VecSet::new() };
        for list in LISTS {
            let parents = list.parent().map_or(1, |p| p.len(&d.scenario, 0));
            let lens: Vec<usize> = (0..parents).map(|p| list.len(&d.scenario, p)).collect();
            d.keys[list as usize] = lens.into_iter().map(|n| (0..n).map(|_| d.fresh()).collect()).collect();
        }
        d
    }

    /// Parses scenario text with the core's own parser and checks.
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        Scenario::from_json(text).map(Draft::new)
    }

    fn fresh(&mut self) -> u64 {
        self.next_key += 1;
        self.next_key - 1
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The keys of `list`'s items in item `parent` of its parent list (0 for a top-level list).
    pub fn keys(&self, list: List, parent: usize) -> &[u64] {
        self.keys[list as usize].get(parent).map_or(&[], Vec::as_slice)
    }

    pub fn topic_keys(&self) -> &[u64] {
        self.keys(List::Topics, 0)
    }

    pub fn producer_keys(&self) -> &[u64] {
        self.keys(List::Producers, 0)
    }

    pub fn send_keys(&self, producer: usize) -> &[u64] {
        self.keys(List::Sends, producer)
    }

    pub fn group_keys(&self) -> &[u64] {
        self.keys(List::Groups, 0)
    }

    pub fn member_keys(&self, group: usize) -> &[u64] {
        self.keys(List::Members, group)
    }

    pub fn connector_keys(&self) -> &[u64] {
        self.keys(List::Connectors, 0)
    }

    pub fn row_keys(&self, connector: usize) -> &[u64] {
        self.keys(List::Rows, connector)
    }

    pub fn change_keys(&self, connector: usize) -> &[u64] {
        self.keys(List::Changes, connector)
    }

    pub fn streams_keys(&self) -> &[u64] {
        self.keys(List::Streams, 0)
    }

    /// Where the item with `key` is in `list`: (its parent's position, its own); None when gone.
    fn find(&self, list: List, key: u64) -> Option<(usize, usize)> {
        let (p, i) = self.keys[list as usize].iter().enumerate().find_map(|(p, ks)| ks.iter().position(|&k| k == key).map(|i| (p, i)))?;
        (i < list.len(&self.scenario, p)).then_some((p, i))
    }

    /// The position of a top-level item.
    fn at(&self, list: List, key: u64) -> Option<usize> {
        self.find(list, key).map(|(_, i)| i)
    }

    /// The positions of the items along the field's path; None when one is gone.
    fn positions(&self, f: Field) -> Option<Ix> {
        if f.spec.path.is_empty() {
            return None;
        }
        let mut ix = [0; 3];
        let (lists, count) = lists_along(f.spec.path)?;
        for (n, &list) in lists[..count].iter().enumerate() {
            let parent = match list.parent() {
                Some(_) => ix[n.checked_sub(1)?],
                None => 0,
            };
            let key = *f.keys.get(n)?;
            let i = self.keys(list, parent).iter().position(|&k| k == key)?;
            ix[n] = (i < list.len(&self.scenario, parent)).then_some(i)?;
        }
        Some(ix)
    }

    /// The field's place in the scenario format (`groups[0].members[1].config.session_timeout_ms`);
    /// None when its item is gone.
    pub fn path(&self, f: Field) -> Option<String> {
        let ix = self.positions(f)?;
        let mut out = String::new();
        for (n, piece) in f.spec.path.split("[]").enumerate() {
            if n > 0 {
                out.push_str(&format!("[{}]", ix[n - 1]));
            }
            out.push_str(piece);
        }
        if out.contains('*') {
            // The row's place follows what the change does, as the core names it.
            let change = self.scenario.connectors.get(ix[0]).and_then(|c| c.table.changes.get(ix[1]));
            out = out.replace('*', change.map_or("insert", change_kind));
        }
        Some(out)
    }

    /// How the field is edited, with the ranges the core checks.
    pub fn kind(&self, f: Field) -> Kind {
        let upper = |max: u64| (max != u64::MAX).then_some(max);
        match f.spec.how {
            How::Limit(r) => Kind::Number { lo: r.min as i64, hi: upper(r.max) },
            How::OptLimit(r) => Kind::OptNumber { lo: r.min as i64, hi: upper(r.max) },
            How::Int(lo, hi) => Kind::Number { lo, hi },
            How::UpTo(bound) => {
                let hi = self.positions(f).map_or(1, |ix| bound(&self.scenario, ix)).max(1);
                Kind::Number { lo: 1, hi: Some(hi.into()) }
            }
            How::Text | How::Name(_) => Kind::Text,
            How::OptText => Kind::OptText,
            How::Choice(names) => Kind::Choice(names),
            How::Check => Kind::Check,
            How::Topic => Kind::Topic,
            How::List => Kind::List,
        }
    }

    /// The text the field shows: as typed, else its value.
    pub fn get(&self, f: Field) -> String {
        if let Some(t) = self.typed.get(&f) {
            return t.clone();
        }
        self.positions(f).map(|ix| (f.spec.get)(&self.scenario, ix)).unwrap_or_default()
    }

    /// Whether the field's text is not a value of its kind.
    pub fn is_bad(&self, f: Field) -> bool {
        self.bad.contains(&f)
    }

    /// The learner typed or chose `text`.
    pub fn set(&mut self, f: Field, text: &str) {
        let Some(ix) = self.positions(f) else { return };
        let old = (f.spec.get)(&self.scenario, ix);
        let Some(ok) = (f.spec.set)(&mut self.scenario, ix, text) else { return };
        if matches!(self.kind(f), Kind::Number { .. } | Kind::OptNumber { .. } | Kind::List) {
            self.typed.insert(f, text.to_string());
        }
        if !ok {
            self.bad.insert(f);
            return;
        }
        self.bad.remove(&f);
        for path in f.spec.resets {
            let other = Field::at(path, &f.keys);
            self.typed.remove(&other);
            self.bad.remove(&other);
        }
        if let How::Name(names) = f.spec.how {
            self.follow(names, f.spec, ix, &old, text);
        }
    }

    /// After the rename of the item at `ix` from `old` to `new`, what refers to it follows
    /// when the rename is unambiguous: no other item (of the same group, for a member) had
    /// `old` or has `new`, so two items never merge; for a Streams app, no group either.
    fn follow(&mut self, names: Names, spec: &'static FieldSpec, ix: Ix, old: &str, new: &str) {
        let Some((lists, count)) = lists_along(spec.path) else { return };
        let (Some(depth), Some(&list)) = (count.checked_sub(1), lists.get(count.wrapping_sub(1))) else { return };
        let parent = if depth > 0 { ix[depth - 1] } else { 0 };
        let s = &self.scenario;
        let siblings: Vec<String> = (0..list.len(s, parent))
            .map(|i| {
                let mut at = ix;
                at[depth] = i;
                (spec.get)(s, at)
            })
            .collect();
        let siblings: Vec<&str> = siblings.iter().map(String::as_str).collect();
        if !follows(&siblings, ix[depth], old, new) || (names == Names::Streams && s.groups.iter().any(|g| g.id == old || g.id == new)) {
            return;
        }
        let s = &mut self.scenario;
        // A client id names a member of the group its command names.
        let group = if names == Names::Member { s.groups[ix[0]].id.clone() } else { String::new() };
        if names == Names::Streams {
            // Its instances first, while their commands still name the old id.
            let instances = s.streams[ix[0]].instances;
            for r in REFERENCES.iter().filter(|r| r.names == Names::Instance) {
                (r.visit)(s, r.path, &mut |_, in_group, client| {
                    if in_group == old {
                        let n = client.strip_prefix(old).and_then(|rest| rest.strip_prefix('-')).and_then(|n| n.parse::<u32>().ok());
                        if let Some(n) = n.filter(|n| (1..=instances).contains(n)) {
                            *client = format!("{new}-{n}");
                        }
                    }
                    true
                });
            }
        }
        for r in REFERENCES.iter().filter(|r| r.names == names) {
            (r.visit)(s, r.path, &mut |_, in_group, name| {
                if names != Names::Member || in_group == group {
                    rename(name, old, new);
                }
                true
            });
        }
    }

    /// Removing the last item named `name`: what names it goes as [`REFERENCES`] say.
    fn cascade(&mut self, names: Names, name: &str) {
        let mut items = VecSet::new();
        for r in REFERENCES.iter().filter(|r| r.names == names) {
            match r.cascade {
                Cascade::Keep => {}
                Cascade::Entry => (r.visit)(&mut self.scenario, r.path, &mut |_, _, n| n.as_str() != name),
                Cascade::Item(list) => (r.visit)(&mut self.scenario, r.path, &mut |ix, _, n| {
                    if n.as_str() == name {
                        items.insert(if list.parent().is_some() { (list, ix[0], ix[1]) } else { (list, 0, ix[0]) });
                    }
                    true
                }),
            }
        }
        // Last first, so each position still holds its item.
        while let Some((list, p, i)) = items.pop_last() {
            self.remove_at(list, p, i);
        }
    }

    /// Removes item `i` of item `p` of `list`'s parent, with its keys and its own lists' keys.
    fn remove_at(&mut self, list: List, p: usize, i: usize) {
        if i >= list.len(&self.scenario, p) {
            return;
        }
        list.remove(&mut self.scenario, p, i);
        if let Some(keys) = self.keys[list as usize].get_mut(p) {
            keys.remove(i);
        }
        for child in LISTS.into_iter().filter(|c| c.parent() == Some(list)) {
            self.keys[child as usize].remove(i);
        }
    }

    /// Removes the item with `key` from `list`. When no other item has its name, what names
    /// it follows [`REFERENCES`]: a removed topic takes its send plans, its place in
    /// subscriptions, the connectors writing to it and the Streams apps reading or writing
    /// it; the timeline is left as it is (a command that names the item is refused at
    /// Apply, with its place).
    pub fn remove(&mut self, list: List, key: u64) {
        let Some((p, i)) = self.find(list, key) else { return };
        let ix = if list.parent().is_some() { [p, i, 0] } else { [i, 0, 0] };
        let named = FIELDS.iter().find_map(|f| match f.how {
            How::Name(n) if item_list(f.path) == Some(list) => Some((n, f)),
            _ => None,
        });
        let name = named.map(|(n, f)| (n, f, (f.get)(&self.scenario, ix)));
        self.remove_at(list, p, i);
        if let Some((names, f, name)) = name {
            let depth = if list.parent().is_some() { 1 } else { 0 };
            let still = (0..list.len(&self.scenario, p)).any(|j| {
                let mut at = ix;
                at[depth] = j;
                (f.get)(&self.scenario, at) == name
            });
            if !still {
                self.cascade(names, &name);
            }
        }
        self.forget_gone();
    }

    /// A new item at the end of `list` in item `p` of its parent: its key, and keys for
    /// what its own lists hold.
    fn added(&mut self, list: List, p: usize) {
        let k = self.fresh();
        if let Some(keys) = self.keys[list as usize].get_mut(p) {
            keys.push(k);
        }
        let i = list.len(&self.scenario, p).saturating_sub(1);
        for child in LISTS.into_iter().filter(|c| c.parent() == Some(list)) {
            let keys = (0..child.len(&self.scenario, i)).map(|_| self.fresh()).collect();
            self.keys[child as usize].push(keys);
        }
    }

    /// Room for one more topic, counting the changelog topics the Streams apps' stores
    /// create (the core counts them towards the same limit).
    pub fn can_add_topic(&self) -> bool {
        let changelogs = self.scenario.streams.iter().filter(|a| a.changelog().is_some()).count();
        self.scenario.topics.len() + changelogs < MAX_TOPICS
    }

    pub fn can_add_producer(&self) -> bool {
        self.scenario.producers.len() < MAX_PRODUCERS
    }

    pub fn can_add_group(&self) -> bool {
        self.scenario.groups.len() < MAX_GROUPS
    }

    pub fn can_add_member(&self, group: u64) -> bool {
        self.at(List::Groups, group).is_some_and(|g| self.scenario.groups[g].members.len() < MAX_MEMBERS_PER_GROUP)
    }

    /// A new topic: 3 partitions, as many replicas as brokers up to 3, Kafka's topic defaults.
    pub fn add_topic(&mut self) {
        if !self.can_add_topic() {
            return;
        }
        let name = next_name("Topic", 2, self.scenario.topics.iter().map(|t| t.name.as_str()));
        let replication_factor = self.scenario.cluster.brokers.clamp(1, 3);
        self.scenario.topics.push(TopicSpec { name, partitions: 3, replication_factor, ..TopicSpec::default() });
        self.added(List::Topics, 0);
    }

    /// A new producer with Kafka's defaults, sending ten values to the first topic.
    pub fn add_producer(&mut self) {
        if !self.can_add_producer() {
            return;
        }
        let name = next_name("Producer", 1, self.scenario.producers.iter().map(|p| p.name.as_str()));
        let send = self.new_plan().into_iter().collect();
        self.scenario.producers.push(ProducerSpec { name, send, ..ProducerSpec::default() });
        self.added(List::Producers, 0);
    }

    /// m1..m10 to the first topic from 1 s, one every 500 ms.
    fn new_plan(&self) -> Option<SendPlan> {
        let topic = self.scenario.topics.first()?.name.clone();
        Some(SendPlan {
            topic,
            values: (1..=10).map(|n| format!("m{n}")).collect(),
            start_ms: 1000,
            interval_ms: 500,
            ..SendPlan::default()
        })
    }

    pub fn add_send(&mut self, producer: u64) {
        let (Some(p), Some(plan)) = (self.at(List::Producers, producer), self.new_plan()) else { return };
        self.scenario.producers[p].send.push(plan);
        self.added(List::Sends, p);
    }

    /// A new group reading the first topic with Kafka's defaults and one consumer.
    pub fn add_group(&mut self) {
        if !self.can_add_group() {
            return;
        }
        let id = next_name("ConsumerGroup", 2, self.scenario.groups.iter().map(|g| g.id.as_str()));
        let topics = self.scenario.topics.first().map(|t| vec![t.name.clone()]).unwrap_or_default();
        let members = vec![MemberSpec::new("Consumer1")];
        self.scenario.groups.push(GroupSpec { id, topics, members, ..GroupSpec::default() });
        self.added(List::Groups, 0);
    }

    /// A new consumer with the next free ConsumerN and the settings of the group's last one.
    pub fn add_member(&mut self, group: u64) {
        if !self.can_add_member(group) {
            return;
        }
        let Some(g) = self.at(List::Groups, group) else { return };
        let members = &self.scenario.groups[g].members;
        let client_id = crate::state::next_client_id(members.iter().map(|m| m.client_id.as_str()));
        let mut member = MemberSpec::new(client_id);
        if let Some(last) = members.last() {
            member.config = last.config.clone();
        }
        self.scenario.groups[g].members.push(member);
        self.added(List::Members, g);
    }

    pub fn can_add_connector(&self) -> bool {
        self.scenario.connectors.len() < MAX_CONNECTORS
    }

    pub fn can_add_row(&self, connector: u64) -> bool {
        self.at(List::Connectors, connector).is_some_and(|c| self.scenario.connectors[c].table.rows.len() < MAX_TABLE_ROWS)
    }

    pub fn can_add_change(&self, connector: u64) -> bool {
        self.at(List::Connectors, connector).is_some_and(|c| self.scenario.connectors[c].table.changes.len() < MAX_TABLE_ROWS)
    }

    pub fn can_add_streams(&self) -> bool {
        self.scenario.streams.len() < MAX_STREAMS
    }

    /// A new source connector (`jdbc-source-N`) with the core's defaults, writing to the
    /// first topic from a table with one row.
    pub fn add_connector(&mut self) {
        if !self.can_add_connector() {
            return;
        }
        let name = next_name("jdbc-source-", 1, self.scenario.connectors.iter().map(|c| c.name.as_str()));
        let topic = self.scenario.topics.first().map(|t| t.name.clone()).unwrap_or_default();
        let table = TableSpec { rows: vec![Row { id: 1, value: "v1".into() }], changes: Vec::new() };
        self.scenario.connectors.push(ConnectorSpec {
            name,
            topic,
            table,
            mode: QueryMode::default(),
            poll_interval_ms: 5000,
            offset_flush_interval_ms: 60_000,
        });
        self.added(List::Connectors, 0);
    }

    /// The id after every id the table has or will insert.
    fn next_row_id(&self, c: usize) -> u64 {
        let t = &self.scenario.connectors[c].table;
        let ids = t.rows.iter().map(|r| r.id).chain(t.changes.iter().filter_map(|ch| ch.insert.as_ref().map(|r| r.id)));
        ids.max().map_or(1, |m| m.saturating_add(1))
    }

    /// A new row with the next id and the value `v<id>`.
    pub fn add_row(&mut self, connector: u64) {
        if !self.can_add_row(connector) {
            return;
        }
        let Some(c) = self.at(List::Connectors, connector) else { return };
        let id = self.next_row_id(c);
        self.scenario.connectors[c].table.rows.push(Row { id, value: format!("v{id}") });
        self.added(List::Rows, c);
    }

    /// A new planned insert of the next id, 5 s after the last change (at 10 s if none).
    pub fn add_change(&mut self, connector: u64) {
        if !self.can_add_change(connector) {
            return;
        }
        let Some(c) = self.at(List::Connectors, connector) else { return };
        let id = self.next_row_id(c);
        let changes = &mut self.scenario.connectors[c].table.changes;
        let at_ms = changes.iter().map(|ch| ch.at_ms).max().map_or(10_000, |t| t.saturating_add(5000).min(MAX_TIME_MS));
        changes.push(TableChange { at_ms, insert: Some(Row { id, value: format!("v{id}") }), update: None });
        self.added(List::Changes, c);
    }

    /// A new Streams app (`streams-app-N`, an id no group has) upper-casing the first topic
    /// into the next one, with the core's defaults.
    pub fn add_streams(&mut self) {
        if !self.can_add_streams() {
            return;
        }
        let s = &self.scenario;
        let taken = s.streams.iter().map(|a| a.application_id.as_str()).chain(s.groups.iter().map(|g| g.id.as_str()));
        let application_id = next_name("streams-app-", 1, taken);
        let source = s.topics.first().map(|t| t.name.clone()).unwrap_or_default();
        // Another topic when there is one; else the source, which Apply refuses with the core's reason.
        let sink = s.topics.iter().map(|t| &t.name).find(|t| **t != source).unwrap_or(&source).clone();
        self.scenario.streams.push(StreamsSpec {
            application_id,
            source,
            sink,
            op: StreamsOp::MapUpper {},
            instances: 1,
            commit_interval_ms: 30_000,
            processing_ms: 10,
            processing_guarantee: Default::default(),
        });
        self.added(List::Streams, 0);
    }

    /// How many timeline commands the scenario has (the form keeps them as they are).
    pub fn timeline_len(&self) -> usize {
        self.scenario.commands.len()
    }

    pub fn clear_timeline(&mut self) {
        self.scenario.commands.clear();
    }

    /// The timeline's commands: (moment in ms, the command as the format writes it).
    pub fn timeline(&self) -> Vec<(u64, String)> {
        self.scenario.commands.iter().map(|c| (c.at_ms, kafka_sandbox_core::json::write_json(&c.command, false))).collect()
    }

    /// Schedules a fault: `command` at `at_ms`, after the commands of the same moment (Apply
    /// checks it as the scenario format does: the broker or member must exist).
    pub fn add_command(&mut self, at_ms: u64, command: kafka_sandbox_core::command::Command) {
        let at = self.scenario.commands.iter().position(|c| c.at_ms > at_ms).unwrap_or(self.scenario.commands.len());
        self.scenario.commands.insert(at, kafka_sandbox_core::scenario::TimedCommand { at_ms, command });
    }

    /// Removes the timeline's command at `index` (nothing when there is none).
    pub fn remove_command(&mut self, index: usize) {
        if index < self.scenario.commands.len() {
            self.scenario.commands.remove(index);
        }
    }

    /// Drops the typed text of fields whose item is gone.
    fn forget_gone(&mut self) {
        let gone: Vec<Field> = self.typed.keys().chain(self.bad.iter()).copied().filter(|f| self.path(*f).is_none()).collect();
        for f in gone {
            self.typed.remove(&f);
            self.bad.remove(&f);
        }
    }

    /// The scenario to load, checked by the core exactly as loading its JSON checks it.
    pub fn finish(&self) -> Result<Scenario, Problem> {
        if let Some((f, path)) = self.bad.iter().find_map(|f| self.path(*f).map(|p| (*f, p))) {
            let (lo, hi) = match self.kind(f) {
                Kind::Number { lo, hi } | Kind::OptNumber { lo, hi } => (lo, hi),
                _ => (0, None),
            };
            return Err(Problem::Unreadable { path, text: self.get(f), lo, hi });
        }
        self.scenario.check().map_err(Problem::Invalid)?;
        Ok(self.scenario.clone())
    }
}

/// The scenario's topic names, in order.
fn topic_names(s: &Scenario) -> Vec<String> {
    s.topics.iter().map(|t| t.name.clone()).collect()
}

/// `insert` or `update` (a change with neither reads as an insert, which the core refuses).
fn change_kind(ch: &TableChange) -> &'static str {
    if ch.update.is_some() && ch.insert.is_none() {
        "update"
    } else {
        "insert"
    }
}

/// The row a planned change inserts or updates.
fn change_row(ch: &TableChange) -> Option<&Row> {
    ch.insert.as_ref().or(ch.update.as_ref())
}

fn change_row_mut(ch: &mut TableChange) -> Option<&mut Row> {
    if ch.insert.is_some() {
        ch.insert.as_mut()
    } else {
        ch.update.as_mut()
    }
}

fn op_name(op: &StreamsOp) -> &'static str {
    match op {
        StreamsOp::Filter { .. } => "filter",
        StreamsOp::MapUpper {} => "map_upper",
        StreamsOp::CountByKey { .. } => "count_by_key",
    }
}

/// A new operator starts from its default (`filter` on "", the store `counts`); the same
/// operator again keeps its text.
fn set_op(s: &mut Scenario, ix: Ix, name: &str) -> Option<bool> {
    let app = set::app(s, ix);
    if op_name(&app.op) != name {
        app.op = match name {
            "filter" => StreamsOp::Filter { value_contains: String::new() },
            "map_upper" => StreamsOp::MapUpper {},
            "count_by_key" => StreamsOp::CountByKey { store: "counts".into() },
            _ => return None,
        };
    }
    Some(true)
}

/// "m1, m2 ,m3" → ["m1", "m2", "m3"]; empty text → no values.
pub fn split_list(text: &str) -> Vec<String> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    text.split(',').map(|s| s.trim().to_string()).collect()
}

/// Keeps the first `n` values, or adds m<k> for each new position k (from 1); keys, when
/// given, keep one per value by repeating the existing ones in turn.
fn resize_plan(plan: &mut SendPlan, n: usize) {
    let old = plan.values.len();
    plan.values.truncate(n);
    plan.values.extend((old..n).map(|k| format!("m{}", k + 1)));
    if let Some(keys) = &mut plan.keys {
        let have = keys.len();
        keys.truncate(n);
        for k in have..n {
            let repeated = if have == 0 { None } else { keys[k % have].clone() };
            keys.push(repeated);
        }
    }
}

/// Adds or removes `name`, keeping the list in the topics' order (names the scenario no
/// longer has stay where they were, at the end).
fn toggle(list: &mut Vec<String>, name: &str, on: bool, order: &[String]) {
    list.retain(|t| t != name);
    if on {
        list.push(name.to_string());
        kafka_sandbox_core::sorted::sort_by_key(list, |t| order.iter().position(|o| o == t).unwrap_or(usize::MAX));
    }
}

/// The first `prefix`N (N from 1, zero-padded to `width` digits) not already taken.
pub fn next_name<'a>(prefix: &str, width: usize, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    (1..).map(|n| format!("{prefix}{n:0width$}")).find(|c| !taken.clone().any(|t| t == c)).unwrap_or_else(|| prefix.to_string())
}

/// Whether references follow a rename at `index` from `old` to `new` in `names` (already
/// renamed): only when no other item had `old` or has `new`, so two items never merge.
fn follows(names: &[&str], index: usize, old: &str, new: &str) -> bool {
    old != new && !names.iter().enumerate().any(|(i, n)| i != index && (*n == old || *n == new))
}

fn rename(name: &mut String, old: &str, new: &str) {
    if name == old {
        *name = new.to_string();
    }
}

/// An element id for a field's control, from its path: `topics[0].partitions` →
/// `ed-topics-0-partitions`.
pub fn dom_id(path: &str) -> String {
    let mut id = String::from("ed-");
    for c in path.chars() {
        match c {
            '[' | '.' => {
                if !id.ends_with('-') {
                    id.push('-');
                }
            }
            ']' => {}
            c => id.push(c),
        }
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::scenario::{built_in, default_scenario, TimedCommand, BUILT_IN};

    fn two_groups() -> Draft {
        Draft::new(default_scenario())
    }

    /// The invariant every index in the draft relies on: one key per item, keys unique.
    fn assert_in_sync(d: &Draft) {
        for list in LISTS {
            let parents = list.parent().map_or(1, |p| p.len(&d.scenario, 0));
            assert_eq!(d.keys[list as usize].len(), parents, "{list:?}");
            for p in 0..parents {
                assert_eq!(d.keys(list, p).len(), list.len(&d.scenario, p), "{list:?} in {p}");
            }
        }
        let all: Vec<u64> = d.keys.iter().flatten().flatten().copied().collect();
        assert_eq!(all.iter().collect::<VecSet<_>>().len(), all.len(), "keys are unique");
    }

    /// The editor schedules faults: a broker crash at 8 s and a restart at 9 s land on the
    /// timeline in time order, whatever order they were added in; the scenario checks and
    /// runs them (the broker is down between); one removed is gone; a broker the cluster
    /// does not have is refused by Apply with its place.
    #[test]
    fn the_editor_schedules_faults_on_the_timeline() {
        use crate::panels::fault_command;
        let mut d = two_groups();
        let Some(restart) = fault_command("restart_broker", "1") else { panic!("restart") };
        let Some(crash) = fault_command("crash_broker", "1") else { panic!("crash") };
        d.add_command(9_000, restart);
        d.add_command(8_000, crash);
        d.add_command(8_500, fault_command("crash_member", "ConsumerGroup01/Consumer2").unwrap_or_else(|| panic!("member")));
        let at: Vec<u64> = d.timeline().iter().map(|(t, _)| *t).collect();
        assert_eq!(at, vec![8_000, 8_500, 9_000]);
        assert!(d.timeline()[0].1.contains(r#""type":"crash_broker""#), "{:?}", d.timeline());
        d.remove_command(1);
        assert_eq!(d.timeline_len(), 2);
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        let Ok(mut sim) = s.build() else { panic!("builds") };
        sim.run_to_bounded(kafka_sandbox_core::SimTime(8_200), 1_000_000);
        assert!(sim.read().broker(1).is_some_and(|b| !b.alive()), "crashed at 8 s");
        sim.run_to_bounded(kafka_sandbox_core::SimTime(12_000), 1_000_000);
        assert!(sim.read().broker(1).is_some_and(|b| b.alive()), "restarted at 9 s");
        // No broker 7 in a 3-broker cluster: refused, with the place.
        d.add_command(1_000, fault_command("crash_broker", "7").unwrap_or_else(|| panic!("crash 7")));
        assert!(matches!(d.finish(), Err(Problem::Invalid(_))), "{:?}", d.finish());
        assert_eq!(fault_command("crash_broker", "x"), None);
        assert_eq!(fault_command("crash_member", "no-slash"), None);
        assert_eq!(fault_command("frob", "1"), None);
    }

    #[test]
    fn every_built_in_scenario_comes_back_unchanged_when_nothing_is_edited() {
        for (name, _) in BUILT_IN {
            let Some(Ok(s)) = built_in(name) else { panic!("{name}") };
            let d = Draft::new(s.clone());
            assert_eq!(d.finish(), Ok(s.clone()), "{name}");
            // What Apply hands to the page loads again as the same scenario.
            assert_eq!(Scenario::from_json(&s.to_json_pretty()), Ok(s), "{name}");
        }
    }

    /// Push, a connector with planned changes and a count by key: every new part of the format.
    const APPS: &str = r#"{
      "version": 1, "name": "apps", "seed": 3,
      "topics": [ { "name": "customers", "partitions": 2 }, { "name": "counts", "partitions": 2 }, { "name": "clicks", "partitions": 1 } ],
      "connectors": [ { "name": "jdbc", "topic": "customers", "mode": "timestamp+incrementing", "poll_interval_ms": 2000,
        "offset_flush_interval_ms": 9000,
        "table": { "rows": [ { "id": 1, "value": "ada" }, { "id": 2, "value": "bob" } ],
                   "changes": [ { "at_ms": 8000, "insert": { "id": 4, "value": "dee" } }, { "at_ms": 9000, "update": { "id": 1, "value": "ann" } } ] } } ],
      "streams": [ { "application_id": "counter", "source": "customers", "sink": "counts", "op": { "count_by_key": { "store": "per-id" } },
                     "instances": 2, "commit_interval_ms": 1000, "processing_ms": 5 },
                   { "application_id": "shout", "source": "clicks", "sink": "counts", "op": { "map_upper": {} } } ],
      "groups": [ { "id": "pushed", "topics": ["clicks"], "config": { "delivery": "push", "push_buffer_max_records": 50 },
                    "members": [ { "client_id": "slow" } ] } ],
      "commands": [ { "at_ms": 5000, "command": { "type": "crash_connector", "connector": "jdbc" } },
                    { "at_ms": 6000, "command": { "type": "restart_connector", "connector": "jdbc" } },
                    { "at_ms": 7000, "command": { "type": "crash_member", "group": "counter", "client_id": "counter-2" } } ]
    }"#;

    fn apps() -> Draft {
        Draft::from_json(APPS).expect("APPS loads")
    }

    #[test]
    fn push_connectors_and_streams_come_back_unchanged_when_nothing_is_edited() {
        let s = Scenario::from_json(APPS).unwrap();
        assert_eq!(apps().finish(), Ok(s.clone()));
        assert_eq!(Scenario::from_json(&s.to_json_pretty()), Ok(s));
        // And every built-in lesson's scenario (lesson 8 pushes, lesson 10 has connectors and Streams).
        for lesson in kafka_sandbox_core::lesson::built_in_lessons() {
            let s = lesson.unwrap().scenario().unwrap();
            let d = Draft::new(s.clone());
            assert_eq!(d.finish(), Ok(s.clone()), "{:?}", s.name);
            assert_in_sync(&d);
        }
    }

    #[test]
    fn delivery_connector_and_streams_fields_show_and_set_the_scenario() {
        let mut d = apps();
        let (g, c, a) = (d.group_keys()[0], d.connector_keys()[0], d.streams_keys()[0]);
        assert_eq!(d.get(Field::at("groups[].config.delivery", &[g])), "push");
        assert_eq!(d.get(Field::at("groups[].config.push_buffer_max_records", &[g])), "50");
        assert_eq!(
            d.path(Field::at("groups[].config.push_buffer_max_records", &[g])).as_deref(),
            Some("groups[0].config.push_buffer_max_records")
        );
        assert_eq!(d.kind(Field::at("groups[].config.push_buffer_max_records", &[g])), Kind::Number { lo: 1, hi: Some(1_000_000) });
        assert_eq!(d.get(Field::at("connectors[].mode", &[c])), "timestamp+incrementing");
        assert_eq!(d.get(Field::at("connectors[].poll_interval_ms", &[c])), "2000");
        assert_eq!(d.kind(Field::at("connectors[].topic", &[c])), Kind::Topic);
        let (r, ch) = (d.row_keys(0)[1], d.change_keys(0)[1]);
        assert_eq!(
            (
                d.get(Field::at("connectors[].table.rows[].id", &[d.connector_keys()[0], r])),
                d.get(Field::at("connectors[].table.rows[].value", &[d.connector_keys()[0], r]))
            ),
            ("2".into(), "bob".into())
        );
        assert_eq!(
            d.path(Field::at("connectors[].table.rows[].value", &[d.connector_keys()[0], r])).as_deref(),
            Some("connectors[0].table.rows[1].value")
        );
        assert_eq!(d.get(Field::at("connectors[].table.changes[]", &[d.connector_keys()[0], ch])), "update");
        assert_eq!(
            d.path(Field::at("connectors[].table.changes[].*.id", &[d.connector_keys()[0], ch])).as_deref(),
            Some("connectors[0].table.changes[1].update.id")
        );
        assert_eq!(d.get(Field::at("streams[].op", &[a])), "count_by_key");
        assert_eq!(d.get(Field::at("streams[].op.count_by_key.store", &[a])), "per-id");
        assert_eq!(d.path(Field::at("streams[].op.count_by_key.store", &[a])).as_deref(), Some("streams[0].op.count_by_key.store"));
        assert_eq!(d.path(Field::at("streams[].op.filter.value_contains", &[a])).as_deref(), Some("streams[0].op.filter.value_contains"));
        assert_eq!(d.get(Field::at("streams[].op.filter.value_contains", &[a])), "", "not a filter");
        assert_eq!(d.kind(Field::at("streams[].instances", &[a])), Kind::Number { lo: 1, hi: Some(8) });
        assert_eq!(dom_id("connectors[0].table.changes[1].update.id"), "ed-connectors-0-table-changes-1-update-id");

        d.set(Field::at("groups[].config.delivery", &[g]), "pull");
        d.set(Field::at("groups[].config.push_buffer_max_records", &[g]), "200");
        d.set(Field::at("connectors[].mode", &[c]), "incrementing");
        d.set(Field::at("connectors[].offset_flush_interval_ms", &[c]), "30000");
        d.set(Field::at("connectors[].table.rows[].value", &[d.connector_keys()[0], r]), "bo");
        // An update becomes an insert of a new id: the row moves, id and value kept.
        d.set(Field::at("connectors[].table.changes[]", &[d.connector_keys()[0], ch]), "insert");
        d.set(Field::at("connectors[].table.changes[].*.id", &[d.connector_keys()[0], ch]), "7");
        assert_eq!(
            d.path(Field::at("connectors[].table.changes[].*.id", &[d.connector_keys()[0], ch])).as_deref(),
            Some("connectors[0].table.changes[1].insert.id")
        );
        d.set(Field::at("streams[].op", &[a]), "filter");
        d.set(Field::at("streams[].op.filter.value_contains", &[a]), "a");
        d.set(Field::at("streams[].instances", &[a]), "3");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!((s.groups[0].config.delivery, s.groups[0].config.push_buffer_max_records), (DeliveryMode::Pull, 200));
        let conn = &s.connectors[0];
        assert_eq!((conn.mode, conn.offset_flush_interval_ms, conn.table.rows[1].value.as_str()), (QueryMode::Incrementing, 30_000, "bo"));
        assert_eq!(conn.table.changes[1], TableChange { at_ms: 9000, insert: Some(Row { id: 7, value: "ann".into() }), update: None });
        assert_eq!(s.streams[0].op, StreamsOp::Filter { value_contains: "a".into() });
        assert_eq!(s.streams[0].instances, 3);
        // Choosing the same operator again keeps its text; another starts from its default.
        d.set(Field::at("streams[].op", &[a]), "filter");
        assert_eq!(d.scenario().streams[0].op, StreamsOp::Filter { value_contains: "a".into() });
        d.set(Field::at("streams[].op", &[a]), "count_by_key");
        assert_eq!(d.scenario().streams[0].op, StreamsOp::CountByKey { store: "counts".into() });
        d.set(Field::at("streams[].op", &[a]), "sum");
        assert_eq!(d.scenario().streams[0].op, StreamsOp::CountByKey { store: "counts".into() });
    }

    #[test]
    fn the_cores_check_decides_and_names_the_new_fields() {
        let mut d = apps();
        let (g, a, ch) = (d.group_keys()[0], d.streams_keys()[0], d.change_keys(0)[1]);
        // The form's ranges are the core's: its largest push buffer applies, one more is refused.
        d.set(Field::at("groups[].config.push_buffer_max_records", &[g]), &MAX_PUSH_BUFFER.to_string());
        assert!(d.finish().is_ok(), "{:?}", d.finish());
        d.set(Field::at("groups[].config.push_buffer_max_records", &[g]), &(MAX_PUSH_BUFFER + 1).to_string());
        assert!(
            matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "groups[0]" && e.problem.to_string().contains("push_buffer_max_records"))
        );
        d.set(Field::at("groups[].config.push_buffer_max_records", &[g]), "50");
        // An update of an id the table has not got.
        d.set(Field::at("connectors[].table.changes[].*.id", &[d.connector_keys()[0], ch]), "9");
        let Err(Problem::Invalid(e)) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(e.path, "connectors[0].table.changes[1].update.id");
        assert_eq!(d.path(Field::at("connectors[].table.changes[].*.id", &[d.connector_keys()[0], ch])).as_deref(), Some(e.path.as_str()));
        d.set(Field::at("connectors[].table.changes[].*.id", &[d.connector_keys()[0], ch]), "2");
        d.set(Field::at("streams[].sink", &[a]), "customers");
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].sink"));
        d.set(Field::at("streams[].sink", &[a]), "counts");
        d.set(Field::at("streams[].instances", &[a]), "9");
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].instances"), "{:?}", d.finish());
        d.set(Field::at("streams[].instances", &[a]), "x");
        assert_eq!(d.finish(), Err(Problem::Unreadable { path: "streams[0].instances".into(), text: "x".into(), lo: 1, hi: Some(8) }));
        d.set(Field::at("streams[].instances", &[a]), "2");
        assert!(d.finish().is_ok(), "{:?}", d.finish());
    }

    #[test]
    fn new_connectors_rows_changes_and_streams_apps_take_the_cores_defaults() {
        let mut d = two_groups();
        d.add_topic();
        d.add_connector();
        d.add_streams();
        let c = d.connector_keys()[0];
        d.add_row(c);
        d.add_change(c);
        d.add_change(c);
        let s = d.finish().unwrap_or_else(|e| panic!("{e:?}"));
        let json = r#"{"name": "jdbc-source-1", "topic": "Topic01",
            "table": {"rows": [{"id": 1, "value": "v1"}, {"id": 2, "value": "v2"}],
                      "changes": [{"at_ms": 10000, "insert": {"id": 3, "value": "v3"}}, {"at_ms": 15000, "insert": {"id": 4, "value": "v4"}}]}}"#;
        assert_eq!(s.connectors, vec![kafka_sandbox_core::scenario::read_json::<ConnectorSpec>(json).unwrap()]);
        let json = r#"{"application_id": "streams-app-1", "source": "Topic01", "sink": "Topic02", "op": {"map_upper": {}}}"#;
        assert_eq!(s.streams, vec![kafka_sandbox_core::scenario::read_json::<StreamsSpec>(json).unwrap()]);
        d.remove(List::Rows, d.row_keys(0)[0]);
        d.remove(List::Changes, d.change_keys(0)[0]);
        assert_eq!(d.scenario().connectors[0].table.rows, vec![Row { id: 2, value: "v2".into() }]);
        assert_eq!(d.scenario().connectors[0].table.changes.len(), 1);
        d.add_row(c);
        assert_eq!(d.scenario().connectors[0].table.rows[1].id, 5, "after every id the table has or will insert");
        assert_in_sync(&d);
        // A streams app needs a topic to write to other than its source: with one topic, Apply says so.
        let mut one = two_groups();
        one.add_streams();
        assert!(matches!(one.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].sink"));
        // A count's changelog topic counts towards the 16 topics.
        let mut full = two_groups();
        full.add_streams();
        full.add_topic();
        let a = full.streams_keys()[0];
        full.set(Field::at("streams[].sink", &[a]), "Topic02");
        full.set(Field::at("streams[].op", &[a]), "count_by_key");
        while full.can_add_topic() {
            full.add_topic();
        }
        assert_eq!(full.scenario().topics.len(), MAX_TOPICS - 1);
        assert!(full.finish().is_ok(), "{:?}", full.finish());
        for _ in 0..10 {
            full.add_connector();
            full.add_streams();
        }
        assert_eq!((full.scenario().connectors.len(), full.scenario().streams.len()), (MAX_CONNECTORS, MAX_STREAMS));
        assert!(!full.can_add_connector() && !full.can_add_streams());
    }

    #[test]
    fn removing_a_topic_takes_the_connectors_and_streams_apps_that_use_it() {
        let mut d = apps();
        let [customers, counts, _clicks] = d.topic_keys().try_into().unwrap();
        let shout = d.streams_keys()[1];
        d.set(Field::at("connectors[].table.rows[].id", &[d.connector_keys()[0], d.row_keys(0)[0]]), "abc");
        d.remove(List::Topics, customers);
        assert!(d.scenario().connectors.is_empty());
        assert_eq!(d.scenario().streams.iter().map(|a| a.application_id.as_str()).collect::<Vec<_>>(), ["shout"]);
        assert_eq!(d.path(Field::at("streams[].sink", &[shout])).as_deref(), Some("streams[0].sink"));
        assert!(d.finish().is_err(), "the timeline still names the connector");
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "commands[0]"), "{:?}", d.finish());
        d.clear_timeline();
        assert!(d.finish().is_ok(), "the unread row id went with its row: {:?}", d.finish());
        d.remove(List::Topics, counts);
        assert!(d.scenario().streams.is_empty(), "its sink is gone");
        assert_in_sync(&d);
        assert!(d.finish().is_ok(), "{:?}", d.finish());
    }

    #[test]
    fn renames_follow_into_connectors_streams_and_their_commands() {
        let mut d = apps();
        let (t, c, a) = (d.topic_keys()[0], d.connector_keys()[0], d.streams_keys()[0]);
        for name in ["c", "cu", "users"] {
            d.set(Field::at("topics[].name", &[t]), name);
        }
        d.set(Field::at("topics[].name", &[d.topic_keys()[1]]), "tally");
        d.set(Field::at("connectors[].name", &[c]), "db");
        d.set(Field::at("streams[].application_id", &[a]), "count");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(s.connectors[0].topic, "users");
        assert_eq!((s.streams[0].source.as_str(), s.streams[0].sink.as_str()), ("users", "tally"));
        assert_eq!(s.streams[1].sink, "tally");
        let c: Vec<&Command> = s.commands.iter().map(|c| &c.command).collect();
        assert_eq!(c[0], &Command::Connect(ConnectCommand::CrashConnector { connector: "db".into() }));
        assert_eq!(c[1], &Command::Connect(ConnectCommand::RestartConnector { connector: "db".into() }));
        assert_eq!(c[2], &Command::Group(GroupCommand::CrashMember { group: "count".into(), client_id: "count-2".into() }));
        // An application id that is a group's id: nothing follows, and Apply says why.
        d.set(Field::at("streams[].application_id", &[a]), "pushed");
        assert_eq!(
            d.scenario().commands[2].command,
            Command::Group(GroupCommand::CrashMember { group: "count".into(), client_id: "count-2".into() })
        );
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "streams[0].application_id"));
    }

    /// A numeric field with a row in the core's limits table is edited within that row's
    /// bounds, and its JSON path is the row's path: the editor and the scenario checks read
    /// one table.
    #[test]
    fn numeric_fields_take_their_bounds_from_the_limits_table() {
        let d = two_groups();
        let p = d.producer_keys()[0];
        let m = d.member_keys(0)[0];
        let fields = [
            Field::at("duration_ms", &[]),
            Field::at("cluster.brokers", &[]),
            Field::at("cluster.network_latency_ms", &[]),
            Field::at("cluster.replica_fetch_wait_max_ms", &[]),
            Field::at("cluster.replica_lag_time_max_ms", &[]),
            Field::at("cluster.log_retention_check_interval_ms", &[]),
            Field::at("cluster.group_min_session_timeout_ms", &[]),
            Field::at("cluster.group_max_session_timeout_ms", &[]),
            Field::at("cluster.offsets_retention_minutes", &[]),
            Field::at("cluster.offsets_retention_check_interval_ms", &[]),
            Field::at("cluster.broker_session_timeout_ms", &[]),
            Field::at("cluster.group_initial_rebalance_delay_ms", &[]),
            Field::at("cluster.group_consumer_heartbeat_interval_ms", &[]),
            Field::at("cluster.group_consumer_session_timeout_ms", &[]),
            Field::at("cluster.offsets_topic_replication_factor", &[]),
            Field::at("cluster.leader_imbalance_check_interval_seconds", &[]),
            Field::at("producers[].config.linger_ms", &[p]),
            Field::at("producers[].config.batch_size", &[p]),
            Field::at("producers[].config.retry_backoff_ms", &[p]),
            Field::at("producers[].config.retry_backoff_max_ms", &[p]),
            Field::at("producers[].config.request_timeout_ms", &[p]),
            Field::at("producers[].config.delivery_timeout_ms", &[p]),
            Field::at("producers[].config.buffer_memory", &[p]),
            Field::at("producers[].config.max_block_ms", &[p]),
            Field::at("producers[].config.transaction_timeout_ms", &[p]),
            Field::at("cluster.transaction_state_log_replication_factor", &[]),
            Field::at("cluster.transaction_state_log_min_isr", &[]),
            Field::at("cluster.transaction_max_timeout_ms", &[]),
            Field::at("cluster.transaction_abort_timed_out_transaction_cleanup_interval_ms", &[]),
            Field::at("groups[].members[].config.processing_ms", &[d.group_keys()[0], m]),
            Field::at("groups[].members[].config.max_poll_records", &[d.group_keys()[0], m]),
            Field::at("groups[].members[].config.fetch_max_wait_ms", &[d.group_keys()[0], m]),
            Field::at("groups[].members[].config.session_timeout_ms", &[d.group_keys()[0], m]),
            Field::at("groups[].members[].config.heartbeat_interval_ms", &[d.group_keys()[0], m]),
            Field::at("groups[].members[].config.max_poll_interval_ms", &[d.group_keys()[0], m]),
            Field::at("groups[].members[].config.metadata_max_age_ms", &[d.group_keys()[0], m]),
            Field::at("groups[].members[].config.auto_commit_interval_ms", &[d.group_keys()[0], m]),
            Field::at("topics[].partitions", &[d.topic_keys()[0]]),
            Field::at("topics[].segment_bytes", &[d.topic_keys()[0]]),
            Field::at("topics[].segment_ms", &[d.topic_keys()[0]]),
            Field::at("cluster.log_cleaner_backoff_ms", &[]),
            Field::at("cluster.offsets_topic_segment_bytes", &[]),
            Field::at("topics[].min_compaction_lag_ms", &[d.topic_keys()[0]]),
            Field::at("topics[].max_compaction_lag_ms", &[d.topic_keys()[0]]),
            Field::at("topics[].delete_retention_ms", &[d.topic_keys()[0]]),
        ];
        let a = apps();
        let (c, app) = (a.connector_keys()[0], a.streams_keys()[0]);
        let in_apps = [
            Field::at("groups[].config.push_buffer_max_records", &[a.group_keys()[0]]),
            Field::at("connectors[].poll_interval_ms", &[c]),
            Field::at("connectors[].offset_flush_interval_ms", &[c]),
            Field::at("connectors[].table.changes[].at_ms", &[c, a.change_keys(0)[0]]),
            Field::at("streams[].instances", &[app]),
            Field::at("streams[].commit_interval_ms", &[app]),
            Field::at("streams[].processing_ms", &[app]),
        ];
        let mut reached = Vec::new();
        for (d, f) in fields.into_iter().map(|f| (&d, f)).chain(in_apps.into_iter().map(|f| (&a, f))) {
            let path = d.path(f).expect("a path");
            let row = limits::range_of(&path).unwrap_or_else(|| panic!("{path} has a row"));
            let (lo, hi) = match d.kind(f) {
                Kind::Number { lo, hi } | Kind::OptNumber { lo, hi } => (lo, hi),
                other => panic!("{path} is {other:?}"),
            };
            assert_eq!((lo, hi), (row.min as i64, (row.max != u64::MAX).then_some(row.max)), "{path}");
            reached.push(row.path);
        }
        // `at_ms` is edited in the timeline's own list.
        let elsewhere = ["commands[].at_ms"];
        let missing: Vec<&str> = limits::TABLE.iter().map(|r| r.path).filter(|p| !reached.contains(p) && !elsewhere.contains(p)).collect();
        assert!(missing.is_empty(), "rows no editor field uses: {missing:?}");
    }

    #[test]
    fn fields_show_the_scenario_and_name_their_place_in_the_format() {
        let d = two_groups();
        let t = d.topic_keys()[0];
        assert_eq!(d.get(Field::at("cluster.brokers", &[])), "3");
        assert_eq!(d.get(Field::at("topics[].partitions", &[t])), "4");
        assert_eq!(d.get(Field::at("topics[].replication_factor", &[t])), "3");
        assert_eq!(d.path(Field::at("topics[].replication_factor", &[t])).as_deref(), Some("topics[0].replication_factor"));
        let plan = d.send_keys(0)[0];
        assert_eq!(d.get(Field::at("producers[].send[].values", &[d.producer_keys()[0], plan])), "m1, m2, m3, m4, m5, m6, m7");
        assert_eq!(d.get(Field::at("producers[].send[].count", &[d.producer_keys()[0], plan])), "7");
        assert_eq!(d.get(Field::at("producers[].send[].keys", &[d.producer_keys()[0], plan])), "");
        let p = d.producer_keys()[0];
        assert_eq!(d.get(Field::at("producers[].config.partitioner", &[p])), "round_robin");
        assert_eq!(d.get(Field::at("producers[].config.acks", &[p])), "all");
        assert_eq!(d.get(Field::at("producers[].config.enable_idempotence", &[p])), "default");
        let g = d.group_keys()[0];
        assert_eq!(d.get(Field::at("groups[].config.assignor", &[g])), "roundrobin");
        assert_eq!(d.get(Field::at("groups[].topics[]", &[g, t])), "true");
        let m = d.member_keys(0)[1];
        assert_eq!(d.get(Field::at("groups[].members[].client_id", &[d.group_keys()[0], m])), "Consumer2");
        assert_eq!(
            d.path(Field::at("groups[].members[].config.session_timeout_ms", &[d.group_keys()[0], m])).as_deref(),
            Some("groups[0].members[1].config.session_timeout_ms")
        );
        assert_eq!(d.get(Field::at("groups[].members[].config.commit_mode", &[d.group_keys()[0], m])), "auto");
        assert_eq!(dom_id("groups[0].members[1].config.session_timeout_ms"), "ed-groups-0-members-1-config-session_timeout_ms");
        assert_eq!(dom_id("cluster.brokers"), "ed-cluster-brokers");
    }

    #[test]
    fn numbers_selects_and_boxes_set_the_scenario() {
        let mut d = two_groups();
        let (t, p, g, m) = (d.topic_keys()[0], d.producer_keys()[0], d.group_keys()[0], d.member_keys(0)[0]);
        d.set(Field::at("cluster.brokers", &[]), "5");
        d.set(Field::at("topics[].partitions", &[t]), " 6 ");
        d.set(Field::at("topics[].retention_ms", &[t]), "-1");
        d.set(Field::at("topics[].unclean_leader_election_enable", &[t]), "true");
        d.set(Field::at("topics[].message_timestamp_type", &[t]), "LogAppendTime");
        d.set(Field::at("producers[].config.acks", &[p]), "1");
        d.set(Field::at("producers[].config.enable_idempotence", &[p]), "false");
        d.set(Field::at("groups[].config.group_protocol", &[g]), "consumer");
        d.set(Field::at("groups[].config.remote_assignor", &[g]), "range");
        d.set(Field::at("groups[].members[].group_instance_id", &[d.group_keys()[0], m]), "static-1");
        d.set(Field::at("groups[].members[].config.commit_mode", &[d.group_keys()[0], m]), "before_processing");
        d.set(Field::at("groups[].members[].config.session_timeout_ms", &[d.group_keys()[0], m]), "6000");
        d.set(Field::at("duration_ms", &[]), "");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(s.cluster.brokers, 5);
        let topic = &s.topics[0];
        assert_eq!((topic.partitions, topic.retention_ms, topic.unclean_leader_election_enable), (6, -1, true));
        assert_eq!(topic.message_timestamp_type, TimestampType::LogAppendTime);
        assert_eq!((s.producers[0].config.acks, s.producers[0].config.enable_idempotence), (Acks::Leader, Some(false)));
        assert_eq!(s.groups[0].config.group_protocol, GroupProtocol::Consumer);
        assert_eq!(s.groups[0].config.remote_assignor, ServerAssignor::Range);
        let member = &s.groups[0].members[0];
        assert_eq!(member.group_instance_id.as_deref(), Some("static-1"));
        assert_eq!(member.config.commit_mode, CommitMode::BeforeProcessing);
        assert_eq!(member.config.session_timeout_ms, 6000);
        assert_eq!(s.duration_ms, None);
        // The typed text stays as typed.
        assert_eq!(d.get(Field::at("topics[].partitions", &[t])), " 6 ");
        // An unknown select value changes nothing.
        d.set(Field::at("producers[].config.acks", &[p]), "2");
        assert_eq!(d.scenario().producers[0].config.acks, Acks::Leader);
    }

    #[test]
    fn a_text_that_is_no_number_is_kept_and_refused_at_apply_with_its_place() {
        let mut d = two_groups();
        let t = d.topic_keys()[0];
        let f = Field::at("topics[].partitions", &[t]);
        for text in ["", "-2", "1.5", "99999999999"] {
            d.set(f, text);
            assert!(d.is_bad(f), "{text:?}");
            assert_eq!(d.get(f), text);
            assert_eq!(d.scenario().topics[0].partitions, 4, "the value stays");
            assert_eq!(
                d.finish(),
                Err(Problem::Unreadable { path: "topics[0].partitions".into(), text: text.into(), lo: 1, hi: Some(256) })
            );
        }
        d.set(f, "8");
        assert!(!d.is_bad(f));
        assert_eq!(d.finish().map(|s| s.topics[0].partitions), Ok(8));
    }

    #[test]
    fn apply_is_refused_with_the_cores_own_message() {
        let mut d = two_groups();
        let t = d.topic_keys()[0];
        d.set(Field::at("topics[].replication_factor", &[t]), "5");
        let Err(Problem::Invalid(e)) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(e.path, "topics[0].replication_factor");
        assert_eq!(e.to_string(), "topics[0].replication_factor: topic \"Topic01\" asks for 5 replicas but the cluster has 3 broker(s)");
        // Exactly what loading the JSON says.
        let mut s = default_scenario();
        s.topics[0].replication_factor = 5;
        assert_eq!(Scenario::from_json(&s.to_json_pretty()).err().map(|e| e.to_string()), Some(e.to_string()));
    }

    #[test]
    fn adding_and_removing_items_keeps_every_key_on_its_item() {
        let mut d = two_groups();
        d.add_topic();
        d.add_topic();
        assert_eq!(d.scenario().topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Topic01", "Topic02", "Topic03"]);
        assert_eq!((d.scenario().topics[1].partitions, d.scenario().topics[1].replication_factor), (3, 3));
        let (second, third) = (d.topic_keys()[1], d.topic_keys()[2]);
        d.set(Field::at("topics[].partitions", &[third]), "abc");
        d.remove(List::Topics, second);
        // The third topic's field still reaches it, and its unread text stays with it.
        assert_eq!(d.path(Field::at("topics[].partitions", &[third])).as_deref(), Some("topics[1].partitions"));
        assert!(d.is_bad(Field::at("topics[].partitions", &[third])));
        d.set(Field::at("topics[].partitions", &[third]), "7");
        assert_eq!(d.scenario().topics[1].partitions, 7);
        assert_eq!(d.path(Field::at("topics[].partitions", &[second])), None);
        d.set(Field::at("topics[].partitions", &[second]), "9");
        assert_eq!(d.scenario().topics.iter().map(|t| t.partitions).collect::<Vec<_>>(), [4, 7]);

        d.add_producer();
        assert_eq!(d.scenario().producers[1].name, "Producer2");
        assert_eq!(d.scenario().producers[1].send[0].values.len(), 10);
        d.add_send(d.producer_keys()[1]);
        assert_eq!(d.send_keys(1).len(), 2);
        d.remove(List::Sends, d.send_keys(1)[0]);
        assert_eq!(d.scenario().producers[1].send.len(), 1);
        d.remove(List::Producers, d.producer_keys()[0]);
        assert_eq!(d.scenario().producers.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Producer2"]);

        d.add_group();
        assert_eq!(d.scenario().groups[2].id, "ConsumerGroup03");
        assert_eq!(d.scenario().groups[2].members[0].client_id, "Consumer1");
        let g1 = d.group_keys()[0];
        d.set(Field::at("groups[].members[].config.session_timeout_ms", &[d.group_keys()[0], d.member_keys(0)[1]]), "6000");
        d.add_member(g1);
        let added = &d.scenario().groups[0].members[2];
        assert_eq!(added.client_id, "Consumer3");
        assert_eq!(added.config.session_timeout_ms, 6000, "a new member takes the last one's settings");
        d.remove(List::Members, d.member_keys(0)[0]);
        assert_eq!(d.scenario().groups[0].members.iter().map(|m| m.client_id.as_str()).collect::<Vec<_>>(), ["Consumer2", "Consumer3"]);
        d.remove(List::Groups, d.group_keys()[1]);
        assert_eq!(d.scenario().groups.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), ["ConsumerGroup01", "ConsumerGroup03"]);
        assert!(d.finish().is_ok(), "{:?}", d.finish());
        assert_in_sync(&d);
    }

    #[test]
    fn removing_a_topic_takes_its_plans_and_subscriptions_with_it() {
        let mut d = two_groups();
        d.add_topic();
        let (t1, t2) = (d.topic_keys()[0], d.topic_keys()[1]);
        let (g, m) = (d.group_keys()[0], d.member_keys(0)[0]);
        d.set(Field::at("groups[].topics[]", &[g, t2]), "true");
        d.set(Field::at("groups[].members[].topics[]", &[d.group_keys()[0], m, t2]), "true");
        assert_eq!(d.scenario().groups[0].topics, ["Topic01", "Topic02"]);
        assert_eq!(d.scenario().groups[0].members[0].topics, Some(vec!["Topic02".to_string()]));
        d.remove(List::Topics, t1);
        assert!(d.scenario().producers[0].send.is_empty());
        assert_eq!(d.send_keys(0).len(), 0);
        assert_eq!(d.scenario().groups[0].topics, ["Topic02"]);
        assert!(d.scenario().groups[1].topics.is_empty(), "refused at Apply: a group needs a topic");
        d.set(Field::at("groups[].members[].topics[]", &[d.group_keys()[0], m, t2]), "false");
        assert_eq!(d.scenario().groups[0].members[0].topics, None, "no topic ticked: the group's");
        assert_in_sync(&d);
    }

    #[test]
    fn renames_follow_into_plans_subscriptions_and_the_timeline_unless_ambiguous() {
        let mut s = default_scenario();
        s.commands = vec![
            TimedCommand {
                at_ms: 9000,
                command: Command::Group(GroupCommand::AddMember { group: "ConsumerGroup01".into(), member: MemberSpec::new("Consumer3") }),
            },
            TimedCommand {
                at_ms: 9500,
                command: Command::Group(GroupCommand::CrashMember { group: "ConsumerGroup01".into(), client_id: "Consumer1".into() }),
            },
            TimedCommand {
                at_ms: 9600,
                command: Command::Group(GroupCommand::CrashMember { group: "ConsumerGroup02".into(), client_id: "Consumer1".into() }),
            },
            TimedCommand {
                at_ms: 9700,
                command: Command::Produce(ProduceCommand::SetAcks { producer: "Producer1".into(), acks: Acks::Leader }),
            },
            TimedCommand { at_ms: 9800, command: Command::Topic(TopicCommand::AddPartitions { topic: "Topic01".into(), partitions: 6 }) },
        ];
        let mut d = Draft::new(s);
        let (t, p, g, m) = (d.topic_keys()[0], d.producer_keys()[0], d.group_keys()[0], d.member_keys(0)[0]);
        // Typed one key at a time: every step renames what refers to the previous one.
        for name in ["o", "or", "orders"] {
            d.set(Field::at("topics[].name", &[t]), name);
        }
        d.set(Field::at("producers[].name", &[p]), "shop");
        d.set(Field::at("groups[].id", &[g]), "billing");
        d.set(Field::at("groups[].members[].client_id", &[d.group_keys()[0], m]), "c1");
        let Ok(s) = d.finish() else { panic!("{:?}", d.finish()) };
        assert_eq!(s.producers[0].send[0].topic, "orders");
        assert!(s.groups.iter().all(|g| g.topics == ["orders"]));
        let c: Vec<&Command> = s.commands.iter().map(|c| &c.command).collect();
        assert_eq!(c[0], &Command::Group(GroupCommand::AddMember { group: "billing".into(), member: MemberSpec::new("Consumer3") }));
        assert_eq!(c[1], &Command::Group(GroupCommand::CrashMember { group: "billing".into(), client_id: "c1".into() }));
        assert_eq!(
            c[2],
            &Command::Group(GroupCommand::CrashMember { group: "ConsumerGroup02".into(), client_id: "Consumer1".into() }),
            "another group's Consumer1"
        );
        assert_eq!(c[3], &Command::Produce(ProduceCommand::SetAcks { producer: "shop".into(), acks: Acks::Leader }));
        assert_eq!(c[4], &Command::Topic(TopicCommand::AddPartitions { topic: "orders".into(), partitions: 6 }));

        // Renaming onto another item's name merges nothing: references stay, and Apply says why.
        d.add_group();
        let g3 = d.group_keys()[2];
        d.set(Field::at("groups[].id", &[g3]), "billing");
        assert_eq!(
            d.scenario().commands[0].command,
            Command::Group(GroupCommand::AddMember { group: "billing".into(), member: MemberSpec::new("Consumer3") })
        );
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "groups[2]"), "{:?}", d.finish());
        d.set(Field::at("groups[].id", &[g3]), "billing2");
        assert_eq!(d.scenario().groups[0].id, "billing");
        assert_eq!(
            d.scenario().commands[1].command,
            Command::Group(GroupCommand::CrashMember { group: "billing".into(), client_id: "c1".into() })
        );
        assert!(d.finish().is_ok());
    }

    #[test]
    fn the_count_resizes_values_and_keys_and_lists_read_commas() {
        let mut d = two_groups();
        let plan = d.send_keys(0)[0];
        d.set(Field::at("producers[].send[].keys", &[d.producer_keys()[0], plan]), "a, , b");
        assert_eq!(d.scenario().producers[0].send[0].keys, Some(vec![Some("a".into()), None, Some("b".into())]));
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "producers[0].send[0].keys"));
        d.set(Field::at("producers[].send[].count", &[d.producer_keys()[0], plan]), "3");
        assert_eq!(d.scenario().producers[0].send[0].values, ["m1", "m2", "m3"]);
        assert!(d.finish().is_ok());
        d.set(Field::at("producers[].send[].count", &[d.producer_keys()[0], plan]), "5");
        let s = &d.scenario().producers[0].send[0];
        assert_eq!(s.values, ["m1", "m2", "m3", "m4", "m5"]);
        assert_eq!(s.keys, Some(vec![Some("a".into()), None, Some("b".into()), Some("a".into()), None]));
        assert_eq!(d.get(Field::at("producers[].send[].keys", &[d.producer_keys()[0], plan])), "a, , b, a, ");
        d.set(Field::at("producers[].send[].values", &[d.producer_keys()[0], plan]), "x,y");
        assert_eq!(d.get(Field::at("producers[].send[].count", &[d.producer_keys()[0], plan])), "2");
        assert_eq!(d.get(Field::at("producers[].send[].values", &[d.producer_keys()[0], plan])), "x,y", "as typed");
        d.set(Field::at("producers[].send[].keys", &[d.producer_keys()[0], plan]), " ");
        assert_eq!(d.scenario().producers[0].send[0].keys, None);
        d.set(Field::at("producers[].send[].count", &[d.producer_keys()[0], plan]), "10001");
        assert!(d.is_bad(Field::at("producers[].send[].count", &[d.producer_keys()[0], plan])));
        assert_eq!(split_list(""), Vec::<String>::new());
    }

    #[test]
    fn new_names_take_the_first_free_number() {
        assert_eq!(next_name("Topic", 2, ["Topic01", "Topic03"].into_iter()), "Topic02");
        assert_eq!(next_name("Producer", 1, [].into_iter()), "Producer1");
        let mut d = two_groups();
        for _ in 0..20 {
            d.add_topic();
        }
        assert_eq!(d.scenario().topics.len(), MAX_TOPICS, "no more than the core accepts");
        assert!(!d.can_add_topic());
    }

    #[test]
    fn limits_follow_the_cluster_and_the_topic() {
        let mut d = two_groups();
        let t = d.topic_keys()[0];
        assert_eq!(d.kind(Field::at("topics[].replication_factor", &[t])), Kind::Number { lo: 1, hi: Some(3) });
        d.set(Field::at("cluster.brokers", &[]), "5");
        assert_eq!(d.kind(Field::at("topics[].replication_factor", &[t])), Kind::Number { lo: 1, hi: Some(5) });
        assert_eq!(d.kind(Field::at("topics[].min_insync_replicas", &[t])), Kind::Number { lo: 1, hi: Some(3) });
        assert_eq!(d.kind(Field::at("topics[].retention_ms", &[t])), Kind::Number { lo: -1, hi: Some(i64::MAX as u64) });
        assert_eq!(d.kind(Field::at("cluster.network_latency_ms", &[])), Kind::Number { lo: 0, hi: Some(60_000) });
        assert_eq!(d.kind(Field::at("cluster.replica_fetch_wait_max_ms", &[])), Kind::Number { lo: 1, hi: Some(60_000) });
        assert_eq!(
            d.kind(Field::at("groups[].config.assignor", &[d.group_keys()[0]])),
            Kind::Choice(&["range", "roundrobin", "sticky", "cooperative-sticky"])
        );
    }

    /// Every field of every item of the draft, from the table.
    fn all_fields(d: &Draft) -> Vec<Field> {
        let mut out = Vec::new();
        for spec in FIELDS {
            let mut combos: Vec<(Vec<u64>, usize)> = vec![(Vec::new(), 0)];
            let (lists, count) = lists_along(spec.path).unwrap_or_else(|| panic!("{}: lists the draft keys", spec.path));
            for &list in &lists[..count] {
                combos = combos
                    .into_iter()
                    .flat_map(|(keys, last)| {
                        let parent = if list.parent().is_some() { last } else { 0 };
                        d.keys(list, parent).iter().enumerate().map(move |(i, k)| ([keys.clone(), vec![*k]].concat(), i))
                    })
                    .collect();
            }
            out.extend(combos.into_iter().map(|(keys, _)| Field::of(spec, &keys)));
        }
        out
    }

    /// Each row's path with the positions of its items is the field's place, and reading
    /// back what a field shows changes nothing: the table's reads and writes agree.
    #[test]
    fn every_row_reads_and_writes_its_own_place() {
        for mut d in
            [apps(), two_groups(), Draft::from_json(include_str!("../../tests/golden/every-feature.json")).expect("every-feature loads")]
        {
            let fields = all_fields(&d);
            assert!(fields.len() > FIELDS.len(), "every row has a field in these scenarios");
            for f in fields {
                let Some(path) = d.path(f) else { panic!("{f:?} has a place") };
                let mut general = String::new();
                let mut in_index = false;
                for c in path.chars() {
                    match c {
                        '[' => in_index = true,
                        ']' => {
                            in_index = false;
                            general.push_str("[]");
                        }
                        _ if in_index => {}
                        c => general.push(c),
                    }
                }
                let general = general.replace(".insert.", ".*.").replace(".update.", ".*.");
                assert_eq!(general, f.pattern());
                let before = d.scenario().clone();
                let text = d.get(f);
                d.set(f, &text);
                assert_eq!(d.scenario(), &before, "{path} = {text:?}");
                assert!(!d.is_bad(f), "{path} = {text:?}");
            }
        }
        assert_eq!(Field::at("topics[].nothing", &[1]).pattern(), "", "an unknown path has no row");
        assert_eq!(two_groups().path(Field::at("topics[].nothing", &[1])), None);
    }

    /// Every numeric row of the limits table is the range of the field at its path, and no
    /// field at a path with a row writes its own bounds.
    #[test]
    fn every_limits_row_is_the_range_of_the_field_at_its_path() {
        let mut used = Vec::new();
        for f in FIELDS {
            match f.how {
                How::Limit(r) | How::OptLimit(r) => {
                    assert_eq!(r.path, f.path);
                    used.push(r.path);
                }
                _ => assert_eq!(limits::range_of(f.path), None, "{} has a row in the limits table: How::Limit", f.path),
            }
        }
        // `at_ms` is edited in the timeline's own list.
        let missing: Vec<&str> = limits::TABLE.iter().map(|r| r.path).filter(|p| !used.contains(p) && *p != "commands[].at_ms").collect();
        assert!(missing.is_empty(), "rows no field uses: {missing:?}");
        let mut paths: Vec<&str> = FIELDS.iter().map(|f| f.path).collect();
        kafka_sandbox_core::sorted::sort(&mut paths);
        let before = paths.len();
        paths.dedup();
        assert_eq!(paths.len(), before, "one row per path");
    }

    /// The form shows every row, and names only rows.
    #[test]
    fn every_path_the_form_names_is_a_row_and_every_row_is_on_the_form() {
        let src = include_str!("panels/editor.rs");
        let mut named = Vec::new();
        for (i, _) in src.match_indices("(\"") {
            let before = &src[..i];
            let call = ["Field::at", "f", "c"].into_iter().find(|c| {
                before.ends_with(c) && !before[..before.len() - c.len()].ends_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '_')
            });
            if call.is_some() {
                let lit = &src[i + 2..];
                named.push(&lit[..lit.find('"').unwrap_or(0)]);
            }
        }
        for p in &named {
            assert!(FIELDS.iter().any(|f| f.path == *p), "the form names {p:?}, which no row has");
        }
        for f in FIELDS {
            assert!(named.contains(&f.path), "{} is not on the form", f.path);
        }
    }

    /// A place for every row of [`REFERENCES`]: names in plans, subscriptions, connectors,
    /// Streams apps and every kind of timeline command.
    const REFS: &str = r#"{
      "version": 1, "seed": 1,
      "topics": [ { "name": "orders", "partitions": 1 }, { "name": "other", "partitions": 1 } ],
      "producers": [ { "name": "app", "send": [ { "topic": "orders", "values": ["a"] } ] } ],
      "groups": [ { "id": "billing", "topics": ["orders"], "members": [ { "client_id": "b1", "topics": ["orders"] } ] } ],
      "connectors": [ { "name": "jdbc", "topic": "orders", "table": { "rows": [ { "id": 1, "value": "v" } ] } } ],
      "streams": [ { "application_id": "counter", "source": "orders", "sink": "other", "op": { "map_upper": {} }, "instances": 2 },
                   { "application_id": "shout", "source": "other", "sink": "orders", "op": { "map_upper": {} } } ],
      "commands": [
        { "at_ms": 1, "command": { "type": "produce", "producer": "app", "topic": "orders", "value": "x" } },
        { "at_ms": 2, "command": { "type": "add_member", "group": "billing", "member": { "client_id": "b1", "topics": ["orders"] } } },
        { "at_ms": 3, "command": { "type": "subscribe", "group": "billing", "client_id": "b1", "topics": ["orders"] } },
        { "at_ms": 4, "command": { "type": "add_group", "group": { "id": "audit", "topics": ["orders"],
                                   "members": [ { "client_id": "a1", "topics": ["orders"] } ] } } },
        { "at_ms": 5, "command": { "type": "crash_connector", "connector": "jdbc" } },
        { "at_ms": 6, "command": { "type": "crash_member", "group": "counter", "client_id": "counter-2" } },
        { "at_ms": 7, "command": { "type": "add_member", "group": "counter", "member": { "client_id": "counter-1" } } },
        { "at_ms": 8, "command": { "type": "set_processing_guarantee", "application_id": "counter", "processing_guarantee": "exactly_once_v2" } }
      ]
    }"#;

    fn names_at(s: &Scenario, r: &Reference) -> Vec<String> {
        let (mut s, mut out) = (s.clone(), Vec::new());
        (r.visit)(&mut s, r.path, &mut |_, _, n| {
            out.push(n.clone());
            true
        });
        out
    }

    #[test]
    fn every_reference_follows_a_rename_of_what_it_names() {
        let s = kafka_sandbox_core::scenario::read_json::<Scenario>(REFS).unwrap_or_else(|e| panic!("{e:?}"));
        let cases = [
            (Names::Topic, "topics[].name", "orders", "o2"),
            (Names::Producer, "producers[].name", "app", "app2"),
            (Names::Group, "groups[].id", "billing", "bill"),
            (Names::Member, "groups[].members[].client_id", "b1", "c1"),
            (Names::Connector, "connectors[].name", "jdbc", "db"),
            (Names::Streams, "streams[].application_id", "counter", "count"),
        ];
        let mut reached = Vec::new();
        for (names, path, old, new) in cases {
            let mut d = Draft::new(s.clone());
            let field = if names == Names::Member {
                Field::at(path, &[d.group_keys()[0], d.member_keys(0)[0]])
            } else {
                Field::at(path, &[first_key(&d, path)])
            };
            d.set(field, new);
            for r in REFERENCES.iter().filter(|r| r.names == names) {
                let count = |s: &Scenario, name: &str| names_at(s, r).iter().filter(|n| *n == name).count();
                assert!(count(&s, old) > 0, "{}: REFS names {old} there", r.path);
                assert_eq!((count(d.scenario(), old), count(d.scenario(), new)), (0, count(&s, old)), "{}", r.path);
                reached.push(r.path);
            }
            if names == Names::Streams {
                for r in REFERENCES.iter().filter(|r| r.names == Names::Instance) {
                    assert!(names_at(d.scenario(), r).iter().any(|n| n.starts_with("count-")), "{}", r.path);
                    assert!(!names_at(d.scenario(), r).iter().any(|n| n.starts_with("counter-")), "{}", r.path);
                    reached.push(r.path);
                }
            }
        }
        assert_eq!(reached.len(), REFERENCES.len(), "every row renames");
    }

    /// The key of the first item of the list a name field is in.
    fn first_key(d: &Draft, path: &str) -> u64 {
        let list = lists_along(path).map_or(List::Topics, |(lists, _)| lists[0]);
        d.keys(list, 0)[0]
    }

    #[test]
    fn removing_a_topic_cascades_as_the_references_say_and_leaves_the_timeline() {
        let s = kafka_sandbox_core::scenario::read_json::<Scenario>(REFS).unwrap_or_else(|e| panic!("{e:?}"));
        let mut d = Draft::new(s.clone());
        d.remove(List::Topics, d.topic_keys()[0]);
        for r in REFERENCES.iter().filter(|r| r.names == Names::Topic) {
            let count = |s: &Scenario| names_at(s, r).iter().filter(|n| *n == "orders").count();
            let expected = if r.cascade == Cascade::Keep { count(&s) } else { 0 };
            assert_eq!(count(d.scenario()), expected, "{}", r.path);
        }
        assert!(d.scenario().producers[0].send.is_empty() && d.scenario().connectors.is_empty() && d.scenario().streams.is_empty());
        assert_eq!(d.scenario().groups[0].members[0].topics, None, "its only topic went: the group's");
        assert_eq!(d.scenario().commands, s.commands);
        assert_in_sync(&d);
    }

    /// What a new scenario field costs: one row. This one is written here, not in
    /// [`FIELDS`]; showing it, reading it, keeping an unreadable text, naming its place in a
    /// refusal and handing the value to the core's check need nothing else.
    #[test]
    fn a_field_that_is_one_row_works_end_to_end() {
        static ROW: FieldSpec = slot!(topic.segment_ms, How::Int(1, Some(i64::MAX as u64)));
        let mut d = two_groups();
        d.add_topic();
        let f = Field::of(&ROW, &[d.topic_keys()[1]]);
        assert_eq!(d.get(f), d.scenario().topics[1].segment_ms.to_string());
        assert_eq!(d.path(f).as_deref(), Some("topics[1].segment_ms"));
        assert_eq!(d.kind(f), Kind::Number { lo: 1, hi: Some(i64::MAX as u64) });
        d.set(f, "soon");
        assert!(d.is_bad(f));
        assert_eq!(d.get(f), "soon", "as typed");
        assert_eq!(
            d.finish(),
            Err(Problem::Unreadable { path: "topics[1].segment_ms".into(), text: "soon".into(), lo: 1, hi: Some(i64::MAX as u64) })
        );
        d.set(f, "0");
        assert!(matches!(d.finish(), Err(Problem::Invalid(e)) if e.path == "topics[1].segment_ms"), "{:?}", d.finish());
        d.set(f, "60000");
        assert_eq!(d.finish().map(|s| s.topics[1].segment_ms), Ok(60_000));
        // Its item removed, its typed text goes with it.
        d.set(f, "x");
        d.remove(List::Topics, d.topic_keys()[1]);
        assert_eq!((d.path(f), d.finish().is_ok()), (None, true));
    }
}
