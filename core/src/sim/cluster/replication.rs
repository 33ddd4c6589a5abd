//! Brokers and replication: follower fetching, the ISR, the high watermark, acks=all
//! completion, the controller's fencing and leader election, truncation (KIP-101).

use super::*;
use crate::cluster::FollowerState;
use crate::event::{ClusterEvent, ReplicationEvent, SettingsEvent};
use crate::event::{LossCause, LostRecord};

/// Something scheduled in replication, the brokers' lives and their periodic checks: one of `Pending`'s features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReplicationPending {
    /// A follower starts its next fetch from the leader.
    ReplicaFetchSend { tp: TopicPartition, follower: BrokerId, token: u64 },
    /// A follower's fetch reaches the leader.
    ReplicaFetchArrive { tp: TopicPartition, follower: BrokerId, leader: BrokerId, token: u64, fetch_offset: u64 },
    /// A follower's fetch got no answer within `replica.socket.timeout.ms`.
    ReplicaFetchDeadline { tp: TopicPartition, follower: BrokerId, token: u64, attempt: u64 },
    /// `replica.fetch.wait.max.ms` passed for a parked follower fetch.
    ReplicaFetchTimeout { id: u64 },
    /// The leader's answer reaches the follower.
    ReplicaFetchResponse {
        tp: TopicPartition,
        follower: BrokerId,
        token: u64,
        records: Vec<StoredRecord>,
        leader_hw: u64,
        leader_log_start: u64,
    },
    /// The controller has not heard from the broker for `broker.session.timeout.ms`.
    SessionExpiry { broker: BrokerId, incarnation: u64 },
    /// A (re)started or healed broker's registration reaches the controller;
    /// `unclean_shutdown` when it restarted after a crash (no clean-shutdown marker,
    /// `BrokerRegistrationRequest.previousBrokerEpoch`).
    BrokerRegistered { broker: BrokerId, incarnation: u64, unclean_shutdown: bool },
    /// A controlled shutdown has moved the broker's leaderships: the process stops.
    ShutdownComplete { broker: BrokerId, incarnation: u64 },
    /// The controller's preferred-leader elections (`auto.leader.rebalance.enable`),
    /// `leader.imbalance.check.interval.seconds` after it saw a partition led by another
    /// replica than its first (`QuorumController.maybeScheduleNextBalancePartitionLeaders`).
    BalanceLeaders,
    /// Leaders check their followers' lag every `replica.lag.time.max.ms` / 2.
    IsrCheck,
    /// Brokers delete what retention allows, every `log.retention.check.interval.ms`.
    RetentionCheck,
}

/// `replica.socket.timeout.ms`: a follower gives up on an unanswered fetch and retries.
const REPLICA_SOCKET_TIMEOUT_MS: u64 = 30_000;

/// Most records one follower fetch carries.
const REPLICA_FETCH_MAX_RECORDS: u32 = 500;

impl Cluster {
    // ----- topics -----------------------------------------------------------

    /// Creates a topic: replicas placed as Kafka's controller places them, the first
    /// replica of each partition its leader, every replica in the ISR, followers fetching.
    pub(in crate::sim) fn add_topic(
        &mut self,
        name: &str,
        partitions: u32,
        replication_factor: u32,
        config: TopicConfig,
        out: &mut Driver,
    ) {
        self.add_topic_with_id(name, None, partitions, replication_factor, config, out);
    }

    /// [`Cluster::add_topic`] with the topic id: the one given, else derived from the
    /// run's seed and the name ([`Uuid::derived`](crate::uuid::Uuid::derived)), the next
    /// draw of that stream if another topic has it.
    pub(in crate::sim) fn add_topic_with_id(
        &mut self,
        name: &str,
        id: Option<crate::uuid::Uuid>,
        partitions: u32,
        replication_factor: u32,
        config: TopicConfig,
        out: &mut Driver,
    ) {
        let taken = |id: &crate::uuid::Uuid| self.topics.values().any(|t| t.id == *id);
        let id = match id {
            Some(id) => id,
            None => {
                let mut rng = crate::uuid::Uuid::stream(out.seed(), name);
                let mut id = crate::uuid::Uuid::random(&mut rng);
                while taken(&id) {
                    id = crate::uuid::Uuid::random(&mut rng);
                }
                id
            }
        };
        let brokers: Vec<BrokerId> = self.brokers.keys().copied().collect();
        let assignment = place_replicas(&mut out.rng, &brokers, partitions, replication_factor);
        let topic = Topic::new(name, id, config, assignment);
        self.topics.insert(name.to_string(), topic);
        for p in 0..partitions {
            self.announce_new_partition(&TopicPartition::new(name, p), out);
        }
        self.ensure_cleaner(out);
    }

    /// The topic grows: new partitions are placed, led by their first replica, and start
    /// replicating. Producers see them at once (the sandbox's metadata is instant).
    pub(in crate::sim) fn add_partitions(&mut self, name: &str, partitions: u32, out: &mut Driver) {
        let brokers: Vec<BrokerId> = self.brokers.iter().filter(|(_, b)| !b.fenced && b.reachable()).map(|(id, _)| *id).collect();
        let Some(topic) = self.topics.get(name) else { return };
        let old = topic.partition_count();
        let rf = topic.replication_factor().min(brokers.len() as u32).max(1);
        let segment = topic.config.segment_config();
        let assignment = place_replicas(&mut out.rng, &brokers, partitions - old, rf);
        let Some(topic) = self.topics.get_mut(name) else { return };
        for replicas in assignment {
            topic.partitions.push(Partition::with_segment_config(replicas, segment));
        }
        out.emit(EventKind::Cluster(ClusterEvent::PartitionsAdded { topic: name.to_string(), partitions }));
        for p in old..partitions {
            self.announce_new_partition(&TopicPartition::new(name, p), out);
        }
    }

    /// A new partition's first leader (its first replica, epoch 0) goes in the trace and
    /// its followers start fetching.
    fn announce_new_partition(&mut self, tp: &TopicPartition, out: &mut Driver) {
        out.emit(EventKind::Replication(ReplicationEvent::LeaderElected {
            topic: tp.topic.clone(),
            partition: tp.partition,
            leader: self.partition(tp).and_then(|p| p.leader),
            epoch: 0,
            isr: self.partition(tp).map(|p| p.isr.clone()).unwrap_or_default(),
            unclean: false,
        }));
        self.start_followers(tp, out);
    }

    // ----- followers ------------------------------------------------------

    /// (Re)starts the fetch loop of every follower of `tp`; older loops die.
    pub(in crate::sim) fn start_followers(&mut self, tp: &TopicPartition, out: &mut Driver) {
        let Some(part) = self.partition(tp) else { return };
        let followers: Vec<BrokerId> = part.replicas.iter().copied().filter(|b| Some(*b) != part.leader).collect();
        self.replication.parked.retain(|f| &f.tp != tp);
        for follower in followers {
            let token = self.replication.tokens.entry((tp.clone(), follower)).or_insert(0);
            *token += 1;
            let token = *token;
            let now = out.now;
            out.at(now, ReplicationPending::ReplicaFetchSend { tp: tp.clone(), follower, token });
        }
    }

    fn replica_token_current(&self, tp: &TopicPartition, follower: BrokerId, token: u64) -> bool {
        self.replication.tokens.get(&(tp.clone(), follower)) == Some(&token)
    }

