//! Client-side consumer group assignors (classic protocol): `range`, `roundrobin`, `sticky` and `cooperative-sticky`.
//!
//! The group leader runs one of these over every member's subscription
//! (`ConsumerCoordinator.onLeaderElected`). All follow `AbstractPartitionAssignor`:
//! only topics with metadata (a partition count above 0) are assigned, and every member
//! gets an entry even if it is empty. Range and roundrobin order members by
//! [`AbstractPartitionAssignor.MemberInfo`](member_cmp) (static members first); the sticky
//! assignors ignore `group.instance.id`, read each member's owned partitions and
//! generation, and depend on Java `HashMap` order (see [`sticky`]).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

mod java_hash;
mod lists;
pub mod range;
pub mod roundrobin;
pub mod server;
pub mod simple;
pub mod sticky;

pub use crate::config::{Strategy, UnknownStrategy};
pub use lists::AssignmentLists;
pub(crate) use lists::{Topics, Tp, NO_OWNER};

/// One member's JoinGroup metadata as the leader sees it (`ConsumerPartitionAssignor.Subscription`
/// plus the member id and `group.instance.id`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscription {
    /// The member id the coordinator gave it (`client.id-UUID`); unique in the group,
    /// and what Range and RoundRobin order dynamic members by.
    pub member_id: String,
    /// `group.instance.id`: set for static members (KIP-345).
    pub group_instance_id: Option<String>,
    /// Subscribed topics. Kafka sends a set; duplicates here are ignored.
    pub topics: Vec<String>,
    /// Partitions the member owns (`MemberData.partitions`: the cooperative protocol's
    /// `ownedPartitions`, or StickyAssignor's user data); read only by the sticky assignors.
    pub owned: Vec<(String, u32)>,
    /// The generation the owned partitions come from (`MemberData.generation`); `None` is
    /// `DEFAULT_GENERATION` (-1). Read only by the sticky assignors.
    pub generation: Option<i32>,
}

impl Subscription {
    /// A dynamic member with no owned partitions.
    pub fn new(member_id: &str, topics: &[&str]) -> Self {
        Self {
            member_id: member_id.to_string(),
            group_instance_id: None,
            topics: topics.iter().map(|t| t.to_string()).collect(),
            owned: Vec::new(),
            generation: None,
        }
    }

    /// The same member with a `group.instance.id` (a static member).
    pub fn with_instance_id(mut self, instance_id: &str) -> Self {
        self.group_instance_id = Some(instance_id.to_string());
        self
    }

    /// Whether the member subscribes to `topic`.
    pub fn subscribes_to(&self, topic: &str) -> bool {
        self.topics.iter().any(|t| t == topic)
    }
}

/// Member id -> topic -> partitions (ascending).
pub type Assignment = BTreeMap<String, BTreeMap<String, Vec<u32>>>;

/// The result of an assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignOutcome {
    /// Every member is present (possibly with an empty map); topics with no partitions
    /// for a member are omitted; partitions are ascending.
    pub assignment: Assignment,
    /// What Kafka would log, e.g. a subscribed topic without metadata.
    pub warnings: Vec<String>,
}

/// Why an assignment could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AssignError {
    /// Two subscriptions carry the same member id.
    DuplicateMember(String),
    /// The strategy is not implemented in the simulator. Every [`Strategy`] is now; the
    /// variant stays for callers that match on it.
    Unsupported(Strategy),
    /// The subscribed topics hold more partitions than the simulator assigns at once.
    TooManyPartitions {
        /// The partitions of every subscribed topic, summed.
        partitions: u64,
        /// The bound, [`MAX_ASSIGNED_PARTITIONS`].
        limit: u64,
    },
}

impl fmt::Display for AssignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssignError::DuplicateMember(id) => {
                write!(f, "member id {id:?} appears more than once; member ids in a group are unique")
            }
            AssignError::Unsupported(strategy) => write!(f, "the {strategy} assignor is not supported"),
            AssignError::TooManyPartitions { partitions, limit } => {
                write!(f, "the subscribed topics have {partitions} partitions in total; the simulator assigns at most {limit}")
            }
        }
    }
}

