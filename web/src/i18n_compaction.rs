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
    SEGMENTS = "段", "Segments";
    SEG_CLEAN = "已清理", "clean";
    SEG_DIRTY = "脏", "dirty";
    SEG_ACTIVE = "活跃", "active";
    SEG_CLEAN_HINT = "低于清理检查点：每个键只留下最新的一条（截至上一次清理）", "Below the cleaner's checkpoint: each key's newest record, as of the last pass";
    SEG_DIRTY_HINT = "检查点之后：写入的每个值都还在，等下一次清理", "From the checkpoint on: every value written is still here until the next pass";
    SEG_DIRTY_WAITS_HINT = "还不能清理：它在最后稳定偏移量（LSO）处或之后，或有消息比 min.compaction.lag.ms 年轻", "Not cleanable yet: it holds the last stable offset (LSO) or later, or a record younger than min.compaction.lag.ms";
    SEG_ACTIVE_HINT = "活跃段正在接收写入：日志清理器从不清理它", "The active segment takes appends: the log cleaner never cleans it";
    CHECKPOINT = "清理检查点", "cleaner checkpoint";
    CHECKPOINT_HINT = "日志清理器上一次清理结束的位置：低于它是干净的，从它开始是脏的", "Where the cleaner's last pass ended: below it the log is clean, from it on dirty";
    NOT_CLEANED_YET = "尚未清理", "not cleaned yet";
    CLEANER_PASSES = "清理次数", "cleaner passes";
    DIRTY_RATIO = "脏比例", "dirty ratio";
    DIRTY_RATIO_HINT = "可清理的脏字节 ÷（它们 + 其下的干净字节）；日志清理器只清理严格大于 min.cleanable.dirty.ratio 的日志", "Cleanable dirty bytes ÷ (those + the clean bytes below them); the log cleaner takes a log only when this is strictly above min.cleanable.dirty.ratio";
    CLEANS_NEXT = "下次唤醒会清理它", "its next wake-up cleans it";
    WAITS = "等待更多脏数据", "waits for more dirty bytes";
    LATEST_TOGGLE = "每个键的最新值", "Latest value per key";
    LATEST_TOGGLE_HINT = "在原始日志旁显示：从头读完整个日志的消费者最终得到的表", "Shown beside the raw log: the table a consumer that reads the whole log ends up with";
    LATEST_TITLE = "每个键的最新值（读完整个日志后）", "Latest value per key (after reading the whole log)";
    KEY_COL = "键", "Key";
    VALUE_COL = "值", "Value";
    OFFSET_COL = "偏移量", "Offset";
    NO_KEYS = "还没有键", "No keys yet";
    TOMBSTONE = "墓碑", "tombstone";
    TOMBSTONE_HINT = "值为 null 的消息：删除它的键；日志清理器在 delete.retention.ms 之后删除墓碑本身（至少两次清理）", "A record with a null value: it deletes its key; the log cleaner removes the tombstone itself after delete.retention.ms (two passes at least)";
    GAP_HINT = "这些偏移量的消息已被日志清理器删除：偏移量从不改变，只留下空缺；消费者的位置会跳过它们", "The log cleaner removed the records at these offsets: offsets never change, they leave a gap; a consumer's position moves past it";
    LEGEND_TOMBSTONE = "墓碑（null 值）", "tombstone (null value)";
    LEGEND_GAP = "被清理掉的偏移量", "offsets the cleaner removed";
    CLOSE_HINT = "关闭这个视图", "Close this view";
    OFFSETS_TOPIC_HINT = "组的已提交偏移量和元数据是这个压缩主题里的消息：提交的键是 [\"组\",\"主题\",分区]，值是 {\"offset\":…}；组的元数据的键是 \"组\"；偏移量过期时写一个墓碑。新的协调者从这里加载组。", "A group's committed offsets and metadata are records of this compacted topic: a commit is keyed [\"group\",\"topic\",partition] with a value {\"offset\":…}; the group's metadata is keyed \"group\"; an expired offset gets a tombstone. A new coordinator loads the groups from here.";
    OFFSETS_LIVE_HINT = "打开这个分区：看提交落地、被压缩、过期时变成墓碑", "Open that partition: watch commits land, be compacted, and become tombstones when they expire";
    GO_TO_PARTITION_HINT = "转到这次清理的时刻，并滚动到该分区的段", "Go to this pass's moment and scroll to the partition's segments";
    ED_OFFSETS_SEGMENT_HINT = "__consumer_offsets 的段大小：活跃段从不压缩，调小才能看到提交被压缩", "Segment size of __consumer_offsets: the active segment is never compacted, so make it small to watch commits get compacted";
}

