//! Log compaction's words in Chinese and English (issue 19): the cleaner's events as
//! sentences, the refusals of compaction settings, and the fixed texts of the page's
//! compaction views.

use crate::i18n::{Lang, Msg};
use kafka_sandbox_core::error::CompactionProblem;
use kafka_sandbox_core::event::CompactionEvent;

macro_rules! msgs {
    ($($name:ident = $zh:literal , $en:literal;)*) => {
        $(pub const $name: Msg = Msg { zh: $zh, en: $en };)*
        /// Every fixed text of this file, for the test that none is missing a translation.
        pub const ALL: &[Msg] = &[$($name),*];
    };
}

msgs! {
    INVALID_RECORD = "INVALID_RECORD（压缩主题只接受带键的消息）", "INVALID_RECORD (a compacted topic takes only records with a key)";
    ED_OFFSETS_SEGMENT_HINT = "__consumer_offsets 的段大小：活跃段从不压缩，调小才能看到提交被压缩", "Segment size of __consumer_offsets: the active segment is never compacted, so make it small to watch commits get compacted";
}

/// The compaction events as sentences.
pub fn compaction_line(lang: Lang, e: &CompactionEvent) -> String {
    let zh = lang == Lang::Zh;
    match e {
        CompactionEvent::LogCleaned {
            topic,
            partition,
            broker,
            first_dirty_offset,
            end_offset,
            dirty_permille,
            removed,
            tombstones_removed,
            stamped,
            delete_horizon_ms,
            segments_before,
            segments_after,
            bytes_before,
            bytes_after,
            ..
        } => {
            let pct = f64::from(*dirty_permille) / 10.0;
            let kept = match (stamped.len(), delete_horizon_ms) {
                (0, _) | (_, None) => String::new(),
                (n, Some(h)) => {
                    if zh {
                        format!("；{n} 条墓碑保留到 {h} ms")
                    } else {
                        format!("; {n} tombstone(s) kept until {h} ms")
                    }
                }
            };
            if zh {
                format!(
                    "Broker {broker} 的日志清理器压缩了 {topic}-{partition}：脏区 [{first_dirty_offset}, {end_offset})（脏比例 {pct}%），删掉 {} 条消息（其中墓碑 {tombstones_removed} 条），偏移量不变；段 {segments_before} → {segments_after}，{bytes_before} → {bytes_after} 字节{kept}",
                    removed.len()
                )
            } else {
                format!(
                    "Broker {broker}'s log cleaner compacted {topic}-{partition}: dirty range [{first_dirty_offset}, {end_offset}) ({pct}% dirty), {} record(s) removed ({tombstones_removed} tombstone(s)), offsets unchanged; segments {segments_before} → {segments_after}, {bytes_before} → {bytes_after} bytes{kept}",
                    removed.len()
                )
            }
        }
        CompactionEvent::CoordinatorLoaded { partition, broker, leader_epoch, records, groups, offsets } => {
            let groups = groups.join(", ");
            if zh {
                format!(
                    "Broker {broker} 成为 __consumer_offsets-{partition} 的 leader（epoch {leader_epoch}），即这些组的新协调者：读了 {records} 条消息，从每个键的最新消息重建 {groups} 的已提交偏移量（共 {offsets} 个）"
                )
            } else {
                format!(
                    "Broker {broker} now leads __consumer_offsets-{partition} (epoch {leader_epoch}), so it is the new coordinator: it read {records} record(s) and rebuilt the committed offsets of {groups} ({offsets} in all) from the newest record per key"
                )
            }
        }
    }
}

/// A compaction setting's refusal in the page's language.
pub fn compaction_problem(lang: Lang, p: &CompactionProblem) -> String {
    if lang == Lang::En {
        return p.to_string();
    }
    match p {
        CompactionProblem::DirtyRatio { value } => format!("为 {value}；允许 0 到 1"),
        CompactionProblem::InternalTopicName { name } => format!("\"{name}\" 是集群自己创建的内部主题；允许其他任何名字"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::record::RecordId;

    #[test]
    fn every_text_has_both_languages() {
        for m in ALL {
            assert!(!m.zh.is_empty() && !m.en.is_empty(), "{}", m.en);
            assert_ne!(m.zh, m.en, "{}", m.en);
        }
    }

    #[test]
    fn the_cleaners_sentences_carry_the_numbers_in_both_languages() {
        let e = CompactionEvent::LogCleaned {
            topic: "profiles".into(),
            partition: 0,
            broker: 1,
            first_dirty_offset: 0,
            end_offset: 6,
            dirty_permille: 750,
            removed: vec![RecordId(1), RecordId(2)],
            tombstones_removed: 1,
            markers_removed: 0,
            stamped: vec![RecordId(5)],
            delete_horizon_ms: Some(86_400_000),
            segments_before: 4,
            segments_after: 2,
            bytes_before: 500,
            bytes_after: 200,
        };
        for lang in [Lang::Zh, Lang::En] {
            let line = compaction_line(lang, &e);
            for n in ["profiles-0", "[0, 6)", "75%", "86400000", "500", "200"] {
                assert!(line.contains(n), "{line}");
            }
        }
        assert!(compaction_line(Lang::Zh, &e).contains("墓碑"));
        let e = CompactionEvent::CoordinatorLoaded {
            partition: 12,
            broker: 2,
            leader_epoch: 3,
            records: 7,
            groups: vec!["billing".into()],
            offsets: 4,
        };
        for lang in [Lang::Zh, Lang::En] {
            let line = compaction_line(lang, &e);
            for n in ["__consumer_offsets-12", "Broker 2", "billing", "7", "4"] {
                assert!(line.contains(n), "{line}");
            }
        }
    }
}
