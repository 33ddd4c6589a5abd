//! Share groups' commands and settings (KIP-932, Queues for Kafka): a share group or one of
//! its `KafkaShareConsumer`s starts, stops, crashes, slows down, changes its
//! `share.acknowledgement.mode`, or acknowledges some records with RELEASE or REJECT.
//!
//! A share group is the third kind of group (`group.type` share, beside classic and
//! consumer): its own coordinator side (ShareGroupHeartbeat), its own assignor
//! (`SimpleAssignor`), and no committed offsets — each record is acquired under a lock and
//! acknowledged on its own at the partition's leader (`SharePartition`).

use crate::config::OffsetReset;
use serde::{Deserialize, Serialize};
use std::fmt;

/// `AcknowledgeType` (`org.apache.kafka.clients.consumer.AcknowledgeType`): what a share
/// consumer tells the partition leader about a record it was given. RENEW (KIP-1222) is
/// Kafka 4.3's, not modelled: the sandbox's newest release is 4.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AcknowledgeType {
    /// ACCEPT (1): processed; the record becomes ACKNOWLEDGED, for good.
    Accept,
    /// RELEASE (2): give it back; it becomes AVAILABLE for another delivery (its delivery
    /// count kept), or ARCHIVED if it has reached `group.share.delivery.count.limit`.
    Release,
    /// REJECT (3): unprocessable; it becomes ARCHIVED and is never delivered again.
    Reject,
}

impl AcknowledgeType {
    /// Kafka's name: `ACCEPT`, `RELEASE`, `REJECT`.
    pub fn kafka_name(self) -> &'static str {
        match self {
            AcknowledgeType::Accept => "ACCEPT",
            AcknowledgeType::Release => "RELEASE",
            AcknowledgeType::Reject => "REJECT",
        }
    }
}

/// `share.acknowledgement.mode` (`ShareAcknowledgementMode`, KIP-1121 in 4.1): how the
/// application acknowledges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AcknowledgementMode {
    /// `implicit` (the default): the records of one `poll()` are all accepted by the next
    /// `poll()` (or `commitSync`, or `close()`); the application cannot reject one.
    #[default]
    Implicit,
    /// `explicit`: the application calls `acknowledge(record, type)` for every record
    /// (here: ACCEPT, unless one of the member's `acknowledge` rules names its value).
    Explicit,
}

/// A member's rule (sandbox only, standing for the application's code): every record whose
/// value is `value` is acknowledged with `acknowledge_type` instead of ACCEPT. Applies in
/// `explicit` mode only (in `implicit` mode Kafka's `acknowledge()` throws
/// `IllegalStateException`). A "poison pill" is a record the application always RELEASEs
/// (or fails on): it is archived once it has been delivered
/// `group.share.delivery.count.limit` times.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcknowledgeRule {
    /// The record value the rule matches.
    pub value: String,
    /// What the application acknowledges such a record with.
    pub acknowledge_type: AcknowledgeType,
}

/// A share group's settings: Kafka's group configs (`share.*`, KIP-932; `kafka-configs
/// --entity-type groups`) and the broker's `group.share.*` defaults they override, one value
/// per group in the sandbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ShareGroupConfig {
    /// `share.auto.offset.reset` (`latest`): where a share partition starts when it has no
    /// state in `__share_group_state` yet — `latest` (the high watermark then) or
    /// `earliest` (the log start). (`by_duration:…` is not modelled.)
    pub share_auto_offset_reset: OffsetReset,
    /// `share.record.lock.duration.ms` / `group.share.record.lock.duration.ms` (30000,
    /// 15000–60000, `ShareGroupConfig`): how long an acquired record stays locked to its
    /// consumer before it becomes available again.
    pub share_record_lock_duration_ms: u64,
    /// `group.share.delivery.count.limit` (5, 2–10, `ShareGroupConfig`): a record delivered
    /// this many times is archived instead of made available again.
    pub share_delivery_count_limit: u32,
    /// `group.share.partition.max.record.locks` (2000, 100–4000, `ShareGroupConfig`; 200 in
    /// the first 2025 code, the release of the change not pinned): the most records in
    /// flight (SPEO − SPSO + 1) per share partition; new records are acquired only below it.
    pub share_partition_max_record_locks: u32,
    /// `share.heartbeat.interval.ms` / `group.share.heartbeat.interval.ms` (5000): the
    /// heartbeat interval the coordinator gives the members.
    pub share_heartbeat_interval_ms: u64,
    /// `share.session.timeout.ms` / `group.share.session.timeout.ms` (45000): a member not
    /// heard from for this long is removed from the group.
    pub share_session_timeout_ms: u64,
}

