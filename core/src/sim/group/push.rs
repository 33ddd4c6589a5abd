//! Push delivery — **not Kafka, a teaching device** (group setting `delivery: push`).
//!
//! Kafka's consumers pull (`docs/design.html`, "Push vs. pull"): a consumer fetches when
//! it is ready, at most `max.poll.records` a poll, so a slow consumer falls behind *in the
//! log* (lag) and never holds more than one poll's worth. Under push the broker sends
//! every newly committed record to the partition's owner as soon as the high watermark
//! passes it, whether or not the member asked: no fetch, no `max.poll.records`
//! back-pressure. The member queues what it cannot process yet; while production outpaces
//! processing that buffer grows without bound, until it passes the group's
//! `push_buffer_max_records` and the member runs out of memory and crashes
//! (`PushOverwhelmed`, then `MemberCrashed`): its buffer is gone, its partitions go to
//! another member after `session.timeout.ms`, which is pushed everything from the
//! committed offset at once — and is overwhelmed in turn.
//!
//! What stays Kafka's: the group protocol (assignment, heartbeats, commits), offsets,
//! the HW as the limit of what is sent. Auto-commit still runs inside the member's
//! `poll()`, which under push only happens when its buffer is empty (so a commit never
//! covers a record still buffered). A push counts as the application's `poll()` for
//! `max.poll.interval.ms`. The broker's push cursor (the next offset it sends) is kept
//! per member and partition; it starts at the member's position and follows it back
//! after a rebalance or a crash.

use super::*;
use crate::config::DeliveryMode;
use crate::event::PushEvent;
use crate::group::Phase;

/// Something scheduled in push delivery (not Kafka, a teaching device): one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PushPending {
    /// Push (not Kafka — a teaching device): records the broker pushed reach the member.
    PushArrive { group: Name, client_id: Name, token: u64, records: Vec<Fetched> },
}

/// Most records one push carries (a bound on the work of one event; the next HW advance
/// or the member's next `poll()` sends the rest).
pub(crate) const PUSH_MAX_RECORDS: u32 = 10_000;

/// Where the broker is in pushing each member's partitions: (group, client id, partition)
/// → (the member's token when it was set, the next offset to push).
pub(crate) type PushCursors = VecMap<(String, String, TopicPartition), (u64, u64)>;

/// `push_buffer_max_records` within its row, [`crate::limits::PUSH_BUFFER_MAX_RECORDS`].
pub(crate) fn check_push_config(group: &str, c: &crate::config::GroupConfig) -> Result<(), CommandError> {
    if !crate::limits::PUSH_BUFFER_MAX_RECORDS.allows(c.push_buffer_max_records.into()) {
        return Err(CommandError::PushBuffer { group: group.to_string(), value: c.push_buffer_max_records });
    }
    Ok(())
}

impl Consumers {
    /// Whether the group gets its records pushed.
    pub(in crate::sim) fn push_delivery(&self, group_id: &str) -> bool {
        self.groups.get(group_id).is_some_and(|g| g.config.delivery == DeliveryMode::Push)
    }

    /// The HW of `tp` moved: push what is newly committed to its owner in every push group.
    pub(in crate::sim) fn push_new_records(&mut self, tp: &TopicPartition, cluster: &Cluster, out: &mut Driver) {
        let mut targets = Vec::new();
        for g in self.groups.values() {
            if g.config.delivery != DeliveryMode::Push || !g.topics.iter().any(|t| t == tp.topic) {
                continue;
            }
            for m in &g.members {
                if m.phase != Phase::Crashed && m.assigned.contains(tp) && m.positions.contains_key(tp) {
                    targets.push((g.id.clone(), m.client_id.clone()));
                }
            }
        }
        for (group, client_id) in targets {
            self.push_partition(&group, &client_id, tp, cluster, out);
        }
    }

