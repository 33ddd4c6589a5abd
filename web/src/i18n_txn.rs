//! Transactions' words in Chinese and English (issue 17): the trace's transaction events
//! as sentences, their errors, and the fixed texts of the transactions panel.

use crate::i18n::{Lang, Msg};
use kafka_sandbox_core::event::{ClientTxnState, EndCause, ProduceError, TxnError, TxnEvent, TxnPartition, TxnRequest, TxnState};
use kafka_sandbox_core::record::ControlType;

macro_rules! msgs {
    ($($name:ident = $zh:literal , $en:literal;)*) => {
        $(pub const $name: Msg = Msg { zh: $zh, en: $en };)*
        /// Every fixed text of this file, for the test that none is missing a translation.
        pub const ALL: &[Msg] = &[$($name),*];
    };
}

msgs! {
    TXN_TITLE = "事务", "Transactions";
    TXN_HINT = "事务型生产者（transactional.id）把一组写入和消费偏移量一起提交或一起中止；read_committed 消费者只读到 LSO 之前、且不读被中止事务的消息", "A transactional producer (transactional.id) commits or aborts a group of writes, and consumed offsets, together; read_committed consumers read only below the LSO and never records of aborted transactions";
    TXN_ID = "事务 ID", "transactional.id";
    TXN_PRODUCER_ID = "生产者 ID / 纪元", "producer id / epoch";
    TXN_STATE = "生产者状态", "producer state";
    TXN_COORDINATOR = "事务协调者", "transaction coordinator";
    TXN_COORD_STATE = "协调者上的状态", "state at the coordinator";
    TXN_OPEN = "本事务的分区", "partitions in the transaction";
    TXN_NONE_OPEN = "没有打开的事务", "no transaction open";
    TXN_BEGIN = "开始事务", "Begin";
    TXN_COMMIT = "提交", "Commit";
    TXN_ABORT = "中止", "Abort";
    TXN_CRASH = "崩溃", "Crash";
    TXN_RESTART = "重启", "Restart";
    TXN_ZOMBIE = "再启动一个同 ID 实例", "Start a second instance";
    TXN_ZOMBIE_HINT = "同一 transactional.id 的新实例调用 initTransactions()：纪元增加，旧实例（僵尸）被隔离", "A new instance with the same transactional.id calls initTransactions(): the epoch goes up and the old instance (a zombie) is fenced";
    TXN_SEND = "发送", "Send";
    TXN_COMMITTED_COUNT = "已提交 / 已中止", "committed / aborted";
    TXN_LSO = "LSO（最后稳定偏移量）", "LSO";
    TXN_LSO_HINT = "最后稳定偏移量：最早一个未决事务的第一个偏移量（没有时等于高水位）；read_committed 消费者只读到这里", "Last stable offset: the first offset of the earliest undecided transaction (the HW when there is none); read_committed consumers read only up to here";
    TXN_MARKER_COMMIT = "提交标记", "COMMIT marker";
    TXN_MARKER_ABORT = "中止标记", "ABORT marker";
    TXN_MARKER_HINT = "事务标记：协调者写入的控制消息，占一个偏移量；消费者永远看不到它，但位置会越过它", "A transaction marker: a control record the coordinator writes, taking an offset of its own; no consumer ever sees it, but positions move past it";
    TXN_ABORTED_HINT = "被中止事务的消息：read_committed 消费者跳过它，read_uncommitted 消费者照样读到", "A record of an aborted transaction: read_committed consumers skip it, read_uncommitted ones read it anyway";
    TXN_ONGOING_HINT = "未决事务的消息：read_committed 消费者要等它的标记写入并提交后才能读到它及其后的一切", "A record of an undecided transaction: read_committed consumers wait for its marker before they read it, or anything after it";
    TXN_ISOLATION = "隔离级别", "isolation.level";
    TXN_ISOLATION_SWITCH = "切换隔离级别", "Switch isolation.level";
    TXN_GUARANTEE = "处理保证", "processing.guarantee";
    TXN_GUARANTEE_SWITCH = "切换处理保证", "Switch processing.guarantee";
    TXN_FATE_COMMITTED = "所属事务已提交", "its transaction committed";
    TXN_FATE_ABORTED = "所属事务已中止", "its transaction was aborted";
    TXN_FATE_OPEN = "所属事务未决", "its transaction is undecided";
    ED_TXN_ID_HINT = "设置后成为事务型生产者：先 initTransactions()，只能在 begin/commit 之间发送；需要 acks=all", "Makes it a transactional producer: it calls initTransactions() and sends only between begin and commit; needs acks=all";
    ED_TXN_RF_HINT = "事务需要这么多 broker（单 broker 集群设为 1）", "Transactions need this many brokers (1 on a one-broker cluster)";
    ED_ISOLATION_HINT = "read_committed：只读到 LSO，跳过被中止事务的消息", "read_committed: read only up to the LSO, skipping records of aborted transactions";
    ED_GUARANTEE_HINT = "exactly_once_v2：每个实例一个事务型生产者，输出、变更日志和偏移量一起提交", "exactly_once_v2: a transactional producer per instance; output, changelog and offsets commit together";
    SC_TRANSACTIONS = "事务：提交、中止与 read_committed", "Transactions: commit, abort, read_committed";
    TXN_CELL_COMMIT = "提交", "COMMIT";
    TXN_CELL_ABORT = "中止", "ABORT";
    COMMIT_OFF = "不提交（偏移量随事务提交）", "off (offsets only through a transaction)";
}