    /// A follower sends its next fetch. Before the first fetch from a new leader it
    /// truncates its log to where it diverges from the leader's (KIP-101: the end offset
    /// of its last epoch on the leader; the `OffsetsForLeaderEpoch` round trip is folded in).
    pub(in crate::sim) fn replica_fetch_send(&mut self, tp: &TopicPartition, follower: BrokerId, token: u64, out: &mut Driver) {
        if !self.replica_token_current(tp, follower, token) || !self.reachable(follower) {
            return;
        }
        let Some(part) = self.partition(tp) else { return };
        let Some(leader) = part.leader else { return };
        if leader == follower {
            return;
        }
        if !part.logs.contains_key(&leader) || !part.logs.contains_key(&follower) {
            return;
        }
        if !self.reachable(leader) {
            // The request is lost on the wire; try again after the socket timeout.
            self.await_replica_fetch(tp, follower, token, out);
            return;
        }
        // OffsetsForLeaderEpoch (KIP-101, KIP-279): the leader answers with the largest
        // epoch it has that is not above the follower's last one, and where that epoch
        // ends in its log. If it is an older epoch, the follower's own end of that epoch
        // bounds the match, and the follower asks again for its new last epoch, until the
        // two agree (the round trips are folded into this fetch).
        let mut truncations = Vec::new();
        for _ in 0..16 {
            let Some(part) = self.partition(tp) else { return };
            let (Some(leader_log), Some(own)) = (part.logs.get(&leader), part.logs.get(&follower)) else { return };
            if own.log_end_offset() == own.log_start_offset() {
                break;
            }
            let requested = own.last_epoch();
            let common = leader_log.records().iter().rev().find(|r| r.leader_epoch <= requested).map(|r| r.leader_epoch);
            let (diverge, again) = match common {
                Some(epoch) if epoch < requested => (leader_log.end_offset_for_epoch(epoch).min(own.end_offset_for_epoch(epoch)), true),
                Some(epoch) => (leader_log.end_offset_for_epoch(epoch), false),
                // Nothing in common: keep only what lies before the leader's first record.
                None => (leader_log.log_start_offset(), false),
            };
            let diverge = diverge.min(own.log_end_offset());
            if diverge >= own.log_end_offset() {
                break;
            }
            let Some(log) = self.partition_mut(tp).and_then(|p| p.logs.get_mut(&follower)) else { return };
            let removed = log.truncate_to(diverge);
            truncations.push((diverge, removed.iter().map(|r| r.record.id).collect::<Vec<_>>()));
            if !again {
                break;
            }
        }
        for (from_offset, records) in truncations {
            out.emit(EventKind::Replication(ReplicationEvent::RecordsTruncated {
                topic: tp.topic.clone(),
                partition: tp.partition,
                broker: follower,
                from_offset,
                records,
            }));
        }
        let fetch_offset = self.partition(tp).and_then(|p| p.logs.get(&follower)).map(|l| l.log_end_offset()).unwrap_or(0);
        let slow = self.brokers.get(&follower).map(|b| b.slow_ms).unwrap_or(0);
        let at = out.now.plus_ms(out.latency() + slow);
        out.at(at, ReplicationPending::ReplicaFetchArrive { tp: tp.clone(), follower, leader, token, fetch_offset });
        self.await_replica_fetch(tp, follower, token, out);
    }

    /// A fetch lost on the wire is retried after `replica.socket.timeout.ms` (30000).
    fn await_replica_fetch(&mut self, tp: &TopicPartition, follower: BrokerId, token: u64, out: &mut Driver) {
        let slow = self.brokers.get(&follower).map(|b| b.slow_ms).unwrap_or(0);
        let attempt = self.replication.next_fetch;
        self.replication.next_fetch += 1;
        self.replication.pending.insert((tp.clone(), follower), attempt);
        let deadline = out.now.plus_ms(REPLICA_SOCKET_TIMEOUT_MS + slow);
        out.at(deadline, ReplicationPending::ReplicaFetchDeadline { tp: tp.clone(), follower, token, attempt });
    }

    /// The leader takes a follower's fetch: it learns the follower's LEO (which may move
    /// the HW or bring the follower back into the ISR), then answers with what follows,
    /// or holds the fetch until there is something.
    pub(in crate::sim) fn replica_fetch_arrive(
        &mut self,
        tp: &TopicPartition,
        follower: BrokerId,
        leader: BrokerId,
        token: u64,
        fetch_offset: u64,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) {
        if !self.reachable(leader) || !self.replica_token_current(tp, follower, token) {
            return;
        }
        let now = out.now;
        let Some(part) = self.partition_mut(tp) else { return };
        if part.leader != Some(leader) {
            return;
        }
        let leader_leo = part.logs.get(&leader).map(|l| l.log_end_offset()).unwrap_or(0);
        let state = part.followers.entry(follower).or_default();
        // `Replica.updateFetchState`: caught up if the fetch reached the leader's end now,
        // or the end the leader had at this follower's previous fetch.
        if fetch_offset >= leader_leo {
            state.last_caught_up = now;
        } else if fetch_offset >= state.last_fetch_leader_leo {
            state.last_caught_up = state.last_caught_up.max(state.last_fetch_at);
        }
        state.leo = fetch_offset;
        state.last_fetch_at = now;
        state.last_fetch_leader_leo = leader_leo;
        self.maybe_expand_isr(tp, follower, consumers, out);
        self.maybe_advance_hw(tp, consumers, out);
        if fetch_offset < leader_leo {
            self.answer_replica_fetch(tp, follower, token, fetch_offset, out);
        } else {
            let id = self.replication.next_fetch;
            self.replication.next_fetch += 1;
            self.replication.parked.push(ParkedReplicaFetch { id, tp: tp.clone(), follower, token, fetch_offset });
            let at = now.plus_ms(self.config.replica_fetch_wait_max_ms);
            out.at(at, ReplicationPending::ReplicaFetchTimeout { id });
        }
    }

    fn answer_replica_fetch(&mut self, tp: &TopicPartition, follower: BrokerId, token: u64, fetch_offset: u64, out: &mut Driver) {
        let Some(part) = self.partition(tp) else { return };
        let Some(leader_log) = part.leader_log() else { return };
        let records = leader_log.read_up_to(fetch_offset, REPLICA_FETCH_MAX_RECORDS, leader_log.log_end_offset()).to_vec();
        let leader_hw = leader_log.high_watermark();
        let leader_log_start = leader_log.log_start_offset();
        let at = out.now.plus_ms(out.latency());
        out.at(at, ReplicationPending::ReplicaFetchResponse { tp: tp.clone(), follower, token, records, leader_hw, leader_log_start });
    }

    /// No answer to a follower fetch: send it again (same loop).
    pub(in crate::sim) fn replica_fetch_deadline(
        &mut self,
        tp: &TopicPartition,
        follower: BrokerId,
        token: u64,
        attempt: u64,
        out: &mut Driver,
    ) {
        if self.replication.pending.get(&(tp.clone(), follower)) == Some(&attempt) {
            self.replication.pending.remove(&(tp.clone(), follower));
            self.replica_fetch_send(tp, follower, token, out);
        }
    }

    pub(in crate::sim) fn replica_fetch_timeout(&mut self, id: u64, out: &mut Driver) {
        let Some(i) = self.replication.parked.iter().position(|f| f.id == id) else { return };
        let f = self.replication.parked.remove(i);
        let leader_ok = self.partition(&f.tp).and_then(|p| p.leader).is_some_and(|l| self.reachable(l));
        if leader_ok {
            self.answer_replica_fetch(&f.tp, f.follower, f.token, f.fetch_offset, out);
        }
    }

    /// New records on the leader complete the follower fetches waiting for them.
    pub(in crate::sim) fn wake_replica_fetches(&mut self, tp: &TopicPartition, out: &mut Driver) {
        let (woken, kept): (Vec<ParkedReplicaFetch>, Vec<ParkedReplicaFetch>) =
            std::mem::take(&mut self.replication.parked).into_iter().partition(|f| &f.tp == tp);
        self.replication.parked = kept;
        for f in woken {
            self.answer_replica_fetch(&f.tp, f.follower, f.token, f.fetch_offset, out);
        }
    }

