//! One sample of every event kind, for tests (the jump targets, the docs' list of event
//! types): written as one table per feature enum, which the macro also turns into an
//! exhaustive `match`, so a new event kind does not compile until it has a sample here.

use super::*;
use crate::command::SeekTo;
use crate::record::RecordId;

/// `every! { Feature(Enum) { Variant { fields }, … } … }`: the samples, in the order written,
/// each as an [`EventKind`]; a `match` over [`EventKind`] naming every feature listed, and
/// per enum a `match` naming every sample's variant, with no wildcard: a new feature or a
/// new kind fails to compile until it has its samples here.
macro_rules! every {
    ($($outer:ident($inner:ident) { $($variant:ident $fields:tt,)* })*) => {{
        const _: fn(&EventKind) = |e| match e { $(EventKind::$outer(_) => {})* };
        $(const _: fn(&$inner) = |e| match e { $($inner::$variant { .. } => {})* };)*
        vec![$($(EventKind::from($inner::$variant $fields),)*)*]
    }};
}

/// One of each event kind, with every field set (an `Option` as `Some`, a list not empty).
pub(crate) fn every_event() -> Vec<EventKind> {
    let s = |x: &str| x.to_string();
    let n = |x: &str| crate::name::Name::from(x);
    let tp = |t: &str, p: u32| TopicPartition::new(t, p);
    let r = RecordId;
    let offset = SourceOffset { timestamp_ms: Some(5), incrementing: 7 };
    every! {
        Produce(ProduceEvent) {
            RecordSent {
                record: r(1),
                producer: n("p"),
                topic: n("t"),
                partition: 0,
                key: Some(n("k")),
                value: n("v"),
                reason: PartitionReason::KeyHash { murmur2: -3 },
            },
            BatchSent { producer: n("p"), topic: n("t"), partition: 0, records: vec![r(1)] },
            RecordAppended {
                record: r(1),
                value: n("v"),
                topic: n("t"),
                partition: 0,
                offset: 0,
                timestamp: SimTime(3),
                broker: 1,
                leader_epoch: 0,
            },
            RecordAcked {
                record: r(1),
                value: n("v"),
                producer: n("p"),
                topic: n("t"),
                partition: 0,
                offset: 0,
                timestamp: SimTime(3),
                acks: Acks::All,
            },
            ProduceFailed {
                producer: n("p"),
                topic: n("t"),
                partition: 0,
                records: vec![r(1)],
                error: ProduceError::NotEnoughReplicas,
                retrying: true,
            },
            DuplicateIgnored { producer: n("p"), topic: n("t"), partition: 0, records: vec![r(1)] },
            SendBlocked {
                producer: n("p"),
                record: r(1),
                topic: n("t"),
                partition: 0,
                needed_bytes: 16384,
                available_bytes: 100,
                max_block_ms: 60_000,
            },
        }
        Cluster(ClusterEvent) {
            BrokerCrashed { broker: 1 },
            BrokerRestarted { broker: 1 },
            BrokerIsolated { broker: 1 },
            BrokerHealed { broker: 1 },
            BrokerSlowed { broker: 1, slow_ms: 200 },
            BrokerFenced { broker: 1 },
            BrokerUnfenced { broker: 1 },
            PartitionsAdded { topic: s("t"), partitions: 4 },
            BrokerShutDown { broker: 1 },
        }
        Replication(ReplicationEvent) {
            LeaderElected { topic: n("t"), partition: 0, leader: Some(1), epoch: 2, isr: vec![1, 2], unclean: false },
            IsrShrunk { topic: n("t"), partition: 0, removed: 2, isr: vec![1] },
            IsrExpanded { topic: n("t"), partition: 0, added: 2, isr: vec![1, 2] },
            ReplicaFetched { topic: n("t"), partition: 0, follower: 2, records: vec![r(1)], log_end_offset: 1 },
            HighWatermarkAdvanced { topic: n("t"), partition: 0, high_watermark: 1 },
            RecordsTruncated { topic: n("t"), partition: 0, broker: 2, from_offset: 0, records: vec![r(1)] },
            RecordsLost {
                topic: n("t"),
                partition: 0,
                records: vec![LostRecord { record: r(1), value: s("v"), offset: 0, was_committed: true }],
                cause: LossCause::UncleanElection,
            },
            SegmentsDeleted {
                topic: n("t"),
                partition: 0,
                broker: 1,
                reason: SegmentDeletionReason::RetentionMs,
                base_offsets: vec![0],
                bytes: 100,
                records: vec![r(1)],
                log_start_offset: 1,
            },
            PreferredLeaderElected { topic: n("t"), partition: 0, leader: 1, previous: Some(2), epoch: 3 },
            EligibleLeadersChanged { topic: n("t"), partition: 0, elr: vec![2], isr: vec![1] },
        }
        Group(GroupEvent) {
            MetadataChangeNoticed { group: s("g"), client_id: s("c"), topic: s("t") },
            GroupCreated { group: s("g") },
            MemberJoined { group: s("g"), client_id: s("c"), member_id: s("c-1") },
            MemberLeft { group: s("g"), client_id: s("c"), member_id: s("c-1"), reason: LeaveReason::SessionTimeout },
            JoinGroupSent { group: s("g"), client_id: s("c"), member_id: s("c-1"), generation: 1 },
            MemberIdRequired { group: s("g"), client_id: s("c"), member_id: s("c-1") },
            StaticMemberReplaced { group: s("g"), client_id: s("c"), old_member_id: s("c-1"), member_id: s("c-2") },
            RebalanceNoticed { group: s("g"), client_id: s("c") },
            PartitionsRevoked { group: s("g"), client_id: s("c"), partitions: vec![tp("t", 0)] },
            JoinPhaseCompleted { group: s("g"), generation: 1, leader: s("c"), members: vec![s("c")], assignor: s("range") },
            SyncGroupSent { group: s("g"), client_id: s("c"), generation: 1, leader: true },
            MemberCrashed { group: s("g"), client_id: s("c") },
            MemberRestarted { group: s("g"), client_id: s("c") },
            MemberPaused { group: s("g"), client_id: s("c"), paused: true },
            RebalanceStarted { group: s("g"), cause: RebalanceCause::MemberJoined { client_id: s("c") } },
            PartitionsAssigned { group: s("g"), generation: 1, client_id: s("c"), partitions: vec![tp("t", 0)] },
            GroupStable { group: s("g"), generation: 1 },
            Subscribed { group: s("g"), client_id: s("c"), topics: vec![s("t")] },
        }
        Consume(ConsumeEvent) {
            CommitFailed { group: n("g"), client_id: n("c"), error: GroupError::IllegalGeneration, offsets: vec![(tp("t", 0), 1)] },
            RecordProcessed {
                group: n("g"),
                client_id: n("c"),
                record: r(1),
                tp: tp("t", 0),
                offset: 0,
                value: n("v"),
                duplicate: true,
            },
            PositionSet { group: n("g"), client_id: n("c"), tp: tp("t", 0), offset: 0, from: StartFrom::Committed },
            RecordDelivered {
                group: n("g"),
                client_id: n("c"),
                record: r(1),
                tp: tp("t", 0),
                offset: 0,
                value: n("v"),
                high_watermark: 1,
            },
            PositionReset { group: n("g"), client_id: n("c"), tp: tp("t", 0), from: 9, to: 1 },
            TruncationDetected { group: n("g"), client_id: n("c"), tp: tp("t", 0), from: 9, offset_epoch: 0, to: 5 },
            OffsetsCommitted { group: n("g"), client_id: n("c"), offsets: vec![(tp("t", 0), 1)] },
            OffsetsExpired { group: n("g"), offsets: vec![(tp("t", 0), 1)] },
            Seeked { group: n("g"), client_id: n("c"), tp: tp("t", 0), from: 1, to: 0, how: SeekTo::Beginning },
        }
        ConsumerProtocol(ConsumerProtocolEvent) {
            ConsumerHeartbeatSent { group: s("g"), client_id: s("c"), member_epoch: 1, owned: vec![tp("t", 0)] },
            GroupEpochBumped { group: s("g"), epoch: 2, cause: RebalanceCause::TopicMetadataChanged { topic: s("t") } },
            TargetAssignmentComputed { group: s("g"), epoch: 2, assignor: s("uniform"), target: vec![(s("c"), vec![tp("t", 0)])] },
            ConsumerFailed { group: s("g"), client_id: s("c"), error: GroupError::UnreleasedInstanceId },
            AssignmentReconciled { group: s("g"), client_id: s("c"), epoch: 2, partitions: vec![tp("t", 0)] },
            ConsumerGroupStable { group: s("g"), epoch: 2 },
            MemberReconciling { group: s("g"), client_id: s("c"), epoch: 2, revoking: vec![tp("t", 0)], unreleased: vec![tp("t", 1)] },
        }
        Push(PushEvent) {
            RecordsPushed { group: s("g"), client_id: s("c"), tp: tp("t", 0), count: 2, buffered: 3 },
            PushOverwhelmed { group: s("g"), client_id: s("c"), buffered: 11, limit: 10 },
        }
        Connect(ConnectEvent) {
            TableRowChanged { connector: s("x"), id: 7, value: s("v"), insert: true },
            SourceRecordsPolled { connector: s("x"), rows: vec![(7, r(1))], position: Some(offset) },
            SourceOffsetsFlushed { connector: s("x"), offset, records: 1 },
            ConnectorTaskCrashed { connector: s("x"), unflushed: 1, committed: Some(offset) },
            ConnectorTaskRestarted { connector: s("x"), resume_after: Some(offset) },
        }
        Streams(StreamsEvent) {
            StreamsRecordProcessed {
                application_id: s("a"),
                client_id: s("c"),
                tp: tp("t", 0),
                offset: 0,
                output: Some((Some(s("k")), s("1"))),
                record: Some(r(2)),
            },
            StateStoreRestored { application_id: s("a"), client_id: s("c"), store: s("counts"), partition: 0, records: 3, keys: 2 },
        }
        Settings(SettingsEvent) {
            ConfigChanged { entity: s("p"), setting: s("acks"), value: s("1") },
            CommandRejected { reason: s("no") },
        }
        ShareGroup(ShareGroupEvent) {
            ShareGroupCreated { group: s("q") },
            ShareMemberJoined { group: s("q"), client_id: s("c"), member_id: s("u"), group_epoch: 1 },
            ShareAssignmentComputed { group: s("q"), group_epoch: 1, desired_sharing: 2, assignment: vec![(s("c"), vec![tp("t", 0)])] },
            ShareMemberAssigned { group: s("q"), client_id: s("c"), member_epoch: 1, partitions: vec![tp("t", 0)] },
            ShareMemberLeft { group: s("q"), client_id: s("c"), reason: ShareLeaveReason::SessionExpired },
            ShareMemberCrashed { group: s("q"), client_id: s("c") },
            ShareMemberRestarted { group: s("q"), client_id: s("c") },
            SharePartitionInitialized { group: s("q"), tp: tp("t", 0), start_offset: 0, earliest: true },
            SharePartitionReloaded { group: s("q"), tp: tp("t", 0), start_offset: 0 },
            ShareRecordsAcquired { group: s("q"), client_id: s("c"), tp: tp("t", 0), records: vec![(0, 1)], lock_until_ms: 30_000 },
            ShareRecordDelivered { group: s("q"), client_id: s("c"), record: r(1), tp: tp("t", 0), offset: 0, value: s("v"), delivery_count: 1 },
            ShareAcknowledged { group: s("q"), client_id: s("c"), tp: tp("t", 0), offsets: vec![0], acknowledge_type: crate::command::AcknowledgeType::Reject },
            ShareAcknowledgeFailed { group: s("q"), client_id: s("c"), tp: tp("t", 0), offsets: vec![0], error: ShareError::InvalidRecordState },
            ShareRecordsReturned { group: s("q"), client_id: s("c"), tp: tp("t", 0), offsets: vec![0], cause: ReturnCause::LockExpired },
            ShareRecordArchived { group: s("q"), tp: tp("t", 0), offset: 0, delivery_count: 5, cause: ArchiveCause::DeliveryLimit },
            ShareStartOffsetMoved { group: s("q"), tp: tp("t", 0), start_offset: 1 },
        }
        Txn(TxnEvent) {
            ProducerInitialized { producer: s("p"), transactional_id: s("tx"), producer_id: 1000, epoch: 0, coordinator: 1 },
            TransactionBegun { producer: s("p"), transactional_id: s("tx") },
            PartitionsAddedToTxn {
                transactional_id: s("tx"),
                partitions: vec![TxnPartition::Topic { tp: tp("t", 0) }, TxnPartition::Offsets { group: s("g") }],
                coordinator: 1,
            },
            EndTxnRequested { producer: s("p"), transactional_id: s("tx"), commit: true },
            TxnPrepared {
                transactional_id: s("tx"),
                producer_id: 1000,
                epoch: 1,
                commit: false,
                cause: EndCause::Timeout,
                partitions: vec![TxnPartition::Topic { tp: tp("t", 0) }],
            },
            TxnEnded { producer: s("p"), transactional_id: s("tx"), commit: true, epoch: 1 },
            MarkerWritten {
                transactional_id: s("tx"),
                topic: s("t"),
                partition: 0,
                offset: 3,
                kind: crate::record::ControlType::Abort,
                producer_id: 1000,
                epoch: 1,
                broker: 1,
            },
            TxnOffsetsCompleted { group: s("g"), transactional_id: s("tx"), commit: true, offsets: vec![(tp("t", 0), 1)] },
            TxnCompleted { transactional_id: s("tx"), commit: true, state: TxnState::CompleteCommit },
            EpochFenced { transactional_id: s("tx"), producer_id: 1000, epoch: 2, cause: EndCause::NewInstance },
            TxnRequestFailed {
                producer: s("p"),
                transactional_id: s("tx"),
                request: TxnRequest::EndTxn,
                error: TxnError::ProducerFenced,
                retrying: false,
            },
            TxnProducerFailed { producer: s("p"), transactional_id: s("tx"), error: TxnError::ProducerFenced, state: ClientTxnState::FatalError },
            TxnOffsetsPending { group: s("g"), producer: s("p"), offsets: vec![(tp("t", 0), 1)] },
            OffsetFetchUnstable { group: s("g"), client_id: s("c"), partitions: vec![tp("t", 0)] },
            RecordsSkipped { group: s("g"), client_id: s("c"), tp: tp("t", 0), from: 0, to: 4, aborted: 3, markers: 1 },
            TxnTimedOut { transactional_id: s("tx"), timeout_ms: 10_000, open_ms: 15_000 },
            ProducerCrashed { producer: s("p") },
            ProducerRestarted { producer: s("p") },
            ProducerAdded { producer: s("p") },
            IsolationLevelSet { group: s("g"), isolation_level: crate::config::IsolationLevel::ReadCommitted },
            ProcessingGuaranteeSet { application_id: s("a"), processing_guarantee: crate::config::ProcessingGuarantee::ExactlyOnceV2 },
            TxnRecordsAppended { topic: s("t"), partition: 0, producer_id: 1000, epoch: 0, records: vec![r(1)], first_offset: 0 },
        }
        Compaction(CompactionEvent) {
            LogCleaned {
                topic: s("t"),
                partition: 0,
                broker: 1,
                first_dirty_offset: 0,
                end_offset: 4,
                dirty_permille: 750,
                removed: vec![r(1)],
                tombstones_removed: 0,
                markers_removed: 0,
                stamped: vec![r(2)],
                delete_horizon_ms: Some(86_400_010),
                segments_before: 3,
                segments_after: 2,
                bytes_before: 300,
                bytes_after: 150,
            },
            CoordinatorLoaded { partition: 12, broker: 2, leader_epoch: 1, records: 7, groups: vec![s("g")], offsets: 3 },
        }
    }
}
