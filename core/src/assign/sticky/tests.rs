//! Kafka's test cases for the sticky assignors (AbstractStickyAssignorTest, StickyAssignorTest, CooperativeStickyAssignorTest), the worked examples S1–S5, and properties.
//!
//! Each Kafka test runs for both assignors, as Kafka's abstract test does: the sticky
//! result is checked directly; the cooperative one round by round with
//! `CooperativeStickyAssignorTest.verifyValidityAndBalance` (no partition both revoked and
//! assigned in one round; rebalance again with the new ownership until nothing is
//! revoked), after which Kafka's assertions on the final assignment apply. Racks are not
//! modelled, so the rack variants of Kafka's parameterized tests collapse into one.

#![allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::{prop_assert, prop_assert_eq, proptest, TestCaseError};

use super::super::testutil::parse;
use super::super::{assign, Assignment, Strategy, Subscription};
use super::{sticky_assign, StickyOutcome};
use crate::rng::SimRng;

// ---------------------------------------------------------------------------------------
// Helpers in Kafka's test vocabulary.

/// `generationId` in AbstractStickyAssignorTest.
const GENERATION_ID: i32 = 1;

fn meta(list: &[(&str, u32)]) -> BTreeMap<String, u32> {
    list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
}

/// "t1-0, t2-3" -> owned partitions, in the given order.
fn tps(list: &str) -> Vec<(String, u32)> {
    list.split(", ")
        .filter(|s| !s.is_empty())
        .map(|item| {
            let dash = item.rfind('-').unwrap();
            (item[..dash].to_string(), item[dash + 1..].parse().unwrap())
        })
        .collect()
}

/// `subscription(topics, i)`: no owned partitions, no generation.
fn fresh(id: &str, topics: &[&str]) -> Subscription {
    Subscription::new(id, topics)
}

/// `buildSubscriptionV2Above(topics, partitions, generation, i)`.
fn owning(id: &str, topics: &[&str], owned: &str, generation: i32) -> Subscription {
    Subscription { owned: tps(owned), generation: Some(generation), ..Subscription::new(id, topics) }
}

fn sticky(metadata: &BTreeMap<String, u32>, members: &[Subscription]) -> StickyOutcome {
    sticky_assign(metadata, members).unwrap()
}

/// A member's partitions as a sorted set.
fn set_of(assignment: &Assignment, id: &str) -> BTreeSet<(String, u32)> {
    assignment[id].iter().flat_map(|(t, ps)| ps.iter().map(move |p| (t.clone(), *p))).collect()
}

fn set(list: &str) -> BTreeSet<(String, u32)> {
    tps(list).into_iter().collect()
}

fn count(assignment: &Assignment, id: &str) -> usize {
    assignment[id].values().map(Vec::len).sum()
}

/// Asserts every listed member's partitions (Kafka notation, any order).
#[track_caller]
fn expect(assignment: &Assignment, expected: &[(&str, &str)]) {
    for (id, list) in expected {
        assert_eq!(assignment[*id], parse(list), "member {id}: {assignment:?}");
    }
}

fn transferring(outcome: &StickyOutcome) -> Vec<(String, u32, String)> {
    outcome.transferring.iter().map(|((t, p), m)| (t.clone(), *p, m.clone())).collect()
}

#[track_caller]
fn expect_transferring(outcome: &StickyOutcome, expected: &[(&str, u32, &str)]) {
    let expected: Vec<(String, u32, String)> = expected.iter().map(|(t, p, m)| (t.to_string(), *p, m.to_string())).collect();
    assert_eq!(transferring(outcome), expected);
}

/// The same members, now owning `assignment` at `generation` (the next JoinGroup).
fn next_round(members: &[Subscription], assignment: &Assignment, generation: i32) -> Vec<Subscription> {
    members
        .iter()
        .map(|m| Subscription { owned: set_of(assignment, &m.member_id).into_iter().collect(), generation: Some(generation), ..m.clone() })
        .collect()
}

fn without(members: &[Subscription], id: &str) -> Vec<Subscription> {
    members.iter().filter(|m| m.member_id != id).cloned().collect()
}

fn is_fully_balanced(assignment: &Assignment) -> bool {
    let counts: Vec<usize> = assignment.values().map(|t| t.values().map(Vec::len).sum()).collect();
    match (counts.iter().min(), counts.iter().max()) {
        (Some(min), Some(max)) => max - min <= 1,
        _ => true,
    }
}

/// `AbstractStickyAssignorTest.verifyValidityAndBalance`, plus completeness: every
/// partition of a subscribed topic is assigned once, to a subscriber; and two members
/// whose counts differ by 2+ share no topic.
#[track_caller]
fn verify_validity_and_balance(metadata: &BTreeMap<String, u32>, members: &[Subscription], assignment: &Assignment) {
    assert_eq!(assignment.len(), members.len());
    let mut owner: BTreeMap<(String, u32), &str> = BTreeMap::new();
    for m in members {
        for (topic, partitions) in &assignment[&m.member_id] {
            assert!(m.subscribes_to(topic), "{} got unsubscribed {topic}: {assignment:?}", m.member_id);
            assert!(!partitions.is_empty());
            for p in partitions {
                assert!(p < &metadata[topic]);
                let previous = owner.insert((topic.clone(), *p), &m.member_id);
                assert!(previous.is_none(), "{topic}-{p} assigned twice: {assignment:?}");
            }
        }
    }
    for (topic, n) in metadata {
        if members.iter().any(|m| m.subscribes_to(topic)) {
            for p in 0..*n {
                assert!(owner.contains_key(&(topic.clone(), p)), "{topic}-{p} unassigned: {assignment:?}");
            }
        }
    }
    for a in members {
        for b in members {
            let (ca, cb) = (count(assignment, &a.member_id), count(assignment, &b.member_id));
            if ca > cb + 1 {
                for topic in assignment[&a.member_id].keys() {
                    assert!(
                        !assignment[&b.member_id].contains_key(topic),
                        "{topic} could move from {} to {}: {assignment:?}",
                        a.member_id,
                        b.member_id
                    );
                }
            }
        }
    }
}

/// `CooperativeStickyAssignorTest.verifyValidityAndBalance`: starting from the first-round
/// `assignment`, check that no partition is revoked and assigned in the same round, and
/// rebalance with the new ownership (generation 1) until nothing is revoked (at most 4
/// more rounds). Returns the final assignment, which must be valid and balanced.
#[track_caller]
fn converge_cooperative(metadata: &BTreeMap<String, u32>, members: &[Subscription], first_round: Assignment) -> Assignment {
    let mut members = members.to_vec();
    let mut assignment = first_round;
    let mut rebalances = 0;
    loop {
        let mut added = BTreeSet::new();
        let mut revoked = BTreeSet::new();
        for m in &members {
            let owned: BTreeSet<(String, u32)> = m.owned.iter().cloned().collect();
            let assigned = set_of(&assignment, &m.member_id);
            revoked.extend(owned.difference(&assigned).cloned());
            added.extend(assigned.difference(&owned).cloned());
        }
        let both: Vec<_> = added.intersection(&revoked).collect();
        assert!(both.is_empty(), "revoked and assigned in one round: {both:?}");
        if revoked.is_empty() {
            break;
        }
        members = next_round(&members, &assignment, GENERATION_ID);
        assignment = assign(Strategy::CooperativeSticky, metadata, &members).unwrap().assignment;
        rebalances += 1;
        assert!(rebalances <= 4, "no convergence: {assignment:?}");
    }
    verify_validity_and_balance(metadata, &members, &assignment);
    assignment
}

/// One rebalance under both assignors.
struct Both {
    /// StickyAssignor's outcome (also the cooperative one before withholding).
    sticky: StickyOutcome,
    /// CooperativeStickyAssignor's first round.
    first: Assignment,
    /// The cooperative assignment once nothing more is revoked.
    settled: Assignment,
}

#[track_caller]
fn both(metadata: &BTreeMap<String, u32>, members: &[Subscription]) -> Both {
    let sticky = sticky(metadata, members);
    verify_validity_and_balance(metadata, members, &sticky.assignment);
    let first = assign(Strategy::CooperativeSticky, metadata, members).unwrap().assignment;
    assert_eq!(first, sticky.cooperative_first_round());
    let settled = converge_cooperative(metadata, members, first.clone());
    Both { sticky, first, settled }
}

/// `getCanonicalName`: `prefix` + `i` zero-padded to the width of `max`.
fn canonical(prefix: &str, i: usize, max: usize) -> String {
    let width = max.to_string().len();
    format!("{prefix}{i:0width$}")
}

// ---------------------------------------------------------------------------------------
// AbstractStickyAssignorTest

#[test]
fn test_one_consumer_no_topic() {
    let m = meta(&[]);
    let members = [fresh("consumer", &[])];
    let run = both(&m, &members);
    assert_eq!(run.sticky.assignment, parse_all(&[("consumer", "")]));
    assert!(run.sticky.transferring.is_empty());
    assert!(is_fully_balanced(&run.settled));
}

