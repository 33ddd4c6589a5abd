//! The rebalance timeline: per group, the newest group-protocol events read from the trace,
//! and why each member last left. Plain data fed after every action, tested natively.

/// What the jump buttons look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpKind {
    /// A rebalance starts (classic) or a group epoch goes up (KIP-848).
    Rebalance,
    /// A broker or consumer fails, or a broker is cut off.
    Fault,
    /// A guarantee monitor finds something.
    Finding,
}

impl JumpKind {
    /// Its name in the buttons' ids (`jump-next-rebalance`): the variant's, in lower case.
    pub fn id(self) -> &'static str {
        match self {
            JumpKind::Rebalance => "rebalance",
            JumpKind::Fault => "fault",
            JumpKind::Finding => "finding",
        }
    }
}

/// Which jump target an event is, if any: the core's [`EventKind::jump`] (findings are
/// counted by the monitors).
pub fn jump_kind(e: &EventKind) -> Option<JumpKind> {
    e.jump().map(|j| match j {
        Jump::Rebalance => JumpKind::Rebalance,
        Jump::Fault => JumpKind::Fault,
    })
}

use kafka_sandbox_core::event::{ConsumeEvent, ConsumerProtocolEvent, GroupEvent};
use kafka_sandbox_core::event::{Event, EventKind, Jump, LeaveReason};
use kafka_sandbox_core::vecmap::VecMap;
use kafka_sandbox_core::{Sim, SimTime};
use std::collections::VecDeque;
use std::rc::Rc;

/// Protocol events kept per group (the timeline shows them newest first).
pub const TIMELINE_KEPT: usize = 30;
/// Members whose departure a group remembers (client ids come and go; the oldest go first).
const LEFT_KEPT: usize = 256;
/// Groups followed; the core allows 32.
const GROUPS_KEPT: usize = 64;

/// The group an event belongs to, if it is part of the group protocol's story.
/// Commits appear only while the group rebalances (`rebalancing`): outside a rebalance
/// they come every poll or every `auto.commit.interval.ms` and would bury the rest.
pub fn protocol_group(kind: &EventKind, rebalancing: bool) -> Option<&str> {
    use EventKind as E;
    match kind {
        E::Group(GroupEvent::GroupCreated { group })
        | E::Group(GroupEvent::MemberJoined { group, .. })
        | E::Group(GroupEvent::MemberLeft { group, .. })
        | E::Group(GroupEvent::JoinGroupSent { group, .. })
        | E::Group(GroupEvent::MemberIdRequired { group, .. })
        | E::Group(GroupEvent::StaticMemberReplaced { group, .. })
        | E::Group(GroupEvent::RebalanceNoticed { group, .. })
        | E::Group(GroupEvent::PartitionsRevoked { group, .. })
        | E::Group(GroupEvent::JoinPhaseCompleted { group, .. })
        | E::Group(GroupEvent::SyncGroupSent { group, .. })
        | E::Group(GroupEvent::MemberCrashed { group, .. })
        | E::Group(GroupEvent::MemberRestarted { group, .. })
        | E::Group(GroupEvent::MemberPaused { group, .. })
        | E::Group(GroupEvent::RebalanceStarted { group, .. })
        | E::Group(GroupEvent::PartitionsAssigned { group, .. })
        | E::Group(GroupEvent::GroupStable { group, .. })
        | E::ConsumerProtocol(ConsumerProtocolEvent::ConsumerGroupStable { group, .. })
        | E::ConsumerProtocol(ConsumerProtocolEvent::AssignmentReconciled { group, .. })
        | E::Group(GroupEvent::MetadataChangeNoticed { group, .. })
        | E::ConsumerProtocol(ConsumerProtocolEvent::ConsumerHeartbeatSent { group, .. })
        | E::ConsumerProtocol(ConsumerProtocolEvent::GroupEpochBumped { group, .. })
        | E::ConsumerProtocol(ConsumerProtocolEvent::TargetAssignmentComputed { group, .. })
        | E::ConsumerProtocol(ConsumerProtocolEvent::MemberReconciling { group, .. })
        | E::ConsumerProtocol(ConsumerProtocolEvent::ConsumerFailed { group, .. })
        | E::Group(GroupEvent::Subscribed { group, .. }) => Some(group),
        E::Consume(ConsumeEvent::CommitFailed { group, .. })
        | E::Consume(ConsumeEvent::PositionSet { group, .. })
        | E::Consume(ConsumeEvent::PositionReset { group, .. })
        | E::Consume(ConsumeEvent::TruncationDetected { group, .. })
        | E::Consume(ConsumeEvent::Seeked { group, .. }) => Some(group),
        E::Consume(ConsumeEvent::OffsetsCommitted { group, .. }) if rebalancing => Some(group),
        _ => None,
    }
}

