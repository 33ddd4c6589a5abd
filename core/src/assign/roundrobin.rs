//! `RoundRobinAssignor` ("roundrobin"): every subscribed partition, in (topic, partition) order, dealt to the members in turn.
//!
//! A `CircularIterator` walks the members in [`member_cmp`](super::member_cmp) order. For
//! each partition it skips members not subscribed to the partition's topic (each skip uses
//! up that member's turn), then gives the partition to the member it stopped at and moves
//! past it. With equal subscriptions the counts differ by at most one; with unequal ones
//! the result can be lopsided (see the RoundRobinAssignor javadoc example in the tests).

use super::{Subscription, Topics};

/// Deals `topics` (already in Java `TreeSet` order) to `members` taken in `order` (indices
/// in `MemberInfo` order): sets `owners` (member index per partition, by global index).
pub(crate) fn assign_sorted(topics: &Topics, members: &[Subscription], order: &[u32], owners: &mut [u32]) {
    if order.is_empty() {
        return;
    }
    // The position of the CircularIterator: the member whose turn it is.
    let mut turn = 0usize;
    let mut subscribed: Vec<bool> = Vec::with_capacity(order.len());
    for topic in 0..topics.len() as u32 {
        let name = topics.name(topic);
        subscribed.clear();
        subscribed.extend(order.iter().map(|&m| members[m as usize].subscribes_to(name)));
        // `assign` only passes subscribed topics; without a subscriber the skip loop
        // below would never end, so a topic nobody subscribes to is passed over.
        if !subscribed.contains(&true) {
            continue;
        }
        let offset = topics.offset(topic);
        for slot in &mut owners[offset..offset + topics.count(topic) as usize] {
            while !subscribed[turn] {
                turn += 1;
                if turn == order.len() {
                    turn = 0;
                }
            }
            *slot = order[turn];
            turn += 1;
            if turn == order.len() {
                turn = 0;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::super::testutil::*;
    use super::super::{assign, Strategy, Subscription};

    const RR: Strategy = Strategy::RoundRobin;

    /// RoundRobinAssignorTest.testOneConsumerNoTopic / testOneConsumerNonexistentTopic.
    #[test]
    fn one_consumer_no_topic_and_nonexistent_topic() {
        check(RR, &[], &[Subscription::new("consumer", &[])], &[("consumer", "")]);
        check(RR, &[], &[Subscription::new("consumer", &["topic"])], &[("consumer", "")]);
    }

    /// RoundRobinAssignorTest.testOneConsumerOneTopic and testOnlyAssignsPartitionsFromSubscribedTopics.
    #[test]
    fn one_consumer_one_topic_only_subscribed() {
        let expected = [("consumer", "topic-0, topic-1, topic-2")];
        check(RR, &[("topic", 3)], &[Subscription::new("consumer", &["topic"])], &expected);
        check(RR, &[("topic", 3), ("other", 3)], &[Subscription::new("consumer", &["topic"])], &expected);
    }

    /// RoundRobinAssignorTest.testOneConsumerMultipleTopics.
    #[test]
    fn one_consumer_multiple_topics() {
        check(
            RR,
            &[("topic1", 1), ("topic2", 2)],
            &[Subscription::new("consumer", &["topic1", "topic2"])],
            &[("consumer", "topic1-0, topic2-0, topic2-1")],
        );
    }

    /// RoundRobinAssignorTest.testTwoConsumersOneTopicOnePartition / ...TwoPartitions.
    #[test]
    fn two_consumers_one_topic() {
        let members = [Subscription::new("consumer1", &["topic"]), Subscription::new("consumer2", &["topic"])];
        check(RR, &[("topic", 1)], &members, &[("consumer1", "topic-0"), ("consumer2", "")]);
        check(RR, &[("topic", 2)], &members, &[("consumer1", "topic-0"), ("consumer2", "topic-1")]);
    }

    /// RoundRobinAssignorTest.testMultipleConsumersMixedTopics (§5 RR2).
    #[test]
    fn rr2_multiple_consumers_mixed_topics() {
        let members = [
            Subscription::new("consumer1", &["topic1"]),
            Subscription::new("consumer2", &["topic1", "topic2"]),
            Subscription::new("consumer3", &["topic1"]),
        ];
        check(
            RR,
            &[("topic1", 3), ("topic2", 2)],
            &members,
            &[("consumer1", "topic1-0"), ("consumer2", "topic1-1, topic2-0, topic2-1"), ("consumer3", "topic1-2")],
        );
    }

    /// RoundRobinAssignorTest.testTwoDynamicConsumersTwoTopicsSixPartitions (§5 RR1) and the
    /// first RoundRobinAssignor javadoc example.
    #[test]
    fn rr1_two_dynamic_consumers_two_topics_six_partitions() {
        let members = [Subscription::new("consumer1", &["topic1", "topic2"]), Subscription::new("consumer2", &["topic1", "topic2"])];
        check(
            RR,
            &[("topic1", 3), ("topic2", 3)],
            &members,
            &[("consumer1", "topic1-0, topic1-2, topic2-1"), ("consumer2", "topic1-1, topic2-0, topic2-2")],
        );
    }

    /// RoundRobinAssignorTest.testTwoStaticConsumersTwoTopicsSixPartitions and
    /// testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions.
    #[test]
    fn static_members_ordered_by_instance_id_and_first() {
        let expected = [("consumer-b", "topic1-0, topic1-2, topic2-1"), ("consumer-a", "topic1-1, topic2-0, topic2-2")];
        let two_static = [
            Subscription::new("consumer-b", &["topic1", "topic2"]).with_instance_id("instance1"),
            Subscription::new("consumer-a", &["topic1", "topic2"]).with_instance_id("instance2"),
        ];
        check(RR, &[("topic1", 3), ("topic2", 3)], &two_static, &expected);
        let one_static = [
            Subscription::new("consumer-b", &["topic1", "topic2"]).with_instance_id("instance1"),
            Subscription::new("consumer-a", &["topic1", "topic2"]),
        ];
        check(RR, &[("topic1", 3), ("topic2", 3)], &one_static, &expected);
    }

    /// RoundRobinAssignorTest.testStaticMemberAssignmentPersistent (§5 RR3), including the
    /// dynamic member being replaced.
    #[test]
    fn rr3_static_member_assignment_persistent() {
        let mut members = vec![
            Subscription::new("consumer1", &["topic1", "topic2"]).with_instance_id("instance1"),
            Subscription::new("consumer2", &["topic1", "topic2"]).with_instance_id("instance2"),
            Subscription::new("consumer3", &["topic1", "topic2"]).with_instance_id("instance3"),
            Subscription::new("consumer4", &["topic1", "topic2"]),
        ];
        let mut expected = vec![
            ("consumer1", "topic1-0, topic2-1"),
            ("consumer2", "topic1-1, topic2-2"),
            ("consumer3", "topic1-2"),
            ("consumer4", "topic2-0"),
        ];
        check(RR, &[("topic1", 3), ("topic2", 3)], &members, &expected);
        members[3].member_id = "consumer5".into();
        expected[3].0 = "consumer5";
        check(RR, &[("topic1", 3), ("topic2", 3)], &members, &expected);
    }

    /// RoundRobinAssignorTest.testStaticMemberAssignmentPersistentAfterMemberIdChanges:
    /// instance i gets topic1-i and topic2-i whatever the member ids are.
    #[test]
    fn static_assignment_persists_after_member_id_changes() {
        let partitions = topics(&[("topic1", 3), ("topic2", 3)]);
        for ids in [["consumer1", "consumer2", "consumer3"], ["consumer4", "consumer5", "consumer1"]] {
            let members: Vec<Subscription> = ids
                .iter()
                .enumerate()
                .map(|(i, id)| Subscription::new(id, &["topic1", "topic2"]).with_instance_id(&format!("instance{}", i + 1)))
                .collect();
            let outcome = assign(RR, &partitions, &members).unwrap();
            for (i, id) in ids.iter().enumerate() {
                assert_eq!(outcome.assignment[*id], parse(&format!("topic1-{i}, topic2-{i}")), "{id}");
            }
        }
    }

    /// The second RoundRobinAssignor javadoc example: unequal subscriptions are lopsided.
    #[test]
    fn javadoc_unequal_subscriptions() {
        let members =
            [Subscription::new("C0", &["t0"]), Subscription::new("C1", &["t0", "t1"]), Subscription::new("C2", &["t0", "t1", "t2"])];
        check(RR, &[("t0", 1), ("t1", 2), ("t2", 3)], &members, &[("C0", "t0-0"), ("C1", "t1-0"), ("C2", "t1-1, t2-0, t2-1, t2-2")]);
    }

    /// More consumers than partitions: the first P members in order get one each.
    #[test]
    fn more_consumers_than_partitions() {
        let t: &[&str] = &["a", "b"];
        check(
            RR,
            &[("a", 2), ("b", 1)],
            &numbered(&[t, t, t, t, t]),
            &[("consumer0", "a-0"), ("consumer1", "a-1"), ("consumer2", "b-0"), ("consumer3", ""), ("consumer4", "")],
        );
    }

    /// A skipped member's turn is used up: after the skip the iterator continues past the
    /// member that took the partition, not back at the skipped one.
    #[test]
    fn skip_uses_up_the_turn() {
        // Partitions: a-0, b-0, b-1, b-2. c0 {a}, c1 {b}, c2 {a, b}.
        // a-0 -> c0; b-0: c1; b-1: c2; b-2: skip c0 -> c1.
        let members = [Subscription::new("c0", &["a"]), Subscription::new("c1", &["b"]), Subscription::new("c2", &["a", "b"])];
        check(RR, &[("a", 1), ("b", 3)], &members, &[("c0", "a-0"), ("c1", "b-0, b-2"), ("c2", "b-1")]);
    }
}