fn parse_all(list: &[(&str, &str)]) -> Assignment {
    list.iter().map(|(id, l)| (id.to_string(), parse(l))).collect()
}

#[test]
fn test_one_consumer_nonexistent_topic() {
    let m = meta(&[("topic", 0)]);
    let members = [fresh("consumer", &["topic"])];
    let run = both(&m, &members);
    assert_eq!(run.sticky.assignment, parse_all(&[("consumer", "")]));
    assert!(run.sticky.transferring.is_empty());
    assert_eq!(run.sticky.warnings, vec!["Skipping assignment for topic topic since no metadata is available"]);
}

#[test]
fn test_one_consumer_one_topic() {
    let m = meta(&[("topic", 3)]);
    let run = both(&m, &[fresh("consumer", &["topic"])]);
    expect(&run.sticky.assignment, &[("consumer", "topic-0, topic-1, topic-2")]);
    assert!(run.sticky.transferring.is_empty());
}

#[test]
fn test_only_assigns_partitions_from_subscribed_topics() {
    let m = meta(&[("topic", 2)]);
    let members = [owning("consumer", &["topic"], "topic-0, topic-1, other-0, other-1", GENERATION_ID)];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("consumer", "topic-0, topic-1")]);
    assert!(run.sticky.transferring.is_empty());
    assert_eq!(run.first, run.sticky.assignment);
}

#[test]
fn test_one_consumer_multiple_topics() {
    let m = meta(&[("topic1", 1), ("topic2", 2)]);
    let run = both(&m, &[fresh("consumer", &["topic1", "topic2"])]);
    expect(&run.sticky.assignment, &[("consumer", "topic1-0, topic2-0, topic2-1")]);
}

#[test]
fn test_two_consumers_one_topic_one_partition() {
    let m = meta(&[("topic", 1)]);
    let members = [fresh("consumer1", &["topic"]), fresh("consumer2", &["topic"])];
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    assert!(is_fully_balanced(&run.sticky.assignment));
    // The pre-2.7 StickyAssignorTest pinned it: consumer1 gets the partition.
    expect(&run.sticky.assignment, &[("consumer1", "topic-0"), ("consumer2", "")]);
}

#[test]
fn test_two_consumers_one_topic_two_partitions() {
    let m = meta(&[("topic", 2)]);
    let members = [fresh("consumer1", &["topic"]), fresh("consumer2", &["topic"])];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("consumer1", "topic-0"), ("consumer2", "topic-1")]);
    assert!(run.sticky.transferring.is_empty());
}

/// Worked example S2: the general path.
#[test]
fn test_multiple_consumers_mixed_topic_subscriptions() {
    let m = meta(&[("topic1", 3), ("topic2", 2)]);
    let members = [fresh("consumer1", &["topic1"]), fresh("consumer2", &["topic1", "topic2"]), fresh("consumer3", &["topic1"])];
    let run = both(&m, &members);
    let expected = [("consumer1", "topic1-0, topic1-2"), ("consumer2", "topic2-0, topic2-1"), ("consumer3", "topic1-1")];
    expect(&run.sticky.assignment, &expected);
    expect(&run.settled, &expected);
    assert!(!run.sticky.all_subscriptions_equal);
    assert!(is_fully_balanced(&run.sticky.assignment));
}

/// Worked example S1.
#[test]
fn test_two_consumers_two_topics_six_partitions() {
    let m = meta(&[("topic1", 3), ("topic2", 3)]);
    let members = [fresh("consumer1", &["topic1", "topic2"]), fresh("consumer2", &["topic1", "topic2"])];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("consumer1", "topic1-0, topic1-2, topic2-1"), ("consumer2", "topic1-1, topic2-0, topic2-2")]);
    assert!(run.sticky.all_subscriptions_equal);
}

#[test]
fn test_consumer_owning_min_quota_expected_max_quota() {
    let m = meta(&[("topic1", 2), ("topic2", 3)]);
    let topics = ["topic1", "topic2"];
    let members = [
        owning("consumer1", &topics, "topic1-0, topic2-1", GENERATION_ID),
        owning("consumer2", &topics, "topic1-1, topic2-2", GENERATION_ID),
    ];
    let run = both(&m, &members);
    let expected = [("consumer1", "topic1-0, topic2-1, topic2-0"), ("consumer2", "topic1-1, topic2-2")];
    expect(&run.sticky.assignment, &expected);
    expect(&run.first, &expected);
    assert!(run.sticky.transferring.is_empty());
}

/// Worked example S3: HashMap order visits consumer3, consumer2, consumer1, so consumer2
/// keeps two partitions and consumer1 gives up topic2-0.
#[test]
fn test_max_quota_consumer_more_than_num_expected_max_capacity_members() {
    let m = meta(&[("topic1", 2), ("topic2", 2)]);
    let topics = ["topic1", "topic2"];
    let members = [
        owning("consumer1", &topics, "topic1-0, topic2-0", GENERATION_ID),
        owning("consumer2", &topics, "topic1-1, topic2-1", GENERATION_ID),
        owning("consumer3", &topics, "", GENERATION_ID),
    ];
    let run = both(&m, &members);
    expect_transferring(&run.sticky, &[("topic2", 0, "consumer3")]);
    let expected = [("consumer1", "topic1-0"), ("consumer2", "topic1-1, topic2-1"), ("consumer3", "topic2-0")];
    expect(&run.sticky.assignment, &expected);
    expect(&run.first, &[("consumer1", "topic1-0"), ("consumer2", "topic1-1, topic2-1"), ("consumer3", "")]);
    expect(&run.settled, &expected);
}

/// S3 renamed (kafka-semantics §5): with ids m-a, m-b, m-c the HashMap visits m-a first,
/// so m-a keeps both of its partitions.
#[test]
fn s3_renamed_members_follow_hash_order() {
    let m = meta(&[("t1", 2), ("t2", 2)]);
    let topics = ["t1", "t2"];
    let members = [owning("m-a", &topics, "t1-0, t2-0", 1), owning("m-b", &topics, "t1-1, t2-1", 1), owning("m-c", &topics, "", 1)];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("m-a", "t1-0, t2-0"), ("m-b", "t1-1"), ("m-c", "t2-1")]);
    expect_transferring(&run.sticky, &[("t2", 1, "m-c")]);
    // The table's "c1/c2/c3" abbreviate consumer1/2/3. Taken literally as member ids they
    // hash to buckets 14, 15 and 0 ("c1".hashCode() = 3118), so the HashMap visits c3, c1,
    // c2: c1 now reaches maxQuota first and keeps both of its partitions, and c2 gives
    // up t2-1. (Checked against Kafka's AbstractStickyAssignor run on this input.)
    let members: Vec<Subscription> =
        ["c1", "c2", "c3"].iter().zip(["t1-0, t2-0", "t1-1, t2-1", ""]).map(|(id, owned)| owning(id, &topics, owned, 1)).collect();
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("c1", "t1-0, t2-0"), ("c2", "t1-1"), ("c3", "t2-1")]);
    expect_transferring(&run.sticky, &[("t2", 1, "c3")]);
}

#[test]
fn test_all_consumers_are_under_min_quota() {
    let m = meta(&[("topic1", 2), ("topic2", 3)]);
    let topics = ["topic1", "topic2"];
    let members = [
        owning("consumer1", &topics, "topic1-0", GENERATION_ID),
        owning("consumer2", &topics, "topic1-1", GENERATION_ID),
        owning("consumer3", &topics, "", GENERATION_ID),
    ];
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    let expected = [("consumer1", "topic1-0, topic2-1"), ("consumer2", "topic1-1, topic2-2"), ("consumer3", "topic2-0")];
    expect(&run.sticky.assignment, &expected);
    expect(&run.first, &expected);
}

/// Worked example S4.
#[test]
fn test_add_remove_consumer_one_topic() {
    let m = meta(&[("topic", 3)]);
    let members = vec![fresh("consumer1", &["topic"])];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("consumer1", "topic-0, topic-1, topic-2")]);

    let mut members = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    members.push(owning("consumer2", &["topic"], "", GENERATION_ID));
    let run = both(&m, &members);
    expect_transferring(&run.sticky, &[("topic", 2, "consumer2")]);
    expect(&run.sticky.assignment, &[("consumer1", "topic-0, topic-1"), ("consumer2", "topic-2")]);
    // Cooperative: consumer2 waits a round for topic-2.
    expect(&run.first, &[("consumer1", "topic-0, topic-1"), ("consumer2", "")]);
    expect(&run.settled, &[("consumer1", "topic-0, topic-1"), ("consumer2", "topic-2")]);

    let members = next_round(&without(&members, "consumer1"), &run.sticky.assignment, GENERATION_ID);
    let run = both(&m, &members);
    assert_eq!(set_of(&run.sticky.assignment, "consumer2"), set("topic-0, topic-1, topic-2"));
    assert!(run.sticky.transferring.is_empty());
}

