//! Committed offsets expire: every `offsets.retention.check.interval.ms` the coordinators
//! delete the committed offsets older than `offsets.retention.minutes` (KIP-186, KIP-211).
//!
//! Kafka's classes (4.x, `group-coordinator`): `GroupCoordinatorShard.cleanupGroupMetadata`
//! (the periodic job, first one interval after the shard loads),
//! `OffsetMetadataManager.cleanupExpiredOffsets` (only topics the group does not subscribe
//! to, `Group.isSubscribedToTopic`), `ClassicGroup.offsetExpirationCondition` and
//! `ConsumerGroup.offsetExpirationCondition` (from when each offset's retention counts),
//! `OffsetExpirationConditionImpl.isOffsetExpired` (`now - base >= retention`).
//!
//! - Classic group, Empty: every offset, `offsets.retention.minutes` after the group became
//!   Empty (`currentStateTimestamp`; the commit time if it never had a transition).
//! - Classic group, Stable: the offsets of topics no member subscribes to, counted from
//!   their commit. In any other state (a rebalance under way) nothing expires.
//! - Consumer-protocol (KIP-848) group, any state: the offsets of topics no member
//!   subscribes to (all of them when it is Empty), counted from their commit.
//!
//! Simplified: one job for all groups rather than one per `__consumer_offsets` partition
//! (the same moments, since every shard's job runs at the same interval from the start); an
//! Empty group whose offsets all expired is not deleted (the sandbox keeps its members'
//! definitions; Kafka also tombstones its metadata then). Each expired offset gets a
//! tombstone in `__consumer_offsets` (`offsets_topic.rs`).

use super::*;

impl Consumers {
    /// `GroupCoordinatorShard.cleanupGroupMetadata`: each group's expired offsets are
    /// deleted (one `OffsetsExpired` per group that lost some), then the next check is due.
    pub(in crate::sim) fn offsets_retention_check(&mut self, cluster: &Cluster, out: &mut Driver) {
        let now = out.now;
        let retention_ms = cluster.config.offsets_retention_minutes.saturating_mul(60_000);
        for g in self.groups.values_mut() {
            let expired = expired_offsets(g, now, retention_ms);
            if expired.is_empty() {
                continue;
            }
            // `cleanupExpiredOffsets` writes a tombstone for each (`newOffsetCommitTombstoneRecord`).
            self.offsets.write_tombstones(&g.id, &expired, cluster, out);
            let mut offsets = Vec::with_capacity(expired.len());
            for tp in expired {
                g.commit_times.remove(&tp);
                g.committed_epochs.remove(&tp);
                if let Some(o) = g.committed.remove(&tp) {
                    offsets.push((tp, o));
                }
            }
            out.emit(EventKind::Consume(ConsumeEvent::OffsetsExpired { group: g.id.clone(), offsets }));
        }
        out.at(now.plus_ms(cluster.config.offsets_retention_check_interval_ms.max(1)), GroupPending::OffsetsRetentionCheck);
    }
}

/// The partitions whose committed offset has expired at `now` (in the group's map order).
fn expired_offsets(g: &Group, now: SimTime, retention_ms: u64) -> Vec<TopicPartition> {
    let classic = g.config.group_protocol == GroupProtocol::Classic;
    // `offsetExpirationCondition`: from the moment the group became Empty, from the commit,
    // or (a classic group mid-rebalance) no expiry at all.
    let empty_since = match (classic, g.state) {
        (true, GroupState::Empty) => g.empty_since,
        (true, GroupState::Stable) | (false, _) => None,
        (true, _) => return Vec::new(),
    };
    // `isSubscribedToTopic`: the members' subscriptions (none when Empty).
    let subscribed = |topic: &str| g.registry.iter().any(|r| r.subscription.iter().any(|t| t == topic));
    g.committed
        .keys()
        .filter(|tp| !subscribed(&tp.topic))
        .filter(|tp| {
            let base = empty_since.or_else(|| g.commit_times.get(*tp).copied()).unwrap_or(SimTime::ZERO);
            now.ms().saturating_sub(base.ms()) >= retention_ms
        })
        .cloned()
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;
    use crate::config::GroupConfig;

    fn group(protocol: GroupProtocol, state: GroupState) -> Group {
        let mut g = Group::new("g", vec!["t".into()], GroupConfig { group_protocol: protocol, ..GroupConfig::default() });
        g.state = state;
        g.committed.insert(TopicPartition::new("t", 0), 5);
        g.commit_times.insert(TopicPartition::new("t", 0), SimTime(1_000));
        g
    }

    #[test]
    fn an_empty_classic_group_counts_from_when_it_became_empty_a_consumer_group_from_the_commit() {
        let mut g = group(GroupProtocol::Classic, GroupState::Empty);
        g.empty_since = Some(SimTime(5_000));
        assert!(expired_offsets(&g, SimTime(64_999), 60_000).is_empty());
        assert_eq!(expired_offsets(&g, SimTime(65_000), 60_000), vec![TopicPartition::new("t", 0)]);
        let g = group(GroupProtocol::Consumer, GroupState::Empty);
        assert_eq!(expired_offsets(&g, SimTime(61_000), 60_000), vec![TopicPartition::new("t", 0)]);
        // Mid-rebalance, a classic group's offsets do not expire.
        let g = group(GroupProtocol::Classic, GroupState::PreparingRebalance);
        assert!(expired_offsets(&g, SimTime(10_000_000), 60_000).is_empty());
    }
}