    /// The follower appends what it fetched, takes the leader's HW (capped by its own
    /// LEO) and fetches again at once.
    pub(in crate::sim) fn replica_fetch_response(
        &mut self,
        tp: &TopicPartition,
        follower: BrokerId,
        token: u64,
        records: Vec<StoredRecord>,
        leader_hw: u64,
        leader_log_start: u64,
        out: &mut Driver,
    ) {
        if !self.replica_token_current(tp, follower, token) || !self.reachable(follower) {
            return;
        }
        self.replication.pending.remove(&(tp.clone(), follower));
        let Some(log) = self.partition_mut(tp).and_then(|p| p.logs.get_mut(&follower)) else { return };
        // OFFSET_OUT_OF_RANGE: retention on the leader deleted what this follower still
        // lacks, so it starts again at the leader's log start
        // (`AbstractFetcherThread.fetchOffsetAndTruncate` → `truncateFullyAndStartAt`).
        let mut truncated = None;
        if log.log_end_offset() < leader_log_start {
            let from_offset = log.log_start_offset();
            let removed = log.truncate_fully_and_start_at(leader_log_start);
            truncated = Some((from_offset, removed.iter().map(|r| r.record.id).collect::<Vec<_>>()));
        }
        let mut copied = Vec::new();
        for r in records {
            let id = r.record.id;
            if log.append_replica(r) {
                copied.push(id);
            }
        }
        log.advance_high_watermark(leader_hw);
        // The follower's log start follows the leader's (`maybeIncrementLogStartOffset`).
        log.advance_log_start_offset(leader_log_start);
        let leo = log.log_end_offset();
        if let Some((from_offset, records)) = truncated {
            out.emit(EventKind::Replication(ReplicationEvent::RecordsTruncated {
                topic: tp.topic.clone(),
                partition: tp.partition,
                broker: follower,
                from_offset,
                records,
            }));
        }
        if !copied.is_empty() {
            out.emit(EventKind::Replication(ReplicationEvent::ReplicaFetched {
                topic: tp.topic.clone(),
                partition: tp.partition,
                follower,
                records: copied,
                log_end_offset: leo,
            }));
        }
        let now = out.now;
        out.at(now, ReplicationPending::ReplicaFetchSend { tp: tp.clone(), follower, token });
    }

    // ----- ISR and high watermark ------------------------------------------

    /// A follower rejoins the ISR once its LEO reaches the HW and the start of the
    /// leader's epoch (`Partition.isFollowerInSync`); in KRaft the leader asks the
    /// controller (AlterPartition), modelled here as immediate.
    fn maybe_expand_isr(&mut self, tp: &TopicPartition, follower: BrokerId, consumers: &mut Consumers, out: &mut Driver) {
        let fenced = self.brokers.get(&follower).is_none_or(|b| b.fenced);
        let Some(part) = self.partition_mut(tp) else { return };
        if fenced || part.isr.contains(&follower) {
            return;
        }
        let Some(leader_log) = part.leader_log() else { return };
        let epoch_start = leader_log.first_record_of_epoch(part.leader_epoch).map(|r| r.offset).unwrap_or(leader_log.log_end_offset());
        let leo = part.followers.get(&follower).map(|f| f.leo).unwrap_or(0);
        if leo >= leader_log.high_watermark() && leo >= epoch_start.min(leader_log.log_end_offset()) {
            self.change_partition(tp, Ask { join: Some(follower), ..Ask::default() }, consumers, out);
            self.maybe_advance_hw(tp, consumers, out);
            self.maybe_schedule_balance(out);
        }
    }

    /// HW = the smallest LEO in the ISR (`Partition.maybeIncrementLeaderHW`), and from
    /// 3.7 not at all while the ISR is smaller than `min.insync.replicas` (KAFKA-15583).
    pub(in crate::sim) fn maybe_advance_hw(&mut self, tp: &TopicPartition, consumers: &mut Consumers, out: &mut Driver) -> bool {
        let Some(topic) = self.topics.get(tp.topic.as_str()) else { return false };
        let min_isr = topic.config.min_insync_replicas as usize;
        let Some(part) = self.partition_mut(tp) else { return false };
        let Some(leader) = part.leader else { return false };
        if part.isr.len() < min_isr {
            return false;
        }
        let leader_leo = part.logs.get(&leader).map(|l| l.log_end_offset()).unwrap_or(0);
        let hw = part
            .isr
            .iter()
            .map(|b| if *b == leader { leader_leo } else { part.followers.get(b).map(|f| f.leo).unwrap_or(0) })
            .min()
            .unwrap_or(leader_leo);
        let Some(log) = part.logs.get_mut(&leader) else { return false };
        if !log.advance_high_watermark(hw) {
            return false;
        }
        let high_watermark = log.high_watermark();
        out.emit(EventKind::Replication(ReplicationEvent::HighWatermarkAdvanced {
            topic: tp.topic.clone(),
            partition: tp.partition,
            high_watermark,
        }));
        self.complete_delayed_produces(tp, out);
        consumers.wake_parked(tp, self, out);
        true
    }

    /// Leaders drop followers that have not caught up for `replica.lag.time.max.ms`
    /// (`Partition.maybeShrinkIsr`).
    pub(in crate::sim) fn isr_check(&mut self, consumers: &mut Consumers, out: &mut Driver) {
        let now = out.now;
        let lag_max = self.config.replica_lag_time_max_ms;
        let mut shrinks = Vec::new();
        for topic in self.topics.values() {
            for (p, part) in topic.partitions.iter().enumerate() {
                let Some(leader) = part.leader else { continue };
                if !self.reachable(leader) {
                    continue;
                }
                let leader_leo = part.logs.get(&leader).map(|l| l.log_end_offset()).unwrap_or(0);
                for b in &part.isr {
                    if *b == leader {
                        continue;
                    }
                    let f = part.followers.get(b).cloned().unwrap_or_default();
                    if f.leo != leader_leo && now.ms().saturating_sub(f.last_caught_up.ms()) > lag_max {
                        shrinks.push((TopicPartition::new(topic.name.clone(), p as u32), *b));
                    }
                }
            }
        }
        for (tp, b) in shrinks {
            self.remove_from_isr(&tp, b, consumers, out);
        }
    }

    /// The leader drops a lagging follower (AlterPartition, through the controller's
    /// `PartitionChangeBuilder`: with ELR on it may join the ELR).
    fn remove_from_isr(&mut self, tp: &TopicPartition, broker: BrokerId, consumers: &mut Consumers, out: &mut Driver) {
        let Some(part) = self.partition(tp) else { return };
        if !part.isr.contains(&broker) || part.isr.len() <= 1 || part.leader == Some(broker) {
            return;
        }
        self.change_partition(tp, Ask { remove: Some(broker), ..Ask::default() }, consumers, out);
        self.maybe_advance_hw(tp, consumers, out);
        self.complete_delayed_produces(tp, out);
        self.maybe_schedule_balance(out);
    }

    // ----- acks=all --------------------------------------------------------

    /// Settles the parts of acks=all requests waiting on `tp` whose records every in-sync
    /// replica now has (`Partition.checkEnoughReplicasReachOffset`), or whose leader
    /// moved; a request whose parts are all settled is answered (`DelayedProduce`).
    pub(in crate::sim) fn complete_delayed_produces(&mut self, tp: &TopicPartition, out: &mut Driver) {
        self.complete_txn_markers(tp, out);
        let Some(topic) = self.topics.get(tp.topic.as_str()) else { return };
        let min_isr = topic.config.min_insync_replicas as usize;
        let Some(part) = topic.partitions.get(tp.partition as usize) else { return };
        let leader = part.leader;
        let hw = part.leader_log().map(|l| l.high_watermark()).unwrap_or(0);
        let isr_len = part.isr.len();
        let mut done = Vec::new();
        for (i, d) in self.replication.delayed_produces.iter_mut().enumerate() {
            let mut settled = false;
            for p in d.parts.iter_mut().filter(|p| p.result.is_none() && &p.tp == tp) {
                p.result = if leader != Some(d.broker) {
                    Some(Err(ProduceError::NotLeaderOrFollower))
                } else if hw >= p.required_offset {
                    if isr_len >= min_isr {
                        Some(Ok(std::mem::take(&mut p.acked)))
                    } else {
                        Some(Err(ProduceError::NotEnoughReplicasAfterAppend))
                    }
                } else {
                    None
                };
                settled |= p.result.is_some();
            }
            if settled && d.parts.iter().all(|p| p.result.is_some()) {
                done.push(i);
            }
        }
        // Answer in the order the requests arrived.
        let mut answered = Vec::with_capacity(done.len());
        for i in done.into_iter().rev() {
            answered.push(self.replication.delayed_produces.remove(i));
        }
        for d in answered.into_iter().rev() {
            self.respond_delayed(d, out);
        }
    }