impl Default for ShareGroupConfig {
    fn default() -> Self {
        Self {
            share_auto_offset_reset: OffsetReset::Latest,
            share_record_lock_duration_ms: 30_000,
            share_delivery_count_limit: 5,
            share_partition_max_record_locks: 2000,
            share_heartbeat_interval_ms: 5000,
            share_session_timeout_ms: 45_000,
        }
    }
}

/// A `KafkaShareConsumer`'s own settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ShareConsumerConfig {
    /// `max.poll.records` (500): the ShareFetch's `MaxRecords`. In the default
    /// `share.acquire.mode` (`batch_optimized`) the leader acquires whole batches, so a
    /// fetch can bring more.
    pub max_poll_records: u32,
    /// `fetch.max.wait.ms` (500): how long the leader holds a ShareFetch that acquired
    /// nothing (`DelayedShareFetch`).
    pub fetch_max_wait_ms: u64,
    /// Sandbox only: time the application spends on each record.
    pub processing_ms: u64,
    /// `share.acknowledgement.mode` (`implicit`).
    pub share_acknowledgement_mode: AcknowledgementMode,
}

impl Default for ShareConsumerConfig {
    fn default() -> Self {
        Self { max_poll_records: 500, fetch_max_wait_ms: 500, processing_ms: 10, share_acknowledgement_mode: AcknowledgementMode::Implicit }
    }
}

/// A share consumer to start. Share groups have no static membership: there is no
/// `group.instance.id`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareMemberSpec {
    /// `client.id`.
    pub client_id: String,
    /// The consumer's settings.
    #[serde(default)]
    pub config: ShareConsumerConfig,
    /// The application's acknowledgements other than ACCEPT (`explicit` mode only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acknowledge: Vec<AcknowledgeRule>,
}

impl ShareMemberSpec {
    /// A share consumer `client_id` with the default settings.
    pub fn new(client_id: impl Into<String>) -> Self {
        Self { client_id: client_id.into(), ..Self::default() }
    }
}

/// A share group to create (`group.type` share). `ShareGroupSpec::new("q", ["t"])`, or a
/// literal ending in `..ShareGroupSpec::default()`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareGroupSpec {
    /// `group.id`: unique among all groups, whatever their type.
    pub id: String,
    /// The topics its members subscribe to.
    pub topics: Vec<String>,
    /// The group's settings.
    #[serde(default)]
    pub config: ShareGroupConfig,
    /// The share consumers that start with the group, in order.
    #[serde(default)]
    pub members: Vec<ShareMemberSpec>,
}

impl ShareGroupSpec {
    /// A share group subscribing to `topics`, with the default settings and no member yet.
    pub fn new<T: Into<String>>(id: impl Into<String>, topics: impl IntoIterator<Item = T>) -> Self {
        Self { id: id.into(), topics: topics.into_iter().map(Into::into).collect(), ..Self::default() }
    }

    /// With these members.
    pub fn with_members(mut self, members: impl IntoIterator<Item = ShareMemberSpec>) -> Self {
        self.members = members.into_iter().collect();
        self
    }
}

