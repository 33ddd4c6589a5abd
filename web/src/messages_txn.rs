//! Transactions' refusals in Chinese, rendered from their values (issue 17); the English
//! is the value's `Display`.

use kafka_sandbox_core::command::{Allowed, TxnRefusal};
use kafka_sandbox_core::limits::{MAX_PRODUCERS, MAX_TIME_MS};

/// A refused transactions command in Chinese.
pub fn txn_refusal(r: &TxnRefusal) -> String {
    match r {
        TxnRefusal::NotTransactional { producer } => format!("生产者 \"{producer}\" 没有 transactional_id：事务需要它"),
        TxnRefusal::WrongState { producer, operation, state } => {
            let allowed = operation.allowed_in().iter().map(|s| s.name()).collect::<Vec<_>>().join(" 或 ");
            format!("生产者 \"{producer}\" 处于 {}：{} 只能在 {allowed} 时调用", state.name(), operation.method())
        }
        TxnRefusal::NotCrashed { producer } => format!("生产者 \"{producer}\" 正在运行：只有崩溃的生产者才能重启"),
        TxnRefusal::DuplicateProducer { producer } => format!("已经有名为 \"{producer}\" 的生产者"),
        TxnRefusal::TooManyProducers => format!("最多 {MAX_PRODUCERS} 个生产者"),
        TxnRefusal::UnknownStreamsApp { application_id } => format!("没有 Streams 应用 \"{application_id}\""),
        TxnRefusal::NoPositions { group, client_id } => format!("消费者组 \"{group}\" 的成员 \"{client_id}\" 还没有位置：它没有分区"),
        TxnRefusal::TimeoutAboveMax { producer, timeout_ms, max_ms } => format!(
            "生产者 \"{producer}\" 的 transaction_timeout_ms 为 {timeout_ms}；允许最多为集群的 transaction_max_timeout_ms（{max_ms}）"
        ),
        TxnRefusal::ProducerSetting { producer, setting, value, allowed } => {
            let allowed = match allowed {
                Allowed::Range { min, max } => format!("{min} 到 {max}"),
                Allowed::AtLeast(min) => format!("{min} 及以上"),
                Allowed::UpToAWeek => format!("1 到 {MAX_TIME_MS}（一周）"),
                Allowed::Below { setting, value } => format!("小于 {setting}（{value}）"),
            };
            format!("生产者 \"{producer}\" 的 {setting} 为 {value}；允许 {allowed}")
        }
        TxnRefusal::TransactionStateReplication { replication_factor, brokers } => format!(
            "事务需要 __transaction_state，它要 transaction_state_log_replication_factor（{replication_factor}）个副本，但集群只有 {brokers} 个 broker；允许最多 {brokers}"
        ),
        TxnRefusal::NeedsIdempotence { producer } => {
            format!("生产者 \"{producer}\" 有 transactional_id，需要幂等：acks \"all\"，且 enable_idempotence 不为 false")
        }
    }
}
