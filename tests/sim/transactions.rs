//! Transactions (KIP-98, KIP-447, KIP-890, transaction version 2): the transactional
//! producer and its coordinator, markers, the last stable offset, read_committed readers,
//! fencing, the timeout abort, transactional offsets.

use kafka_sandbox_core::event::{EndCause, EventKind, TxnError, TxnEvent};
use kafka_sandbox_core::read::{ClientTxnState, ControlType, TxnState};
use kafka_sandbox_core::scenario::Scenario;
use kafka_sandbox_core::{Command, Sim, SimTime, TopicPartition};

/// Three brokers; topic "t" (partitions, RF 3); transactional producer "p" (`tx-1`);
/// groups "rc" (read_committed) and "ru" (read_uncommitted), one member each, reading
/// from the start; `commands` on the timeline.
fn text(partitions: u32, producer_config: &str, commands: &str) -> String {
    format!(
        r#"{{
  "version": 1,
  "seed": 7,
  "cluster": {{ "brokers": 3, "group_initial_rebalance_delay_ms": 0 }},
  "topics": [{{ "name": "t", "partitions": {partitions}, "replication_factor": 3 }}],
  "producers": [{{ "name": "p", "config": {{ "transactional_id": "tx-1", "linger_ms": 0 {producer_config} }} }}],
  "groups": [
    {{ "id": "rc", "topics": ["t"], "config": {{ "auto_offset_reset": "earliest", "isolation_level": "read_committed" }}, "members": [{{ "client_id": "c1" }}] }},
    {{ "id": "ru", "topics": ["t"], "config": {{ "auto_offset_reset": "earliest" }}, "members": [{{ "client_id": "u1" }}] }}
  ],
  "commands": [{commands}]
}}"#
    )
}

fn build(partitions: u32, producer_config: &str, commands: &str) -> Sim {
    let s = Scenario::from_json(&text(partitions, producer_config, commands)).expect("valid scenario");
    s.build().expect("builds")
}

fn send(at: u64, value: &str, partition: u32) -> String {
    format!(
        r#"{{ "at_ms": {at}, "command": {{ "type": "produce", "producer": "p", "topic": "t", "value": "{value}", "partition": {partition} }} }}"#
    )
}

fn cmd(at: u64, kind: &str, producer: &str) -> String {
    format!(r#"{{ "at_ms": {at}, "command": {{ "type": "{kind}", "producer": "{producer}" }} }}"#)
}

fn values(sim: &Sim, group: &str, client: &str) -> Vec<String> {
    sim.group(group).and_then(|g| g.member(client)).map(|m| m.received().map(|d| d.value.to_string()).collect()).unwrap_or_default()
}

fn txn_events(sim: &Sim) -> Vec<(u64, TxnEvent)> {
    sim.trace()
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::Txn(t) => Some((e.time.ms(), t.clone())),
            _ => None,
        })
        .collect()
}

fn tp(p: u32) -> TopicPartition {
    TopicPartition::new("t", p)
}

#[test]
fn the_coordinator_is_the_leader_of_the_transaction_state_partition_and_gives_epoch_zero() {
    let mut sim = build(1, "", "");
    sim.run_to(SimTime(1_000));
    let read = sim.read();
    let p = read.producer("p").and_then(|p| p.transaction()).expect("a transactional producer");
    assert_eq!(p.state(), ClientTxnState::Ready);
    let tag = p.producer_id_and_epoch().expect("initialized");
    assert_eq!(tag.producer_epoch, 0, "a new transactional.id starts at epoch 0");
    let coordinator = read.txn_coordinator_of("tx-1").expect("a coordinator");
    let init = txn_events(&sim).into_iter().find_map(|(_, e)| match e {
        TxnEvent::ProducerInitialized { coordinator, producer_id, .. } => Some((coordinator, producer_id)),
        _ => None,
    });
    assert_eq!(init, Some((coordinator, tag.producer_id)));
    // `abs(hashCode("tx-1")) % 50`, the partitioner's own Java hash.
    let expected = kafka_sandbox_core::partitioner::coordinator_partition("tx-1", 50);
    assert!(expected < 50);
    let t = read.transaction("tx-1").expect("the coordinator's record");
    assert_eq!((t.state(), t.epoch()), (TxnState::Empty, 0));
}

