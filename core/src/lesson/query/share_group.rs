//! Share groups' queries (KIP-932): who shares a partition, what a share consumer received
//! and in which order, how many times a record was delivered, what was archived, where a
//! share partition starts.

use super::num;
use crate::lesson::Missing;
use crate::record::TopicPartition;
use crate::share_view::ShareGroupRead;
use crate::sim::Sim;
use serde::Serialize;
use serde_json::Value;

/// What a claim asks about a share group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
#[non_exhaustive]
// The variants are the asks as the format writes them (`share_owners`, …): the prefix keeps
// them apart from the consumer groups' `owner`, `received`.
#[allow(clippy::enum_variant_names)]
pub enum ShareGroupQuery {
    /// The client ids of the running members assigned the partition, in member order.
    ShareOwners {
        /// The share group's id.
        group: String,
        /// The topic.
        topic: String,
        /// The partition.
        partition: u32,
    },
    /// The values the share consumer's `poll()` returned, in order (the newest 1000).
    ShareReceived {
        /// The share group's id.
        group: String,
        /// The member's client id.
        client_id: String,
    },
    /// The highest delivery count a record with this value was delivered with (0: never).
    ShareDeliveryCount {
        /// The share group's id.
        group: String,
        /// The record's value.
        value: String,
    },
    /// How many records the share group archived (rejected, or at the delivery limit).
    ShareArchived {
        /// The share group's id.
        group: String,
    },
    /// The share partition's start offset, SPSO (`null`: not initialized).
    ShareStartOffset {
        /// The share group's id.
        group: String,
        /// The topic.
        topic: String,
        /// The partition.
        partition: u32,
    },
}

/// Answers a share-group query from the read layer (as [`super::answer`]).
pub(super) fn answer_share_group(read: &Sim, q: &ShareGroupQuery) -> Result<Value, Missing> {
    let strings = |v: Vec<String>| Value::Array(v.into_iter().map(Value::String).collect());
    Ok(match q {
        ShareGroupQuery::ShareOwners { group, topic, partition } => {
            let g = share_group(read, group)?;
            strings(g.owners(&TopicPartition::new(topic.as_str(), *partition)).into_iter().map(str::to_string).collect())
        }
        ShareGroupQuery::ShareReceived { group, client_id } => {
            let g = share_group(read, group)?;
            let m = g.member(client_id).ok_or_else(|| Missing::Member { group: group.clone(), client_id: client_id.clone() })?;
            strings(m.received().map(|d| d.value.clone()).collect())
        }
        ShareGroupQuery::ShareDeliveryCount { group, value } => {
            let g = share_group(read, group)?;
            let most = g.members().flat_map(|m| m.received().filter(|d| &d.value == value).map(|d| d.delivery_count)).max().unwrap_or(0);
            num(most.into())
        }
        ShareGroupQuery::ShareArchived { group } => num(share_group(read, group)?.archived()),
        ShareGroupQuery::ShareStartOffset { group, topic, partition } => {
            let g = share_group(read, group)?;
            g.partition(&TopicPartition::new(topic.as_str(), *partition)).map_or(Value::Null, |p| num(p.start_offset()))
        }
    })
}

/// A share-group query in words, for check's messages.
pub(super) fn describe_share_group(q: &ShareGroupQuery) -> String {
    match q {
        ShareGroupQuery::ShareOwners { group, topic, partition } => {
            format!("the members of share group {group} sharing {topic}-{partition}")
        }
        ShareGroupQuery::ShareReceived { group, client_id } => format!("what {client_id} of share group {group} received"),
        ShareGroupQuery::ShareDeliveryCount { group, value } => format!("the delivery count of \"{value}\" in share group {group}"),
        ShareGroupQuery::ShareArchived { group } => format!("the records share group {group} archived"),
        ShareGroupQuery::ShareStartOffset { group, topic, partition } => format!("the SPSO of share group {group} on {topic}-{partition}"),
    }
}

fn share_group<'a>(sim: &'a Sim, id: &str) -> Result<ShareGroupRead<'a>, Missing> {
    sim.share_group(id).ok_or_else(|| Missing::Group(id.to_string()))
}
