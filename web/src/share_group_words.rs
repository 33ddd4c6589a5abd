//! Share groups' words (KIP-932) in Chinese and English: their trace events as sentences
//! and their refusals, one vocabulary with the rest of the page (共享组 share group, 获取
//! acquire, 确认 acknowledge, 释放 release, 拒绝 reject, 归档 archive, 投递次数 delivery
//! count, 锁 lock).

use crate::i18n::Lang;
use kafka_sandbox_core::command::{AcknowledgeType, AcknowledgementMode, ShareGroupRefusal};
use kafka_sandbox_core::event::{ArchiveCause, ReturnCause, ShareError, ShareGroupEvent, ShareLeaveReason};
use kafka_sandbox_core::record::TopicPartition;
use kafka_sandbox_core::share_view::SharePhase;

fn p(tp: &TopicPartition) -> String {
    format!("P{}", tp.partition)
}

fn offsets(o: &[u64]) -> String {
    o.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// An acknowledgement type by Kafka's name, with its Chinese gloss.
pub fn acknowledge_type(lang: Lang, t: AcknowledgeType) -> &'static str {
    match (lang, t) {
        (Lang::Zh, AcknowledgeType::Accept) => "ACCEPT（接受）",
        (Lang::Zh, AcknowledgeType::Release) => "RELEASE（释放）",
        (Lang::Zh, AcknowledgeType::Reject) => "REJECT（拒绝）",
        (Lang::En, t) => t.kafka_name(),
    }
}