#[test]
fn a_commit_writes_a_marker_at_its_own_offset_after_commit_transaction_returned() {
    let commands = [
        cmd(1_000, "begin_transaction", "p"),
        send(1_000, "a", 0),
        send(1_000, "b", 0),
        send(1_000, "c", 0),
        cmd(1_100, "commit_transaction", "p"),
    ]
    .join(",");
    let mut sim = build(1, "", &commands);
    sim.run_to(SimTime(3_000));
    let events = txn_events(&sim);
    let ended =
        events.iter().find_map(|(t, e)| matches!(e, TxnEvent::TxnEnded { commit: true, .. }).then_some(*t)).expect("commit returned");
    let marker = events
        .iter()
        .find_map(|(t, e)| match e {
            TxnEvent::MarkerWritten { offset, kind: ControlType::Commit, .. } => Some((*t, *offset)),
            _ => None,
        })
        .expect("a COMMIT marker");
    let completed =
        events.iter().find_map(|(t, e)| matches!(e, TxnEvent::TxnCompleted { commit: true, .. }).then_some(*t)).expect("complete");
    assert!(ended <= marker.0, "commitTransaction() returns once PrepareCommit is logged, before the markers ({ended} vs {})", marker.0);
    assert!(marker.0 < completed, "CompleteCommit once the marker is acknowledged");
    assert_eq!(marker.1, 3, "three records at 0-2, the marker takes offset 3");
    let part = sim.partition(&tp(0)).expect("partition");
    assert_eq!(part.log().expect("a log").log_end_offset(), 4, "three records occupy four offsets");
    assert_eq!(part.log().expect("a log").last_stable_offset(), 4);
    // Transaction version 2: the commit bumped the epoch.
    let tag = sim.read().producer("p").and_then(|p| p.transaction()).and_then(|t| t.producer_id_and_epoch()).expect("tag");
    assert_eq!(tag.producer_epoch, 1);
    assert_eq!(values(&sim, "rc", "c1"), ["a", "b", "c"]);
    assert_eq!(values(&sim, "ru", "u1"), ["a", "b", "c"]);
    // Both positions moved past the marker.
    for (g, c) in [("rc", "c1"), ("ru", "u1")] {
        assert_eq!(sim.group(g).and_then(|g| g.member(c)).and_then(|m| m.position("t", 0)), Some(4), "{g}");
    }
}

#[test]
fn read_committed_never_sees_an_aborted_record() {
    let commands = [
        cmd(1_000, "begin_transaction", "p"),
        send(1_000, "x1", 0),
        send(1_000, "x2", 0),
        cmd(1_200, "abort_transaction", "p"),
        cmd(1_500, "begin_transaction", "p"),
        send(1_500, "ok", 0),
        cmd(1_600, "commit_transaction", "p"),
    ]
    .join(",");
    let mut sim = build(1, "", &commands);
    sim.run_to(SimTime(5_000));
    assert_eq!(values(&sim, "rc", "c1"), ["ok"], "read_committed skips the aborted x1 and x2");
    assert_eq!(values(&sim, "ru", "u1"), ["x1", "x2", "ok"], "read_uncommitted reads them anyway");
    let log = sim.partition(&tp(0)).expect("partition").log().expect("a log");
    let aborted = log.aborted_transactions();
    assert_eq!(aborted.len(), 1);
    assert_eq!((aborted[0].first_offset, aborted[0].last_offset), (0, 2), "x1, x2, then the ABORT marker at 2");
    let skipped = txn_events(&sim).into_iter().find_map(|(_, e)| match e {
        TxnEvent::RecordsSkipped { group, aborted, markers, .. } if group == "rc" => Some((aborted, markers)),
        _ => None,
    });
    assert_eq!(skipped, Some((2, 1)), "the read_committed position moved past two aborted records and a marker");
    // The exactly-once monitor: read_uncommitted read them, which Kafka never promised to prevent.
    let findings: Vec<_> = sim.monitors().findings().iter().map(|f| (f.kind.clone(), f.values.clone(), f.promised)).collect();
    let kind = kafka_sandbox_core::FindingKind::AbortedRecordRead { group: "ru".into(), client_id: "u1".into(), read_committed: false };
    assert_eq!(findings, [(kind, vec!["x1".to_string(), "x2".to_string()], false)]);
    assert_eq!(sim.monitors().promised_total(), 0);
}