    /// Sends a waiting request's answer: every part's outcome, `REQUEST_TIMED_OUT` for a
    /// part still waiting (its timeout passed).
    fn respond_delayed(&mut self, d: DelayedProduce, out: &mut Driver) {
        if !self.reachable(d.broker) {
            return;
        }
        let at = out.now.plus_ms(out.latency());
        let results = d.parts.into_iter().map(|p| (p.batch, p.tp, p.result.unwrap_or(Err(ProduceError::RequestTimedOut)))).collect();
        out.at(at, ProducePending::ProduceResponse { producer: d.producer, broker: d.broker, request: d.request, results });
    }

    pub(in crate::sim) fn delayed_produce_timeout(&mut self, id: u64, out: &mut Driver) {
        let Some(i) = self.replication.delayed_produces.iter().position(|d| d.id == id) else { return };
        let d = self.replication.delayed_produces.remove(i);
        self.respond_delayed(d, out);
    }

    // ----- brokers and the controller ------------------------------------------

    /// The broker process stops: it is no longer alive and loses what it held in memory.
    /// Returns whether it was running. Its connections close (the clients hear of it,
    /// `Clients::connections_closed`) and the controller waits out its session
    /// (`expect_session_expiry`): the dispatcher makes those calls, in that order.
    pub(in crate::sim) fn crash_broker(&mut self, broker: BrokerId, out: &mut Driver) -> bool {
        let Some(b) = self.brokers.get_mut(&broker) else { return false };
        if !b.alive {
            return false;
        }
        b.alive = false;
        b.shut_down_cleanly = false;
        out.emit(EventKind::Cluster(ClusterEvent::BrokerCrashed { broker }));
        self.lose_broker_state(broker);
        true
    }

    pub(in crate::sim) fn isolate_broker(&mut self, broker: BrokerId, out: &mut Driver) {
        let Some(b) = self.brokers.get_mut(&broker) else { return };
        if b.isolated {
            return;
        }
        b.isolated = true;
        out.emit(EventKind::Cluster(ClusterEvent::BrokerIsolated { broker }));
        self.expect_session_expiry(broker, out);
    }

    /// A crashed broker's memory is gone: waiting requests and parked fetches it held.
    fn lose_broker_state(&mut self, broker: BrokerId) {
        self.replication.delayed_produces.retain(|d| d.broker != broker);
        let led: Vec<TopicPartition> = self.led_by(broker);
        self.replication.parked.retain(|f| !led.contains(&f.tp));
    }

    fn led_by(&self, broker: BrokerId) -> Vec<TopicPartition> {
        let mut out = Vec::new();
        for t in self.topics.values() {
            for (p, part) in t.partitions.iter().enumerate() {
                if part.leader == Some(broker) {
                    out.push(TopicPartition::new(t.name.clone(), p as u32));
                }
            }
        }
        out
    }

    pub(in crate::sim) fn expect_session_expiry(&mut self, broker: BrokerId, out: &mut Driver) {
        let incarnation = self.incarnations.get(&broker).copied().unwrap_or(0);
        let at = out.now.plus_ms(self.config.broker_session_timeout_ms);
        out.at(at, ReplicationPending::SessionExpiry { broker, incarnation });
    }

    pub(in crate::sim) fn restart_broker(&mut self, broker: BrokerId, consumers: &mut Consumers, out: &mut Driver) {
        let Some(b) = self.brokers.get(&broker) else { return };
        if b.alive {
            return;
        }
        // The controller sees a new incarnation: the old one is fenced now if it was
        // not already (its leaderships move), and the new one registers.
        if !b.fenced {
            self.fence(broker, consumers, out);
        }
        let mut unclean_shutdown = true;
        if let Some(b) = self.brokers.get_mut(&broker) {
            b.alive = true;
            unclean_shutdown = !b.shut_down_cleanly;
        }
        let incarnation = {
            let i = self.incarnations.entry(broker).or_insert(0);
            *i += 1;
            *i
        };
        out.emit(EventKind::Cluster(ClusterEvent::BrokerRestarted { broker }));
        let at = out.now.plus_ms(out.latency());
        out.at(at, ReplicationPending::BrokerRegistered { broker, incarnation, unclean_shutdown });
    }

    pub(in crate::sim) fn heal_broker(&mut self, broker: BrokerId, out: &mut Driver) {
        let Some(b) = self.brokers.get_mut(&broker) else { return };
        if !b.isolated {
            return;
        }
        b.isolated = false;
        out.emit(EventKind::Cluster(ClusterEvent::BrokerHealed { broker }));
        let incarnation = self.incarnations.get(&broker).copied().unwrap_or(0);
        let at = out.now.plus_ms(out.latency());
        out.at(at, ReplicationPending::BrokerRegistered { broker, incarnation, unclean_shutdown: false });
        // Fetches to and from it were lost on the wire: its own follower fetches and its
        // followers' fetches start again (Kafka's fetchers reconnect).
        for tp in self.replicas_on(broker) {
            if self.partition(&tp).and_then(|p| p.leader) != Some(broker) {
                self.restart_one_follower(&tp, broker, out);
            } else {
                self.start_followers(&tp, out);
            }
        }
    }

    fn replicas_on(&self, broker: BrokerId) -> Vec<TopicPartition> {
        let mut out = Vec::new();
        for t in self.topics.values() {
            for (p, part) in t.partitions.iter().enumerate() {
                if part.replicas.contains(&broker) {
                    out.push(TopicPartition::new(t.name.clone(), p as u32));
                }
            }
        }
        out
    }

    fn restart_one_follower(&mut self, tp: &TopicPartition, follower: BrokerId, out: &mut Driver) {
        let token = self.replication.tokens.entry((tp.clone(), follower)).or_insert(0);
        *token += 1;
        let token = *token;
        let now = out.now;
        out.at(now, ReplicationPending::ReplicaFetchSend { tp: tp.clone(), follower, token });
    }

    pub(in crate::sim) fn session_expiry(&mut self, broker: BrokerId, incarnation: u64, consumers: &mut Consumers, out: &mut Driver) {
        let current = self.incarnations.get(&broker).copied().unwrap_or(0) == incarnation;
        let Some(b) = self.brokers.get(&broker) else { return };
        if current && !b.reachable() && !b.fenced {
            self.fence(broker, consumers, out);
        }
    }

    /// The controller fences a broker (`ReplicationControlManager.handleBrokerFenced`):
    /// every partition with it in the ISR changes — it leaves the ISR (without ELR not if
    /// it is the last member) and a partition it led gets a new leader — and the same for
    /// `__consumer_offsets`, so a group whose coordinator it was gets a new one.
    fn fence(&mut self, broker: BrokerId, consumers: &mut Consumers, out: &mut Driver) {
        let Some(b) = self.brokers.get_mut(&broker) else { return };
        b.fenced = true;
        out.emit(EventKind::Cluster(ClusterEvent::BrokerFenced { broker }));
        self.remove_everywhere(broker, consumers, out);
    }