    /// The member's `poll()` under push: no fetch; the broker pushes whatever committed
    /// records it has not pushed yet for every partition the member has a position in.
    pub(in crate::sim) fn push_all(&mut self, group_id: &str, client_id: &str, cluster: &Cluster, out: &mut Driver) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let tps: Vec<TopicPartition> = m.assigned.iter().filter(|tp| m.positions.contains_key(*tp)).cloned().collect();
        for tp in tps {
            self.push_partition(group_id, client_id, &tp, cluster, out);
        }
    }

    /// Sends the member every committed record of `tp` from the push cursor on.
    fn push_partition(&mut self, group_id: &str, client_id: &str, tp: &TopicPartition, cluster: &Cluster, out: &mut Driver) {
        let Some(m) = self.groups.get(group_id).and_then(|g| g.member(client_id)) else { return };
        let Some(&position) = m.positions.get(tp) else { return };
        let token = m.token;
        let key = (group_id.to_string(), client_id.to_string(), tp.clone());
        // A cursor from an older token, or behind the position (a seek forward), restarts
        // at the position.
        let from = match self.push_cursors.get(&key) {
            Some(&(t, next)) if t == token && next >= position => next,
            _ => position,
        };
        let Some(part) = cluster.partition(tp) else { return };
        let Some(leader) = part.leader else { return };
        if !cluster.reachable(leader) {
            return;
        }
        let Some(log) = part.logs.get(&leader) else { return };
        let hw = log.high_watermark();
        // Transaction markers are never handed to the application (`txn/fetch.rs`).
        let records: Vec<Fetched> =
            log.read_committed(from, PUSH_MAX_RECORDS).iter().map(|r| (tp.clone(), r.clone(), hw, r.record.is_control(), from)).collect();
        let Some(last) = records.last().map(|(_, r, _, _, _)| r.offset) else { return };
        self.push_cursors.insert(key, (token, last + 1));
        let at = out.now.plus_ms(out.latency());
        out.at(at, PushPending::PushArrive { group: group_id.into(), client_id: client_id.into(), token, records });
    }

    /// Pushed records reach the member: all go into its buffer. Processing runs one record
    /// at a time (`processing_ms`); past `push_buffer_max_records` the member is overwhelmed.
    pub(in crate::sim) fn push_arrive(&mut self, group_id: &str, client_id: &str, token: u64, records: Vec<Fetched>, out: &mut Driver) {
        let now = out.now;
        let kept = out.options.received_per_member;
        let Some(group) = self.groups.get_mut(group_id) else { return };
        let limit = group.config.push_buffer_max_records;
        // The members and `processed` are borrowed apart (fields of the group).
        let group_name = group.id.clone();
        let Some(member) = group.members.iter_mut().find(|m| m.client_id == client_id) else { return };
        if member.token != token || member.phase == Phase::Crashed {
            return;
        }
        let idle = member.processing.is_empty();
        let mut delivered = Vec::new();
        let mut tp_pushed = None;
        // Offsets passed with nothing to process (hidden records, the cleaner's gaps).
        let mut nothing = Vec::new();
        for (tp, stored, high_watermark, hidden, from) in records {
            let before = member.positions.get(&tp).copied().unwrap_or(stored.offset);
            if hidden {
                if member.skip(&tp, stored.offset, from) {
                    nothing.push((tp, before.min(stored.offset), stored.offset + 1));
                }
                continue;
            }
            if let Some(e) = member.hand_over(&group_name, tp.clone(), &stored, (high_watermark, from), now, kept) {
                nothing.push((tp.clone(), before, stored.offset));
                tp_pushed = Some(tp);
                delivered.push(e);
            }
        }
        crate::group::OffsetRanges::account(&mut group.processed, nothing);
        let Some(tp) = tp_pushed else { return };
        // The push is what the application's poll() would have returned.
        member.last_poll = now;
        member.activity = Activity::Processing;
        let buffered = member.processing.len() as u32;
        let processing_ms = member.config.processing_ms;
        let count = delivered.len() as u32;
        for e in delivered {
            out.emit(e);
        }
        out.emit(EventKind::Push(PushEvent::RecordsPushed { group: group_id.into(), client_id: client_id.into(), tp, count, buffered }));
        if buffered > limit {
            out.emit(EventKind::Push(PushEvent::PushOverwhelmed { group: group_id.into(), client_id: client_id.into(), buffered, limit }));
            self.crash_member(group_id, client_id, out);
            return;
        }
        if idle {
            out.at(
                now.plus_ms(processing_ms),
                ConsumePending::ProcessingDone { group: group_id.into(), client_id: client_id.into(), token },
            );
        }
    }
}

impl Sim {
    /// Applies a scheduled event of push delivery (not Kafka, a teaching device).
    pub(in crate::sim) fn handle_push(&mut self, pending: PushPending) {
        match pending {
            PushPending::PushArrive { group, client_id, token, records } => {
                self.consumers.push_arrive(&group, &client_id, token, records, &mut self.out)
            }
        }
    }
}