/// The word under a tombstone's struck null.
pub fn tombstone_word(lang: Lang) -> String {
    format!("⚰ {}", TOMBSTONE.get(lang))
}

/// A stamped tombstone's delete horizon.
pub fn delete_horizon(lang: Lang, horizon_ms: u64) -> String {
    if lang == Lang::Zh {
        format!("删除期限 {horizon_ms} ms：此后的一次清理会删除这个墓碑")
    } else {
        format!("delete horizon {horizon_ms} ms: a pass after it removes this tombstone")
    }
}

/// The short tag under a stamped tombstone: until when it stays, in the page clock's seconds.
pub fn horizon_short(lang: Lang, horizon_ms: u64) -> String {
    let secs = horizon_ms as f64 / 1000.0;
    if lang == Lang::Zh {
        format!("保留到 {secs:.1} s")
    } else {
        format!("until {secs:.1} s")
    }
}

/// The cell of a run of removed offsets.
pub fn gap_label(lang: Lang, from: u64, to: u64) -> String {
    let n = to - from + 1;
    match (lang, n) {
        (Lang::Zh, 1) => format!("⋯ {from} 已删除"),
        (Lang::Zh, _) => format!("⋯ {from}–{to} 已删除（{n} 个）"),
        (Lang::En, 1) => format!("⋯ {from} removed"),
        (Lang::En, _) => format!("⋯ {from}–{to} removed ({n})"),
    }
}

/// Which copy the compaction view reads.
pub fn copy_of(lang: Lang, broker: u32) -> String {
    if lang == Lang::Zh {
        format!("Broker {broker} 上的副本（每个副本各自清理）")
    } else {
        format!("the copy on broker {broker} (each replica cleans its own)")
    }
}

/// The dirty ratio against the minimum, in percent.
pub fn ratio_against(lang: Lang, dirty_permille: u32, min_permille: u32) -> String {
    let (d, m) = (f64::from(dirty_permille) / 10.0, f64::from(min_permille) / 10.0);
    if lang == Lang::Zh {
        format!("{d}%（需严格大于 {m}%）")
    } else {
        format!("{d}% (cleans above {m}%)")
    }
}

/// The older segments the strip does not draw.
pub fn segments_hidden(lang: Lang, hidden: usize, clean: usize) -> String {
    if lang == Lang::Zh {
        format!("更早的 {hidden} 个段未画出（其中 {clean} 个已清理）")
    } else {
        format!("{hidden} older segment(s) not drawn ({clean} clean)")
    }
}

/// A segment's numbers: records held and bytes.
pub fn segment_numbers(lang: Lang, records: u64, bytes: u64) -> String {
    if lang == Lang::Zh {
        format!("{records} 条 · {bytes} B")
    } else {
        format!("{records} rec · {bytes} B")
    }
}

/// A segment's title: its offsets, what it holds and its state's meaning.
pub fn segment_title(lang: Lang, base: u64, next: u64, records: u64, bytes: u64, state: &str) -> String {
    if lang == Lang::Zh {
        format!("基准偏移量 {base}，偏移量 [{base}, {next})，{records} 条消息，{bytes} 字节 · {state}")
    } else {
        format!("base offset {base}, offsets [{base}, {next}), {records} record(s), {bytes} bytes · {state}")
    }
}