/// What the page remembers of one group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupLog {
    /// The newest protocol events, oldest first.
    pub events: VecDeque<Event>,
    /// Why and when the coordinator last removed each member, by client id; cleared when
    /// the member joins again.
    pub left: VecMap<String, (SimTime, LeaveReason)>,
    /// Between RebalanceStarted and GroupStable.
    rebalancing: bool,
    /// Heartbeats that got REBALANCE_IN_PROGRESS again before their member rejoined (a
    /// consumer still in its batch hears it every `heartbeat.interval.ms` until its next
    /// `poll()`): by the sequence number of the first one kept, how many more and the
    /// newest's time. The timeline shows one line for them.
    pub repeated: VecMap<u64, (u32, SimTime)>,
}

impl GroupLog {
    fn push(&mut self, e: &Event) {
        if let EventKind::Group(GroupEvent::RebalanceNoticed { client_id, .. }) = &e.kind {
            if let Some(first) = self.pending_notice(client_id) {
                let entry = self.repeated.entry(first).or_insert((0, e.time));
                *entry = (entry.0 + 1, e.time);
                return;
            }
        }
        if self.events.len() == TIMELINE_KEPT {
            if let Some(old) = self.events.pop_front() {
                self.repeated.remove(&old.seq);
            }
        }
        self.events.push_back(e.clone());
    }

    /// The REBALANCE_IN_PROGRESS notice `client_id` got and has not acted on yet (no
    /// JoinGroup or leave since), by sequence number.
    fn pending_notice(&self, client_id: &str) -> Option<u64> {
        for e in self.events.iter().rev() {
            match &e.kind {
                EventKind::Group(GroupEvent::RebalanceNoticed { client_id: c, .. }) if c == client_id => return Some(e.seq),
                EventKind::Group(
                    GroupEvent::JoinGroupSent { client_id: c, .. }
                    | GroupEvent::MemberLeft { client_id: c, .. }
                    | GroupEvent::MemberCrashed { client_id: c, .. },
                ) if c == client_id => return None,
                _ => {}
            }
        }
        None
    }

    /// Why the coordinator removed `client_id`, if it did and it has not rejoined.
    pub fn left(&self, client_id: &str) -> Option<(SimTime, LeaveReason)> {
        self.left.get(client_id).copied()
    }
}

/// Every group's log, fed with the trace's new events after every action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupWatch {
    cursor: u64,
    groups: VecMap<String, Rc<GroupLog>>,
}