/// The exactly-once monitor's findings as sentences (the rest are `i18n::finding_text`'s).
pub fn finding_text(lang: Lang, f: &kafka_sandbox_core::Finding) -> String {
    use kafka_sandbox_core::FindingKind as K;
    let zh = lang == Lang::Zh;
    let p = f.tp.partition;
    let topic = &f.tp.topic;
    let values = f.values.join(" ");
    match &f.kind {
        K::AbortedRecordRead { group, client_id, read_committed: true } => {
            if zh {
                format!("{topic}-{p}：{group}/{client_id}（read_committed）读到了被中止事务的消息 {values}。Kafka 保证这种情况不会发生")
            } else {
                format!("{topic}-{p}: {group}/{client_id} (read_committed) read {values} of an aborted transaction. Kafka promises this cannot happen")
            }
        }
        K::AbortedRecordRead { group, client_id, read_committed: false } => {
            if zh {
                format!("{topic}-{p}：{group}/{client_id} 读到了 {values}，它们所属的事务后来被中止了——read_uncommitted 不在承诺之内")
            } else {
                format!("{topic}-{p}: {group}/{client_id} read {values}, whose transaction was then aborted — read_uncommitted is outside the promise")
            }
        }
        K::UndecidedRecordRead { group, client_id } => {
            if zh {
                format!("{topic}-{p}：{group}/{client_id}（read_committed）读到了未决事务的消息 {values}（LSO 之上）。Kafka 保证这种情况不会发生")
            } else {
                format!("{topic}-{p}: {group}/{client_id} (read_committed) read {values} of an undecided transaction (above the LSO). Kafka promises this cannot happen")
            }
        }
        K::OutputDuplicated { application_id, exactly_once: true } => {
            if zh {
                format!("{topic}-{p}：{application_id}（exactly_once_v2）的某条输入的输出 {values} 可见了两次。Kafka 保证这种情况不会发生")
            } else {
                format!("{topic}-{p}: an input's output {values} of {application_id} (exactly_once_v2) is visible twice. Kafka promises this cannot happen")
            }
        }
        K::OutputDuplicated { application_id, exactly_once: false } => {
            if zh {
                format!(
                    "{topic}-{p}：{application_id}（at_least_once）的某条输入的输出 {values} 又写了一次：崩溃后重新处理——至少一次的代价"
                )
            } else {
                format!("{topic}-{p}: {application_id} (at_least_once) wrote an input's output {values} again: reprocessed after a crash — the price of at-least-once")
            }
        }
        K::ReprocessedOutsideKafka { application_id } => {
            if zh {
                format!("{topic}-{p}：{application_id}（exactly_once_v2）重新处理了一条输入：之前的事务已中止，输出仍只有一次；但 Kafka 之外的副作用会发生两次——精确一次不承诺这个")
            } else {
                format!("{topic}-{p}: {application_id} (exactly_once_v2) processed an input again: the earlier transaction aborted, so the output stays once; a side effect outside Kafka would happen twice — exactly-once does not promise that")
            }
        }
        _ => String::new(),
    }
}