/// The note under the latest-value table: the dirty part still holds every value.
pub fn dirty_note(lang: Lang, first_dirty: u64) -> String {
    if lang == Lang::Zh {
        format!("注意：脏区（偏移量 {first_dirty} 起）仍保留每一个值——从头读的消费者会先读到那里的旧值，再读到最新值；干净的部分只剩每个键的最新值。")
    } else {
        format!("Note: the dirty part (from offset {first_dirty}) still holds every value — a consumer reading from the start gets the older values there before the newest; the clean part holds only each key's newest.")
    }
}

/// Keys of the table not listed.
pub fn keys_hidden(lang: Lang, n: usize) -> String {
    if lang == Lang::Zh {
        format!("还有 {n} 个键未列出")
    } else {
        format!("{n} more key(s) not listed")
    }
}

/// The keys a tombstone deleted (not in the table).
pub fn deleted_keys(lang: Lang, keys: &[(String, u64)], total: usize) -> String {
    let list = keys.iter().map(|(k, o)| format!("\"{k}\" @{o}")).collect::<Vec<_>>().join(", ");
    let more = total.saturating_sub(keys.len());
    match (lang, more) {
        (Lang::Zh, 0) => format!("被墓碑删除的键（不在表中）：{list}"),
        (Lang::Zh, _) => format!("被墓碑删除的键（不在表中）：{list} 等 {total} 个"),
        (Lang::En, 0) => format!("Deleted by a tombstone (not in the table): {list}"),
        (Lang::En, _) => format!("Deleted by a tombstone (not in the table): {list} and {more} more"),
    }
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

/// Which groups a `__consumer_offsets` partition's leader coordinates.
pub fn coordinates(lang: Lang, groups: &[String]) -> String {
    let names = groups.join(", ");
    match (lang, groups.is_empty()) {
        (Lang::Zh, true) => "没有组落在这个分区".to_string(),
        (Lang::Zh, false) => format!("落在这个分区的组（它的 leader 是它们的协调者）：{names}"),
        (Lang::En, true) => "No group hashes to this partition".to_string(),
        (Lang::En, false) => format!("Groups that hash here (its leader is their coordinator): {names}"),
    }
}

/// Older records of a log the view does not draw.
pub fn records_hidden(lang: Lang, n: u64) -> String {
    if lang == Lang::Zh {
        format!("更早的 {n} 条消息未画出")
    } else {
        format!("{n} older record(s) not drawn")
    }
}

/// The link from a group's card to where its offsets live.
pub fn offsets_live_in(lang: Lang, partition: u32, leader: Option<u32>) -> String {
    match (lang, leader) {
        (Lang::Zh, Some(b)) => format!("偏移量存放在 __consumer_offsets-{partition}（leader broker {b}）"),
        (Lang::Zh, None) => format!("偏移量存放在 __consumer_offsets-{partition}（无 leader）"),
        (Lang::En, Some(b)) => format!("offsets live in __consumer_offsets-{partition} (leader broker {b})"),
        (Lang::En, None) => format!("offsets live in __consumer_offsets-{partition} (no leader)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::record::RecordId;

    #[test]
    fn the_offsets_link_names_the_partition_and_its_leader_in_both_languages() {
        for lang in [Lang::Zh, Lang::En] {
            let line = offsets_live_in(lang, 28, Some(2));
            assert!(line.contains("__consumer_offsets-28") && line.contains('2'), "{line}");
            assert!(gap_label(lang, 3, 5).contains("3–5"));
            assert!(horizon_short(lang, 86_403_000).contains("86403.0 s"));
        }
        assert!(offsets_live_in(Lang::Zh, 28, Some(2)).contains("偏移量"));
    }

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