/// Share groups' events as sentences.
pub fn share_group_line(lang: Lang, e: &ShareGroupEvent) -> String {
    use ShareGroupEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::ShareGroupCreated { group } => {
            if zh {
                format!("创建共享组 {group}（group.type share）")
            } else {
                format!("Share group {group} created (group.type share)")
            }
        }
        E::ShareMemberJoined { client_id, group_epoch, .. } => {
            if zh {
                format!("{client_id} 以成员纪元 0 发出第一个 ShareGroupHeartbeat，加入共享组（组纪元 {group_epoch}）")
            } else {
                format!("{client_id} joins the share group with member epoch 0 (group epoch {group_epoch})")
            }
        }
        E::ShareAssignmentComputed { group_epoch, desired_sharing, assignment, .. } => {
            let parts = assignment
                .iter()
                .map(|(c, tps)| format!("{c}: {}", tps.iter().map(p).collect::<Vec<_>>().join(" ")))
                .collect::<Vec<_>>()
                .join("; ");
            if zh {
                format!("协调者用 SimpleAssignor 计算组纪元 {group_epoch} 的目标分配，每个分区最多 {desired_sharing} 个成员共享：{parts}（没有撤销步骤）")
            } else {
                format!("The coordinator's SimpleAssignor computes group epoch {group_epoch}'s target, up to {desired_sharing} members per partition: {parts} (no revocation step)")
            }
        }
        E::ShareMemberAssigned { client_id, member_epoch, partitions, .. } => {
            let ps = partitions.iter().map(p).collect::<Vec<_>>().join(" ");
            if zh {
                format!("{client_id} 在成员纪元 {member_epoch} 得到分区 [{ps}]，立即使用")
            } else {
                format!("{client_id} gets [{ps}] at member epoch {member_epoch} and uses them at once")
            }
        }
        E::ShareMemberLeft { client_id, reason, .. } => match (zh, reason) {
            (true, ShareLeaveReason::Left) => format!("{client_id} 以成员纪元 -1 离开共享组"),
            (true, ShareLeaveReason::SessionExpired) => format!("{client_id} 的会话超时：协调者把它移出共享组"),
            (false, ShareLeaveReason::Left) => format!("{client_id} leaves the share group (member epoch -1)"),
            (false, ShareLeaveReason::SessionExpired) => format!("{client_id}'s session expired: the coordinator removes it"),
        },
        E::ShareMemberCrashed { client_id, .. } => {
            if zh {
                format!("共享消费者 {client_id} 崩溃：它获取的消息要等锁到期才回来")
            } else {
                format!("Share consumer {client_id} crashes: what it acquired comes back when its locks expire")
            }
        }
        E::ShareMemberRestarted { client_id, .. } => {
            if zh {
                format!("共享消费者 {client_id} 重启，用新的成员 id")
            } else {
                format!("Share consumer {client_id} restarts with a new member id")
            }
        }
        E::SharePartitionInitialized { tp, start_offset, earliest, .. } => match (zh, earliest) {
            (true, true) => format!("{} 的 leader 初始化共享分区：SPSO = {start_offset}（share.auto.offset.reset=earliest，日志起点）", p(tp)),
            (true, false) => format!("{} 的 leader 初始化共享分区：SPSO = {start_offset}（share.auto.offset.reset=latest，高水位）", p(tp)),
            (false, true) => format!("{}'s leader initializes the share partition: SPSO = {start_offset} (share.auto.offset.reset=earliest, the log start)", p(tp)),
            (false, false) => format!("{}'s leader initializes the share partition: SPSO = {start_offset} (share.auto.offset.reset=latest, the high watermark)", p(tp)),
        },
        E::SharePartitionReloaded { tp, start_offset, .. } => {
            if zh {
                format!("{} 的新 leader 从 __share_group_state 载入共享分区：SPSO = {start_offset}", p(tp))
            } else {
                format!("{}'s new leader loads the share partition from __share_group_state: SPSO = {start_offset}", p(tp))
            }
        }
        E::ShareRecordsAcquired { client_id, tp, records, lock_until_ms, .. } => {
            let list = records.iter().map(|(o, c)| format!("{o}×{c}")).collect::<Vec<_>>().join(", ");
            if zh {
                format!("{} 的 leader 为 {client_id} 获取消息 [{list}]（偏移量×投递次数），锁到 {lock_until_ms} ms", p(tp))
            } else {
                format!("{}'s leader acquires [{list}] (offset×delivery count) for {client_id}, locked until {lock_until_ms} ms", p(tp))
            }
        }
        E::ShareRecordDelivered { client_id, tp, offset, value, delivery_count, .. } => {
            if zh {
                format!("{client_id} 的 poll() 返回 {value}（{} 偏移量 {offset}，第 {delivery_count} 次投递）", p(tp))
            } else {
                format!("{client_id}'s poll() returns {value} ({} offset {offset}, delivery {delivery_count})", p(tp))
            }
        }
        E::ShareAcknowledged { client_id, tp, offsets: o, acknowledge_type: t, .. } => {
            if zh {
                format!("{} 的 leader 接受 {client_id} 对偏移量 {} 的确认：{}", p(tp), offsets(o), acknowledge_type(lang, *t))
            } else {
                format!("{}'s leader applies {client_id}'s {} of offsets {}", p(tp), t.kafka_name(), offsets(o))
            }
        }
        E::ShareAcknowledgeFailed { client_id, tp, offsets: o, error, .. } => {
            let code = match error {
                ShareError::InvalidRecordState => "INVALID_RECORD_STATE",
                ShareError::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            };
            if zh {
                format!("{} 拒绝 {client_id} 对偏移量 {} 的确认：{code}（消息已不归它）", p(tp), offsets(o))
            } else {
                format!("{} refuses {client_id}'s acknowledgement of offsets {}: {code} (no longer its records)", p(tp), offsets(o))
            }
        }
        E::ShareRecordsReturned { client_id, tp, offsets: o, cause, .. } => match (zh, cause) {
            (true, ReturnCause::LockExpired) => format!("{} 偏移量 {} 的锁到期（{client_id}）：消息回到 AVAILABLE，投递次数保留", p(tp), offsets(o)),
            (true, ReturnCause::Released) => format!("{client_id} 释放 {} 偏移量 {}：回到 AVAILABLE，投递次数保留", p(tp), offsets(o)),
            (true, ReturnCause::SessionClosed) => format!("{client_id} 的共享会话结束：{} 偏移量 {} 回到 AVAILABLE", p(tp), offsets(o)),
            (false, ReturnCause::LockExpired) => format!("The lock on {} offsets {} ({client_id}) expires: AVAILABLE again, delivery counts kept", p(tp), offsets(o)),
            (false, ReturnCause::Released) => format!("{client_id} releases {} offsets {}: AVAILABLE again, delivery counts kept", p(tp), offsets(o)),
            (false, ReturnCause::SessionClosed) => format!("{client_id}'s share session ends: {} offsets {} are AVAILABLE again", p(tp), offsets(o)),
        },
        E::ShareRecordArchived { tp, offset, delivery_count, cause, .. } => match (zh, cause) {
            (true, ArchiveCause::Rejected) => format!("{} 偏移量 {offset} 被拒绝（REJECT），归档，不再投递", p(tp)),
            (true, ArchiveCause::DeliveryLimit) => format!("{} 偏移量 {offset} 已投递 {delivery_count} 次（group.share.delivery.count.limit），归档，不再投递", p(tp)),
            (false, ArchiveCause::Rejected) => format!("{} offset {offset} is rejected and archived: never delivered again", p(tp)),
            (false, ArchiveCause::DeliveryLimit) => format!("{} offset {offset} was delivered {delivery_count} times (group.share.delivery.count.limit): archived, never delivered again", p(tp)),
        },
        E::ShareStartOffsetMoved { tp, start_offset, .. } => {
            if zh {
                format!("{} 的 SPSO 前移到 {start_offset}", p(tp))
            } else {
                format!("{}'s SPSO moves to {start_offset}", p(tp))
            }
        }
    }
}