/// S4 with the short names of the table.
#[test]
fn s4_c2_joins_c1() {
    let m = meta(&[("t", 3)]);
    let members = [owning("c1", &["t"], "t-0, t-1, t-2", 1), owning("c2", &["t"], "", 1)];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("c1", "t-0, t-1"), ("c2", "t-2")]);
    expect(&run.first, &[("c1", "t-0, t-1"), ("c2", "")]);
    expect(&run.settled, &[("c1", "t-0, t-1"), ("c2", "t-2")]);
}

/// Per topic, each member's share stays equal as the group grows and shrinks.
#[test]
fn test_topic_balance_after_reassignment() {
    let m = meta(&[("topic1", 12), ("topic2", 12)]);
    let all = ["topic1", "topic2"];
    let per_topic = |a: &Assignment, expected: usize| {
        for (member, topics) in a {
            for topic in all {
                assert_eq!(topics.get(topic).map_or(0, Vec::len), expected, "{member} {topic}: {a:?}");
            }
        }
    };
    let members = vec![fresh("consumer1", &all)];
    let run = both(&m, &members);
    per_topic(&run.sticky.assignment, 12);
    assert!(run.sticky.transferring.is_empty());

    // Add another consumer
    let mut members = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    members.push(owning("consumer2", &all, "", GENERATION_ID));
    let run = both(&m, &members);
    per_topic(&run.sticky.assignment, 6);
    per_topic(&run.settled, 6);

    // Add two more consumers
    let mut members = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    members.push(owning("consumer3", &all, "", GENERATION_ID));
    members.push(owning("consumer4", &all, "", GENERATION_ID));
    let run = both(&m, &members);
    per_topic(&run.sticky.assignment, 3);
    per_topic(&run.settled, 3);

    // remove 2 consumers
    let members = next_round(&members[2..], &run.sticky.assignment, GENERATION_ID);
    let run = both(&m, &members);
    per_topic(&run.sticky.assignment, 6);
    assert!(run.sticky.transferring.is_empty());
}

#[test]
fn test_add_remove_two_consumers_two_topics() {
    let m = meta(&[("topic1", 3), ("topic2", 4)]);
    let all = ["topic1", "topic2"];
    let members = vec![fresh("consumer1", &all), fresh("consumer2", &all)];
    let run = both(&m, &members);
    expect(
        &run.sticky.assignment,
        &[("consumer1", "topic1-0, topic1-2, topic2-1, topic2-3"), ("consumer2", "topic1-1, topic2-0, topic2-2")],
    );
    assert!(run.sticky.transferring.is_empty());

    // add 2 consumers
    let mut members = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    members.push(owning("consumer3", &all, "", GENERATION_ID));
    members.push(owning("consumer4", &all, "", GENERATION_ID));
    let run = both(&m, &members);
    // Since Kafka 3.8 a member keeps its owned partitions sorted by (partition, topic):
    // consumer1 keeps topic1-0 and topic2-1, not topic1-0 and topic1-2 as before.
    expect_transferring(&run.sticky, &[("topic1", 2, "consumer3"), ("topic2", 2, "consumer4"), ("topic2", 3, "consumer3")]);
    let expected = [
        ("consumer1", "topic1-0, topic2-1"),
        ("consumer2", "topic2-0, topic1-1"),
        ("consumer3", "topic1-2, topic2-3"),
        ("consumer4", "topic2-2"),
    ];
    expect(&run.sticky.assignment, &expected);
    expect(&run.settled, &expected);

    // remove 2 consumers
    let members = next_round(&members[2..], &run.sticky.assignment, GENERATION_ID);
    let run = both(&m, &members);
    expect(
        &run.sticky.assignment,
        &[("consumer3", "topic1-2, topic2-3, topic1-0, topic2-1"), ("consumer4", "topic2-2, topic1-1, topic2-0")],
    );
    assert!(run.sticky.transferring.is_empty());
}

#[test]
fn test_poor_round_robin_assignment_scenario() {
    let m = meta(&[("topic1", 2), ("topic2", 1), ("topic3", 2), ("topic4", 1), ("topic5", 2)]);
    let all = ["topic1", "topic2", "topic3", "topic4", "topic5"];
    let odd = ["topic1", "topic3", "topic5"];
    let members = [fresh("consumer1", &all), fresh("consumer2", &odd), fresh("consumer3", &odd), fresh("consumer4", &all)];
    let run = both(&m, &members);
    assert!(is_fully_balanced(&run.sticky.assignment));
}

#[test]
fn test_add_remove_topic_two_consumers() {
    let mut m = meta(&[("topic", 3)]);
    let members = vec![fresh("consumer1", &["topic"]), fresh("consumer2", &["topic"])];
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    let c1_first = set_of(&run.sticky.assignment, "consumer1");
    let c2_first = set_of(&run.sticky.assignment, "consumer2");
    assert_eq!(c1_first.len() + c2_first.len(), 3);
    assert!(c1_first.len().abs_diff(c2_first.len()) == 1);

    m.insert("topic2".into(), 3);
    let members: Vec<Subscription> = next_round(&members, &run.sticky.assignment, GENERATION_ID)
        .into_iter()
        .map(|s| Subscription { topics: vec!["topic".into(), "topic2".into()], ..s })
        .collect();
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    let c1 = set_of(&run.sticky.assignment, "consumer1");
    let c2 = set_of(&run.sticky.assignment, "consumer2");
    assert_eq!((c1.len(), c2.len()), (3, 3));
    assert!(c1.is_superset(&c1_first) && c2.is_superset(&c2_first));

    m.remove("topic");
    let members: Vec<Subscription> = next_round(&members, &run.sticky.assignment, GENERATION_ID)
        .into_iter()
        .map(|s| Subscription { topics: vec!["topic2".into()], ..s })
        .collect();
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    let c1_last = set_of(&run.sticky.assignment, "consumer1");
    let c2_last = set_of(&run.sticky.assignment, "consumer2");
    assert!(c1_last.len().abs_diff(c2_last.len()) == 1);
    assert!(c1.is_superset(&c1_last) && c2.is_superset(&c2_last));
}

#[test]
fn test_reassignment_after_one_consumer_leaves() {
    let mut m = BTreeMap::new();
    for i in 1..20 {
        m.insert(canonical("t", i, 20), i as u32);
    }
    let members: Vec<Subscription> = (1..20)
        .map(|i| {
            let topics: Vec<String> = (1..=i).map(|j| canonical("t", j, 20)).collect();
            Subscription { topics, ..Subscription::new(&canonical("c", i, 20), &[]) }
        })
        .collect();
    let run = both(&m, &members);
    let members = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    let before = run.sticky.assignment;
    let members = without(&members, "c10");
    let run = both(&m, &members);
    // Stickiness: every remaining member keeps all it had (the leaver's partitions spread).
    for member in &members {
        assert!(
            set_of(&run.sticky.assignment, &member.member_id).is_superset(&set_of(&before, &member.member_id)),
            "{} lost partitions",
            member.member_id
        );
    }
}

#[test]
fn test_reassignment_after_one_consumer_added() {
    let m = meta(&[("topic", 20)]);
    let mut members: Vec<Subscription> = (1..10).map(|i| fresh(&canonical("c", i, 10), &["topic"])).collect();
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    // add a new consumer (Kafka passes the same ownerless subscriptions again)
    members.push(fresh(&canonical("c", 10, 10), &["topic"]));
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
}

#[test]
fn test_same_subscriptions() {
    let mut m = BTreeMap::new();
    for i in 1..15 {
        m.insert(canonical("t", i, 15), i as u32);
    }
    let topics: Vec<String> = (1..15).map(|j| canonical("t", j, 15)).collect();
    let members: Vec<Subscription> =
        (1..9).map(|i| Subscription { topics: topics.clone(), ..Subscription::new(&canonical("c", i, 9), &[]) }).collect();
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    let members = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    let members = without(&members, &canonical("c", 5, 9));
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
}

/// Scaled down from 500 topics x 2,000 partitions and 2,000 consumers: 10 topics of 200
/// partitions and 100 consumers (the brief's 2,000 x 100), two rounds.
#[test]
fn test_large_assignment_and_group_with_uniform_subscription() {
    let (topic_count, partition_count, consumer_count) = (10, 200, 100);
    let topics: Vec<String> = (0..topic_count).map(|i| canonical("t", i, topic_count)).collect();
    let m: BTreeMap<String, u32> = topics.iter().map(|t| (t.clone(), partition_count)).collect();
    let members: Vec<Subscription> = (0..consumer_count)
        .map(|i| Subscription { topics: topics.clone(), ..Subscription::new(&canonical("c", i, consumer_count), &[]) })
        .collect();
    let first = sticky(&m, &members);
    verify_validity_and_balance(&m, &members, &first.assignment);
    // Kafka leaves consumer 0 without its ownership in the second round.
    let mut next = next_round(&members, &first.assignment, GENERATION_ID);
    next[0] = members[0].clone();
    let second = sticky(&m, &next);
    verify_validity_and_balance(&m, &next, &second.assignment);
    for member in &next[1..] {
        assert_eq!(set_of(&second.assignment, &member.member_id), set_of(&first.assignment, &member.member_id));
    }
}