    /// Every partition with `broker` in its ISR changes without it
    /// (`generateLeaderAndIsrUpdates(brokerToRemove)`): fencing and controlled shutdown.
    fn remove_everywhere(&mut self, broker: BrokerId, consumers: &mut Consumers, out: &mut Driver) {
        let ask = Ask { remove: Some(broker), ..Ask::default() };
        for tp in self.replicas_on(broker) {
            if self.partition(&tp).is_some_and(|p| p.isr.contains(&broker)) {
                self.change_partition(&tp, ask, consumers, out);
            }
            self.maybe_advance_hw(&tp, consumers, out);
            self.complete_delayed_produces(&tp, out);
        }
        for which in Internal::ALL {
            for p in 0..self.internal(which).partitions.len() {
                if self.internal(which).partitions[p].isr.contains(&broker) {
                    self.change_internal_partition(which, p, ask, out.now);
                }
            }
        }
        self.maybe_schedule_balance(out);
    }

    pub(in crate::sim) fn broker_registered(
        &mut self,
        broker: BrokerId,
        incarnation: u64,
        unclean_shutdown: bool,
        consumers: &mut Consumers,
        out: &mut Driver,
    ) {
        let current = self.incarnations.get(&broker).copied().unwrap_or(0) == incarnation;
        let Some(b) = self.brokers.get(&broker) else { return };
        if !current || !b.reachable() {
            return;
        }
        // KAFKA-15586 (`handleBrokerUncleanShutdown`): a broker back from an unclean
        // shutdown may have lost unflushed records, so it leaves every ISR and ELR first.
        if unclean_shutdown && self.config.kafka_version.eligible_leader_replicas() {
            let ask = Ask { unclean_shutdown: Some(broker), ..Ask::default() };
            for tp in self.replicas_on(broker) {
                if self.partition(&tp).is_some_and(|p| p.isr.contains(&broker) || p.elr.contains(&broker)) {
                    self.change_partition(&tp, ask, consumers, out);
                }
            }
            for which in Internal::ALL {
                for p in 0..self.internal(which).partitions.len() {
                    let r = &self.internal(which).partitions[p];
                    if r.isr.contains(&broker) || r.elr.contains(&broker) {
                        self.change_internal_partition(which, p, ask, out.now);
                    }
                }
            }
        }
        let Some(b) = self.brokers.get_mut(&broker) else { return };
        b.shut_down_cleanly = false;
        if b.fenced {
            b.fenced = false;
            out.emit(EventKind::Cluster(ClusterEvent::BrokerUnfenced { broker }));
        }
        // `handleBrokerUnfenced`: the partitions without a leader get one if they can.
        for tp in self.replicas_on(broker) {
            let Some(part) = self.partition(&tp) else { continue };
            if part.leader.is_none() {
                self.change_partition(&tp, Ask::default(), consumers, out);
            } else if part.leader != Some(broker) {
                self.restart_one_follower(&tp, broker, out);
            }
        }
        // `__consumer_offsets`' replicas are not fetched here (the coordinator writes every
        // in-sync copy at once, `sim/group/offsets_topic.rs`): its replica on this broker is
        // in sync at once (Kafka's is after a fetch or two).
        for which in Internal::ALL {
            for p in 0..self.internal(which).partitions.len() {
                let r = &self.internal(which).partitions[p];
                if r.replicas.contains(&broker) && !r.isr.contains(&broker) && r.leader.is_some() {
                    self.change_internal_partition(which, p, Ask { join: Some(broker), ..Ask::default() }, out.now);
                }
                if self.internal(which).partitions[p].leader.is_none() && self.change_internal_partition(which, p, Ask::default(), out.now)
                {
                    // Elected only now: the replicas that registered while it had no leader
                    // (nothing to join then) join it now, as their fetches would make them.
                    let r = &self.internal(which).partitions[p];
                    let joining: Vec<BrokerId> = r
                        .replicas
                        .iter()
                        .copied()
                        .filter(|b| !r.isr.contains(b) && self.brokers.get(b).is_some_and(|x| !x.fenced && x.reachable()))
                        .collect();
                    for b in joining {
                        self.change_internal_partition(which, p, Ask { join: Some(b), ..Ask::default() }, out.now);
                    }
                }
            }
        }
        self.maybe_schedule_balance(out);
    }

    /// A controlled shutdown (`BrokerLifecycleManager` → `handleBrokerInControlledShutdown`):
    /// the broker asks the controller to let it go; the controller takes it out of every
    /// ISR and elects new leaders at once (epoch + 1), then fences it (`SHUTDOWN_NOW`). The
    /// broker answers what it held (a waiting acks=all write gets NOT_LEADER_OR_FOLLOWER,
    /// and the producer resends to the new leader) and stops once that has gone out — no
    /// `broker.session.timeout.ms` outage. Its shutdown is clean: it keeps its ELR places.
    pub(in crate::sim) fn shutdown_broker(&mut self, broker: BrokerId, consumers: &mut Consumers, out: &mut Driver) -> bool {
        let Some(b) = self.brokers.get_mut(&broker) else { return false };
        if !b.alive || b.fenced || b.isolated {
            return false;
        }
        b.fenced = true;
        b.shut_down_cleanly = true;
        out.emit(EventKind::Cluster(ClusterEvent::BrokerShutDown { broker }));
        self.remove_everywhere(broker, consumers, out);
        let incarnation = self.incarnations.get(&broker).copied().unwrap_or(0);
        let at = out.now.plus_ms(out.latency());
        out.at(at, ReplicationPending::ShutdownComplete { broker, incarnation });
        true
    }

    /// The process of a broker in controlled shutdown stops: as a crash from here on,
    /// except that the controller already fenced it.
    pub(in crate::sim) fn shutdown_complete(&mut self, broker: BrokerId, incarnation: u64) -> bool {
        let current = self.incarnations.get(&broker).copied().unwrap_or(0) == incarnation;
        let Some(b) = self.brokers.get_mut(&broker) else { return false };
        if !current || !b.alive || !b.shut_down_cleanly {
            return false;
        }
        b.alive = false;
        self.lose_broker_state(broker);
        true
    }

    // ----- the controller's partition changes ------------------------------------

    /// Whether `b` may lead (`ReplicationControlManager`'s `isAcceptableLeader`): running,
    /// unfenced, and not the broker being removed or back from an unclean shutdown.
    fn acceptable(&self, b: BrokerId, ask: Ask) -> bool {
        Some(b) != ask.remove && Some(b) != ask.unclean_shutdown && self.brokers.get(&b).is_some_and(|x| !x.fenced && x.reachable())
    }

    /// The controller's `PartitionChangeBuilder` on one registration.
    fn change_of(&self, before: &Registration, ask: Ask, min_isr: usize, unclean_allowed: bool) -> Change {
        let mut target_isr: Vec<BrokerId> = before.isr.iter().copied().filter(|b| Some(*b) != ask.remove).collect();
        if let Some(j) = ask.join {
            if !target_isr.contains(&j) {
                target_isr.push(j);
            }
        }
        let election = if ask.preferred {
            Election::Preferred
        } else if unclean_allowed {
            Election::Unclean
        } else {
            Election::Online
        };
        let acceptable = |b: BrokerId| self.acceptable(b, ask);
        partition_change(
            before,
            &ChangeRequest {
                target_isr,
                election,
                elr_enabled: self.config.kafka_version.eligible_leader_replicas(),
                min_isr,
                unclean_shutdown: ask.unclean_shutdown,
                acceptable: &acceptable,
            },
        )
    }

    /// A partition of an internal topic changes (`__consumer_offsets`: `min.insync.replicas`
    /// 1, the broker default; `__transaction_state`: `transaction.state.log.min.isr`; no
    /// unclean election). Only the coordinator's place changes: no records.
    fn change_internal_partition(&mut self, which: Internal, p: usize, ask: Ask, now: SimTime) -> bool {
        let topic = &self.internal[which as usize];
        let Some(before) = topic.partitions.get(p) else { return false };
        let change = self.change_of(before, ask, topic.min_isr, false);
        if change.is_noop(before) {
            return false;
        }
        let topic = &mut self.internal[which as usize];
        topic.partitions[p] = change.after;
        if change.leader_changed {
            if let Some(t) = topic.leader_since.get_mut(p) {
                *t = now;
            }
            self.internal_leader_changes += 1;
        }
        change.leader_changed
    }