/// A share group's refusal in Chinese.
pub fn share_group_refusal_zh(r: &ShareGroupRefusal) -> String {
    match r {
        ShareGroupRefusal::UnknownShareGroup(g) => format!("没有共享组 \"{g}\""),
        ShareGroupRefusal::NeedsKafka41 { group } => format!(
            "共享组 \"{group}\" 需要 cluster.kafka_version 4.1 或 4.2：Kafka 4.0 的共享组只是抢先体验（要开启不稳定 API 版本，SimpleAssignor 按哈希分配，沙盒不模拟）"
        ),
        ShareGroupRefusal::Setting { setting, group, value, min, max } => {
            format!("共享组 \"{group}\" 的 {setting} 为 {value}；允许 {min} 到 {max}")
        }
        ShareGroupRefusal::ResetNone { group } => {
            format!("共享组 \"{group}\" 的 share_auto_offset_reset 为 \"none\"；允许 \"latest\" 或 \"earliest\"（share.auto.offset.reset 没有 none）")
        }
        ShareGroupRefusal::TooManyRules { group, client_id } => {
            format!("共享组 \"{group}\" 的成员 \"{client_id}\" 的确认规则超过 {} 条", kafka_sandbox_core::command::MAX_ACKNOWLEDGE_RULES)
        }
    }
}

/// The side-by-side built-in scenario's name in the scenario list.
pub const SC_FIVE_SHARE: crate::i18n::Msg = crate::i18n::Msg {
    zh: "五个消费者：消费者组与共享组（KIP-932）",
    en: "Five consumers: a consumer group and a share group (KIP-932)",
};