/// Scaled down like the uniform case; the last consumer subscribes to one topic only.
#[test]
fn test_large_assignment_and_group_with_non_equal_subscription() {
    let (topic_count, partition_count, consumer_count) = (10, 100, 50);
    let topics: Vec<String> = (0..topic_count).map(|i| canonical("t", i, topic_count)).collect();
    let m: BTreeMap<String, u32> = topics.iter().map(|t| (t.clone(), partition_count)).collect();
    let members: Vec<Subscription> = (0..consumer_count)
        .map(|i| Subscription {
            topics: if i == consumer_count - 1 { topics[..1].to_vec() } else { topics.clone() },
            ..Subscription::new(&canonical("c", i, consumer_count), &[])
        })
        .collect();
    let first = sticky(&m, &members);
    verify_validity_and_balance(&m, &members, &first.assignment);
    let mut next = next_round(&members, &first.assignment, GENERATION_ID);
    next[0] = members[0].clone();
    let second = sticky(&m, &next);
    verify_validity_and_balance(&m, &next, &second.assignment);
}

/// Scaled down from 500 topics x 200 partitions: a quarter of the consumers on one half
/// of the topics, the rest on the other half.
#[test]
fn test_assignment_and_group_with_non_equal_subscription_not_timeout() {
    let (topic_count, partition_count, consumer_count) = (20, 20, 20);
    let topics: Vec<String> = (0..topic_count).map(|i| canonical("t", i, topic_count)).collect();
    let m: BTreeMap<String, u32> = topics.iter().map(|t| (t.clone(), partition_count)).collect();
    let members: Vec<Subscription> = (0..consumer_count)
        .map(|i| Subscription {
            topics: if i % 4 == 0 { topics[..topic_count / 2].to_vec() } else { topics[topic_count / 2..].to_vec() },
            ..Subscription::new(&canonical("c", i, consumer_count), &[])
        })
        .collect();
    let run = both(&m, &members);
    let mut next = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    next[0] = members[0].clone();
    both(&m, &next);
}

#[test]
fn test_subscription_not_equal_and_assign_same_partition_with3_generation() {
    let m = meta(&[("topic", 6), ("topic1", 1)]);
    for gens in [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]] {
        let members = [
            owning("consumer1", &["topic"], "topic-0, topic-2", gens[0]),
            owning("consumer2", &["topic"], "topic-1, topic-2, topic-3", gens[1]),
            owning("consumer3", &["topic"], "topic-2, topic-4, topic-5", gens[2]),
            owning("consumer4", &["topic1"], "topic1-0", 2),
        ];
        let outcome = sticky(&m, &members);
        verify_validity_and_balance(&m, &members, &outcome.assignment);
        for member in &members {
            let n = count(&outcome.assignment, &member.member_id);
            assert!((1..=2).contains(&n), "{gens:?}: {:?}", outcome.assignment);
        }
    }
}

/// Seeded instead of `new Random()`; 200 consumers on 40 topics, 50 leave.
#[test]
fn test_large_assignment_with_multiple_consumers_leaving_and_random_subscription() {
    let mut rng = SimRng::new(42);
    let (topic_count, consumer_count) = (40usize, 200usize);
    let mut m = BTreeMap::new();
    for i in 0..topic_count {
        m.insert(canonical("t", i, topic_count), rng.below(10) + 1);
    }
    let members: Vec<Subscription> = (0..consumer_count)
        .map(|i| {
            // `for (j = 0; j < rand.nextInt(20); j++)` redraws the bound every turn.
            let mut topics = Vec::new();
            let mut j = 0;
            while j < rng.below(20) {
                topics.push(canonical("t", rng.below(topic_count as u32) as usize, topic_count));
                j += 1;
            }
            Subscription { topics, ..Subscription::new(&canonical("c", i, consumer_count), &[]) }
        })
        .collect();
    let first = sticky(&m, &members);
    verify_validity_and_balance(&m, &members, &first.assignment);
    let mut next = next_round(&members, &first.assignment, GENERATION_ID);
    next[0] = members[0].clone();
    for _ in 0..50 {
        let c = canonical("c", rng.below(consumer_count as u32) as usize, consumer_count);
        next.retain(|s| s.member_id != c);
    }
    let second = sticky(&m, &next);
    verify_validity_and_balance(&m, &next, &second.assignment);
}

#[test]
fn test_new_subscription() {
    let mut m = BTreeMap::new();
    for i in 1..5 {
        m.insert(canonical("t", i, 5), 1);
    }
    // Kafka: topics t_j for j = i ..= 3i-2: none for i = 0, t1 for i = 1, t2..t4 for i = 2.
    let mut members: Vec<Subscription> = (0..3).map(|i| fresh(&canonical("c", i, 3), &[])).collect();
    members[1].topics = vec![canonical("t", 1, 5)];
    members[2].topics = (2..=4).map(|j| canonical("t", j, 5)).collect();
    both(&m, &members);
    members[0].topics.push(canonical("t", 1, 5));
    both(&m, &members);
}

#[test]
fn test_move_existing_assignments() {
    let m = meta(&[("topic1", 1), ("topic2", 1), ("topic3", 1), ("topic4", 1), ("topic5", 1), ("topic6", 1)]);
    let members = [
        owning("consumer1", &["topic1", "topic2"], "topic1-0", GENERATION_ID),
        owning("consumer2", &["topic1", "topic2", "topic3", "topic4"], "topic2-0, topic3-0", GENERATION_ID),
        owning("consumer3", &["topic2", "topic3", "topic4", "topic5", "topic6"], "topic4-0, topic5-0, topic6-0", GENERATION_ID),
    ];
    let run = both(&m, &members);
    assert!(!run.sticky.all_subscriptions_equal);
}

#[test]
fn test_stickiness() {
    let m = meta(&[("topic1", 3)]);
    let members: Vec<Subscription> = (1..=4).map(|i| fresh(&format!("consumer{i}"), &["topic1"])).collect();
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    for member in &members {
        assert!(count(&run.sticky.assignment, &member.member_id) <= 1);
    }
    let before = run.sticky.assignment.clone();
    // removing the potential group leader
    let members = next_round(&members[1..], &before, GENERATION_ID);
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    for member in &members {
        assert_eq!(count(&run.sticky.assignment, &member.member_id), 1);
        assert!(set_of(&run.sticky.assignment, &member.member_id).is_superset(&set_of(&before, &member.member_id)));
    }
}

#[test]
fn test_assignment_updated_for_deleted_topic() {
    let m = meta(&[("topic1", 1), ("topic3", 100)]);
    let members = [fresh("consumer", &["topic1", "topic2", "topic3"])];
    let run = both(&m, &members);
    assert!(run.sticky.transferring.is_empty());
    assert_eq!(count(&run.sticky.assignment, "consumer"), 1 + 100);
}

#[test]
fn test_no_exception_thrown_when_only_subscribed_topic_deleted() {
    let m = meta(&[("topic", 3)]);
    let members = vec![fresh("consumer", &["topic"])];
    let run = both(&m, &members);
    let members = next_round(&members, &run.sticky.assignment, GENERATION_ID);
    let run = both(&meta(&[]), &members);
    assert!(run.sticky.transferring.is_empty());
    assert_eq!(run.sticky.assignment, parse_all(&[("consumer", "")]));
}

/// Seeded instead of `new Random()`, 20 rounds instead of 100.
#[test]
fn test_reassignment_with_random_subscriptions_and_changes() {
    let mut rng = SimRng::new(7);
    let (min_consumers, max_consumers, min_topics, max_topics) = (20u32, 40u32, 10u32, 20u32);
    let random_sublist = |rng: &mut SimRng, list: &[String]| -> Vec<String> {
        let mut selected = list.to_vec();
        let remove = rng.below(list.len() as u32);
        for _ in 0..remove {
            let i = rng.below(selected.len() as u32) as usize;
            selected.remove(i);
        }
        selected.sort();
        selected
    };
    for _round in 0..20 {
        let topic_count = min_topics + rng.below(max_topics - min_topics);
        let topics: Vec<String> = (0..topic_count as usize).map(|i| canonical("t", i, max_topics as usize)).collect();
        let m: BTreeMap<String, u32> = topics.iter().zip(1u32..).map(|(t, n)| (t.clone(), n)).collect();
        let consumer_count = min_consumers + rng.below(max_consumers - min_consumers);
        let members: Vec<Subscription> = (0..consumer_count as usize)
            .map(|i| Subscription {
                topics: random_sublist(&mut rng, &topics),
                ..Subscription::new(&canonical("c", i, max_consumers as usize), &[])
            })
            .collect();
        let first = sticky(&m, &members);
        verify_validity_and_balance(&m, &members, &first.assignment);
        let next: Vec<Subscription> = next_round(&members, &first.assignment, GENERATION_ID)
            .into_iter()
            .map(|s| Subscription { topics: random_sublist(&mut rng, &topics), ..s })
            .collect();
        let run = both(&m, &next);
        let _ = run;
    }
}