/// A record path's transaction hops (the rest are `i18n::hop_line`'s).
pub fn hop_line(lang: Lang, h: &kafka_sandbox_core::provenance::Hop) -> String {
    use kafka_sandbox_core::provenance::Hop as H;
    let zh = lang == Lang::Zh;
    match h {
        H::InTransaction { producer_id, epoch } => {
            if zh {
                format!("它属于生产者 ID {producer_id}（纪元 {epoch}）的事务：read_committed 消费者要等事务的结果")
            } else {
                format!("it belongs to producer id {producer_id}'s transaction (epoch {epoch}): read_committed consumers wait for its fate")
            }
        }
        H::TransactionDecided { commit: true, marker_offset } => {
            if zh {
                format!("{} 写在偏移量 {marker_offset}：{}", TXN_MARKER_COMMIT.get(lang), TXN_FATE_COMMITTED.get(lang))
            } else {
                format!("{} at offset {marker_offset}: {}", TXN_MARKER_COMMIT.get(lang), TXN_FATE_COMMITTED.get(lang))
            }
        }
        H::TransactionDecided { commit: false, marker_offset } => {
            if zh {
                format!(
                    "{} 写在偏移量 {marker_offset}：{}——read_committed 消费者永远看不到它",
                    TXN_MARKER_ABORT.get(lang),
                    TXN_FATE_ABORTED.get(lang)
                )
            } else {
                format!(
                    "{} at offset {marker_offset}: {} — read_committed consumers never see it",
                    TXN_MARKER_ABORT.get(lang),
                    TXN_FATE_ABORTED.get(lang)
                )
            }
        }
        _ => String::new(),
    }
}

/// A transaction partition as the page writes it.
fn txn_partition(lang: Lang, p: &TxnPartition) -> String {
    match p {
        TxnPartition::Topic { tp } => format!("{}-{}", tp.topic, tp.partition),
        TxnPartition::Offsets { group } => match lang {
            Lang::Zh => format!("{group} 的偏移量"),
            Lang::En => format!("{group}'s offsets"),
        },
    }
}

fn partitions(lang: Lang, ps: &[TxnPartition]) -> String {
    ps.iter().map(|p| txn_partition(lang, p)).collect::<Vec<_>>().join(", ")
}

/// What ends a transaction, in words.
pub fn end_cause(lang: Lang, c: EndCause) -> &'static str {
    match (c, lang) {
        (EndCause::Client, Lang::Zh) => "生产者自己",
        (EndCause::Client, Lang::En) => "the producer",
        (EndCause::NewInstance, Lang::Zh) => "同 ID 的新实例",
        (EndCause::NewInstance, Lang::En) => "a new instance with the same id",
        (EndCause::Timeout, Lang::Zh) => "超时（transaction.timeout.ms）",
        (EndCause::Timeout, Lang::En) => "the timeout (transaction.timeout.ms)",
    }
}