impl std::error::Error for AssignError {}

/// An input a group leader never receives from Kafka's coordinator, which the assignors
/// need not (and Kafka's do not) handle sensibly.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImpossibleInput {
    /// Two members with one `group.instance.id`: the coordinator fences the older member
    /// when a new one joins with its instance id (`ClassicGroup.replaceStaticMember`,
    /// KIP-345), so a JoinGroup answer lists each instance id once.
    DuplicateInstanceId {
        /// The instance id.
        instance_id: String,
        /// Index (in `members`) of the first member carrying it.
        first: usize,
        /// Index of the second.
        second: usize,
    },
    /// An owned partition at or above its topic's partition count. A consumer owns what
    /// an earlier assignment over the cluster's metadata gave it, and partition counts never
    /// shrink. Kafka's sticky assignors would hand the partition out again, or throw.
    OwnedPartitionMissing {
        /// Index of the member in `members`.
        member: usize,
        /// Index of the entry in its `owned`.
        index: usize,
        /// The owned partition's topic.
        topic: String,
        /// The owned partition's number.
        partition: u32,
        /// The topic's partition count (above 0).
        count: u32,
    },
}

impl fmt::Display for ImpossibleInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImpossibleInput::DuplicateInstanceId { instance_id, first, second } => write!(
                f,
                "members[{second}].group_instance_id: {instance_id:?} is also members[{first}]'s; group instance ids must be unique (the coordinator fences the older member when another joins with its instance id)"
            ),
            ImpossibleInput::OwnedPartitionMissing { member, index, topic, partition, count } => write!(
                f,
                "members[{member}].owned[{index}]: partition {partition} of topic {topic:?} does not exist (it has {count}, 0 to {}); a member owns only partitions that exist, and partition counts never shrink",
                count - 1
            ),
        }
    }
}

impl std::error::Error for ImpossibleInput {}

