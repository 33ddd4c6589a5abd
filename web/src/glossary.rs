//! The glossary: one word per Kafka concept and language, for the page and the lessons
//! alike. Each term has its one-line meaning and how the source articles (the Chinese
//! seeds) say it; the glossary panel shows them, and the tests below fail on a word the
//! glossary avoids anywhere in the page's words or in a built-in lesson (the lessons once
//! said 重平衡 and 偏移量 where the page said 再均衡 and 位移).

/// One concept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub id: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
    pub meaning_en: &'static str,
    pub meaning_zh: &'static str,
    /// How the seed articles say it.
    pub seed: &'static str,
    /// Words for the same concept the page and the lessons do not use.
    pub avoid_en: &'static [&'static str],
    pub avoid_zh: &'static [&'static str],
}

impl Term {
    pub fn word(&self, lang: crate::i18n::Lang) -> &'static str {
        match lang {
            crate::i18n::Lang::En => self.en,
            crate::i18n::Lang::Zh => self.zh,
        }
    }

    pub fn meaning(&self, lang: crate::i18n::Lang) -> &'static str {
        match lang {
            crate::i18n::Lang::En => self.meaning_en,
            crate::i18n::Lang::Zh => self.meaning_zh,
        }
    }
}

/// Every term, in teaching order.
pub const TERMS: &[Term] = &[
    Term {
        id: "record",
        en: "record",
        zh: "消息",
        meaning_en: "One key-value entry a producer sends and a partition's log stores at one offset (ProducerRecord, ConsumerRecord).",
        meaning_zh: "生产者发送、分区日志在一个偏移量处保存的一条键值数据（ProducerRecord、ConsumerRecord）。",
        seed: "消息（也被称为记录）",
        avoid_en: &[],
        avoid_zh: &["记录"],
    },
    Term {
        id: "topic",
        en: "topic",
        zh: "主题",
        meaning_en: "A named stream of records, split into partitions.",
        meaning_zh: "有名字的一类消息，分成若干分区。",
        seed: "主题（Topic）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "partition",
        en: "partition",
        zh: "分区",
        meaning_en: "One ordered, append-only log of a topic; order holds only inside it.",
        meaning_zh: "主题的一份有序、只追加的日志；只有分区内有顺序。",
        seed: "分区（partition）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "offset",
        en: "offset",
        zh: "偏移量",
        meaning_en: "A record's place in its partition: 0, 1, 2 and so on, meaningless outside it.",
        meaning_zh: "消息在分区中的位置：0、1、2……离开所在的分区就没有意义。",
        seed: "偏移量（Consumer Offset）",
        avoid_en: &[],
        avoid_zh: &["位移"],
    },
    Term {
        id: "committed-offset",
        en: "committed offset",
        zh: "已提交偏移量",
        meaning_en: "What a group saved with OffsetCommit: the next offset it reads after a restart or a rebalance.",
        meaning_zh: "消费者组用 OffsetCommit 保存的偏移量：重启或重平衡后从这里接着读。",
        seed: "提交（提交偏移量）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "position",
        en: "position",
        zh: "位置",
        meaning_en: "A consumer's next offset to fetch on a partition; it runs ahead of the committed offset.",
        meaning_zh: "消费者在一个分区上下一次拉取的偏移量；走在已提交偏移量前面。",
        seed: "位置（偏移量）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "producer",
        en: "producer",
        zh: "生产者",
        meaning_en: "A client that sends records to topics.",
        meaning_zh: "向主题发送消息的客户端。",
        seed: "生产者（Producer）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "consumer",
        en: "consumer",
        zh: "消费者",
        meaning_en: "A client that polls records from the partitions it is assigned.",
        meaning_zh: "从分到的分区里拉取消息的客户端。",
        seed: "消费者（Consumer）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "consumer-group",
        en: "consumer group",
        zh: "消费者组",
        meaning_en: "Consumers sharing one group.id: each partition goes to one of them; every group gets every record.",
        meaning_zh: "共用一个 group.id 的消费者：每个分区只给其中一个；每个组都能收到全部消息。",
        seed: "消费组、消费者组、消费者群组",
        avoid_en: &[],
        avoid_zh: &["消费组", "消费者群组"],
    },
    Term {
        id: "rebalance",
        en: "rebalance",
        zh: "重平衡",
        meaning_en: "The group handing its partitions out again when a member joins, leaves or a topic changes.",
        meaning_zh: "有成员加入、离开或主题变化时，消费者组重新分配分区。",
        seed: "重平衡（Rebalance；002 作“再均衡”）",
        avoid_en: &[],
        avoid_zh: &["再均衡"],
    },
    Term {
        id: "coordinator",
        en: "coordinator",
        zh: "协调者",
        meaning_en: "The broker leading the group's __consumer_offsets partition: it runs the group's membership and stores its commits.",
        meaning_zh: "该组所在 __consumer_offsets 分区的 leader broker：管理组成员并保存提交。",
        seed: "群组协调器、组织协调者",
        avoid_en: &[],
        avoid_zh: &["协调器"],
    },
    Term {
        id: "heartbeat",
        en: "heartbeat",
        zh: "心跳",
        meaning_en: "A member's regular sign of life to its coordinator; without one for session.timeout.ms it is removed.",
        meaning_zh: "成员定期发给协调者的存活信号；session.timeout.ms 内没有，就被移出组。",
        seed: "心跳",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "assignor",
        en: "assignor",
        zh: "分配策略",
        meaning_en: "The rule that deals partitions to members: Range, RoundRobin, Sticky, CooperativeSticky (client side) or uniform and range (KIP-848, broker side).",
        meaning_zh: "把分区分给成员的规则：Range、RoundRobin、Sticky、CooperativeSticky（客户端），或 uniform、range（KIP-848，broker 端）。",
        seed: "分配策略",
        avoid_en: &[],
        avoid_zh: &["分配器"],
    },
    Term {
        id: "broker",
        en: "broker",
        zh: "broker",
        meaning_en: "One Kafka server: it hosts partition replicas and answers clients.",
        meaning_zh: "一台 Kafka 服务器：保存分区副本并响应客户端。",
        seed: "broker",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "replica",
        en: "replica",
        zh: "副本",
        meaning_en: "One broker's copy of a partition; the leader takes writes, followers copy it.",
        meaning_zh: "某个 broker 上的分区副本；leader 接收写入，follower 跟着复制。",
        seed: "副本（Replica）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "leader",
        en: "leader",
        zh: "leader",
        meaning_en: "The replica that takes a partition's writes and serves its consumers.",
        meaning_zh: "接收分区写入、服务消费者的那个副本。",
        seed: "领导者副本（Leader Replica）",
        avoid_en: &[],
        avoid_zh: &["首领"],
    },
    Term {
        id: "follower",
        en: "follower",
        zh: "follower",
        meaning_en: "A replica that copies the leader's log.",
        meaning_zh: "复制 leader 日志的副本。",
        seed: "追随者副本（Follower Replica）",
        avoid_en: &[],
        avoid_zh: &["追随者"],
    },
    Term {
        id: "isr",
        en: "ISR",
        zh: "ISR",
        meaning_en: "In-sync replicas: those caught up with the leader within replica.lag.time.max.ms.",
        meaning_zh: "同步副本：在 replica.lag.time.max.ms 内跟上 leader 的副本。",
        seed: "in-sync 状态的副本",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "high-watermark",
        en: "high watermark",
        zh: "高水位",
        meaning_en: "The offset below which records are on every in-sync replica: committed, and all consumers see.",
        meaning_zh: "低于它的消息已在所有同步副本上：已提交，消费者只能读到这里。",
        seed: "已提交的消息（committed）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "log-end-offset",
        en: "log end offset",
        zh: "日志末端偏移量",
        meaning_en: "The offset the next appended record gets (LEO).",
        meaning_zh: "下一条追加的消息将得到的偏移量（LEO）。",
        seed: "（原文没有）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "batch",
        en: "batch",
        zh: "批次",
        meaning_en: "Records to one partition sent together in one request.",
        meaning_zh: "发往同一分区、在一个请求里一起发送的一组消息。",
        seed: "批次",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "key",
        en: "key",
        zh: "键",
        meaning_en: "The part of a record the default partitioner hashes (murmur2): one key, one partition.",
        meaning_zh: "默认分区器做哈希（murmur2）的那部分：同一个键总进同一个分区。",
        seed: "键值（key）",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "lag",
        en: "lag",
        zh: "消费延迟",
        meaning_en: "A partition's high watermark minus the group's committed offset, as kafka-consumer-groups.sh shows it.",
        meaning_zh: "分区高水位减去消费者组的已提交偏移量，与 kafka-consumer-groups.sh 的 LAG 相同。",
        seed: "消息堆积",
        avoid_en: &[],
        avoid_zh: &[],
    },
    Term {
        id: "stuck",
        en: "stuck",
        zh: "卡住",
        meaning_en: "A consumer's application no longer calling poll(); after max.poll.interval.ms its heartbeat thread leaves the group (not Kafka's consumer.pause()).",
        meaning_zh: "消费者的应用不再调用 poll()；超过 max.poll.interval.ms，它的心跳线程就让它离开组（不是 Kafka 的 consumer.pause()）。",
        seed: "（原文没有）",
        avoid_en: &["pause its application", "pause the application"],
        avoid_zh: &["暂停它的应用", "暂停应用"],
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n;

    /// Every Chinese and English text of the page: its fixed words, and every line of its
    /// sources outside comments (the sentence builders, the refusals).
    fn page_texts() -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = i18n::ALL
            .iter()
            .chain(i18n::classroom::ALL)
            .flat_map(|m| [(format!("Msg {m:?}"), m.zh.to_string()), (format!("Msg {m:?}"), m.en.to_string())])
            .collect();
        let mut dirs = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { panic!("read {dir:?}") };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("glossary.rs") {
                    let Ok(text) = std::fs::read_to_string(&path) else { panic!("read {path:?}") };
                    for (i, line) in text.lines().enumerate() {
                        if !line.trim_start().starts_with("//") {
                            out.push((format!("{}:{}", path.display(), i + 1), line.to_string()));
                        }
                    }
                }
            }
        }
        out
    }

    /// Every text of every built-in lesson, with its place.
    fn lesson_texts() -> Vec<(String, String)> {
        let mut out = Vec::new();
        for l in kafka_sandbox_core::lesson::built_in_lessons() {
            let Ok(l) = l else { panic!("a built-in lesson loads") };
            for (place, text) in l.texts() {
                out.push((format!("lesson {} {place}", l.id), text.en.clone()));
                out.push((format!("lesson {} {place}", l.id), text.zh.clone()));
            }
        }
        out
    }

    /// One vocabulary: no word the glossary avoids appears in the page or in a lesson.
    #[test]
    fn the_page_and_the_lessons_speak_the_glossarys_words_only() {
        let mut found = Vec::new();
        for (place, text) in page_texts().into_iter().chain(lesson_texts()) {
            let lower = text.to_ascii_lowercase();
            for t in TERMS {
                for avoid in t.avoid_zh {
                    if text.contains(avoid) {
                        found.push(format!("{place}: \"{avoid}\" (the glossary says \"{}\")", t.zh));
                    }
                }
                for avoid in t.avoid_en {
                    if lower.contains(&avoid.to_ascii_lowercase()) {
                        found.push(format!("{place}: \"{avoid}\" (the glossary says \"{}\")", t.en));
                    }
                }
            }
        }
        assert!(found.is_empty(), "words outside the glossary:\n{}", found.join("\n"));
    }

    /// The glossary is the page's and the lessons': each of its words is used by both
    /// (the page's Chinese and the lessons' Chinese), ids are unique, texts are filled.
    #[test]
    fn every_glossary_word_is_used_by_the_page_and_the_lessons() {
        let page: String = page_texts().into_iter().map(|(_, t)| t).collect::<Vec<_>>().join("\n");
        let lessons: String = lesson_texts().into_iter().map(|(_, t)| t).collect::<Vec<_>>().join("\n");
        let mut ids = Vec::new();
        for t in TERMS {
            assert!(!ids.contains(&t.id), "{} twice", t.id);
            ids.push(t.id);
            assert!(!t.meaning_en.is_empty() && !t.meaning_zh.is_empty() && !t.seed.is_empty(), "{}", t.id);
            assert!(kafka_sandbox_core::lesson::has_cjk(t.meaning_zh) && !kafka_sandbox_core::lesson::has_cjk(t.meaning_en), "{}", t.id);
            assert!(page.contains(t.zh) || page.contains(t.en), "the page never says {} / {}", t.en, t.zh);
        }
        // The words the lessons and the page used to disagree on, now one.
        for word in ["重平衡", "偏移量", "消费者组", "消息", "分配策略", "卡住"] {
            assert!(page.contains(word) && lessons.contains(word), "{word} in both");
        }
    }
}
