//! `RangeAssignor` ("range"): per topic, each subscriber takes a contiguous block of partitions.
//!
//! For a topic with P partitions and C subscribers (ordered by
//! [`member_cmp`](super::member_cmp)), subscriber i gets the block starting at
//! `(P/C)*i + min(i, P%C)` of length `P/C + (i < P%C)`. Topics are independent, so the
//! first subscribers get the extra partition on every topic, and when C > P the last
//! subscribers get nothing. KIP-881's rack-aware pass (3.5) only runs when consumers and
//! replicas carry racks; the simulator has none, so it is the plain algorithm.

use super::{Subscription, Topics};

/// Assigns each topic of `topics` to its subscribers among `members`, taken in `order`
/// (indices in `MemberInfo` order): sets `owners` (member index per partition, by global
/// index).
pub(crate) fn assign_sorted(topics: &Topics, members: &[Subscription], order: &[u32], owners: &mut [u32]) {
    let mut consumers: Vec<u32> = Vec::with_capacity(order.len());
    for topic in 0..topics.len() as u32 {
        let name = topics.name(topic);
        consumers.clear();
        consumers.extend(order.iter().copied().filter(|&m| members[m as usize].subscribes_to(name)));
        let Ok(count) = u32::try_from(consumers.len()) else {
            continue;
        };
        if count == 0 {
            continue;
        }
        let num_partitions = topics.count(topic);
        let per_consumer = num_partitions / count;
        let with_extra = num_partitions % count;
        let offset = topics.offset(topic);
        for (i, &consumer) in (0u32..).zip(&consumers) {
            let start = per_consumer * i + i.min(with_extra);
            let length = per_consumer + u32::from(i < with_extra);
            owners[offset + start as usize..offset + (start + length) as usize].fill(consumer);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::super::testutil::*;
    use super::super::{assign, Strategy, Subscription};

    const RANGE: Strategy = Strategy::Range;

    fn statics() -> Vec<Subscription> {
        vec![
            Subscription::new("consumer1", &["topic1", "topic2"]).with_instance_id("instance1"),
            Subscription::new("consumer2", &["topic1", "topic2"]).with_instance_id("instance2"),
            Subscription::new("consumer3", &["topic1", "topic2"]).with_instance_id("instance3"),
        ]
    }

    /// RangeAssignorTest.testOneConsumerNoTopic / testOneConsumerNonexistentTopic.
    #[test]
    fn one_consumer_no_topic_and_nonexistent_topic() {
        check(RANGE, &[], &[Subscription::new("consumer1", &[])], &[("consumer1", "")]);
        let outcome = check(RANGE, &[], &[Subscription::new("consumer1", &["topic1"])], &[("consumer1", "")]);
        assert_eq!(outcome.warnings.len(), 1);
    }

    /// RangeAssignorTest.testOneConsumerOneTopic.
    #[test]
    fn one_consumer_one_topic() {
        check(RANGE, &[("topic1", 3)], &[Subscription::new("consumer1", &["topic1"])], &[("consumer1", "topic1-0, topic1-1, topic1-2")]);
    }

    /// RangeAssignorTest.testOnlyAssignsPartitionsFromSubscribedTopics.
    #[test]
    fn only_assigns_partitions_from_subscribed_topics() {
        check(
            RANGE,
            &[("topic1", 3), ("other", 3)],
            &[Subscription::new("consumer1", &["topic1"])],
            &[("consumer1", "topic1-0, topic1-1, topic1-2")],
        );
    }

    /// RangeAssignorTest.testOneConsumerMultipleTopics.
    #[test]
    fn one_consumer_multiple_topics() {
        check(
            RANGE,
            &[("topic1", 1), ("topic2", 2)],
            &[Subscription::new("consumer1", &["topic1", "topic2"])],
            &[("consumer1", "topic1-0, topic2-0, topic2-1")],
        );
    }

    /// RangeAssignorTest.testTwoConsumersOneTopicOnePartition (§5 R5).
    #[test]
    fn r5_two_consumers_one_topic_one_partition() {
        let members = [Subscription::new("consumer1", &["topic1"]), Subscription::new("consumer2", &["topic1"])];
        check(RANGE, &[("topic1", 1)], &members, &[("consumer1", "topic1-0"), ("consumer2", "")]);
    }

    /// RangeAssignorTest.testTwoConsumersOneTopicTwoPartitions.
    #[test]
    fn two_consumers_one_topic_two_partitions() {
        let members = [Subscription::new("consumer1", &["topic1"]), Subscription::new("consumer2", &["topic1"])];
        check(RANGE, &[("topic1", 2)], &members, &[("consumer1", "topic1-0"), ("consumer2", "topic1-1")]);
    }

    /// RangeAssignorTest.testMultipleConsumersMixedTopics (§5 R1).
    #[test]
    fn r1_multiple_consumers_mixed_topics() {
        let members = [
            Subscription::new("consumer1", &["topic1"]),
            Subscription::new("consumer2", &["topic1", "topic2"]),
            Subscription::new("consumer3", &["topic1"]),
        ];
        check(
            RANGE,
            &[("topic1", 3), ("topic2", 2)],
            &members,
            &[("consumer1", "topic1-0"), ("consumer2", "topic1-1, topic2-0, topic2-1"), ("consumer3", "topic1-2")],
        );
    }

    /// RangeAssignorTest.testTwoConsumersTwoTopicsSixPartitions (§5 R2) and the
    /// RangeAssignor javadoc example.
    #[test]
    fn r2_two_consumers_two_topics_six_partitions() {
        let members = [Subscription::new("consumer1", &["topic1", "topic2"]), Subscription::new("consumer2", &["topic1", "topic2"])];
        check(
            RANGE,
            &[("topic1", 3), ("topic2", 3)],
            &members,
            &[("consumer1", "topic1-0, topic1-1, topic2-0, topic2-1"), ("consumer2", "topic1-2, topic2-2")],
        );
    }

    /// RangeAssignorTest.testTwoStaticConsumersTwoTopicsSixPartitions: the order comes
    /// from the instance ids, not the member ids.
    #[test]
    fn two_static_consumers_ordered_by_instance_id() {
        let members = [
            Subscription::new("consumer-b", &["topic1", "topic2"]).with_instance_id("instance1"),
            Subscription::new("consumer-a", &["topic1", "topic2"]).with_instance_id("instance2"),
        ];
        check(
            RANGE,
            &[("topic1", 3), ("topic2", 3)],
            &members,
            &[("consumer-b", "topic1-0, topic1-1, topic2-0, topic2-1"), ("consumer-a", "topic1-2, topic2-2")],
        );
    }

    /// RangeAssignorTest.testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions (§5 R4).
    #[test]
    fn r4_static_member_before_dynamic() {
        let members = [
            Subscription::new("consumer-b", &["topic1", "topic2"]).with_instance_id("instance1"),
            Subscription::new("consumer-a", &["topic1", "topic2"]),
        ];
        check(
            RANGE,
            &[("topic1", 3), ("topic2", 3)],
            &members,
            &[("consumer-b", "topic1-0, topic1-1, topic2-0, topic2-1"), ("consumer-a", "topic1-2, topic2-2")],
        );
    }

    /// RangeAssignorTest.testStaticMemberRangeAssignmentPersistent (§5 R3), including the
    /// dynamic member being replaced.
    #[test]
    fn r3_static_member_range_assignment_persistent() {
        let mut members = statics();
        members.push(Subscription::new("consumer4", &["topic1", "topic2"]));
        let expected = [
            ("consumer1", "topic1-0, topic1-1, topic2-0"),
            ("consumer2", "topic1-2, topic2-1"),
            ("consumer3", "topic1-3, topic2-2"),
            ("consumer4", "topic1-4, topic2-3"),
        ];
        check(RANGE, &[("topic1", 5), ("topic2", 4)], &members, &expected);

        members.pop();
        members.push(Subscription::new("consumer5", &["topic1", "topic2"]));
        let mut expected = expected.to_vec();
        expected[3].0 = "consumer5";
        check(RANGE, &[("topic1", 5), ("topic2", 4)], &members, &expected);
    }

    /// RangeAssignorTest.testStaticMemberRangeAssignmentPersistentAfterMemberIdChanges.
    #[test]
    fn static_assignment_persists_after_member_id_changes() {
        let partitions = topics(&[("topic1", 5), ("topic2", 5)]);
        let by_instance = |members: &[Subscription]| {
            let outcome = assign(RANGE, &partitions, members).unwrap();
            members
                .iter()
                .map(|m| (m.group_instance_id.clone().unwrap(), outcome.assignment[&m.member_id].clone()))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        let members = statics();
        let before = by_instance(&members);
        assert_eq!(before["instance1"], parse("topic1-0, topic1-1, topic2-0, topic2-1"));
        assert_eq!(before["instance2"], parse("topic1-2, topic1-3, topic2-2, topic2-3"));
        assert_eq!(before["instance3"], parse("topic1-4, topic2-4"));

        // consumer3 -> consumer4 and consumer2 -> consumer5, same instance ids.
        let mut renamed = members.clone();
        renamed[2].member_id = "consumer4".into();
        renamed[1].member_id = "consumer5".into();
        assert_eq!(by_instance(&renamed), before);
    }

    /// The non-rack-aware expectations of RangeAssignorTest's rack tests
    /// (testRackAwareAssignmentWithUniformSubscription, ...WithNonEqualSubscription,
    /// ...WithUniformPartitions, ...WithUniformPartitionsNonEqualSubscription).
    #[test]
    fn rack_tests_without_racks() {
        let all: &[&str] = &["t1", "t2", "t3"];
        let t1_t3: &[&str] = &["t1", "t3"];
        check(
            RANGE,
            &[("t1", 6), ("t2", 7), ("t3", 2)],
            &numbered(&[all, all, all]),
            &[
                ("consumer0", "t1-0, t1-1, t2-0, t2-1, t2-2, t3-0"),
                ("consumer1", "t1-2, t1-3, t2-3, t2-4, t3-1"),
                ("consumer2", "t1-4, t1-5, t2-5, t2-6"),
            ],
        );
        check(
            RANGE,
            &[("t1", 6), ("t2", 7), ("t3", 2)],
            &numbered(&[all, all, t1_t3]),
            &[
                ("consumer0", "t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0"),
                ("consumer1", "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1"),
                ("consumer2", "t1-4, t1-5"),
            ],
        );
        check(
            RANGE,
            &[("t1", 5), ("t2", 5), ("t3", 5)],
            &numbered(&[all, all, all]),
            &[
                ("consumer0", "t1-0, t1-1, t2-0, t2-1, t3-0, t3-1"),
                ("consumer1", "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3"),
                ("consumer2", "t1-4, t2-4, t3-4"),
            ],
        );
        check(
            RANGE,
            &[("t1", 5), ("t2", 5), ("t3", 5)],
            &numbered(&[all, all, t1_t3]),
            &[
                ("consumer0", "t1-0, t1-1, t2-0, t2-1, t2-2, t3-0, t3-1"),
                ("consumer1", "t1-2, t1-3, t2-3, t2-4, t3-2, t3-3"),
                ("consumer2", "t1-4, t3-4"),
            ],
        );
    }

    /// RangeAssignorTest.testRackAwareAssignmentWithCoPartitioning, the cases where every
    /// partition is on every rack (so the plain algorithm applies).
    #[test]
    fn co_partitioning_without_rack_preference() {
        let t12: &[&str] = &["t1", "t2"];
        let t34: &[&str] = &["t3", "t4"];
        let parts = [("t1", 6), ("t2", 6), ("t3", 2), ("t4", 2)];
        check(
            RANGE,
            &parts,
            &numbered(&[t12, t12, t34, t34]),
            &[
                ("consumer0", "t1-0, t1-1, t1-2, t2-0, t2-1, t2-2"),
                ("consumer1", "t1-3, t1-4, t1-5, t2-3, t2-4, t2-5"),
                ("consumer2", "t3-0, t4-0"),
                ("consumer3", "t3-1, t4-1"),
            ],
        );
        let all: &[&str] = &["t1", "t2", "t3", "t4"];
        check(
            RANGE,
            &parts,
            &numbered(&[all, all, all, all]),
            &[
                ("consumer0", "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0"),
                ("consumer1", "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1"),
                ("consumer2", "t1-4, t2-4"),
                ("consumer3", "t1-5, t2-5"),
            ],
        );
    }

    /// RangeAssignorTest.testCoPartitionedAssignmentWithSameSubscription without racks:
    /// t7, t8 and t9 are subscribed but have no metadata.
    #[test]
    fn co_partitioned_same_subscription_with_missing_topics() {
        let list: &[&str] = &["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"];
        let outcome = check(
            RANGE,
            &[("t1", 6), ("t2", 6), ("t3", 2), ("t4", 2), ("t5", 4), ("t6", 4)],
            &numbered(&[list, list, list]),
            &[
                ("consumer0", "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0, t5-0, t5-1, t6-0, t6-1"),
                ("consumer1", "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1, t5-2, t6-2"),
                ("consumer2", "t1-4, t1-5, t2-4, t2-5, t5-3, t6-3"),
            ],
        );
        assert_eq!(outcome.warnings.len(), 3);
    }

    /// More consumers than partitions: the tail gets nothing, on every topic.
    #[test]
    fn more_consumers_than_partitions() {
        let t: &[&str] = &["a", "b"];
        check(
            RANGE,
            &[("a", 2), ("b", 1)],
            &numbered(&[t, t, t, t]),
            &[("consumer0", "a-0, b-0"), ("consumer1", "a-1"), ("consumer2", ""), ("consumer3", "")],
        );
    }
}