    /// One partition change of a topic's partition and what follows from it: the ISR and
    /// ELR events, and on a new leader the election's (`LeaderElected`, what the old leader
    /// had that the new one lacks, the followers' new fetch loops). Returns whether the
    /// leader changed.
    fn change_partition(&mut self, tp: &TopicPartition, ask: Ask, consumers: &mut Consumers, out: &mut Driver) -> bool {
        let Some(topic) = self.topics.get(tp.topic.as_str()) else { return false };
        let (min_isr, unclean_allowed) = (topic.config.min_insync_replicas as usize, topic.config.unclean_leader_election_enable);
        let Some(part) = self.partition(tp) else { return false };
        let before = part.registration();
        let change = self.change_of(&before, ask, min_isr, unclean_allowed);
        if change.is_noop(&before) {
            return false;
        }
        // The log a new leader is measured against: the old leader's, or while leaderless
        // the last in-sync replica's (with ELR, the ISR may be empty: the ELR's, then the
        // last known leader's).
        let old_log = before
            .leader
            .or_else(|| before.isr.first().copied())
            .or_else(|| before.elr.first().copied())
            .or(before.last_known_leader)
            .and_then(|b| part.logs.get(&b))
            .cloned();
        let Change { after, leader_changed, unclean } = change;
        let now = out.now;
        let Some(part) = self.partition_mut(tp) else { return false };
        part.set_registration(after.clone());
        for b in [ask.remove, ask.unclean_shutdown].into_iter().flatten() {
            if before.isr.contains(&b) && !after.isr.contains(&b) {
                out.emit(EventKind::Replication(ReplicationEvent::IsrShrunk {
                    topic: tp.topic.clone(),
                    partition: tp.partition,
                    removed: b,
                    isr: after.isr.clone(),
                }));
            }
        }
        if let Some(b) = ask.join.filter(|b| !before.isr.contains(b) && after.isr.contains(b)) {
            out.emit(EventKind::Replication(ReplicationEvent::IsrExpanded {
                topic: tp.topic.clone(),
                partition: tp.partition,
                added: b,
                isr: after.isr.clone(),
            }));
        }
        if after.elr != before.elr {
            out.emit(EventKind::Replication(ReplicationEvent::EligibleLeadersChanged {
                topic: tp.topic.clone(),
                partition: tp.partition,
                elr: after.elr.clone(),
                isr: after.isr.clone(),
            }));
        }
        if !leader_changed {
            return false;
        }
        let leader = after.leader;
        if let Some(l) = leader {
            let leo = part.logs.get(&l).map(|x| x.log_end_offset()).unwrap_or(0);
            part.followers = part
                .replicas
                .iter()
                .filter(|b| **b != l)
                .map(|b| (*b, FollowerState { leo: 0, last_caught_up: now, last_fetch_at: now, last_fetch_leader_leo: leo }))
                .collect();
        }
        let new_log = leader.and_then(|l| part.logs.get(&l)).cloned();
        if let (true, Some(l)) = (ask.preferred, leader) {
            out.emit(EventKind::Replication(ReplicationEvent::PreferredLeaderElected {
                topic: tp.topic.clone(),
                partition: tp.partition,
                leader: l,
                previous: before.leader,
                epoch: after.leader_epoch,
            }));
        }
        out.emit(EventKind::Replication(ReplicationEvent::LeaderElected {
            topic: tp.topic.clone(),
            partition: tp.partition,
            leader,
            epoch: after.leader_epoch,
            isr: after.isr.clone(),
            unclean,
        }));
        // What the old leader had past the new leader's end is gone for good.
        if let (Some(old), Some(new)) = (old_log, new_log) {
            let lost: Vec<LostRecord> = old
                .records()
                .iter()
                // Below the new leader's log start is retention's doing, not a loss; a gap
                // below its end is its cleaner's (the record was superseded), not one either.
                .filter(|r| {
                    r.offset >= new.log_start_offset()
                        && new.get(r.offset).map_or(r.offset >= new.log_end_offset(), |n| n.record.id != r.record.id)
                })
                .map(|r| LostRecord {
                    record: r.record.id,
                    value: r.record.value.to_string(),
                    offset: r.offset,
                    was_committed: r.offset < old.high_watermark(),
                })
                .collect();
            if !lost.is_empty() {
                let cause = if unclean { LossCause::UncleanElection } else { LossCause::LeaderFailover };
                let kept = self.lost.entry(tp.clone()).or_default();
                for r in &lost {
                    if kept.len() >= out.options.lost_per_partition.max(1) {
                        kept.pop_front();
                        self.lost_dropped += 1;
                    }
                    kept.push_back(LostView {
                        record: r.record,
                        value: r.value.clone(),
                        offset: r.offset,
                        was_committed: r.was_committed,
                        cause,
                        at: now,
                    });
                }
                out.emit(EventKind::Replication(ReplicationEvent::RecordsLost {
                    topic: tp.topic.clone(),
                    partition: tp.partition,
                    records: lost,
                    cause,
                }));
            }
        }
        self.complete_delayed_produces(tp, out);
        self.start_followers(tp, out);
        self.maybe_advance_hw(tp, consumers, out);
        consumers.wake_parked(tp, self, out);
        true
    }

    /// An election on a partition without a leader, as the controller runs it when
    /// unclean election is turned on (`maybeElectUncleanLeaders`).
    pub(in crate::sim) fn elect_leader(&mut self, tp: &TopicPartition, consumers: &mut Consumers, out: &mut Driver) {
        self.change_partition(tp, Ask::default(), consumers, out);
        self.maybe_schedule_balance(out);
    }

    // ----- preferred leaders (auto.leader.rebalance.enable) -----------------------

    /// Queues the controller's preferred-leader balance when some partition (a topic's
    /// or `__consumer_offsets`') is led by another replica than its first and none is
    /// queued (`QuorumController.maybeScheduleNextBalancePartitionLeaders`, after every
    /// controller write): `leader.imbalance.check.interval.seconds` from now.
    pub(in crate::sim) fn maybe_schedule_balance(&mut self, out: &mut Driver) {
        if !self.config.auto_leader_rebalance_enable || self.balance_scheduled || !self.imbalanced() {
            return;
        }
        self.balance_scheduled = true;
        let at = out.now.plus_ms(self.config.leader_imbalance_check_interval_seconds.saturating_mul(1000));
        out.at(at, ReplicationPending::BalanceLeaders);
    }

    fn imbalanced(&self) -> bool {
        self.topics.values().flat_map(|t| &t.partitions).any(|p| p.leader.is_some() && p.leader != p.replicas.first().copied())
            || self.internal.iter().flat_map(|t| &t.partitions).any(|r| r.leader.is_some() && !r.has_preferred_leader())
    }