/// A transactional producer's state, in words.
pub fn client_state(lang: Lang, s: ClientTxnState) -> &'static str {
    use ClientTxnState as C;
    match (s, lang) {
        (C::Uninitialized, Lang::Zh) => "未初始化",
        (C::Uninitialized, Lang::En) => "uninitialized",
        (C::Initializing, Lang::Zh) => "初始化中（InitProducerId）",
        (C::Initializing, Lang::En) => "initializing (InitProducerId)",
        (C::Ready, Lang::Zh) => "就绪",
        (C::Ready, Lang::En) => "ready",
        (C::InTransaction, Lang::Zh) => "事务中",
        (C::InTransaction, Lang::En) => "in a transaction",
        (C::Committing, Lang::Zh) => "提交中",
        (C::Committing, Lang::En) => "committing",
        (C::Aborting, Lang::Zh) => "中止中",
        (C::Aborting, Lang::En) => "aborting",
        (C::AbortableError, Lang::Zh) => "可中止错误：只能 abortTransaction()",
        (C::AbortableError, Lang::En) => "abortable error: only abortTransaction() works",
        (C::FatalError, Lang::Zh) => "致命错误：必须关闭",
        (C::FatalError, Lang::En) => "fatal error: must be closed",
        (C::Crashed, Lang::Zh) => "已崩溃",
        (C::Crashed, Lang::En) => "crashed",
    }
}

/// A coordinator state with its Kafka name.
pub fn coordinator_state(s: TxnState) -> &'static str {
    s.name()
}

/// A transactional error with what it means.
pub fn txn_error(lang: Lang, e: TxnError) -> String {
    let meaning = match (e, lang) {
        (TxnError::CoordinatorNotAvailable, Lang::Zh) => "找不到事务协调者，重试",
        (TxnError::CoordinatorNotAvailable, Lang::En) => "no transaction coordinator; retrying",
        (TxnError::ConcurrentTransactions, Lang::Zh) => "上一个事务还在完成中，稍后重试",
        (TxnError::ConcurrentTransactions, Lang::En) => "the previous transaction is still completing; retrying",
        (TxnError::ProducerFenced, Lang::Zh) => "被更新的实例隔离：致命",
        (TxnError::ProducerFenced, Lang::En) => "fenced by a newer instance: fatal",
        (TxnError::InvalidProducerEpoch, Lang::Zh) => "纪元已过时（事务被协调者中止）：可中止",
        (TxnError::InvalidProducerEpoch, Lang::En) => "stale epoch (the coordinator aborted the transaction): abortable",
        (TxnError::TransactionAbortable, Lang::Zh) => "分区未能加入事务：可中止",
        (TxnError::TransactionAbortable, Lang::En) => "the partition could not join the transaction: abortable",
        (TxnError::InvalidTxnState, Lang::Zh) => "与协调者状态不符：致命",
        (TxnError::InvalidTxnState, Lang::En) => "does not fit the coordinator's state: fatal",
        (TxnError::InvalidProducerIdMapping, Lang::Zh) => "协调者不认识这个生产者 ID",
        (TxnError::InvalidProducerIdMapping, Lang::En) => "the coordinator does not know this producer id",
        (TxnError::InvalidTransactionTimeout, Lang::Zh) => "transaction.timeout.ms 超过 transaction.max.timeout.ms：致命",
        (TxnError::InvalidTransactionTimeout, Lang::En) => "transaction.timeout.ms above transaction.max.timeout.ms: fatal",
        (TxnError::IllegalGeneration, Lang::Zh) => "消费者已不在这一代：可中止",
        (TxnError::IllegalGeneration, Lang::En) => "the consumer is no longer in this generation: abortable",
        (TxnError::UnknownMemberId, Lang::Zh) => "组不认识这个成员：可中止",
        (TxnError::UnknownMemberId, Lang::En) => "the group does not know this member: abortable",
        (TxnError::UnstableOffsetCommit, Lang::Zh) => "有事务持有未决偏移量，等待后重试",
        (TxnError::UnstableOffsetCommit, Lang::En) => "a transaction holds pending offsets; waiting, then retrying",
        (TxnError::TransactionAborted, Lang::Zh) => "事务已中止",
        (TxnError::TransactionAborted, Lang::En) => "the transaction was aborted",
    };
    match lang {
        Lang::Zh => format!("{}（{meaning}）", e.name()),
        Lang::En => format!("{} ({meaning})", e.name()),
    }
}