#[test]
fn test_all_consumers_reach_expected_quota_and_are_considered_filled() {
    let m = meta(&[("topic", 4)]);
    let members = [
        owning("consumer1", &["topic"], "topic-0, topic-1", GENERATION_ID),
        owning("consumer2", &["topic"], "topic-2", GENERATION_ID),
        owning("consumer3", &["topic"], "", GENERATION_ID),
    ];
    let run = both(&m, &members);
    let expected = [("consumer1", "topic-0, topic-1"), ("consumer2", "topic-2"), ("consumer3", "topic-3")];
    expect(&run.sticky.assignment, &expected);
    expect(&run.first, &expected);
    assert!(run.sticky.transferring.is_empty());
}

#[test]
fn test_owned_partitions_are_invalidated_for_consumer_with_stale_generation() {
    let m = meta(&[("topic", 3), ("topic2", 3)]);
    let topics = ["topic", "topic2"];
    let current = 10;
    let members = [
        owning("consumer1", &topics, "topic-0, topic-2, topic2-1", current),
        owning("consumer2", &topics, "topic-0, topic-2, topic2-1", current - 1),
    ];
    let run = both(&m, &members);
    assert_eq!(set_of(&run.sticky.assignment, "consumer1"), set("topic-0, topic-2, topic2-1"));
    assert_eq!(set_of(&run.sticky.assignment, "consumer2"), set("topic-1, topic2-0, topic2-2"));
    assert!(run.sticky.transferring.is_empty());
    assert_eq!(run.first, run.sticky.assignment);
}

#[test]
fn test_owned_partitions_are_invalidated_for_consumer_with_no_generation() {
    let m = meta(&[("topic", 3), ("topic2", 3)]);
    let topics = ["topic", "topic2"];
    let members = [
        owning("consumer1", &topics, "topic-0, topic-2, topic2-1", 10),
        owning("consumer2", &topics, "topic-0, topic-2, topic2-1", super::DEFAULT_GENERATION),
    ];
    let run = both(&m, &members);
    assert_eq!(set_of(&run.sticky.assignment, "consumer1"), set("topic-0, topic-2, topic2-1"));
    assert_eq!(set_of(&run.sticky.assignment, "consumer2"), set("topic-1, topic2-0, topic2-2"));
    assert!(run.sticky.transferring.is_empty());
    // A missing generation is the same as DEFAULT_GENERATION.
    let mut no_generation = members.clone();
    no_generation[1].generation = None;
    assert_eq!(sticky(&m, &no_generation).assignment, run.sticky.assignment);
}

#[test]
fn test_partitions_transferring_ownership_include_the_partition_claimed_by_multiple_consumers_in_same_generation() {
    let m = meta(&[("topic", 3)]);
    let members = [
        owning("consumer1", &["topic"], "topic-0, topic-1", GENERATION_ID),
        owning("consumer2", &["topic"], "topic-0, topic-2", GENERATION_ID),
        owning("consumer3", &["topic"], "", GENERATION_ID),
    ];
    let run = both(&m, &members);
    expect_transferring(&run.sticky, &[("topic", 0, "consumer3")]);
    let expected = [("consumer1", "topic-1"), ("consumer2", "topic-2"), ("consumer3", "topic-0")];
    expect(&run.sticky.assignment, &expected);
    expect(&run.settled, &expected);
    assert!(run.sticky.warnings[0]
        .starts_with("Found multiple consumers consumer1 and consumer2 claiming the same TopicPartition topic-0 in the same generation 1"));
}

#[test]
fn test_ensure_partitions_assigned_to_highest_generation() {
    let m = meta(&[("topic", 3), ("topic2", 3), ("topic3", 3)]);
    let topics = ["topic", "topic2", "topic3"];
    let current = 10;
    let members = [
        owning("consumer1", &topics, "topic-0, topic2-0, topic3-0", current),
        owning("consumer2", &topics, "topic-1, topic2-1, topic3-1", current - 1),
        owning("consumer3", &topics, "topic2-1, topic3-0, topic3-2", current - 2),
    ];
    let run = both(&m, &members);
    assert_eq!(set_of(&run.sticky.assignment, "consumer1"), set("topic-0, topic2-0, topic3-0"));
    assert_eq!(set_of(&run.sticky.assignment, "consumer2"), set("topic-1, topic2-1, topic3-1"));
    assert_eq!(set_of(&run.sticky.assignment, "consumer3"), set("topic-2, topic2-2, topic3-2"));
    assert!(run.sticky.transferring.is_empty());
}

#[test]
fn test_no_reassignment_on_current_members() {
    let m = meta(&[("topic", 3), ("topic1", 3), ("topic2", 3), ("topic3", 3)]);
    let topics = ["topic", "topic2", "topic3", "topic1"];
    let current = 10;
    let members = [
        owning("consumer1", &topics, "", super::DEFAULT_GENERATION),
        owning("consumer2", &topics, "topic-0, topic2-0, topic1-0", current - 1),
        owning("consumer3", &topics, "topic3-2, topic2-2, topic1-1", current - 2),
        owning("consumer4", &topics, "topic3-1, topic-1, topic-2", current - 3),
    ];
    let run = both(&m, &members);
    // ensure assigned partitions don't get reassigned
    assert_eq!(set_of(&run.sticky.assignment, "consumer1"), set("topic1-2, topic2-1, topic3-0"));
    assert!(run.sticky.transferring.is_empty());
}

#[test]
fn test_owned_partitions_are_invalidated_for_consumer_with_multiple_generation() {
    let m = meta(&[("topic", 3), ("topic2", 3)]);
    let topics = ["topic", "topic2"];
    let current = 10;
    let members = [
        owning("consumer1", &topics, "topic-0, topic2-1, topic-1", current),
        owning("consumer2", &topics, "topic-0, topic2-1, topic2-2", current - 2),
    ];
    let run = both(&m, &members);
    assert_eq!(set_of(&run.sticky.assignment, "consumer1"), set("topic-0, topic2-1, topic-1"));
    assert_eq!(set_of(&run.sticky.assignment, "consumer2"), set("topic-2, topic2-2, topic2-0"));
    assert!(run.sticky.transferring.is_empty());
}

/// The non-rack expectations of testRackAwareAssignmentWithUniformSubscription
/// (`verifyRackAssignment` names members consumer0..2); the owned variant passes the
/// expected assignment as ownership and gets it back.
#[test]
fn test_rack_aware_assignment_with_uniform_subscription() {
    let m = meta(&[("t1", 6), ("t2", 7), ("t3", 2)]);
    let all = ["t1", "t2", "t3"];
    let expected = [
        ("consumer0", "t1-0, t1-3, t2-0, t2-3, t2-6"),
        ("consumer1", "t1-1, t1-4, t2-1, t2-4, t3-0"),
        ("consumer2", "t1-2, t1-5, t2-2, t2-5, t3-1"),
    ];
    let members: Vec<Subscription> = (0..3).map(|i| fresh(&format!("consumer{i}"), &all)).collect();
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &expected);
    let owned: Vec<Subscription> =
        members.iter().zip(expected).map(|(s, (_, list))| Subscription { owned: tps(list), generation: None, ..s.clone() }).collect();
    let run = both(&m, &owned);
    expect(&run.sticky.assignment, &expected);
    expect(&run.first, &expected);
}