#[test]
fn an_open_transaction_holds_the_lso_and_every_later_record_for_read_committed_readers() {
    // A plain producer writes after the transaction opened: read_committed readers wait
    // for the transaction, read_uncommitted ones do not.
    let t = text(1, "", &[cmd(1_000, "begin_transaction", "p"), send(1_000, "open", 0), cmd(4_000, "commit_transaction", "p")].join(","));
    let mut s = Scenario::from_json(&t).expect("valid");
    s.producers.push(kafka_sandbox_core::ProducerSpec::new("plain"));
    let later = kafka_sandbox_core::command::ProduceCommand::Produce {
        producer: "plain".into(),
        topic: "t".into(),
        key: None,
        value: Some("later".into()),
        partition: Some(0),
        headers: vec![],
    };
    s.commands.push(kafka_sandbox_core::scenario::TimedCommand { at_ms: 1_500, command: Command::Produce(later) });
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(3_000));
    let log = sim.partition(&tp(0)).expect("partition").log().expect("a log");
    assert_eq!(log.high_watermark(), 2, "both records committed by the replicas");
    assert_eq!(log.last_stable_offset(), 0, "the open transaction's first offset");
    assert!(values(&sim, "rc", "c1").is_empty(), "read_committed waits, even for the non-transactional record");
    assert_eq!(values(&sim, "ru", "u1"), ["open", "later"]);
    let lag = sim.read().group("rc").map(|g| g.total_lag());
    assert_eq!(lag, Some(0), "lag counts against the LSO under read_committed");
    sim.run_to(SimTime(6_000));
    assert_eq!(values(&sim, "rc", "c1"), ["open", "later"], "the commit releases both, in offset order");
}

#[test]
fn a_second_instance_with_the_same_transactional_id_fences_the_first() {
    let commands = [
        cmd(1_000, "begin_transaction", "p"),
        send(1_000, "zombie-1", 0),
        r#"{ "at_ms": 2000, "command": { "type": "add_producer", "producer": "p2", "config": { "transactional_id": "tx-1", "linger_ms": 0 } } }"#.to_string(),
        send(4_000, "zombie-2", 0),
        cmd(4_500, "commit_transaction", "p"),
        cmd(5_000, "abort_transaction", "p"),
    ]
    .join(",");
    let mut sim = build(1, "", &commands);
    sim.run_to(SimTime(8_000));
    let events = txn_events(&sim);
    let fenced = events.iter().find_map(|(_, e)| match e {
        TxnEvent::EpochFenced { epoch, cause: EndCause::NewInstance, .. } => Some(*epoch),
        _ => None,
    });
    assert_eq!(fenced, Some(1), "the open transaction (epoch 0) is fenced at epoch 1");
    let p2 = sim.read().producer("p2").and_then(|p| p.transaction()).and_then(|t| t.producer_id_and_epoch()).expect("p2 initialized");
    let p1 = sim.read().producer("p").and_then(|p| p.transaction()).expect("p");
    assert_eq!(p2.producer_id, p1.producer_id_and_epoch().map(|t| t.producer_id).unwrap_or(u64::MAX), "the same producer id");
    // Fenced (epoch 1), aborted with transaction version 2's bump (2), then the retried
    // InitProducerId bumps once more (3).
    assert_eq!(p2.producer_epoch, 3);
    // The zombie's next write meets the new epoch at the leader: INVALID_PRODUCER_EPOCH,
    // abortable (its commit is refused); its abort's EndTxn is answered PRODUCER_FENCED, fatal.
    let failures: Vec<(TxnError, ClientTxnState)> = events
        .iter()
        .filter_map(|(_, e)| match e {
            TxnEvent::TxnProducerFailed { producer, error, state, .. } if producer == "p" => Some((*error, *state)),
            _ => None,
        })
        .collect();
    assert_eq!(
        failures,
        [(TxnError::InvalidProducerEpoch, ClientTxnState::AbortableError), (TxnError::ProducerFenced, ClientTxnState::FatalError)]
    );
    assert_eq!(p1.state(), ClientTxnState::FatalError, "the zombie is fenced");
    assert!(
        sim.trace().events().any(|e| matches!(&e.kind, EventKind::Settings(kafka_sandbox_core::event::SettingsEvent::CommandRejected { reason }) if reason.contains("commitTransaction()"))),
        "commitTransaction() in abortable_error is refused"
    );
    assert!(values(&sim, "rc", "c1").is_empty(), "nothing of the zombie's is committed");
    assert!(sim.read().producer("p").is_some_and(|p| p.sent().any(|s| s.value == "zombie-2" && s.failed.is_some())));
}

