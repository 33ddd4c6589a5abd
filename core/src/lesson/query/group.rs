//! The consumer groups' queries (both protocols): members, assignments and what they gave
//! up, the group's state and generation, positions and commits, what was received, processed
//! twice or committed past without processing.

use super::{delivered_value, find_partition, group, member, num, strings};
use crate::event::{GroupEvent, ProduceEvent};
use crate::lesson::Missing;
use crate::read::{Activity, GroupState, MemberRead, Phase, Read};
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about a consumer group or one of its members.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
pub enum GroupQuery {
    /// The client ids of the members of a group that received the value, in member order.
    ReceivedBy {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The record value looked for.
        value: String,
    },
    /// The values a member received, in order of receipt (a tombstone as `null`).
    Received {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// The client id owning a partition in a group (`null`: nobody).
    Owner {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// The partition numbers a member owns (of `topic` only, when given), sorted.
    Assigned {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
        /// Only this topic's partitions (absent: every topic's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        topic: Option<String>,
    },
    /// How many partitions a member owns.
    AssignedCount {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// The partitions (`Topic01-2`) a member gave up since the previous step: for a
    /// claim, during the previous step's reveal and this step's run; for a question,
    /// during its reveal. In order, repeats included (among the newest 50,000 events).
    Revoked {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// The client ids of a group's running members, in the order they were started.
    Members {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// `Empty`, `PreparingRebalance`, `CompletingRebalance`, `Stable` or `Reconciling`.
    GroupState {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// The generation (classic) or group epoch (KIP-848).
    Generation {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// How many rebalances the group completed.
    Rebalances {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// The group leader's client id (`null`: none).
    GroupLeader {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// `awaiting_assignment`, `idle`, `fetching` or `processing`.
    Activity {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// `joining`, `syncing`, `stable`, `left_poll_timeout` or `crashed`.
    Phase {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// The member's next offset to fetch on a partition (`null`: not assigned).
    Position {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// The group's committed offset on a partition (`null`: none).
    Committed {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The topic's name.
        topic: String,
        /// The partition number.
        partition: u32,
    },
    /// How many records the group processed more than once.
    ProcessedTwice {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// The values of the records processed twice (the newest 200), oldest first.
    DuplicateValues {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// How many records the group committed past without processing them.
    LostByGroup {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// The values of those records (the first 50), in partition and offset order (a record
    /// no log holds any more is named from the trace, or as `topic-partition@offset`).
    LostValues {
        /// The consumer group's id (`group.id`).
        group: String,
    },
    /// The values `poll()` returned to a member that it has not finished processing, in
    /// order (the first is the one being processed).
    InHand {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// How many records a member received and has not finished processing (under pull
    /// what `poll()` returned, under push what the broker sent; 0 once it crashed).
    Buffered {
        /// The consumer group's id (`group.id`).
        group: String,
        /// The member's client id.
        client_id: String,
    },
}

/// Answers a group query from the read layer (as [`super::answer`]); `since` is where "since
/// the previous step" begins in the trace.
pub(super) fn answer_group(read: Read<'_>, q: &GroupQuery, since: u64) -> Result<Value, Missing> {
    Ok(match q {
        GroupQuery::ReceivedBy { group: g, value } => {
            strings(group(read, g)?.members().filter(|m| m.has_received(value)).map(MemberRead::client_id))
        }
        GroupQuery::Received { group: g, client_id } => Value::Array(member(read, g, client_id)?.received().map(delivered_value).collect()),
        GroupQuery::Owner { group: g, topic, partition: p } => {
            find_partition(read, topic, *p)?;
            let owners: Vec<&str> = group(read, g)?.owners(topic, *p).collect();
            match owners.as_slice() {
                [] => Value::Null,
                [one] => Value::String((*one).to_string()),
                many => strings(many.iter().copied()),
            }
        }
        GroupQuery::Assigned { group: g, client_id, topic } => {
            let m = member(read, g, client_id)?;
            let mut ps: Vec<(String, u32)> = m
                .assigned()
                .iter()
                .filter(|tp| topic.as_ref().is_none_or(|t| tp.topic == t))
                .map(|tp| (tp.topic.to_string(), tp.partition))
                .collect();
            crate::sorted::sort(&mut ps);
            Value::Array(ps.into_iter().map(|(_, p)| num(p.into())).collect())
        }
        GroupQuery::AssignedCount { group: g, client_id } => num(member(read, g, client_id)?.assigned().len() as u64),
        GroupQuery::Revoked { group: g, client_id } => {
            member(read, g, client_id)?;
            let revoked = read.events_since(since).flat_map(|e| match &e.kind {
                crate::event::EventKind::Group(GroupEvent::PartitionsRevoked { group: eg, client_id: c, partitions })
                    if eg == g && c == client_id =>
                {
                    partitions.as_slice()
                }
                _ => &[],
            });
            Value::Array(revoked.map(|tp| Value::String(tp.to_string())).collect())
        }
        GroupQuery::Members { group: g } => strings(group(read, g)?.running_members()),
        GroupQuery::GroupState { group: g } => Value::String(
            match group(read, g)?.state() {
                GroupState::Empty => "Empty",
                GroupState::PreparingRebalance => "PreparingRebalance",
                GroupState::CompletingRebalance => "CompletingRebalance",
                GroupState::Stable => "Stable",
                GroupState::Reconciling => "Reconciling",
            }
            .into(),
        ),
        GroupQuery::Generation { group: g } => Value::from(group(read, g)?.generation()),
        GroupQuery::Rebalances { group: g } => num(group(read, g)?.rebalances()),
        GroupQuery::GroupLeader { group: g } => {
            let gr = group(read, g)?;
            gr.leader()
                // A leader the coordinator no longer lists: its member, by member id.
                .or_else(|| gr.leader_member_id().and_then(|id| gr.members().find(|m| m.member_id() == id)).map(MemberRead::client_id))
                .map_or(Value::Null, |c| Value::String(c.to_string()))
        }
        GroupQuery::Activity { group: g, client_id } => Value::String(
            match member(read, g, client_id)?.activity() {
                Activity::AwaitingAssignment => "awaiting_assignment",
                Activity::Idle => "idle",
                Activity::Fetching => "fetching",
                Activity::Processing => "processing",
            }
            .into(),
        ),
        GroupQuery::Phase { group: g, client_id } => Value::String(
            match member(read, g, client_id)?.phase() {
                Phase::Joining => "joining",
                Phase::Syncing => "syncing",
                Phase::Stable => "stable",
                Phase::LeftPollTimeout => "left_poll_timeout",
                Phase::Crashed => "crashed",
            }
            .into(),
        ),
        GroupQuery::Position { group: g, client_id, topic, partition: p } => {
            find_partition(read, topic, *p)?;
            member(read, g, client_id)?.position(topic, *p).map_or(Value::Null, num)
        }
        GroupQuery::Committed { group: g, topic, partition: p } => {
            let tp = find_partition(read, topic, *p)?.topic_partition();
            group(read, g)?.committed(&tp).map_or(Value::Null, num)
        }
        GroupQuery::ProcessedTwice { group: g } => num(group(read, g)?.duplicates()),
        GroupQuery::DuplicateValues { group: g } => strings(group(read, g)?.duplicate_details().map(|d| d.value.as_str())),
        GroupQuery::LostByGroup { group: g } => num(group(read, g)?.unprocessed()),
        GroupQuery::LostValues { group: g } => Value::Array(
            group(read, g)?
                .unprocessed_details(50)
                .iter()
                .map(|l| {
                    let value = read
                        .partition(&l.tp)
                        .and_then(|p| p.record_at(l.offset))
                        .map(|r| r.record.value.to_string())
                        // Deleted by retention since: the trace still says what was there.
                        .or_else(|| appended_value(read, &l.tp, l.offset));
                    Value::String(value.unwrap_or_else(|| format!("{}@{}", l.tp, l.offset)))
                })
                .collect(),
        ),
        GroupQuery::InHand { group: g, client_id } => strings(member(read, g, client_id)?.in_hand().map(|d| d.value.as_str())),
        GroupQuery::Buffered { group: g, client_id } => num(member(read, g, client_id)?.buffered().into()),
    })
}

/// A group query in words, for check's messages.
pub(super) fn describe_group(q: &GroupQuery) -> String {
    match q {
        GroupQuery::ReceivedBy { group, value } => format!("who in {group} received \"{value}\""),
        GroupQuery::Received { group, client_id } => format!("what {client_id} of {group} received"),
        GroupQuery::Owner { group, topic, partition } => format!("the owner of {topic}-{partition} in {group}"),
        GroupQuery::Assigned { group, client_id, .. } => format!("the partitions of {client_id} in {group}"),
        GroupQuery::AssignedCount { group, client_id } => format!("how many partitions {client_id} of {group} owns"),
        GroupQuery::Revoked { group, client_id } => format!("what {client_id} of {group} gave up since the previous step"),
        GroupQuery::Members { group } => format!("the members of {group}"),
        GroupQuery::GroupState { group } => format!("the state of {group}"),
        GroupQuery::Generation { group } => format!("the generation of {group}"),
        GroupQuery::Rebalances { group } => format!("the rebalances of {group}"),
        GroupQuery::GroupLeader { group } => format!("the leader of {group}"),
        GroupQuery::Activity { group, client_id } => format!("what {client_id} of {group} is doing"),
        GroupQuery::Phase { group, client_id } => format!("the protocol phase of {client_id} of {group}"),
        GroupQuery::Position { group, client_id, topic, partition } => {
            format!("the position of {client_id} of {group} on {topic}-{partition}")
        }
        GroupQuery::Committed { group, topic, partition } => format!("the committed offset of {group} on {topic}-{partition}"),
        GroupQuery::ProcessedTwice { group } => format!("the records {group} processed twice"),
        GroupQuery::DuplicateValues { group } => format!("the values {group} processed twice"),
        GroupQuery::LostByGroup { group } => format!("the records {group} committed without processing"),
        GroupQuery::LostValues { group } => format!("the values {group} committed without processing"),
        GroupQuery::InHand { group, client_id } => format!("the records {client_id} of {group} has not finished processing"),
        GroupQuery::Buffered { group, client_id } => format!("the records {client_id} of {group} holds unprocessed"),
    }
}

/// The value the leader last appended at this offset, from the trace (for records that
/// are no longer in any log).
fn appended_value(read: Read<'_>, tp: &crate::record::TopicPartition, offset: u64) -> Option<String> {
    read.events().rev().find_map(|e| match &e.kind {
        crate::event::EventKind::Produce(ProduceEvent::RecordAppended { value, topic, partition, offset: o, .. })
            if topic == &tp.topic && *partition == tp.partition && *o == offset =>
        {
            Some(value.to_string())
        }
        _ => None,
    })
}