/// The non-rack expectations of testRackAwareAssignmentWithNonEqualSubscription (general
/// path), including the cooperative assignor's intermediate round from the "owned" lists.
#[test]
fn test_rack_aware_assignment_with_non_equal_subscription() {
    let m = meta(&[("t1", 6), ("t2", 7), ("t3", 2)]);
    let all = ["t1", "t2", "t3"];
    let subscriptions: [&[&str]; 3] = [&all, &all, &["t1", "t3"]];
    let members: Vec<Subscription> = subscriptions.iter().enumerate().map(|(i, topics)| fresh(&format!("consumer{i}"), topics)).collect();
    let fresh_expected = [
        ("consumer0", "t1-5, t2-0, t2-2, t2-4, t2-6"),
        ("consumer1", "t1-3, t2-1, t2-3, t2-5, t3-0"),
        ("consumer2", "t1-0, t1-1, t1-2, t1-4, t3-1"),
    ];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &fresh_expected);
    // Owning the expected assignment (no generation) keeps it.
    let with = |lists: &[&str]| -> Vec<Subscription> {
        members.iter().zip(lists).map(|(s, list)| Subscription { owned: tps(list), ..s.clone() }).collect()
    };
    let run = both(&m, &with(&fresh_expected.map(|(_, l)| l)));
    expect(&run.sticky.assignment, &fresh_expected);

    // CooperativeStickyAssignor from misaligned ownership: an intermediate round, then the
    // final assignment.
    let owned = ["t1-0, t1-1, t1-2, t1-3, t1-4", "t1-5, t2-0, t2-1, t2-2, t2-3", "t2-4, t2-5, t2-6, t3-0, t3-1"];
    let intermediate = ["t1-2, t1-3, t1-4", "t2-0, t2-1, t2-2, t2-3", "t3-0, t3-1"];
    let final_lists = ["t1-2, t1-3, t1-4, t2-4, t2-5", "t2-0, t2-1, t2-2, t2-3, t2-6", "t1-0, t1-1, t1-5, t3-0, t3-1"];
    let first = assign(Strategy::CooperativeSticky, &m, &with(&owned)).unwrap().assignment;
    let names = ["consumer0", "consumer1", "consumer2"];
    expect(&first, &[(names[0], intermediate[0]), (names[1], intermediate[1]), (names[2], intermediate[2])]);
    let second = assign(Strategy::CooperativeSticky, &m, &with(&intermediate)).unwrap().assignment;
    expect(&second, &[(names[0], final_lists[0]), (names[1], final_lists[1]), (names[2], final_lists[2])]);
    // Kafka's StickyAssignor branch of this test expects the fresh assignment from the same
    // "owned" lists, but only because StickyAssignor reads ownership from its user data,
    // which `verifyRackAssignment` leaves empty: for it those members own nothing, as in the
    // fresh run above. With the lists as its MemberData, the eager result is the one below
    // (computed by running Kafka's AbstractStickyAssignor on this input): not the final
    // cooperative assignment, which starts from the intermediate ownership.
    expect(
        &sticky(&m, &with(&owned)).assignment,
        &[
            (names[0], "t1-2, t1-3, t1-4, t2-4, t2-6"),
            (names[1], "t2-0, t2-1, t2-2, t2-3, t2-5"),
            (names[2], "t1-0, t1-1, t1-5, t3-0, t3-1"),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// StickyAssignorTest and CooperativeStickyAssignorTest

#[test]
fn test_all_consumers_have_owned_partition_invalidated_when_claimed_by_multiple_consumers_in_same_generation_with_equal_partitions_per_consumer(
) {
    let m = meta(&[("topic", 3)]);
    let members = [
        owning("consumer1", &["topic"], "topic-0, topic-1", GENERATION_ID),
        owning("consumer2", &["topic"], "topic-0, topic-2", GENERATION_ID),
        owning("consumer3", &["topic"], "", GENERATION_ID),
    ];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("consumer1", "topic-1"), ("consumer2", "topic-2"), ("consumer3", "topic-0")]);
    // Cooperative: topic-0 counts as owned until both claimants revoke it.
    expect(&run.first, &[("consumer1", "topic-1"), ("consumer2", "topic-2"), ("consumer3", "")]);
    assert!(is_fully_balanced(&run.settled));
}

#[test]
fn test_all_consumers_have_owned_partition_invalidated_when_claimed_by_multiple_consumers_in_same_generation_with_unequal_partitions_per_consumer(
) {
    let m = meta(&[("topic", 4)]);
    let members = [
        owning("consumer1", &["topic"], "topic-0, topic-1", GENERATION_ID),
        owning("consumer2", &["topic"], "topic-0, topic-2", GENERATION_ID),
        owning("consumer3", &["topic"], "", GENERATION_ID),
    ];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("consumer1", "topic-1, topic-3"), ("consumer2", "topic-2"), ("consumer3", "topic-0")]);
    expect(&run.first, &[("consumer1", "topic-1, topic-3"), ("consumer2", "topic-2"), ("consumer3", "")]);
}

fn multiple_generations1(all_equal: bool) {
    let all = ["topic", "topic2"];
    let c2_topics: &[&str] = if all_equal { &all } else { &["topic"] };
    let m = meta(&[("topic", 6), ("topic2", 6)]);
    let members = vec![fresh("consumer1", &all), fresh("consumer2", c2_topics), fresh("consumer3", &all)];
    let r1 = sticky(&m, &members);
    verify_validity_and_balance(&m, &members, &r1.assignment);
    for id in ["consumer1", "consumer2", "consumer3"] {
        assert_eq!(count(&r1.assignment, id), 4);
    }

    let members2 = vec![owning("consumer1", &all, "", GENERATION_ID), owning("consumer2", c2_topics, "", GENERATION_ID)];
    let members2 = next_round(&members2, &r1.assignment, GENERATION_ID);
    let r2 = both(&m, &members2);
    let r2a = &r2.sticky.assignment;
    assert_eq!((count(r2a, "consumer1"), count(r2a, "consumer2")), (6, 6));
    if all_equal {
        assert!(set_of(r2a, "consumer1").is_superset(&set_of(&r1.assignment, "consumer1")));
    }
    assert!(set_of(r2a, "consumer2").is_superset(&set_of(&r1.assignment, "consumer2")));
    assert!(!set_of(r2a, "consumer2").is_disjoint(&set_of(&r1.assignment, "consumer3")));

    // consumer3 comes back with its generation-1 partitions; consumer2 is at generation 2.
    let members3 = [
        Subscription { owned: set_of(r2a, "consumer2").into_iter().collect(), generation: Some(2), ..fresh("consumer2", c2_topics) },
        Subscription { owned: set_of(&r1.assignment, "consumer3").into_iter().collect(), generation: Some(1), ..fresh("consumer3", &all) },
    ];
    let r3 = both(&m, &members3);
    let r3a = &r3.sticky.assignment;
    assert_eq!((count(r3a, "consumer2"), count(r3a, "consumer3")), (6, 6));
    assert!(set_of(r3a, "consumer2").is_disjoint(&set_of(r3a, "consumer3")));
}

#[test]
fn test_assignment_with_multiple_generations1() {
    multiple_generations1(true);
    multiple_generations1(false);
}

fn multiple_generations2(all_equal: bool) {
    let all = ["topic", "topic2", "topic3"];
    let c1_topics: &[&str] = if all_equal { &all } else { &["topic"] };
    let c3_topics: &[&str] = if all_equal { &all } else { &["topic", "topic2"] };
    let m = meta(&[("topic", 4), ("topic2", 4), ("topic3", 4)]);
    let members = [fresh("consumer1", c1_topics), fresh("consumer2", &all), fresh("consumer3", c3_topics)];
    let r1 = sticky(&m, &members);
    verify_validity_and_balance(&m, &members, &r1.assignment);
    for id in ["consumer1", "consumer2", "consumer3"] {
        assert_eq!(count(&r1.assignment, id), 4);
    }
    let owned = |a: &Assignment, id: &str| -> Vec<(String, u32)> { set_of(a, id).into_iter().collect() };

    let members2 = [Subscription { owned: owned(&r1.assignment, "consumer2"), generation: Some(1), ..fresh("consumer2", &all) }];
    let r2 = both(&m, &members2);
    assert_eq!(count(&r2.sticky.assignment, "consumer2"), 12);
    assert!(set_of(&r2.sticky.assignment, "consumer2").is_superset(&set_of(&r1.assignment, "consumer2")));

    let members3 = [
        Subscription { owned: owned(&r1.assignment, "consumer1"), generation: Some(1), ..fresh("consumer1", c1_topics) },
        Subscription { owned: owned(&r2.sticky.assignment, "consumer2"), generation: Some(2), ..fresh("consumer2", &all) },
        Subscription { owned: owned(&r1.assignment, "consumer3"), generation: Some(1), ..fresh("consumer3", c3_topics) },
    ];
    let r3 = both(&m, &members3);
    for id in ["consumer1", "consumer2", "consumer3"] {
        assert_eq!(count(&r3.sticky.assignment, id), 4);
    }
}

#[test]
fn test_assignment_with_multiple_generations2() {
    multiple_generations2(true);
    multiple_generations2(false);
}

fn conflicting_previous_generations(all_equal: bool) {
    let m = meta(&[("topic", 4), ("topic2", 4), ("topic3", 4)]);
    let all = ["topic", "topic2", "topic3"];
    let c1_topics: &[&str] = if all_equal { &all } else { &["topic"] };
    let c2_topics: &[&str] = if all_equal { &all } else { &["topic", "topic2"] };
    let c1_owned = if all_equal { "topic-0, topic-1, topic-2, topic2-2, topic2-3, topic3-0" } else { "topic-0, topic-1, topic-2, topic-3" };
    let c2_owned = "topic-0, topic-1, topic2-0, topic2-1, topic2-2, topic2-3";
    let c3_owned = "topic-2, topic-3, topic3-0, topic3-1, topic3-2, topic3-3";
    let members =
        [owning("consumer1", c1_topics, c1_owned, 1), owning("consumer2", c2_topics, c2_owned, 2), owning("consumer3", &all, c3_owned, 2)];
    let run = both(&m, &members);
    let a = &run.sticky.assignment;
    for id in ["consumer1", "consumer2", "consumer3"] {
        assert_eq!(count(a, id), 4, "{a:?}");
    }
    assert!(set(c2_owned).is_superset(&set_of(a, "consumer2")));
    assert!(set(c3_owned).is_superset(&set_of(a, "consumer3")));
}