    /// The controller's preferred-leader elections (`maybeBalancePartitionLeaders`): each
    /// partition led by another replica than its first is given `replicas[0]` if that
    /// replica is live and in the ISR (`Election.PREFERRED`), epoch + 1; at most
    /// [`MAX_ELECTIONS_PER_IMBALANCE`] a run, the next run 10 ms later if that many were
    /// made, else when some partition is imbalanced again. KRaft has no
    /// `leader.imbalance.per.broker.percentage` threshold (removed in 4.0, KAFKA-18743).
    pub(in crate::sim) fn balance_leaders(&mut self, consumers: &mut Consumers, out: &mut Driver) {
        self.balance_scheduled = false;
        let ask = Ask { preferred: true, ..Ask::default() };
        let mut elections = 0u32;
        let mut tps = Vec::new();
        for t in self.topics.values() {
            for (p, part) in t.partitions.iter().enumerate() {
                if part.leader.is_some() && part.leader != part.replicas.first().copied() {
                    tps.push(TopicPartition::new(t.name.clone(), p as u32));
                }
            }
        }
        for tp in tps {
            if elections >= MAX_ELECTIONS_PER_IMBALANCE {
                break;
            }
            if self.change_partition(&tp, ask, consumers, out) {
                elections += 1;
            }
        }
        for which in Internal::ALL {
            for p in 0..self.internal(which).partitions.len() {
                if elections >= MAX_ELECTIONS_PER_IMBALANCE {
                    break;
                }
                let r = &self.internal(which).partitions[p];
                if r.leader.is_some() && !r.has_preferred_leader() && self.change_internal_partition(which, p, ask, out.now) {
                    elections += 1;
                }
            }
        }
        if elections >= MAX_ELECTIONS_PER_IMBALANCE && self.imbalanced() {
            self.balance_scheduled = true;
            let at = out.now.plus_ms(10);
            out.at(at, ReplicationPending::BalanceLeaders);
        } else {
            self.maybe_schedule_balance(out);
        }
    }
}

/// `ReplicationControlManager.MAX_ELECTIONS_PER_IMBALANCE`: preferred-leader elections a
/// balance run makes at most.
pub(crate) const MAX_ELECTIONS_PER_IMBALANCE: u32 = 1_000;

/// What a controller change is asked for (`generateLeaderAndIsrUpdates`' brokerToRemove,
/// brokerWithUncleanShutdown; an AlterPartition adding a caught-up follower; a preferred
/// election).
#[derive(Clone, Copy, Debug, Default)]
struct Ask {
    /// Out of the ISR and may not lead (fenced, or in controlled shutdown, or lagging).
    remove: Option<BrokerId>,
    /// Into the ISR (caught up).
    join: Option<BrokerId>,
    /// Back after an unclean shutdown: out of the ISR and the ELR (KAFKA-15586).
    unclean_shutdown: Option<BrokerId>,
    /// `Election.PREFERRED`.
    preferred: bool,
}

impl Sim {
    /// Applies a scheduled event of replication, the brokers' lives and their periodic checks.
    pub(in crate::sim) fn handle_replication(&mut self, pending: ReplicationPending) {
        match pending {
            ReplicationPending::ReplicaFetchSend { tp, follower, token } => {
                self.cluster.replica_fetch_send(&tp, follower, token, &mut self.out)
            }
            ReplicationPending::ReplicaFetchArrive { tp, follower, leader, token, fetch_offset } => {
                self.cluster.replica_fetch_arrive(&tp, follower, leader, token, fetch_offset, &mut self.consumers, &mut self.out)
            }
            ReplicationPending::ReplicaFetchTimeout { id } => self.cluster.replica_fetch_timeout(id, &mut self.out),
            ReplicationPending::ReplicaFetchDeadline { tp, follower, token, attempt } => {
                self.cluster.replica_fetch_deadline(&tp, follower, token, attempt, &mut self.out)
            }
            ReplicationPending::ReplicaFetchResponse { tp, follower, token, records, leader_hw, leader_log_start } => {
                self.cluster.replica_fetch_response(&tp, follower, token, records, leader_hw, leader_log_start, &mut self.out)
            }
            ReplicationPending::SessionExpiry { broker, incarnation } => {
                self.cluster.session_expiry(broker, incarnation, &mut self.consumers, &mut self.out)
            }
            ReplicationPending::BrokerRegistered { broker, incarnation, unclean_shutdown } => {
                self.cluster.broker_registered(broker, incarnation, unclean_shutdown, &mut self.consumers, &mut self.out)
            }
            ReplicationPending::ShutdownComplete { broker, incarnation } => {
                if self.cluster.shutdown_complete(broker, incarnation) {
                    self.clients.connections_closed(broker, &mut self.out);
                }
            }
            ReplicationPending::BalanceLeaders => self.cluster.balance_leaders(&mut self.consumers, &mut self.out),
            ReplicationPending::IsrCheck => {
                self.cluster.isr_check(&mut self.consumers, &mut self.out);
                let every = (self.cluster.config.replica_lag_time_max_ms / 2).max(1);
                let at = self.out.now.plus_ms(every);
                self.out.at(at, ReplicationPending::IsrCheck);
            }
            ReplicationPending::RetentionCheck => self.cluster.retention_check(&mut self.out),
        }
    }
}

/// Commands to a broker: checked against the cluster, then executed (the one line
/// `Sim::validate` and `Sim::execute` give this feature).
impl Sim {
    pub(crate) fn validate_broker_command(&self, command: &BrokerCommand) -> Result<(), CommandError> {
        match command {
            BrokerCommand::CrashBroker { broker }
            | BrokerCommand::RestartBroker { broker }
            | BrokerCommand::IsolateBroker { broker }
            | BrokerCommand::HealBroker { broker }
            | BrokerCommand::SlowBroker { broker, .. }
            | BrokerCommand::ShutdownBroker { broker } => {
                if self.cluster.brokers.contains_key(broker) {
                    Ok(())
                } else {
                    Err(CommandError::UnknownBroker(*broker))
                }
            }
        }
    }

    pub(in crate::sim) fn execute_broker_command(&mut self, command: BrokerCommand) {
        match command {
            BrokerCommand::CrashBroker { broker } => {
                if self.cluster.crash_broker(broker, &mut self.out) {
                    self.clients.connections_closed(broker, &mut self.out);
                    self.cluster.expect_session_expiry(broker, &mut self.out);
                }
            }
            BrokerCommand::RestartBroker { broker } => self.cluster.restart_broker(broker, &mut self.consumers, &mut self.out),
            BrokerCommand::ShutdownBroker { broker } => {
                self.cluster.shutdown_broker(broker, &mut self.consumers, &mut self.out);
            }
            BrokerCommand::IsolateBroker { broker } => self.cluster.isolate_broker(broker, &mut self.out),
            BrokerCommand::HealBroker { broker } => self.cluster.heal_broker(broker, &mut self.out),
            BrokerCommand::SlowBroker { broker, slow_ms } => {
                if let Some(b) = self.cluster.brokers.get_mut(&broker) {
                    b.slow_ms = slow_ms.min(3_600_000);
                    self.out.emit(EventKind::Cluster(ClusterEvent::BrokerSlowed { broker, slow_ms: slow_ms.min(3_600_000) }));
                }
            }
        }
    }
}

/// Commands to a topic: checked against the cluster, then executed (the one line
/// `Sim::validate` and `Sim::execute` give this feature).
impl Sim {
    pub(in crate::sim) fn validate_topic_command(&self, command: &TopicCommand) -> Result<(), CommandError> {
        match command {
            TopicCommand::AddPartitions { topic, partitions } => {
                let Some(t) = self.cluster.topics.get(topic) else { return Err(CommandError::UnknownTopic(topic.clone())) };
                if !self.cluster.brokers.values().any(|b| !b.fenced && b.reachable()) {
                    return Err(CommandError::NoBrokerUp);
                }
                if *partitions <= t.partition_count() || *partitions > crate::limits::MAX_PARTITIONS {
                    return Err(CommandError::PartitionCount { topic: topic.clone(), partitions: t.partition_count() });
                }
                Ok(())
            }
            TopicCommand::SetTopicConfig { topic, min_insync_replicas, .. } => {
                let Some(t) = self.cluster.topics.get(topic) else { return Err(CommandError::UnknownTopic(topic.clone())) };
                if let Some(m) = min_insync_replicas {
                    if *m == 0 || *m > t.replication_factor() {
                        return Err(CommandError::MinInsyncReplicas { topic: topic.clone(), replication_factor: t.replication_factor() });
                    }
                }
                Ok(())
            }
        }
    }