/// A chip on the wire: a share consumer's acknowledgements on their way to the leader
/// (`ACCEPT P0@3,4 ← c1`).
pub fn ack_chip(lang: Lang, client_id: &str, acks: &[(TopicPartition, u64, AcknowledgeType)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < acks.len() {
        let (tp, _, t) = &acks[i];
        let mut offs = Vec::new();
        while i < acks.len() && acks[i].0 == *tp && acks[i].2 == *t {
            offs.push(acks[i].1.to_string());
            i += 1;
        }
        parts.push(format!("{} {}@{}", acknowledge_type(lang, *t), p(tp), offs.join(",")));
    }
    format!("{} ← {client_id}", parts.join(" "))
}

/// The share-group panel's words.
pub struct Words;

type Msg = crate::i18n::Msg;
const fn m(zh: &'static str, en: &'static str) -> Msg {
    Msg { zh, en }
}

impl Words {
    pub const TITLE: Msg = m("共享组（KIP-932，Kafka 的队列）", "Share groups (KIP-932, Queues for Kafka)");
    pub const ADD_MEMBER: Msg = m("+ 添加共享消费者", "+ Add a share consumer");
    pub const NOT_INITIALIZED: Msg =
        m("尚未初始化（还没有 ShareFetch 到达 leader）", "not initialized yet (no ShareFetch has reached its leader)");
    pub const RECEIVED_ORDER: Msg = m("收到的顺序：", "Received, in order:");
    pub const NOTHING_YET: Msg = m("还没有收到消息", "nothing received yet");
    pub const RULES_INACTIVE: Msg =
        m("（implicit 模式下不生效：应用不能调用 acknowledge）", "(inactive in implicit mode: the application cannot call acknowledge)");
    pub const CRASH: Msg = m("崩溃", "Crash");
    pub const RESTART: Msg = m("重启", "Restart");
    pub const SLOW: Msg = m("变慢（每条 40 秒，超过锁时长）", "Slow down (40 s a record, past the lock)");
    pub const UNSLOW: Msg = m("恢复速度", "Speed up again");
    pub const VALUE_PLACEHOLDER: Msg = m("消息值", "record value");
    /// Every fixed text, for the test that each has both languages.
    pub const ALL: &'static [Msg] = &[
        Self::TITLE,
        Self::ADD_MEMBER,
        Self::NOT_INITIALIZED,
        Self::RECEIVED_ORDER,
        Self::NOTHING_YET,
        Self::RULES_INACTIVE,
        Self::CRASH,
        Self::RESTART,
        Self::SLOW,
        Self::UNSLOW,
        Self::VALUE_PLACEHOLDER,
        SC_FIVE_SHARE,
    ];

    pub fn epoch_line(lang: Lang, epoch: i32, sharing: u32, members: usize) -> String {
        match lang {
            Lang::Zh => format!("组纪元 {epoch} · {members} 个成员 · 每个分区最多 {sharing} 个成员共享"),
            Lang::En => format!("group epoch {epoch} · {members} members · up to {sharing} members per partition"),
        }
    }

    pub fn counters(lang: Lang, delivered: u64, redelivered: u64, accepted: u64, archived: u64, again: u64) -> String {
        match lang {
            Lang::Zh => format!("投递 {delivered}（重投 {redelivered}）· 确认 {accepted} · 归档 {archived} · 重复处理 {again}"),
            Lang::En => format!(
                "delivered {delivered} (redelivered {redelivered}) · accepted {accepted} · archived {archived} · processed again {again}"
            ),
        }
    }

    pub fn window(lang: Lang, spso: u64, speo: u64, in_flight: u64, hw: u64, lag: Option<u64>) -> String {
        let lag = lag.map(|l| l.to_string()).unwrap_or_else(|| "—".into());
        match lang {
            Lang::Zh => format!("SPSO {spso} · SPEO {speo} · 在途 {in_flight} · 高水位 {hw} · 积压 {lag}"),
            Lang::En => format!("SPSO {spso} · SPEO {speo} · in flight {in_flight} · HW {hw} · lag {lag}"),
        }
    }

    pub fn owners(lang: Lang, owners: &[String]) -> String {
        match (lang, owners.is_empty()) {
            (Lang::Zh, true) => "没有成员".into(),
            (Lang::En, true) => "no member".into(),
            (Lang::Zh, false) => format!("共享给：{}", owners.join("、")),
            (Lang::En, false) => format!("shared by: {}", owners.join(", ")),
        }
    }

    pub fn member_line(lang: Lang, phase: SharePhase, epoch: i32, parts: &[String], mode: &str, processing_ms: u64) -> String {
        let phase = match (lang, phase) {
            (Lang::Zh, SharePhase::Joining) => "加入中",
            (Lang::Zh, SharePhase::Stable) => "在组中",
            (Lang::Zh, SharePhase::Crashed) => "已崩溃",
            (Lang::En, SharePhase::Joining) => "joining",
            (Lang::En, SharePhase::Stable) => "in the group",
            (Lang::En, SharePhase::Crashed) => "crashed",
        };
        let parts = if parts.is_empty() { "—".to_string() } else { parts.join(" ") };
        match lang {
            Lang::Zh => format!("{phase} · 成员纪元 {epoch} · 分区 {parts} · 确认模式 {mode} · 每条 {processing_ms} ms"),
            Lang::En => {
                format!("{phase} · member epoch {epoch} · partitions {parts} · acknowledgement {mode} · {processing_ms} ms a record")
            }
        }
    }

    pub fn switch_mode(lang: Lang, to: AcknowledgementMode) -> &'static str {
        match (lang, to) {
            (Lang::Zh, AcknowledgementMode::Explicit) => "改为 explicit 确认",
            (Lang::Zh, AcknowledgementMode::Implicit) => "改为 implicit 确认",
            (Lang::En, AcknowledgementMode::Explicit) => "Switch to explicit",
            (Lang::En, AcknowledgementMode::Implicit) => "Switch to implicit",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_both_languages_and_the_chinese_is_chinese() {
        for w in Words::ALL {
            assert!(!w.en.is_empty() && !w.zh.is_empty());
            assert!(w.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{}", w.zh);
        }
    }
}