/// The transactional produce errors (the rest are `i18n::produce_error`'s).
pub fn produce_error(lang: Lang, e: ProduceError) -> &'static str {
    use ProduceError as P;
    match (e, lang) {
        (P::InvalidProducerEpoch, Lang::Zh) => "INVALID_PRODUCER_EPOCH（leader 见过更新的纪元：事务已被中止，只能中止）",
        (P::InvalidProducerEpoch, Lang::En) => {
            "INVALID_PRODUCER_EPOCH (the leader has seen a newer epoch: the transaction was aborted; abort it)"
        }
        (P::TransactionAborted, Lang::Zh) => "TRANSACTION_ABORTED（中止事务时还没发出）",
        (P::TransactionAborted, Lang::En) => "TRANSACTION_ABORTED (still unsent when the transaction was aborted)",
        (P::ProducerFenced, Lang::Zh) => "PRODUCER_FENCED（被同 transactional.id 的新实例隔离）",
        (P::ProducerFenced, Lang::En) => "PRODUCER_FENCED (fenced by a newer instance with the same transactional.id)",
        (P::TransactionAbortable, Lang::Zh) => "TRANSACTION_ABORTABLE（分区未能加入事务）",
        (P::TransactionAbortable, Lang::En) => "TRANSACTION_ABORTABLE (the partition could not join the transaction)",
        _ => "",
    }
}

fn request(lang: Lang, r: TxnRequest) -> &'static str {
    match (r, lang) {
        (TxnRequest::InitProducerId, _) => "InitProducerId",
        (TxnRequest::AddPartitions, _) => "AddPartitionsToTxn",
        (TxnRequest::TxnOffsetCommit, _) => "TxnOffsetCommit",
        (TxnRequest::EndTxn, _) => "EndTxn",
    }
}

fn marker(lang: Lang, kind: ControlType) -> &'static str {
    match (kind, lang) {
        (ControlType::Commit, Lang::Zh) => "COMMIT 标记",
        (ControlType::Commit, Lang::En) => "a COMMIT marker",
        (ControlType::Abort, Lang::Zh) => "ABORT 标记",
        (ControlType::Abort, Lang::En) => "an ABORT marker",
    }
}