impl GroupWatch {
    pub fn ingest(&mut self, sim: &Sim) {
        use EventKind as E;
        let read = sim.read();
        let total = read.events_total();
        if total == self.cursor {
            return;
        }
        for e in read.events_since(self.cursor) {
            let Some(group) = protocol_group(&e.kind, true) else { continue };
            if !self.groups.contains_key(group) && self.groups.len() >= GROUPS_KEPT {
                continue;
            }
            let log = Rc::make_mut(self.groups.entry(group.to_string()).or_default());
            match &e.kind {
                E::Group(GroupEvent::RebalanceStarted { .. }) | E::ConsumerProtocol(ConsumerProtocolEvent::GroupEpochBumped { .. }) => {
                    log.rebalancing = true
                }
                E::Group(GroupEvent::GroupStable { .. }) | E::ConsumerProtocol(ConsumerProtocolEvent::ConsumerGroupStable { .. }) => {
                    log.rebalancing = false
                }
                E::Consume(ConsumeEvent::OffsetsCommitted { .. }) if !log.rebalancing => continue,
                E::Group(GroupEvent::MemberLeft { client_id, reason, .. }) => {
                    if log.left.len() >= LEFT_KEPT && !log.left.contains_key(client_id) {
                        let oldest = log.left.iter().min_by_key(|(_, (t, _))| *t).map(|(c, _)| c.clone());
                        if let Some(c) = oldest {
                            log.left.remove(&c);
                        }
                    }
                    log.left.insert(client_id.clone(), (e.time, *reason));
                }
                E::Group(GroupEvent::MemberJoined { client_id, .. }) | E::Group(GroupEvent::StaticMemberReplaced { client_id, .. }) => {
                    log.left.remove(client_id);
                }
                _ => {}
            }
            log.push(e);
        }
        self.cursor = total;
    }

    /// The log of `group` (empty if nothing happened to it yet).
    pub fn of(&self, group: &str) -> Rc<GroupLog> {
        self.groups.get(group).cloned().unwrap_or_default()
    }

    /// Every group's log, by group id (cheap: the logs are shared).
    pub fn all(&self) -> VecMap<String, Rc<GroupLog>> {
        self.groups.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::command::GroupCommand;
    use kafka_sandbox_core::scenario::Scenario;

    /// A button's id names the kind as when it was written with `Debug`, in lower case.
    #[test]
    fn jump_ids_are_the_kinds_names() {
        for k in [JumpKind::Rebalance, JumpKind::Fault, JumpKind::Finding] {
            assert_eq!(k.id(), format!("{k:?}").to_ascii_lowercase());
        }
    }

    pub(crate) fn two_members() -> Sim {
        let json = r#"{
          "version": 1, "seed": 11,
          "cluster": { "brokers": 3 },
          "topics": [{ "name": "orders", "partitions": 4 }],
          "producers": [{ "name": "Producer1", "config": { "partitioner": "round_robin" },
            "send": [{ "topic": "orders", "values": ["m1","m2","m3","m4","m5","m6","m7","m8"], "start_ms": 500, "interval_ms": 200 }] }],
          "groups": [{ "id": "shop", "topics": ["orders"], "config": { "auto_offset_reset": "earliest" },
            "members": [{ "client_id": "Consumer1", "config": { "session_timeout_ms": 6000 } },
                        { "client_id": "Consumer2", "config": { "session_timeout_ms": 6000 } }] }]
        }"#;
        let Ok(s) = Scenario::from_json(json) else { panic!("the test scenario parses") };
        let Ok(sim) = s.build() else { panic!("the test scenario builds") };
        sim
    }

    #[test]
    fn the_timeline_holds_the_protocol_story_and_no_producer_noise() {
        let mut sim = two_members();
        let mut watch = GroupWatch::default();
        sim.run_to(SimTime(12_000));
        watch.ingest(&sim);
        let log = watch.of("shop");
        assert!(log.events.iter().all(|e| protocol_group(&e.kind, true) == Some("shop")));
        assert!(log.events.iter().any(|e| matches!(e.kind, EventKind::Group(GroupEvent::MemberIdRequired { .. }))));
        assert!(log.events.iter().any(|e| matches!(e.kind, EventKind::Group(GroupEvent::GroupStable { generation: 1, .. }))));
        // Commits outside a rebalance (auto-commit every 5 s) are not part of the story.
        assert!(!log.events.iter().any(|e| matches!(e.kind, EventKind::Consume(ConsumeEvent::OffsetsCommitted { .. }))));
        assert!(log.events.len() <= TIMELINE_KEPT);
    }