/// What a person does to a share group or one of its consumers. Executed by `sim/share/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ShareGroupCommand {
    /// A new share group starts.
    AddShareGroup {
        /// The whole group.
        share_group: ShareGroupSpec,
    },
    /// A share consumer starts and joins.
    AddShareMember {
        /// The share group's `group.id`.
        group: String,
        /// The consumer.
        share_member: ShareMemberSpec,
    },
    /// `close()`: the consumer acknowledges what it processed, its share sessions end (the
    /// records it still holds are released) and it leaves (heartbeat with epoch −1).
    RemoveShareMember {
        /// The share group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    },
    /// The consumer's process dies: no acknowledgement, no heartbeat; its records come back
    /// when their locks expire, and the coordinator removes it after its session.
    CrashShareMember {
        /// The share group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    },
    /// A crashed share consumer starts again (a new member id, epoch 0).
    RestartShareMember {
        /// The share group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
    },
    /// How long the application takes per record (sandbox only): a slow consumer whose
    /// locks expire while it processes.
    SetShareProcessing {
        /// The share group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// Milliseconds per record; capped at [`crate::limits::MAX_PROCESSING_MS`].
        processing_ms: u64,
    },
    /// The consumer restarts with another `share.acknowledgement.mode` (in Kafka a
    /// configuration of the consumer; here it takes effect at its next `poll()`).
    SetAcknowledgementMode {
        /// The share group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The new mode.
        share_acknowledgement_mode: AcknowledgementMode,
    },
    /// The application acknowledges every record whose value is `value` with
    /// `acknowledge_type` (or, with none, ACCEPTs it again): a poison pill, a record it
    /// cannot process. Applies in `explicit` mode.
    SetAcknowledgeRule {
        /// The share group's `group.id`.
        group: String,
        /// The member's `client.id`.
        client_id: String,
        /// The record value.
        value: String,
        /// RELEASE or REJECT (or ACCEPT); `None` removes the rule.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        acknowledge_type: Option<AcknowledgeType>,
    },
}

/// The most acknowledge rules a member keeps.
pub const MAX_ACKNOWLEDGE_RULES: usize = 64;

/// Why a share-group command was refused: a value with its parameters (the page renders
/// it in its language).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareGroupRefusal {
    /// No share group has this `group.id`.
    UnknownShareGroup(String),
    /// Share groups on `cluster.kafka_version` 4.0: there they are early access
    /// (KIP-932's first cut, off unless unstable API versions are enabled, with a
    /// hash-based `SimpleAssignor`); the sandbox models 4.1 (preview) and 4.2
    /// (production-ready).
    NeedsKafka41 {
        /// The group's id.
        group: String,
    },
    /// A share-group setting outside what Kafka allows.
    Setting {
        /// The setting's field name in the scenario format.
        setting: &'static str,
        /// The group's id.
        group: String,
        /// The value given.
        value: u64,
        /// The smallest value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
    },
    /// `share_auto_offset_reset: "none"`: Kafka's `share.auto.offset.reset` takes `latest`,
    /// `earliest` or `by_duration:…` only.
    ResetNone {
        /// The group's id.
        group: String,
    },
    /// A member with more than [`MAX_ACKNOWLEDGE_RULES`] rules.
    TooManyRules {
        /// The group's id.
        group: String,
        /// The member's client id.
        client_id: String,
    },
}

impl fmt::Display for ShareGroupRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareGroupRefusal::UnknownShareGroup(g) => write!(f, "there is no share group \"{g}\""),
            ShareGroupRefusal::NeedsKafka41 { group } => write!(
                f,
                "share group \"{group}\" needs cluster.kafka_version 4.1 or 4.2: in Kafka 4.0 share groups are early access \
                 (off unless unstable API versions are enabled, with a hash-based SimpleAssignor the sandbox does not model)"
            ),
            ShareGroupRefusal::Setting { setting, group, value, min, max } => {
                write!(f, "{setting} of share group \"{group}\" is {value}; allowed: {min} to {max}")
            }
            ShareGroupRefusal::ResetNone { group } => write!(
                f,
                "share_auto_offset_reset of share group \"{group}\" is \"none\"; allowed: \"latest\" or \"earliest\" (share.auto.offset.reset has no none)"
            ),
            ShareGroupRefusal::TooManyRules { group, client_id } => {
                write!(f, "member \"{client_id}\" of share group \"{group}\" has more than {MAX_ACKNOWLEDGE_RULES} acknowledge rules")
            }
        }
    }
}