#[test]
fn test_assignment_with_conflicting_previous_generations() {
    conflicting_previous_generations(true);
    conflicting_previous_generations(false);
}

/// consumer2's user data in the old schema carries no generation.
#[test]
fn test_schema_backward_compatibility() {
    let m = meta(&[("topic", 3)]);
    let members = [
        owning("consumer1", &["topic"], "topic-0, topic-2", 1),
        Subscription { owned: tps("topic-1"), ..fresh("consumer2", &["topic"]) },
        fresh("consumer3", &["topic"]),
    ];
    let run = both(&m, &members);
    let a = &run.sticky.assignment;
    for id in ["consumer1", "consumer2", "consumer3"] {
        assert_eq!(count(a, id), 1);
    }
    assert!(set("topic-0, topic-2").is_superset(&set_of(a, "consumer1")));
    assert!(set("topic-1").is_superset(&set_of(a, "consumer2")));
}

#[test]
fn test_assignor_with_old_version_subscriptions() {
    let m = meta(&[("topic1", 3)]);
    let members = [
        owning("consumer1", &["topic1"], "topic1-0", GENERATION_ID),
        owning("consumer2", &["topic1"], "topic1-1", GENERATION_ID),
        owning("consumer3", &["topic1"], "", GENERATION_ID),
    ];
    let run = both(&m, &members);
    let expected = [("consumer1", "topic1-0"), ("consumer2", "topic1-1"), ("consumer3", "topic1-2")];
    expect(&run.sticky.assignment, &expected);
    expect(&run.first, &expected);
}

// ---------------------------------------------------------------------------------------
// The StickyAssignor javadoc (kafka-semantics S5 and §10).

#[test]
fn s5_javadoc_example_1_and_its_stale_second_half() {
    let m = meta(&[("t0", 2), ("t1", 2), ("t2", 2), ("t3", 2)]);
    let all = ["t0", "t1", "t2", "t3"];
    let members = vec![fresh("C0", &all), fresh("C1", &all), fresh("C2", &all)];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("C0", "t0-0, t1-1, t3-0"), ("C1", "t0-1, t2-0, t3-1"), ("C2", "t1-0, t2-1")]);
    // C1 leaves. The javadoc says C0 gets t2p0 and C2 t0p1, t3p1; the code (§10) gives C0
    // t0p1 and C2 t2p0, t3p1.
    let members = next_round(&without(&members, "C1"), &run.sticky.assignment, 1);
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("C0", "t0-0, t1-1, t3-0, t0-1"), ("C2", "t1-0, t2-1, t2-0, t3-1")]);
}

#[test]
fn javadoc_example_2_still_matches() {
    let m = meta(&[("t0", 1), ("t1", 2), ("t2", 3)]);
    let members = vec![fresh("C0", &["t0"]), fresh("C1", &["t0", "t1"]), fresh("C2", &["t0", "t1", "t2"])];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("C0", "t0-0"), ("C1", "t1-0, t1-1"), ("C2", "t2-0, t2-1, t2-2")]);
    let members = next_round(&without(&members, "C0"), &run.sticky.assignment, 1);
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("C1", "t1-0, t1-1, t0-0"), ("C2", "t2-0, t2-1, t2-2")]);
}

/// A fresh group with equal subscriptions is partition i -> member i % C in member-id
/// order, ignoring `group.instance.id` (kafka-semantics §5).
#[test]
fn fresh_equal_group_deals_by_member_id_ignoring_instance_ids() {
    let m = meta(&[("t", 5)]);
    let members = [fresh("b", &["t"]).with_instance_id("i0"), fresh("a", &["t"]), fresh("c", &["t"]).with_instance_id("i9")];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("a", "t-0, t-3"), ("b", "t-1, t-4"), ("c", "t-2")]);
}

/// Members with no topics visited before the first non-empty subscription do not break
/// `allSubscriptionsEqual` (Kafka re-reads the topic set while it is empty), so they get
/// partitions of topics they did not subscribe to; visited later, they make the path general.
#[test]
fn empty_subscription_first_in_hash_order_is_taken_as_equal() {
    let m = meta(&[("t", 2)]);
    // consumer3 is visited first (bucket 10), consumer1 last (bucket 12).
    let empty_first = [fresh("consumer1", &["t"]), fresh("consumer3", &[])];
    let outcome = sticky(&m, &empty_first);
    assert!(outcome.all_subscriptions_equal);
    expect(&outcome.assignment, &[("consumer1", "t-0"), ("consumer3", "t-1")]);
    let empty_last = [fresh("consumer1", &[]), fresh("consumer3", &["t"])];
    let outcome = sticky(&m, &empty_last);
    assert!(!outcome.all_subscriptions_equal);
    expect(&outcome.assignment, &[("consumer1", ""), ("consumer3", "t-0, t-1")]);
}

/// Claims resolved in HashMap order: consumer3, consumer2, consumer1. Generations 1, 1, 2:
/// consumer3 and consumer2 void t-0, then consumer1 (generation 2) claims it, but a
/// partition with multiple previous owners is dropped from every owner.
#[test]
fn double_claim_then_higher_generation_in_hash_order() {
    let m = meta(&[("t", 3)]);
    let members =
        [owning("consumer1", &["t"], "t-0", 2), owning("consumer2", &["t"], "t-0, t-1", 1), owning("consumer3", &["t"], "t-0, t-2", 1)];
    let outcome = sticky(&m, &members);
    expect(&outcome.assignment, &[("consumer1", "t-0"), ("consumer2", "t-1"), ("consumer3", "t-2")]);
    // t-0 is handed out again, so the cooperative assignor withholds it.
    expect_transferring(&outcome, &[("t", 0, "consumer1")]);
    assert_eq!(outcome.warnings.len(), 2);
    // A member listing a partition twice voids its own claim.
    let twice = [owning("consumer1", &["t"], "t-2, t-2", 1), owning("consumer2", &["t"], "", 1)];
    let outcome = sticky(&m, &twice);
    expect_transferring(&outcome, &[("t", 2, "consumer1")]);
}

/// Owned partitions beyond the topic's partition count are ignored (documented deviation).
#[test]
fn out_of_range_owned_partitions_are_ignored() {
    let m = meta(&[("t", 2)]);
    let members = [owning("a", &["t"], "t-5, t-1", 1), owning("b", &["t"], "", 1)];
    let run = both(&m, &members);
    expect(&run.sticky.assignment, &[("a", "t-1"), ("b", "t-0")]);
}

/// 2,000 partitions and 100 members, with ownership, through both paths and both
/// assignors: validity and balance only, no timing (it runs in milliseconds in debug).
#[test]
fn two_thousand_partitions_hundred_members() {
    let m = meta(&[("a", 1000), ("b", 1000)]);
    let members: Vec<Subscription> = (0..100).map(|i| fresh(&format!("member-{i}"), &["a", "b"])).collect();
    let first = sticky(&m, &members);
    assert!(first.all_subscriptions_equal);
    verify_validity_and_balance(&m, &members, &first.assignment);
    // Ten leave, one joins with a narrower subscription: the general path.
    let mut next = next_round(&members, &first.assignment, 1);
    next.truncate(90);
    next.push(fresh("late", &["a"]));
    let second = sticky(&m, &next);
    assert!(!second.all_subscriptions_equal);
    verify_validity_and_balance(&m, &next, &second.assignment);
    // The same two rounds under the cooperative assignor: valid first rounds.
    for group in [&members, &next] {
        let first_round = assign(Strategy::CooperativeSticky, &m, group).unwrap().assignment;
        let mut seen = BTreeSet::new();
        for member in group.iter() {
            for tp in set_of(&first_round, &member.member_id) {
                assert!(member.subscribes_to(&tp.0));
                assert!(seen.insert(tp));
            }
        }
    }
    // A fresh group of 100 with mixed subscriptions over 20 topics of 100 partitions.
    let topics: Vec<String> = (0..20).map(|i| canonical("t", i, 20)).collect();
    let m: BTreeMap<String, u32> = topics.iter().map(|t| (t.clone(), 100)).collect();
    let members: Vec<Subscription> =
        (0..100).map(|i| Subscription { topics: topics[i % 7..].to_vec(), ..Subscription::new(&canonical("c", i, 100), &[]) }).collect();
    let run = sticky(&m, &members);
    verify_validity_and_balance(&m, &members, &run.assignment);
}