/// Checks that a group leader could receive `members` from Kafka's coordinator with
/// `partitions_per_topic` as its metadata: unique `group.instance.id`s, and owned
/// partitions below their topic's partition count. An owned partition of a topic without
/// metadata (absent, or 0 partitions) is allowed: a topic can be deleted while owned, and
/// every assignor ignores it.
pub fn check_leader_input(partitions_per_topic: &BTreeMap<String, u32>, members: &[Subscription]) -> Result<(), ImpossibleInput> {
    let mut instances: BTreeMap<&str, usize> = BTreeMap::new();
    for (m, member) in members.iter().enumerate() {
        if let Some(instance_id) = &member.group_instance_id {
            if let Some(&first) = instances.get(instance_id.as_str()) {
                return Err(ImpossibleInput::DuplicateInstanceId { instance_id: instance_id.clone(), first, second: m });
            }
            instances.insert(instance_id, m);
        }
        for (index, (topic, partition)) in member.owned.iter().enumerate() {
            match partitions_per_topic.get(topic) {
                Some(&count) if count > 0 && *partition >= count => {
                    return Err(ImpossibleInput::OwnedPartitionMissing {
                        member: m,
                        index,
                        topic: topic.clone(),
                        partition: *partition,
                        count,
                    });
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The most partitions (over all subscribed topics) one assignment may cover: a bound
/// on memory and time for input typed by a person.
pub const MAX_ASSIGNED_PARTITIONS: u64 = 1_000_000;

/// Java's `String.compareTo`: lexicographic over UTF-16 code units.
///
/// This differs from Rust's `str` order (UTF-8 bytes, i.e. code points) only when a
/// supplementary-plane character (a surrogate pair, 0xD800..0xDFFF) meets a character in
/// U+E000..U+FFFF: Java puts the surrogate first.
pub fn java_cmp(a: &str, b: &str) -> Ordering {
    // Fast path (member ids are sorted often, and are nearly always ASCII): at the first
    // differing byte, if neither byte is 0xEE or above (a lead byte of U+E000..U+FFFF or
    // of a supplementary character), both characters there are of the same kind (a shared
    // lead byte, or both below U+E000), where UTF-8 byte order is UTF-16 order. A string
    // that is a prefix of the other is a prefix in UTF-16 too.
    let (x, y) = (a.as_bytes(), b.as_bytes());
    match x.iter().zip(y).position(|(p, q)| p != q) {
        None => x.len().cmp(&y.len()),
        Some(i) if x[i] < 0xEE && y[i] < 0xEE => x[i].cmp(&y[i]),
        Some(_) => a.encode_utf16().cmp(b.encode_utf16()),
    }
}

/// `AbstractPartitionAssignor.MemberInfo.compareTo`: static members (with a
/// `group.instance.id`) first, ordered by instance id, then dynamic members by member id.
///
/// Two static members with the same instance id cannot be in one group (the coordinator
/// fences the older one); if the input has them anyway, the member id breaks the tie so the
/// order stays deterministic (Java would keep its HashMap order).
pub fn member_cmp(a: &Subscription, b: &Subscription) -> Ordering {
    match (&a.group_instance_id, &b.group_instance_id) {
        (Some(x), Some(y)) => java_cmp(x, y).then_with(|| java_cmp(&a.member_id, &b.member_id)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => java_cmp(&a.member_id, &b.member_id),
    }
}

/// Indices of `members` in [`member_cmp`] order, given them in member id order (`by_id`,
/// as [`prepare`] sorts them): the same order unless some member is static.
pub(crate) fn member_order(members: &[Subscription], by_id: &[u32]) -> Vec<u32> {
    let mut order = by_id.to_vec();
    if members.iter().any(|m| m.group_instance_id.is_some()) {
        crate::sorted::sort_by(&mut order, |a, b| member_cmp(&members[*a as usize], &members[*b as usize]));
    }
    order
}

/// Runs `strategy` over `members`, given the partition count of every topic in the
/// cluster metadata (topics not subscribed are ignored).
///
/// As in `AbstractPartitionAssignor.assign(Cluster, GroupSubscription)`, a subscribed topic
/// whose partition count is missing or 0 is skipped, with the warning Kafka logs.
///
/// The sticky assignors read each member's `owned` partitions and `generation`, and take
/// `members` in JoinGroup-response order: Kafka's leader puts them into a `HashMap` in that
/// order, and ties within a hash bucket follow it (see [`sticky`]).
/// - [`Strategy::Sticky`] returns `StickyAssignor`'s assignment (eager protocol: every
///   member has already revoked everything).
/// - [`Strategy::CooperativeSticky`] returns `CooperativeStickyAssignor`'s assignment, which
///   is the FIRST-ROUND (cooperative) one: the sticky assignment with every partition that
///   changes owner withheld (`adjustAssignment`). Those partitions are assigned to nobody in
///   this round; their owners revoke them and rejoin, and the next rebalance, with the new
///   ownership, hands them out. [`sticky::sticky_assign`] gives the full sticky assignment
///   and the withheld partitions.
///
/// In two corner cases Kafka's sticky assignors give a member partitions of a topic it does
/// not subscribe to; they are reproduced (see [`sticky`], "Invalid results Kafka produces").
pub fn assign(
    strategy: Strategy,
    partitions_per_topic: &BTreeMap<String, u32>,
    members: &[Subscription],
) -> Result<AssignOutcome, AssignError> {
    assign_lists(strategy, partitions_per_topic, members).map(AssignmentLists::into_outcome)
}

/// [`assign`]'s answer as each member's list of partitions, without building maps (what the
/// simulated group leader hands its members).
pub fn assign_lists<'a>(
    strategy: Strategy,
    partitions_per_topic: &BTreeMap<String, u32>,
    members: &'a [Subscription],
) -> Result<AssignmentLists<'a>, AssignError> {
    let Prepared { topics, warnings, by_id } = prepare(partitions_per_topic, members)?;
    let topics = Topics::new(&topics);
    Ok(match strategy {
        Strategy::Range | Strategy::RoundRobin => {
            let mut owners = vec![NO_OWNER; topics.total()];
            let order = member_order(members, &by_id);
            if strategy == Strategy::Range {
                range::assign_sorted(&topics, members, &order, &mut owners);
            } else {
                roundrobin::assign_sorted(&topics, members, &order, &mut owners);
            }
            AssignmentLists::from_owners(members, &topics, &owners, warnings)
        }
        Strategy::Sticky | Strategy::CooperativeSticky => {
            sticky::assign_lists(&topics, members, &by_id, strategy == Strategy::CooperativeSticky, warnings)
        }
    })
}

/// The checked input every assignor starts from.
pub(crate) struct Prepared<'a> {
    /// The subscribed topics with metadata (count > 0), in Java `TreeSet<String>` order.
    pub(crate) topics: Vec<(&'a str, u32)>,
    /// "Skipping assignment for topic ..." for the others.
    pub(crate) warnings: Vec<String>,
    /// Indices of the members in Java `String` order of their ids.
    pub(crate) by_id: Vec<u32>,
}

/// Rejects repeated member ids and oversized groups; lists the assignable topics.
pub(crate) fn prepare<'a>(partitions_per_topic: &BTreeMap<String, u32>, members: &'a [Subscription]) -> Result<Prepared<'a>, AssignError> {
    let mut by_id: Vec<u32> = (0u32..).take(members.len()).collect();
    crate::sorted::sort_by(&mut by_id, |a, b| java_cmp(&members[*a as usize].member_id, &members[*b as usize].member_id));
    if by_id.windows(2).any(|w| members[w[0] as usize].member_id == members[w[1] as usize].member_id) {
        // Name the first id repeated in input order.
        let mut ids = BTreeSet::new();
        for member in members {
            if !ids.insert(member.member_id.as_str()) {
                return Err(AssignError::DuplicateMember(member.member_id.clone()));
            }
        }
    }

    // All subscribed topics, in Java's TreeSet<String> order. Members usually share one
    // list: each list is read once.
    let mut subscribed: Vec<&str> = Vec::new();
    let mut previous: Option<&[String]> = None;
    for member in members {
        if previous == Some(member.topics.as_slice()) {
            continue;
        }
        previous = Some(&member.topics);
        subscribed.extend(member.topics.iter().map(String::as_str));
    }
    crate::sorted::sort_by(&mut subscribed, |a, b| java_cmp(a, b));
    subscribed.dedup();

    let mut warnings = Vec::new();
    let mut topics: Vec<(&str, u32)> = Vec::new();
    let mut total: u64 = 0;
    for topic in subscribed {
        match partitions_per_topic.get(topic) {
            Some(&n) if n > 0 => {
                topics.push((topic, n));
                total += u64::from(n);
            }
            _ => warnings.push(format!("Skipping assignment for topic {topic} since no metadata is available")),
        }
    }
    if total > MAX_ASSIGNED_PARTITIONS {
        return Err(AssignError::TooManyPartitions { partitions: total, limit: MAX_ASSIGNED_PARTITIONS });
    }
    Ok(Prepared { topics, warnings, by_id })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
pub(crate) mod testutil {
    //! Helpers shared by the assignor tests.

    use super::*;

    /// Parses Kafka test notation "t1-0, t1-1, t2-0" into topic -> partitions.
    pub fn parse(list: &str) -> BTreeMap<String, Vec<u32>> {
        let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for item in list.split(", ").filter(|s| !s.is_empty()) {
            let dash = item.rfind('-').unwrap();
            let topic = &item[..dash];
            let partition: u32 = item[dash + 1..].parse().unwrap();
            out.entry(topic.to_string()).or_default().push(partition);
        }
        for partitions in out.values_mut() {
            partitions.sort_unstable();
        }
        out
    }

    pub fn topics(list: &[(&str, u32)]) -> BTreeMap<String, u32> {
        list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
    }

    /// Runs `strategy` and checks every member's assignment against Kafka test notation.
    pub fn check(strategy: Strategy, partitions: &[(&str, u32)], members: &[Subscription], expected: &[(&str, &str)]) -> AssignOutcome {
        let outcome = assign(strategy, &topics(partitions), members).unwrap();
        let expected: Assignment = expected.iter().map(|(member, list)| (member.to_string(), parse(list))).collect();
        assert_eq!(outcome.assignment, expected);
        outcome
    }

    /// `consumer0..consumerN` with the given subscriptions (AbstractPartitionAssignorTest naming).
    pub fn numbered(subscriptions: &[&[&str]]) -> Vec<Subscription> {
        subscriptions.iter().enumerate().map(|(i, topics)| Subscription::new(&format!("consumer{i}"), topics)).collect()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::testutil::*;
    use super::*;
    // The explicit import wins over both globs: `Strategy` is the assignment strategy here.
    use super::Strategy;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest, TestCaseError};
    use proptest::strategy::Strategy as _;

    #[test]
    fn java_cmp_orders_by_utf16_units() {
        // U+1F600 is the surrogate pair D83D DE00; U+FF21 is one unit FF21.
        let emoji = "\u{1F600}";
        let fullwidth_a = "\u{FF21}";
        assert_eq!(java_cmp(emoji, fullwidth_a), Ordering::Less);
        assert_eq!(emoji.cmp(fullwidth_a), Ordering::Greater, "Rust's str order differs");
        assert_eq!(java_cmp("a", "b"), Ordering::Less);
        assert_eq!(java_cmp("ab", "a"), Ordering::Greater);
        assert_eq!(java_cmp("", ""), Ordering::Equal);
        assert_eq!(java_cmp("consumer10", "consumer2"), Ordering::Less);
    }

    proptest! {
        /// The byte fast path agrees with comparing UTF-16 units, including characters
        /// on both sides of U+E000 and supplementary ones, and shared lead bytes.
        #[test]
        fn java_cmp_fast_path_matches_utf16(
            a in proptest::collection::vec(0usize..9, 0..6),
            b in proptest::collection::vec(0usize..9, 0..6),
        ) {
            const CHARS: [char; 9] =
                ['a', 'b', '\u{e9}', '\u{D7FF}', '\u{E000}', '\u{FF21}', '\u{FF22}', '\u{1F600}', '\u{1F601}'];
            let a: String = a.into_iter().map(|i| CHARS[i]).collect();
            let b: String = b.into_iter().map(|i| CHARS[i]).collect();
            prop_assert_eq!(java_cmp(&a, &b), a.encode_utf16().cmp(b.encode_utf16()));
        }
    }

    #[test]
    fn member_order_static_first_by_instance_id() {
        let members = vec![
            Subscription::new("a", &[]),
            Subscription::new("z", &[]).with_instance_id("i2"),
            Subscription::new("c", &[]),
            Subscription::new("b", &[]).with_instance_id("i1"),
            Subscription::new("x\u{FF21}", &[]),
            Subscription::new("x\u{1F600}", &[]),
        ];
        let by_id = prepare(&BTreeMap::new(), &members).unwrap().by_id;
        let order: Vec<&str> = member_order(&members, &by_id).iter().map(|&m| members[m as usize].member_id.as_str()).collect();
        assert_eq!(order, vec!["b", "z", "a", "c", "x\u{1F600}", "x\u{FF21}"]);
    }

    #[test]
    fn strategy_names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(s.to_string().parse::<Strategy>(), Ok(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{}\"", s.name()));
            assert_eq!(serde_json::from_str::<Strategy>(&format!("\"{}\"", s.name())).unwrap(), s);
        }
        assert!("round-robin".parse::<Strategy>().is_err());
        let err = "Range".parse::<Strategy>().unwrap_err();
        assert!(err.to_string().contains("unknown assignment strategy \"Range\""));
    }

    #[test]
    fn every_strategy_is_supported() {
        for s in Strategy::ALL {
            let outcome = assign(s, &topics(&[("t", 1)]), &[Subscription::new("c", &["t"])]).unwrap();
            assert_eq!(outcome.assignment["c"]["t"], vec![0], "{s}");
        }
    }

    #[test]
    fn duplicate_member_is_rejected() {
        let members = [Subscription::new("c", &["t"]), Subscription::new("c", &["t"])];
        let err = assign(Strategy::Range, &topics(&[("t", 2)]), &members).unwrap_err();
        assert_eq!(err, AssignError::DuplicateMember("c".into()));
    }

    #[test]
    fn too_many_partitions_is_rejected() {
        let members = [Subscription::new("c", &["t", "u"])];
        let err = assign(Strategy::RoundRobin, &topics(&[("t", 600_000), ("u", 600_000)]), &members).unwrap_err();
        assert!(matches!(err, AssignError::TooManyPartitions { partitions: 1_200_000, .. }));
    }

    #[test]
    fn missing_and_empty_topics_warn() {
        for strategy in Strategy::ALL {
            let outcome =
                check(strategy, &[("t", 2), ("empty", 0)], &[Subscription::new("c", &["t", "missing", "empty"])], &[("c", "t-0, t-1")]);
            assert_eq!(
                outcome.warnings,
                vec![
                    "Skipping assignment for topic empty since no metadata is available",
                    "Skipping assignment for topic missing since no metadata is available",
                ]
            );
        }
    }

    #[test]
    fn no_members_no_assignment() {
        for strategy in Strategy::ALL {
            let outcome = assign(strategy, &topics(&[("t", 3)]), &[]).unwrap();
            assert!(outcome.assignment.is_empty());
        }
    }

    #[test]
    fn duplicate_topics_in_a_subscription_count_once() {
        let members = [Subscription::new("c1", &["t", "t"]), Subscription::new("c2", &["t"])];
        check(Strategy::Range, &[("t", 4)], &members, &[("c1", "t-0, t-1"), ("c2", "t-2, t-3")]);
        check(Strategy::RoundRobin, &[("t", 4)], &members, &[("c1", "t-0, t-2"), ("c2", "t-1, t-3")]);
    }

    /// Per member: which topics it subscribes to, and maybe a static instance number.
    type MemberDraw = (Vec<bool>, Option<u8>);

    /// A random group: topic partition counts (None = no metadata) and members.
    fn group() -> impl proptest::strategy::Strategy<Value = (Vec<Option<u32>>, Vec<MemberDraw>)> {
        (1usize..5).prop_flat_map(|n_topics| {
            (
                proptest::collection::vec(proptest::option::weighted(0.85, 0u32..12), n_topics),
                proptest::collection::vec((proptest::collection::vec(any::<bool>(), n_topics), proptest::option::of(0u8..6)), 1..8),
            )
        })
    }

    fn build(counts: &[Option<u32>], members: &[MemberDraw]) -> (BTreeMap<String, u32>, Vec<Subscription>) {
        let metadata: BTreeMap<String, u32> = counts.iter().enumerate().filter_map(|(i, n)| n.map(|n| (format!("t{i}"), n))).collect();
        let mut used_instances = BTreeSet::new();
        let subs = members
            .iter()
            .enumerate()
            .map(|(i, (mask, instance))| {
                let topics: Vec<String> = mask.iter().enumerate().filter(|(_, on)| **on).map(|(t, _)| format!("t{t}")).collect();
                // Member ids deliberately not in index order.
                let mut sub = Subscription {
                    member_id: format!("m{}", (i * 7) % 11),
                    group_instance_id: None,
                    topics,
                    owned: Vec::new(),
                    generation: None,
                };
                if let Some(inst) = instance {
                    if used_instances.insert(*inst) {
                        sub.group_instance_id = Some(format!("i{inst}"));
                    }
                }
                sub
            })
            .collect();
        (metadata, subs)
    }

    /// Whether Kafka's sticky assignors may give `member` partitions of topics it does not
    /// subscribe to: `allSubscriptionsEqual` takes its topic set from the first member in
    /// HashMap order whose set is not empty, so members with an empty subscription visited
    /// before it do not make the path general, and `ConstrainedAssignmentBuilder` deals
    /// them partitions like everyone else (see `sticky::read_ownership`). That needs every
    /// non-empty subscription to be the same set.
    fn sticky_empty_subscription_quirk(strategy: Strategy, members: &[Subscription], member: &Subscription) -> bool {
        let set = |m: &Subscription| m.topics.iter().cloned().collect::<BTreeSet<String>>();
        let mut non_empty = members.iter().filter(|m| !m.topics.is_empty()).map(set);
        let first = non_empty.next();
        matches!(strategy, Strategy::Sticky | Strategy::CooperativeSticky)
            && member.topics.is_empty()
            && non_empty.all(|s| Some(&s) == first.as_ref())
    }

    fn check_complete(
        strategy: Strategy,
        metadata: &BTreeMap<String, u32>,
        members: &[Subscription],
        outcome: &AssignOutcome,
    ) -> Result<(), TestCaseError> {
        prop_assert_eq!(outcome.assignment.len(), members.len());
        let mut owner: BTreeMap<(String, u32), String> = BTreeMap::new();
        for (member_id, topics) in &outcome.assignment {
            let member = members.iter().find(|m| &m.member_id == member_id);
            prop_assert!(member.is_some());
            let member = member.unwrap();
            for (topic, partitions) in topics {
                prop_assert!(!partitions.is_empty());
                prop_assert!(
                    member.subscribes_to(topic) || sticky_empty_subscription_quirk(strategy, members, member),
                    "{} got unsubscribed {} from {}",
                    member_id,
                    topic,
                    strategy
                );
                prop_assert!(partitions.windows(2).all(|w| w[0] < w[1]));
                for p in partitions {
                    prop_assert!(owner.insert((topic.clone(), *p), member_id.clone()).is_none());
                }
            }
        }
        for (topic, n) in metadata {
            if *n == 0 || !members.iter().any(|m| m.subscribes_to(topic)) {
                continue;
            }
            for p in 0..*n {
                prop_assert!(owner.contains_key(&(topic.clone(), p)), "{}-{} unassigned", topic, p);
            }
        }
        // Nothing beyond the subscribed partitions.
        let expected: u32 = metadata.iter().filter(|(t, _)| members.iter().any(|m| m.subscribes_to(t))).map(|(_, n)| *n).sum();
        prop_assert_eq!(owner.len() as u32, expected);
        Ok(())
    }

    proptest! {
        #[test]
        fn every_subscribed_partition_assigned_exactly_once((counts, members) in group()) {
            let (metadata, subs) = build(&counts, &members);
            for strategy in Strategy::ALL {
                let outcome = assign(strategy, &metadata, &subs).unwrap();
                check_complete(strategy, &metadata, &subs, &outcome)?;
            }
        }

        #[test]
        fn equal_subscriptions_are_balanced(
            counts in proptest::collection::vec(1u32..15, 1..5),
            n_members in 1usize..8,
            statics in proptest::collection::vec(any::<bool>(), 8),
        ) {
            let all: Vec<String> = (0..counts.len()).map(|i| format!("t{i}")).collect();
            let metadata: BTreeMap<String, u32> =
                all.iter().cloned().zip(counts.iter().copied()).collect();
            let subs: Vec<Subscription> = (0..n_members)
                .map(|i| Subscription {
                    member_id: format!("m{i}"),
                    group_instance_id: statics[i].then(|| format!("inst{}", 9 - i)),
                    topics: all.clone(),
                    owned: Vec::new(),
                    generation: None,
                })
                .collect();

            let rr = assign(Strategy::RoundRobin, &metadata, &subs).unwrap();
            check_complete(Strategy::RoundRobin, &metadata, &subs, &rr)?;
            let totals: Vec<usize> = rr.assignment.values()
                .map(|t| t.values().map(Vec::len).sum())
                .collect();
            let (min, max) = (totals.iter().min().unwrap(), totals.iter().max().unwrap());
            prop_assert!(max - min <= 1, "roundrobin totals {:?}", totals);

            let range = assign(Strategy::Range, &metadata, &subs).unwrap();
            check_complete(Strategy::Range, &metadata, &subs, &range)?;
            for topic in &all {
                let per: Vec<usize> = range.assignment.values()
                    .map(|t| t.get(topic).map_or(0, Vec::len))
                    .collect();
                let (min, max) = (per.iter().min().unwrap(), per.iter().max().unwrap());
                prop_assert!(max - min <= 1, "range {} counts {:?}", topic, per);
            }
        }
    }
}