#[test]
fn a_hung_transaction_is_aborted_after_transaction_timeout_ms() {
    let commands = [cmd(1_000, "begin_transaction", "p"), send(1_000, "hung", 0), cmd(2_000, "crash_producer", "p")].join(",");
    let mut sim = build(1, r#", "transaction_timeout_ms": 15000"#, &commands);
    sim.run_to(SimTime(16_000));
    assert!(values(&sim, "rc", "c1").is_empty());
    assert_eq!(sim.partition(&tp(0)).expect("p").log().expect("a log").last_stable_offset(), 0, "stuck while the transaction is open");
    sim.run_to(SimTime(40_000));
    let events = txn_events(&sim);
    let timed_out = events.iter().find_map(|(t, e)| matches!(e, TxnEvent::TxnTimedOut { .. }).then_some(*t)).expect("timed out");
    let started = 1_000 + 40; // the first append reaches the coordinator about one round trip later
    assert!(timed_out > started + 15_000 && timed_out <= started + 15_000 + 10_000, "between the timeout and one scan later: {timed_out}");
    assert_eq!(timed_out % 10_000, 0, "the scan runs every 10 s");
    let aborted = events.iter().any(|(_, e)| matches!(e, TxnEvent::TxnPrepared { commit: false, cause: EndCause::Timeout, .. }));
    assert!(aborted);
    let log = sim.partition(&tp(0)).expect("p").log().expect("a log");
    assert_eq!(log.last_stable_offset(), 2, "the ABORT marker at 1 released the LSO");
    assert!(values(&sim, "rc", "c1").is_empty(), "never the aborted record");
    assert_eq!(values(&sim, "ru", "u1"), ["hung"]);
}

#[test]
fn a_restarted_instance_aborts_its_predecessors_transaction_at_once() {
    let commands = [
        cmd(1_000, "begin_transaction", "p"),
        send(1_000, "lost", 0),
        cmd(2_000, "crash_producer", "p"),
        cmd(3_000, "restart_producer", "p"),
    ]
    .join(",");
    let mut sim = build(1, "", &commands);
    sim.run_to(SimTime(5_000));
    let events = txn_events(&sim);
    assert!(
        events.iter().any(|(t, e)| *t < 4_000 && matches!(e, TxnEvent::TxnCompleted { commit: false, .. })),
        "aborted without waiting for the timeout"
    );
    let t = sim.read().producer("p").and_then(|p| p.transaction()).expect("p");
    assert_eq!(t.state(), ClientTxnState::Ready);
    assert_eq!(t.producer_id_and_epoch().map(|t| t.producer_epoch), Some(3));
    assert_eq!(sim.partition(&tp(0)).expect("p").log().expect("a log").last_stable_offset(), 2);
}

#[test]
fn a_transaction_spanning_partitions_commits_everywhere_and_a_coordinator_crash_moves_it() {
    let coordinator = {
        let sim = build(2, "", "");
        sim.read().txn_coordinator_of("tx-1").expect("coordinator")
    };
    let commands = [
        cmd(1_000, "begin_transaction", "p"),
        send(1_000, "a", 0),
        send(1_000, "b", 1),
        format!(r#"{{ "at_ms": 1500, "command": {{ "type": "crash_broker", "broker": {coordinator} }} }}"#),
        cmd(2_000, "commit_transaction", "p"),
    ]
    .join(",");
    let mut sim = build(2, "", &commands);
    sim.run_to(SimTime(5_000));
    assert_eq!(sim.read().txn_coordinator_of("tx-1"), None, "no coordinator until the controller fences the crashed one");
    sim.run_to(SimTime(30_000));
    let new = sim.read().txn_coordinator_of("tx-1").expect("a new coordinator");
    assert_ne!(new, coordinator);
    let mut got = values(&sim, "rc", "c1");
    got.sort();
    assert_eq!(got, ["a", "b"], "committed on both partitions after the failover");
    assert_eq!(sim.read().transaction("tx-1").map(|t| t.state()), Some(TxnState::CompleteCommit));
}

#[test]
fn a_new_owner_waits_for_the_transactional_offsets_of_the_old_one_unstable_offset_commit() {
    // "g" (read_committed) reads "t" with c1; the transactional producer sends c1's
    // positions in its transaction; c1 crashes; c2 takes the partition over and must wait
    // for the transaction before it knows where to start.
    let mut s = Scenario::from_json(&text(1, "", "")).expect("valid");
    // c1 commits nothing itself (its offsets go only through the transaction) and is
    // removed 6 s after its crash.
    let c1 = &mut s.groups[0].members[0].config;
    c1.commit_mode = kafka_sandbox_core::CommitMode::Off;
    (c1.session_timeout_ms, c1.heartbeat_interval_ms) = (6_000, 2_000);
    let produce = |at: u64, v: &str| kafka_sandbox_core::scenario::TimedCommand {
        at_ms: at,
        command: Command::Produce(kafka_sandbox_core::command::ProduceCommand::Produce {
            producer: "plain".into(),
            topic: "t".into(),
            key: None,
            value: Some(v.into()),
            partition: Some(0),
            headers: vec![],
        }),
    };
    s.producers.push(kafka_sandbox_core::ProducerSpec::new("plain"));
    s.commands.push(produce(500, "in-1"));
    s.commands.push(produce(500, "in-2"));
    let json = |at: u64, c: &str| kafka_sandbox_core::scenario::TimedCommand {
        at_ms: at,
        command: kafka_sandbox_core::scenario::parse_json(c).expect("a command"),
    };
    s.commands.push(json(5_000, r#"{ "type": "begin_transaction", "producer": "p" }"#));
    s.commands.push(json(5_000, r#"{ "type": "send_offsets_to_transaction", "producer": "p", "group": "rc", "client_id": "c1" }"#));
    s.commands.push(json(5_200, r#"{ "type": "crash_member", "group": "rc", "client_id": "c1" }"#));
    s.commands.push(json(5_200, r#"{ "type": "add_member", "group": "rc", "member": { "client_id": "c2" } }"#));
    s.commands.push(json(20_000, r#"{ "type": "commit_transaction", "producer": "p" }"#));
    let mut sim = s.build().expect("builds");
    sim.run_to(SimTime(19_000));
    let events = txn_events(&sim);
    assert!(events
        .iter()
        .any(|(_, e)| matches!(e, TxnEvent::TxnOffsetsPending { group, offsets, .. } if group == "rc" && offsets == &vec![(tp(0), 2)])));
    let unstable =
        events.iter().find_map(|(t, e)| matches!(e, TxnEvent::OffsetFetchUnstable { client_id, .. } if client_id == "c2").then_some(*t));
    assert!(unstable.is_some(), "c2's OffsetFetch gets UNSTABLE_OFFSET_COMMIT");
    assert_eq!(sim.read().group("rc").and_then(|g| g.committed(&tp(0))), None, "not committed before the transaction");
    assert_eq!(sim.group("rc").and_then(|g| g.member("c2")).and_then(|m| m.position("t", 0)), None, "c2 waits");
    sim.run_to(SimTime(30_000));
    assert_eq!(sim.read().group("rc").and_then(|g| g.committed(&tp(0))), Some(2), "the COMMIT marker commits the offsets");
    assert_eq!(sim.group("rc").and_then(|g| g.member("c2")).and_then(|m| m.position("t", 0)), Some(2), "c2 starts after in-1, in-2");
    assert!(values(&sim, "rc", "c2").is_empty(), "nothing read twice");
}

/// A consume-transform-produce pipeline: Streams app "app" (map_upper, two instances)
/// from "in" to "out" under `guarantee`; 60 inputs from 1 s; instance app-1 crashes at
/// `crash_ms`; groups "rc" (read_committed) and "ru" (read_uncommitted) read "out".
fn pipeline(guarantee: &str, crash_ms: u64, extra: &str) -> Sim {
    let values: Vec<String> = (0..60).map(|i| format!("\"v{i}\"")).collect();
    let keys: Vec<String> = (0..60).map(|i| format!("\"k{}\"", i % 7)).collect();
    let text = format!(
        r#"{{
  "version": 1,
  "seed": 11,
  "cluster": {{ "brokers": 3, "group_initial_rebalance_delay_ms": 0 }},
  "topics": [{{ "name": "in", "partitions": 3, "replication_factor": 3 }}, {{ "name": "out", "partitions": 3, "replication_factor": 3 }}],
  "producers": [{{ "name": "p", "send": [{{ "topic": "in", "values": [{}], "keys": [{}], "start_ms": 1000, "interval_ms": 50 }}] }}],
  "streams": [{{ "application_id": "app", "source": "in", "sink": "out", "op": {{ "map_upper": {{}} }}, "instances": 2, "processing_guarantee": "{guarantee}", "processing_ms": 20 }}],
  "groups": [
    {{ "id": "rc", "topics": ["out"], "config": {{ "auto_offset_reset": "earliest", "isolation_level": "read_committed" }}, "members": [{{ "client_id": "r1" }}] }},
    {{ "id": "ru", "topics": ["out"], "config": {{ "auto_offset_reset": "earliest" }}, "members": [{{ "client_id": "u1" }}] }}
  ],
  "commands": [{{ "at_ms": {crash_ms}, "command": {{ "type": "crash_member", "group": "app", "client_id": "app-1" }} }}{extra}]
}}"#,
        values.join(","),
        keys.join(",")
    );
    let mut sim = Scenario::from_json(&text).expect("valid scenario").build().expect("builds");
    sim.run_to(SimTime(150_000));
    sim
}

fn counted(values: Vec<String>) -> std::collections::BTreeMap<String, usize> {
    let mut m = std::collections::BTreeMap::new();
    for v in values {
        *m.entry(v).or_insert(0) += 1;
    }
    m
}

#[test]
fn consume_transform_produce_with_send_offsets_to_transaction_and_a_crash_every_input_counted_exactly_once_in_the_output() {
    let sim = pipeline("exactly_once_v2", 2_800, "");
    // The offsets went through the transactions (sendOffsetsToTransaction), committed with
    // their markers; the application's consumers committed nothing themselves.
    let events = txn_events(&sim);
    assert!(events.iter().any(|(_, e)| matches!(e, TxnEvent::TxnOffsetsPending { group, .. } if group == "app")));
    assert!(events.iter().any(|(_, e)| matches!(e, TxnEvent::TxnOffsetsCompleted { group, commit: true, .. } if group == "app")));
    assert!(
        events.iter().any(|(_, e)| matches!(e, TxnEvent::TxnOffsetsCompleted { group, commit: false, .. } if group == "app")),
        "the crashed instance's pending offsets were dropped with its transaction"
    );
    let expected: std::collections::BTreeMap<String, usize> = (0..60).map(|i| (format!("V{i}"), 1)).collect();
    assert_eq!(counted(values(&sim, "rc", "r1")), expected, "read_committed sees each input's output exactly once");
    // The crashed instance's open transaction was aborted (by the timeout: its process id
    // changes, Streams' map_upper has no persistent store), and its inputs processed again.
    assert!(
        events.iter().any(|(_, e)| matches!(e, TxnEvent::TxnPrepared { commit: false, cause: EndCause::Timeout, .. })),
        "the zombie's transaction timed out"
    );
    let reprocessed = sim.read().group("app").map(|g| g.duplicates()).unwrap_or(0);
    assert!(reprocessed > 0, "some inputs were processed twice (a side effect outside Kafka would repeat)");
    let ru = counted(values(&sim, "ru", "u1"));
    assert!(ru.values().any(|n| *n > 1), "read_uncommitted also sees the aborted copies: {ru:?}");
    assert_eq!(sim.monitors().promised_total(), 0, "{:?}", sim.monitors().findings());
    let kinds: Vec<&kafka_sandbox_core::FindingKind> = sim.monitors().findings().iter().map(|f| &f.kind).collect();
    assert!(
        kinds.iter().any(|k| matches!(k, kafka_sandbox_core::FindingKind::ReprocessedOutsideKafka { .. })),
        "what EOS does not promise: {kinds:?}"
    );
    assert!(!kinds.iter().any(|k| matches!(k, kafka_sandbox_core::FindingKind::OutputDuplicated { .. })));
}

#[test]
fn at_least_once_streams_duplicate_output_after_the_same_crash() {
    let sim = pipeline("at_least_once", 2_800, "");
    let rc = counted(values(&sim, "rc", "r1"));
    assert_eq!(rc.len(), 60, "every input has an output");
    assert!(rc.values().any(|n| *n > 1), "records processed since the last commit are output again: {rc:?}");
    let duplicated = sim
        .monitors()
        .findings()
        .iter()
        .filter(|f| matches!(f.kind, kafka_sandbox_core::FindingKind::OutputDuplicated { exactly_once: false, .. }))
        .count();
    assert_eq!(duplicated, rc.values().filter(|n| **n > 1).count(), "the monitor finds each, not promised");
    assert_eq!(sim.monitors().promised_total(), 0);
}

#[test]
fn an_exactly_once_count_restarted_with_its_store_fences_its_old_transaction_and_counts_every_input_once() {
    let extra = r#", { "at_ms": 4000, "command": { "type": "restart_member", "group": "app", "client_id": "app-1" } }"#;
    let text_op = |sim_text: String| sim_text.replace(r#"{ "map_upper": {} }"#, r#"{ "count_by_key": {} }"#);
    // The same pipeline with count_by_key (a persistent store: the process id is kept).
    let values: Vec<String> = (0..60).map(|i| format!("\"v{i}\"")).collect();
    let keys: Vec<String> = (0..60).map(|i| format!("\"k{}\"", i % 7)).collect();
    let text = text_op(format!(
        r#"{{
  "version": 1, "seed": 11,
  "cluster": {{ "brokers": 3, "group_initial_rebalance_delay_ms": 0 }},
  "topics": [{{ "name": "in", "partitions": 3, "replication_factor": 3 }}, {{ "name": "out", "partitions": 3, "replication_factor": 3 }}],
  "producers": [{{ "name": "p", "send": [{{ "topic": "in", "values": [{}], "keys": [{}], "start_ms": 1000, "interval_ms": 50 }}] }}],
  "streams": [{{ "application_id": "app", "source": "in", "sink": "out", "op": {{ "map_upper": {{}} }}, "instances": 2, "processing_guarantee": "exactly_once_v2", "processing_ms": 20 }}],
  "commands": [{{ "at_ms": 2250, "command": {{ "type": "crash_member", "group": "app", "client_id": "app-1" }} }}{extra}]
}}"#,
        values.join(","),
        keys.join(",")
    ));
    let mut sim = Scenario::from_json(&text).expect("valid scenario").build().expect("builds");
    sim.run_to(SimTime(150_000));
    let events = txn_events(&sim);
    let fenced = events.iter().find_map(|(t, e)| matches!(e, TxnEvent::EpochFenced { cause: EndCause::NewInstance, .. }).then_some(*t));
    assert!(
        fenced.is_some_and(|t| t < 5_000),
        "the restarted instance's initTransactions() fenced its old transaction at once: {fenced:?}"
    );
    let app = sim.streams_app("app").expect("app");
    for k in 0..7 {
        let key = format!("k{k}");
        let total: u64 = (0..3).filter_map(|p| app.count(p, &key)).sum();
        let sent = (0..60).filter(|i| i % 7 == k).count() as u64;
        assert_eq!(total, sent, "count of {key}");
    }
}

#[test]
fn the_builder_writes_transactions_with_kafkas_names() {
    use kafka_sandbox_core::{GroupSpec, IsolationLevel, MemberSpec, ProducerSpec, TopicSpec};
    let mut b = Scenario::builder();
    b.brokers(1).offsets_topic_replication_factor(1).transaction_state_log(1, 1);
    let t = b.topic(TopicSpec::new("t"));
    let p = b.producer(ProducerSpec::new("p").transactional_id("tx").transaction_timeout_ms(20_000).linger_ms(0));
    let g = b.group(
        GroupSpec::new("g", ["t"])
            .isolation_level(IsolationLevel::ReadCommitted)
            .auto_offset_reset(kafka_sandbox_core::OffsetReset::Earliest)
            .with_members([MemberSpec::new("c")]),
    );
    b.at(1_000, Command::begin_transaction(&p));
    b.at(1_000, Command::produce(&p, &t, None, "v"));
    b.at(1_100, Command::abort_transaction(&p));
    b.at(1_200, Command::set_isolation_level(&g, IsolationLevel::ReadUncommitted));
    let json = b.scenario().expect("a scenario").to_json_pretty();
    for name in [
        "\"transactional_id\": \"tx\"",
        "\"transaction_timeout_ms\": 20000",
        "\"isolation_level\": \"read_committed\"",
        "\"begin_transaction\"",
        "\"abort_transaction\"",
        "\"transaction_state_log_replication_factor\": 1",
    ] {
        assert!(json.contains(name), "{name} in {json}");
    }
    let mut sim = b.build().expect("builds");
    sim.run_to(SimTime(5_000));
    assert_eq!(sim.partition(&tp(0)).and_then(|p| p.log()).map(|l| l.aborted_transactions().len()), Some(1));
}

#[test]
fn transactions_on_fewer_brokers_than_the_transaction_state_replication_factor_are_refused() {
    let mut s = Scenario::from_json(&text(1, "", "")).expect("valid");
    s.cluster.brokers = 2;
    s.topics[0].replication_factor = 2;
    s.cluster.offsets_topic_replication_factor = 2;
    let e = s.check().expect_err("refused");
    assert_eq!(e.path, "cluster.transaction_state_log_replication_factor");
    assert!(e.to_string().contains("at most 2"), "{e}");
    s.cluster.transaction_state_log_replication_factor = 2;
    s.check().expect("fits now");
    s.producers[0].config.enable_idempotence = Some(false);
    assert_eq!(s.check().expect_err("no idempotence").path, "producers[0].config");
}

#[test]
fn a_transactional_records_path_ends_with_its_transactions_fate_and_the_snapshot_marks_it() {
    let commands = [cmd(1_000, "begin_transaction", "p"), send(1_000, "gone", 0), cmd(1_200, "abort_transaction", "p")].join(",");
    let mut sim = build(1, "", &commands);
    sim.run_to(SimTime(4_000));
    let record = sim.read().producer("p").and_then(|p| p.sent().next().map(|s| s.record)).expect("sent");
    let path = sim.read().record_path(record);
    let fate = path.hops.iter().find_map(|(_, h)| match h {
        kafka_sandbox_core::read::Hop::TransactionDecided { commit, marker_offset } => Some((*commit, *marker_offset)),
        _ => None,
    });
    assert_eq!(fate, Some((false, 1)), "aborted by the marker at offset 1");
    assert!(path.hops.iter().any(|(_, h)| matches!(h, kafka_sandbox_core::read::Hop::InTransaction { .. })));
    let snap = sim.snapshot();
    let part = &snap.topics[0].partitions[0];
    let marks: Vec<Option<kafka_sandbox_core::txn::TxnMark>> = part.records.iter().map(|r| r.txn).collect();
    assert_eq!(marks, [Some(kafka_sandbox_core::txn::TxnMark::Aborted), Some(kafka_sandbox_core::txn::TxnMark::AbortMarker)]);
    assert_eq!(part.last_stable_offset, 2);
    let view = snap.producers.iter().find(|p| p.name == "p").and_then(|p| p.transaction.clone()).expect("a transactional producer");
    assert_eq!((view.transactional_id.as_str(), view.aborted, view.coordinator_state), ("tx-1", 1, Some(TxnState::CompleteAbort)));
    let coordinator = view.coordinator.expect("coordinator");
    assert!(snap.brokers.iter().any(|b| b.id == coordinator && b.txn_coordinator_for == ["tx-1"]), "marked on its broker");
}

#[test]
fn the_built_in_transactions_scenario_hides_the_abort_and_waits_behind_the_open_transaction() {
    let mut sim = kafka_sandbox_core::scenario::built_in("transactions").expect("known").expect("valid").build().expect("builds");
    sim.run_to(SimTime(11_000));
    assert_eq!(
        values(&sim, "committed-readers", "Reader1"),
        ["pay-1", "pay-2", "pay-3"],
        "the aborted pay-4/5 hidden, pay-6 and audit-1 held"
    );
    assert_eq!(values(&sim, "all-readers", "Reader2"), ["pay-1", "pay-2", "pay-3", "pay-4", "pay-5", "pay-6", "audit-1"]);
    sim.run_to(SimTime(20_000));
    assert_eq!(values(&sim, "committed-readers", "Reader1"), ["pay-1", "pay-2", "pay-3", "pay-6", "audit-1"]);
}