/// Kafka's general path gives a partition back to its owner from an older generation
/// (`prevAssignment`) without checking that the owner still subscribes to its topic:
/// consumer3 (generation 1, now subscribed to `u` only) gets t-5 back. Computed by running
/// Kafka's AbstractStickyAssignor on this input; reproduced on purpose (see `general`).
#[test]
fn previous_owner_from_older_generation_gets_its_partition_back_unsubscribed() {
    let m = meta(&[("t", 6), ("u", 1)]);
    let members = [
        owning("consumer1", &["t"], "t-0, t-1, t-2, t-3, t-4, t-5", 2),
        owning("consumer2", &["t", "u"], "u-0", 2),
        owning("consumer3", &["u"], "t-5", 1),
    ];
    let outcome = sticky(&m, &members);
    expect(&outcome.assignment, &[("consumer1", "t-2, t-3, t-4"), ("consumer2", "t-0, t-1, u-0"), ("consumer3", "t-5")]);
    // computePartitionsTransferringOwnership uses raw ownership: consumer3 "owned" t-5, so
    // only t-0 and t-1 are withheld, although consumer1 still holds t-5 as well.
    let first = assign(Strategy::CooperativeSticky, &m, &members).unwrap().assignment;
    expect(&first, &[("consumer1", "t-2, t-3, t-4"), ("consumer2", "u-0"), ("consumer3", "t-5")]);
}

// ---------------------------------------------------------------------------------------
// Properties.

/// Per member: owned partition picks (topic index, partition) and a generation pick.
type Draw = (Vec<(u8, u8)>, Option<u8>);

fn build(counts: &[u32], draws: &[Draw]) -> (BTreeMap<String, u32>, Vec<Subscription>) {
    let names: Vec<String> = (0..counts.len()).map(|i| format!("t{i}")).collect();
    let metadata = names.iter().cloned().zip(counts.iter().copied()).collect();
    let members = draws
        .iter()
        .enumerate()
        .map(|(i, (owned, generation))| Subscription {
            member_id: format!("m{}", (i * 7) % 13),
            group_instance_id: None,
            topics: names.clone(),
            owned: owned
                .iter()
                .map(|&(t, p)| {
                    let t = t as usize % counts.len();
                    (names[t].clone(), u32::from(p) % counts[t])
                })
                .collect(),
            generation: generation.map(|g| i32::from(g % 4)),
        })
        .collect();
    (metadata, members)
}

/// Where Kafka's sticky assignors give `m` partition `topic`-`p` although `m` does not
/// subscribe to `topic`:
/// - the constrained path with `m`'s subscription empty (see
///   [`super::read_ownership`]: members with no topics visited first count as equal);
/// - the general path handing the partition back to `m` as its previous owner from an older
///   generation (`prevAssignment`), whether or not `m` still subscribes to the topic (see
///   [`super::general`]).
fn kafka_gives_unsubscribed(outcome: &StickyOutcome, m: &Subscription, max_generation: i32, topic: &str, p: u32) -> bool {
    if outcome.all_subscriptions_equal {
        return m.topics.is_empty();
    }
    let older = match m.generation {
        Some(g) => g < max_generation,
        None => max_generation > super::DEFAULT_GENERATION,
    };
    older && m.owned.iter().any(|(t, q)| t == topic && *q == p)
}

fn check_valid_balanced_sticky(
    metadata: &BTreeMap<String, u32>,
    members: &[Subscription],
    outcome: &StickyOutcome,
) -> Result<(), TestCaseError> {
    let mut owner: BTreeMap<(String, u32), &str> = BTreeMap::new();
    for (id, topics) in &outcome.assignment {
        for (t, ps) in topics {
            for p in ps {
                prop_assert!(owner.insert((t.clone(), *p), id).is_none());
            }
        }
    }
    let total: u32 = metadata.values().sum();
    prop_assert_eq!(owner.len() as u32, total);
    let counts: Vec<usize> = members.iter().map(|m| count(&outcome.assignment, &m.member_id)).collect();
    let (min, max) = (counts.iter().min().copied().unwrap_or(0), counts.iter().max().copied().unwrap_or(0));
    prop_assert!(max - min <= 1, "counts {:?}", counts);
    // Sticky: a member keeps everything it owned uncontested at the newest generation it
    // shares with nobody else, as long as that fits within minQuota.
    let min_quota = total as usize / members.len();
    let mut claims: BTreeMap<(String, u32), Vec<(usize, i32)>> = BTreeMap::new();
    for (i, m) in members.iter().enumerate() {
        for tp in &m.owned {
            claims.entry(tp.clone()).or_default().push((i, m.generation.unwrap_or(-1)));
        }
    }
    for (i, m) in members.iter().enumerate() {
        let mine: BTreeSet<(String, u32)> = m.owned.iter().filter(|tp| claims[*tp].len() == 1).cloned().collect();
        if mine.len() <= min_quota && mine.len() == m.owned.len() {
            let kept = set_of(&outcome.assignment, &m.member_id);
            prop_assert!(kept.is_superset(&mine), "member {} lost some of {:?}", i, mine);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn equal_subscriptions_valid_balanced_sticky(
        counts in proptest::collection::vec(1u32..9, 1..4),
        draws in proptest::collection::vec(
            (proptest::collection::vec((proptest::prelude::any::<u8>(), proptest::prelude::any::<u8>()), 0..6),
             proptest::option::of(proptest::prelude::any::<u8>())),
            1..7),
    ) {
        let (metadata, members) = build(&counts, &draws);
        let outcome = sticky_assign(&metadata, &members).unwrap();
        prop_assert!(outcome.all_subscriptions_equal);
        check_valid_balanced_sticky(&metadata, &members, &outcome)?;

        // Cooperative: nothing goes to a new owner while another member still owns it.
        let first = outcome.cooperative_first_round();
        let owned_by: BTreeMap<(String, u32), Vec<&str>> = members.iter().fold(BTreeMap::new(), |mut acc, m| {
            for tp in &m.owned {
                acc.entry(tp.clone()).or_insert_with(Vec::new).push(m.member_id.as_str());
            }
            acc
        });
        for m in &members {
            let owned: BTreeSet<&(String, u32)> = m.owned.iter().collect();
            for tp in set_of(&first, &m.member_id) {
                if owned.contains(&tp) {
                    continue;
                }
                let others: Vec<&&str> = owned_by.get(&tp).map(|v| v.iter().collect()).unwrap_or_default();
                // Another owner either keeps nothing of it or is this member.
                for other in others {
                    let other_keeps = set_of(&outcome.assignment, other).contains(&tp);
                    prop_assert!(*other == m.member_id.as_str() || other_keeps,
                        "{:?} given to {} while {} still owns it", tp, m.member_id, other);
                }
            }
        }
        // And the withheld partitions are exactly the transferring ones.
        let withheld: usize = outcome.transferring.len();
        let full: usize = members.iter().map(|m| count(&outcome.assignment, &m.member_id)).sum();
        let partial: usize = members.iter().map(|m| count(&first, &m.member_id)).sum();
        prop_assert_eq!(full - partial, withheld);
    }

    #[test]
    fn unequal_subscriptions_valid(
        counts in proptest::collection::vec(1u32..7, 2..5),
        masks in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<bool>(), 4), 1..7),
        owned in proptest::collection::vec((proptest::prelude::any::<u8>(), proptest::prelude::any::<u8>(), 0u8..7), 0..15),
        generations in proptest::collection::vec(proptest::option::of(0i32..3), 7),
    ) {
        let names: Vec<String> = (0..counts.len()).map(|i| format!("t{i}")).collect();
        let metadata: BTreeMap<String, u32> = names.iter().cloned().zip(counts.iter().copied()).collect();
        let mut members: Vec<Subscription> = masks.iter().enumerate().map(|(i, mask)| Subscription {
            member_id: format!("c{i}"),
            group_instance_id: None,
            topics: names.iter().zip(mask).filter(|(_, on)| **on).map(|(t, _)| t.clone()).collect(),
            owned: Vec::new(),
            generation: generations[i],
        }).collect();
        for (t, p, m) in owned {
            let t = t as usize % counts.len();
            let m = m as usize % members.len();
            members[m].owned.push((names[t].clone(), u32::from(p) % counts[t]));
        }
        let outcome = sticky_assign(&metadata, &members).unwrap();
        // Valid: each partition of a subscribed topic once, to a subscriber, except where
        // Kafka itself gives a member a partition of a topic it does not subscribe to.
        let max_generation = members.iter().map(|m| m.generation.unwrap_or(-1)).max().unwrap_or(-1);
        let mut owner: BTreeMap<(String, u32), String> = BTreeMap::new();
        for m in &members {
            for (t, ps) in &outcome.assignment[&m.member_id] {
                for p in ps {
                    prop_assert!(
                        m.subscribes_to(t) || kafka_gives_unsubscribed(&outcome, m, max_generation, t, *p),
                        "{} got {}-{}: {:?}", m.member_id, t, p, outcome.assignment
                    );
                    prop_assert!(owner.insert((t.clone(), *p), m.member_id.clone()).is_none());
                }
            }
        }
        for (t, n) in &metadata {
            if members.iter().any(|m| m.subscribes_to(t)) {
                for p in 0..*n {
                    prop_assert!(owner.contains_key(&(t.clone(), p)));
                }
            }
        }
    }
}