    pub(in crate::sim) fn execute_topic_command(&mut self, command: TopicCommand) {
        match command {
            TopicCommand::AddPartitions { topic, partitions } => self.cluster.add_partitions(&topic, partitions, &mut self.out),
            TopicCommand::SetTopicConfig { topic, min_insync_replicas, unclean_leader_election_enable } => {
                let Some(t) = self.cluster.topics.get_mut(&topic) else { return };
                let mut changes = Vec::new();
                if let Some(m) = min_insync_replicas {
                    t.config.min_insync_replicas = m;
                    changes.push(("min.insync.replicas", m.to_string()));
                }
                if let Some(u) = unclean_leader_election_enable {
                    t.config.unclean_leader_election_enable = u;
                    changes.push(("unclean.leader.election.enable", u.to_string()));
                }
                let count = t.partition_count();
                // KAFKA-16540 (KIP-966): with ELR on, any update of a topic's
                // `min.insync.replicas` clears its partitions' ELR and last known leader
                // (`ClearElrRecord`): a replica that left the ISR under the old minimum is
                // no longer known to hold every record committed under the new one.
                let mut cleared = Vec::new();
                if min_insync_replicas.is_some() && self.cluster.config.kafka_version.eligible_leader_replicas() {
                    for (p, part) in t.partitions.iter_mut().enumerate() {
                        part.last_known_leader = None;
                        if !part.elr.is_empty() {
                            part.elr.clear();
                            cleared.push((p as u32, part.isr.clone()));
                        }
                    }
                }
                for (setting, value) in changes {
                    self.out.emit(EventKind::Settings(SettingsEvent::ConfigChanged {
                        entity: topic.clone(),
                        setting: setting.into(),
                        value,
                    }));
                }
                for (partition, isr) in cleared {
                    self.out.emit(EventKind::Replication(ReplicationEvent::EligibleLeadersChanged {
                        topic: topic.as_str().into(),
                        partition,
                        elr: Vec::new(),
                        isr,
                    }));
                }
                // The controller re-checks offline partitions when unclean election is
                // turned on, and the HW may now move (or stop) under the new minimum.
                for p in 0..count {
                    let tp = TopicPartition::new(topic.clone(), p);
                    if unclean_leader_election_enable == Some(true) && self.partition_state(&tp).is_some_and(|p| p.leader.is_none()) {
                        self.cluster.elect_leader(&tp, &mut self.consumers, &mut self.out);
                    }
                    self.cluster.maybe_advance_hw(&tp, &mut self.consumers, &mut self.out);
                    self.cluster.complete_delayed_produces(&tp, &mut self.out);
                }
            }
        }
    }
}

/// The cluster's handlers alone: a `Cluster`, an empty `Consumers` and a `Driver`, no `Sim`.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::driver::Effect;

    /// Three brokers and topic `t`: one partition on all three, its first replica leading.
    fn cluster(out: &mut Driver) -> (Cluster, TopicPartition) {
        let mut c = Cluster::new(ClusterConfig::default());
        c.add_topic("t", 1, 3, TopicConfig::default(), out);
        (c, TopicPartition::new("t", 0))
    }

    fn events(out: &Driver) -> Vec<&EventKind> {
        out.effects().iter().filter_map(|e| if let Effect::Emit(k) = e { Some(k) } else { None }).collect()
    }

    #[test]
    fn a_new_topic_announces_its_leader_and_starts_each_followers_fetch_loop() {
        let mut out = Driver::at_time(SimTime::ZERO);
        let (c, tp) = cluster(&mut out);
        let part = c.partition(&tp).unwrap();
        let leader = part.replicas[0];
        assert_eq!(part.leader, Some(leader));
        let [Effect::Emit(EventKind::Replication(ReplicationEvent::LeaderElected { leader: l, epoch: 0, isr, unclean: false, .. })), rest @ ..] =
            out.effects()
        else {
            panic!("the leader first: {:?}", out.effects());
        };
        assert_eq!((*l, isr.as_slice()), (Some(leader), part.replicas.as_slice()), "every replica starts in the ISR");
        let fetches: Vec<BrokerId> = rest
            .iter()
            .filter_map(|e| match e {
                Effect::At {
                    at: SimTime::ZERO,
                    pending: Pending::Replication(ReplicationPending::ReplicaFetchSend { follower, token: 1, .. }),
                } => Some(*follower),
                _ => None,
            })
            .collect();
        assert_eq!(fetches, part.replicas[1..], "each follower fetches at once, in replica order");
    }

    #[test]
    fn followers_that_never_fetch_leave_the_isr_only_after_replica_lag_time_max_ms() {
        let mut out = Driver::at_time(SimTime::ZERO);
        let (mut c, tp) = cluster(&mut out);
        let replicas = c.partition(&tp).unwrap().replicas.clone();
        let mut consumers = Consumers::new();
        // The leader takes a record (acks=1, the cluster's own Produce handler); the
        // followers never fetch it.
        let record = Record::sample(1, 0);
        let batch = crate::sim::produce::WireBatch {
            batch: 1,
            tp: tp.clone(),
            records: vec![record],
            sequence: None,
            transactional_id: None,
            txn_verified: false,
            txn_error: None,
        };
        c.produce_arrive("p".into(), replicas[0], 1, Acks::Leader, 30_000, vec![batch], &mut consumers, &mut out);
        assert_eq!(c.partition(&tp).unwrap().leader_log().map(|l| l.log_end_offset()), Some(1));
        // At exactly replica.lag.time.max.ms (30000) nothing is late yet (`>`).
        let mut out = Driver::at_time(SimTime(30_000));
        c.isr_check(&mut consumers, &mut out);
        assert!(events(&out).is_empty(), "{:?}", out.effects());
        let mut out = Driver::at_time(SimTime(30_001));
        c.isr_check(&mut consumers, &mut out);
        let removed: Vec<BrokerId> = events(&out)
            .iter()
            .filter_map(|e| match e {
                EventKind::Replication(ReplicationEvent::IsrShrunk { removed, .. }) => Some(*removed),
                _ => None,
            })
            .collect();
        assert_eq!(removed, replicas[1..], "both followers, in replica order");
        assert_eq!(c.partition(&tp).unwrap().isr, [replicas[0]], "the leader stays");
    }

    #[test]
    fn a_crashed_leader_is_fenced_when_its_session_expires_and_the_next_isr_replica_leads() {
        let mut out = Driver::at_time(SimTime::ZERO);
        let (mut c, tp) = cluster(&mut out);
        let replicas = c.partition(&tp).unwrap().replicas.clone();
        let mut consumers = Consumers::new();
        let mut out = Driver::at_time(SimTime(1000));
        assert!(c.crash_broker(replicas[0], &mut out));
        assert!(!c.crash_broker(replicas[0], &mut out), "a second crash changes nothing");
        c.expect_session_expiry(replicas[0], &mut out);
        let expiry = out.effects().iter().find_map(|e| match e {
            Effect::At { at, pending: Pending::Replication(ReplicationPending::SessionExpiry { broker, incarnation }) } => {
                Some((*at, *broker, *incarnation))
            }
            _ => None,
        });
        let Some((at, broker, incarnation)) = expiry else { panic!("no session expiry queued: {:?}", out.effects()) };
        assert_eq!((at, broker), (SimTime(1000 + 9000), replicas[0]), "broker.session.timeout.ms later");
        let mut out = Driver::at_time(at);
        c.session_expiry(broker, incarnation, &mut consumers, &mut out);
        let part = c.partition(&tp).unwrap();
        assert_eq!((part.leader, part.leader_epoch), (Some(replicas[1]), 1), "the first ISR replica in assignment order");
        assert!(events(&out)
            .iter()
            .any(|e| matches!(e, EventKind::Cluster(ClusterEvent::BrokerFenced { broker }) if *broker == replicas[0])));
        assert!(events(&out).iter().any(|e| matches!(
            e,
            EventKind::Replication(ReplicationEvent::LeaderElected { leader: Some(l), epoch: 1, unclean: false, .. }) if *l == replicas[1]
        )));
    }
}