/// Transactions' events as sentences.
pub fn txn_line(lang: Lang, e: &TxnEvent) -> String {
    use TxnEvent as E;
    let zh = lang == Lang::Zh;
    let fate = |commit: bool| match (commit, zh) {
        (true, true) => "提交",
        (true, false) => "commit",
        (false, true) => "中止",
        (false, false) => "abort",
    };
    match e {
        E::ProducerInitialized { producer, transactional_id, producer_id, epoch, coordinator } => {
            if zh {
                format!("{producer} 完成 initTransactions()：事务 ID {transactional_id} 的协调者 Broker {coordinator} 给出生产者 ID {producer_id}、纪元 {epoch}")
            } else {
                format!("{producer} finished initTransactions(): coordinator broker {coordinator} of {transactional_id} gave producer id {producer_id}, epoch {epoch}")
            }
        }
        E::TransactionBegun { producer, .. } => {
            if zh {
                format!("{producer} 调用 beginTransaction()（不发请求）")
            } else {
                format!("{producer} calls beginTransaction() (no request goes out)")
            }
        }
        E::PartitionsAddedToTxn { transactional_id, partitions: ps, coordinator } => {
            if zh {
                format!("协调者 Broker {coordinator} 把 {} 加入 {transactional_id} 的事务", partitions(lang, ps))
            } else {
                format!("Coordinator broker {coordinator} adds {} to {transactional_id}'s transaction", partitions(lang, ps))
            }
        }
        E::EndTxnRequested { producer, commit, .. } => {
            if zh {
                format!("{producer} 调用{}事务：先把批次发完，再发 EndTxn", fate(*commit))
            } else {
                format!("{producer} calls {}Transaction(): flushes, then sends EndTxn", fate(*commit))
            }
        }
        E::TxnPrepared { transactional_id, epoch, commit, cause, partitions: ps, .. } => {
            let state = if *commit { "PrepareCommit" } else { "PrepareAbort" };
            if zh {
                format!(
                    "协调者为 {transactional_id} 记下 {state}（由{}决定），纪元升到 {epoch}；接着给 {} 写标记",
                    end_cause(lang, *cause),
                    partitions(lang, ps)
                )
            } else {
                format!(
                    "The coordinator logs {state} for {transactional_id} (decided by {}), epoch now {epoch}; markers to {} follow",
                    end_cause(lang, *cause),
                    partitions(lang, ps)
                )
            }
        }
        E::TxnEnded { producer, commit, epoch, .. } => {
            if zh {
                format!("{producer} 的{}返回，下一个事务用纪元 {epoch}（标记可能还在路上）", fate(*commit))
            } else {
                format!(
                    "{producer}'s {} returns; its next transaction uses epoch {epoch} (markers may still be on their way)",
                    fate(*commit)
                )
            }
        }
        E::MarkerWritten { topic, partition, offset, kind, broker, .. } => {
            if zh {
                format!("Leader Broker {broker} 在 {topic}-{partition} 偏移量 {offset} 写入{}", marker(lang, *kind))
            } else {
                format!("Leader broker {broker} writes {} at offset {offset} of {topic}-{partition}", marker(lang, *kind))
            }
        }
        E::TxnOffsetsCompleted { group, commit, offsets, .. } => {
            let n = offsets.len();
            match (zh, commit) {
                (true, true) => format!("组 {group} 的 {n} 个事务偏移量随事务提交"),
                (true, false) => format!("组 {group} 的 {n} 个事务偏移量随事务中止而丢弃"),
                (false, true) => format!("Group {group}'s {n} transactional offset(s) commit with the transaction"),
                (false, false) => format!("Group {group}'s {n} transactional offset(s) are dropped with the aborted transaction"),
            }
        }
        E::TxnCompleted { transactional_id, state, .. } => {
            if zh {
                format!("{transactional_id} 的标记全部写完：协调者记下 {}", coordinator_state(*state))
            } else {
                format!("Every marker of {transactional_id} is written: the coordinator logs {}", coordinator_state(*state))
            }
        }
        E::EpochFenced { transactional_id, epoch, cause, .. } => {
            if zh {
                format!("协调者隔离 {transactional_id} 的未决事务（{}）：纪元升到 {epoch}，旧实例的写入从此被拒", end_cause(lang, *cause))
            } else {
                format!(
                    "The coordinator fences {transactional_id}'s open transaction ({}): epoch {epoch}; the old instance's writes now fail",
                    end_cause(lang, *cause)
                )
            }
        }
        E::TxnRequestFailed { producer, request: r, error, retrying, .. } => match (zh, retrying) {
            (true, true) => format!("{producer} 的 {} 失败：{}，将重试", request(lang, *r), txn_error(lang, *error)),
            (true, false) => format!("{producer} 的 {} 失败：{}", request(lang, *r), txn_error(lang, *error)),
            (false, true) => format!("{producer}'s {} failed: {}; retrying", request(lang, *r), txn_error(lang, *error)),
            (false, false) => format!("{producer}'s {} failed: {}", request(lang, *r), txn_error(lang, *error)),
        },
        E::TxnProducerFailed { producer, error, state, .. } => {
            if zh {
                format!("{producer} 进入{}：{}", client_state(lang, *state), txn_error(lang, *error))
            } else {
                format!("{producer} enters {}: {}", client_state(lang, *state), txn_error(lang, *error))
            }
        }
        E::TxnOffsetsPending { group, producer, offsets } => {
            if zh {
                format!("组 {group} 的协调者暂存 {producer} 在事务中发送的 {} 个偏移量：事务提交后才生效", offsets.len())
            } else {
                format!(
                    "Group {group}'s coordinator holds {} offset(s) {producer} sent in its transaction: they count once it commits",
                    offsets.len()
                )
            }
        }
        E::OffsetFetchUnstable { group, client_id, partitions } => {
            let list = partitions.iter().map(|tp| format!("{}-{}", tp.topic, tp.partition)).collect::<Vec<_>>().join(", ");
            if zh {
                format!("{group}/{client_id} 获取已提交偏移量得到 UNSTABLE_OFFSET_COMMIT：{list} 还有事务未决的偏移量，等待后重试")
            } else {
                format!("{group}/{client_id}'s OffsetFetch gets UNSTABLE_OFFSET_COMMIT: a transaction still holds offsets of {list}; it waits and asks again")
            }
        }
        E::RecordsSkipped { group, client_id, tp, from, to, aborted, markers } => {
            if zh {
                format!(
                    "{group}/{client_id} 在 {}-{} 的位置从 {from} 越过到 {to}：跳过 {aborted} 条被中止的消息、{markers} 个标记",
                    tp.topic, tp.partition
                )
            } else {
                format!("{group}/{client_id}'s position on {}-{} moves from {from} to {to} past {aborted} aborted record(s) and {markers} marker(s)", tp.topic, tp.partition)
            }
        }
        E::TxnTimedOut { transactional_id, timeout_ms, open_ms } => {
            if zh {
                format!("协调者的扫描发现 {transactional_id} 的事务已打开 {open_ms} ms，超过 transaction.timeout.ms（{timeout_ms}）")
            } else {
                format!("The coordinator's scan finds {transactional_id}'s transaction open for {open_ms} ms, past transaction.timeout.ms ({timeout_ms})")
            }
        }
        E::ProducerCrashed { producer } => {
            if zh {
                format!("生产者 {producer} 崩溃：未发出的消息丢失，打开的事务留在协调者那里")
            } else {
                format!("Producer {producer} crashes: what it had not sent is gone; its open transaction stays open at the coordinator")
            }
        }
        E::ProducerRestarted { producer } => {
            if zh {
                format!("生产者 {producer} 重启（新实例），重新 initTransactions()")
            } else {
                format!("Producer {producer} restarts (a new instance) and calls initTransactions() again")
            }
        }
        E::ProducerAdded { producer } => {
            if zh {
                format!("生产者 {producer} 启动")
            } else {
                format!("Producer {producer} starts")
            }
        }
        E::IsolationLevelSet { group, isolation_level } => {
            if zh {
                format!("组 {group}：isolation.level = {}", isolation_level.name())
            } else {
                format!("Group {group}: isolation.level = {}", isolation_level.name())
            }
        }
        E::TxnRecordsAppended { topic, partition, producer_id, records, first_offset, .. } => {
            if zh {
                format!("Leader 把生产者 ID {producer_id} 的 {} 条事务消息追加到 {topic}-{partition}（从偏移量 {first_offset} 起），等待其事务标记", records.len())
            } else {
                format!("The leader appends {} record(s) of producer id {producer_id}'s transaction to {topic}-{partition} from offset {first_offset}; they wait for its marker", records.len())
            }
        }
        E::ProcessingGuaranteeSet { application_id, processing_guarantee } => {
            if zh {
                format!("Streams 应用 {application_id}：processing.guarantee = {}", processing_guarantee.name())
            } else {
                format!("Streams app {application_id}: processing.guarantee = {}", processing_guarantee.name())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_has_both_languages() {
        for m in ALL {
            assert!(!m.zh.is_empty() && !m.en.is_empty(), "{}", m.en);
            assert_ne!(m.zh, m.en, "{}", m.en);
        }
    }
}