    /// A consumer stuck in a long batch hears REBALANCE_IN_PROGRESS at every heartbeat
    /// until its next `poll()`: the timeline keeps one line for it, with the count, so the
    /// rest of the story is not pushed out.
    #[test]
    fn a_repeated_rebalance_in_progress_is_one_line_with_its_count() {
        let json = r#"{
          "version": 1, "seed": 11,
          "cluster": { "brokers": 3, "group_initial_rebalance_delay_ms": 0 },
          "topics": [{ "name": "orders", "partitions": 2 }],
          "producers": [{ "name": "p", "send": [{ "topic": "orders", "values": ["a","b","c","d","e","f"], "start_ms": 2000, "interval_ms": 10 }] }],
          "groups": [{ "id": "shop", "topics": ["orders"], "config": { "auto_offset_reset": "earliest" },
            "members": [{ "client_id": "Slow", "config": { "processing_ms": 20000, "max_poll_interval_ms": 300000 } }] }]
        }"#;
        let Ok(s) = Scenario::from_json(json) else { panic!("the test scenario parses") };
        let Ok(mut sim) = s.build() else { panic!("the test scenario builds") };
        let mut watch = GroupWatch::default();
        sim.run_to(SimTime(5_000));
        let Ok(()) =
            sim.apply(GroupCommand::AddMember { group: "shop".into(), member: kafka_sandbox_core::command::MemberSpec::new("Other") })
        else {
            panic!("the group exists")
        };
        sim.run_to(SimTime(60_000));
        watch.ingest(&sim);
        let log = watch.of("shop");
        let notices: Vec<&Event> = log
            .events
            .iter()
            .filter(|e| matches!(&e.kind, EventKind::Group(GroupEvent::RebalanceNoticed { client_id, .. }) if client_id == "Slow"))
            .collect();
        let heard = sim
            .read()
            .events()
            .filter(|e| matches!(&e.kind, EventKind::Group(GroupEvent::RebalanceNoticed { client_id, .. }) if client_id == "Slow"))
            .count();
        assert!(heard >= 3, "the stuck consumer heard it at several heartbeats ({heard})");
        assert_eq!(notices.len(), 1, "one line for the notices before it rejoined");
        let (more, _) = log.repeated.get(&notices[0].seq).copied().unwrap_or_default();
        assert_eq!(more as usize + 1, heard);
    }

    /// The timeline tells the story without member ids (`clientId-UUID`).
    #[test]
    fn the_timeline_names_members_by_client_id_only() {
        let mut sim = two_members();
        let mut watch = GroupWatch::default();
        sim.run_to(SimTime(12_000));
        watch.ingest(&sim);
        let ids: Vec<String> = sim.group("shop").into_iter().flat_map(|g| g.members()).map(|m| m.member_id().to_string()).collect();
        assert!(ids.iter().all(|id| id.len() > 20), "{ids:?}");
        for lang in [crate::i18n::Lang::En, crate::i18n::Lang::Zh] {
            for e in &watch.of("shop").events {
                let line = crate::i18n::timeline_line(lang, &e.kind);
                assert!(!ids.iter().any(|id| line.contains(id.as_str())), "{line}");
            }
        }
    }

    #[test]
    fn a_crashed_member_is_remembered_as_removed_for_its_session_timeout_until_it_rejoins() {
        let mut sim = two_members();
        let mut watch = GroupWatch::default();
        sim.run_to(SimTime(12_000));
        let Ok(()) = sim.apply(GroupCommand::CrashMember { group: "shop".into(), client_id: "Consumer2".into() }) else {
            panic!("the member exists")
        };
        sim.run_to(SimTime(30_000));
        watch.ingest(&sim);
        assert_eq!(watch.of("shop").left("Consumer2").map(|(_, r)| r), Some(LeaveReason::SessionTimeout));
        let Ok(()) = sim.apply(GroupCommand::RestartMember { group: "shop".into(), client_id: "Consumer2".into() }) else {
            panic!("the member exists")
        };
        sim.run_to(SimTime(45_000));
        watch.ingest(&sim);
        assert_eq!(watch.of("shop").left("Consumer2"), None);
        // Ingesting twice changes nothing.
        let before = watch.clone();
        watch.ingest(&sim);
        assert_eq!(watch, before);
    }
}
