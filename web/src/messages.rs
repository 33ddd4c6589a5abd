//! The core's refusals in the page's language, rendered from their values.
//!
//! Every refusal is a typed value with its parameters: a refused command
//! (`CommandError`, [`refusal`]), a scenario (`ScenarioError`, [`scenario_refusal`]), a
//! lesson (`LessonError`, [`lesson_refusal`]), a link, saved run or file (`ShareError`,
//! [`share_refusal`]). Each is an exhaustive match, so a new refusal cannot stay English;
//! the English is the value's `Display`; a feature's own refusals (a connector's
//! `ConnectProblem`, a Streams application's `StreamsProblem`) have a function each
//! ([`connect_problem`], [`streams_problem`]). Only one thing arrives as text: serde_json's
//! own words for a JSON mistake (`missing field`, `unknown field`, …: serde's, not ours),
//! read through the small table of its fixed forms, [`SERDE`].

use crate::i18n::Lang;
use kafka_sandbox_core::command::{Allowed, CommandError, NameOf, NameProblem};
use kafka_sandbox_core::error::{
    Capped, ConnectProblem, Defined, IdempotenceRule, JsonProblem, Problem, ScenarioError, StreamsProblem, TableList,
};
use kafka_sandbox_core::lesson::{self, LessonError, LessonProblem, Listed, Missing, ValueProblem};
use kafka_sandbox_core::limits::{
    self, Range, MAX_CONNECTORS, MAX_GROUPS, MAX_HEADERS, MAX_MEMBERS_PER_GROUP, MAX_PARTITIONS, MAX_PRODUCERS, MAX_PUSH_BUFFER_RECORDS,
    MAX_SCENARIO_BYTES, MAX_STREAMS, MAX_TABLE_ROWS, MAX_TIMELINE, MAX_TIME_MS, MAX_TOPICS, MAX_VALUE_CHARS,
};
use kafka_sandbox_core::share::{self, Damage, SerdeSays, ShareError};
use kafka_sandbox_core::uuid::UuidProblem;

/// A refused command in `lang`, rendered from the value.
pub fn refusal(lang: Lang, e: &CommandError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        CommandError::UnknownProducer(p) => format!("没有名为 \"{p}\" 的生产者"),
        CommandError::UnknownTopic(t) => format!("没有名为 \"{t}\" 的主题"),
        CommandError::UnknownGroup(g) => format!("没有消费者组 \"{g}\""),
        CommandError::UnknownBroker(b) => format!("没有 broker {b}"),
        CommandError::UnknownConnector(c) => format!("没有名为 \"{c}\" 的连接器"),
        CommandError::UnknownMember { group, client_id } => format!("消费者组 \"{group}\" 中没有 client id 为 \"{client_id}\" 的成员"),
        CommandError::DuplicateGroup(g) => format!("消费者组 \"{g}\" 已经存在"),
        CommandError::DuplicateMember { group, client_id } => format!("消费者组 \"{group}\" 已有 client id 为 \"{client_id}\" 的成员"),
        CommandError::PartitionOutOfRange { topic, partition, partitions } => {
            format!("主题 \"{topic}\" 的分区是 0..{}，但请求的是分区 {partition}", partitions.saturating_sub(1))
        }
        CommandError::BadName { what: what_of, name, problem } => {
            let what = name_of(*what_of);
            match problem {
                NameProblem::Empty => format!("{what}不能为空"),
                NameProblem::TooLong => format!("{what} \"{name}\" 超过了 {} 个字符", what_of.max_chars()),
                NameProblem::ControlCharacter => format!("{what} {name:?} 含有控制字符"),
                NameProblem::IllegalCharacter { ch } => {
                    format!("{what} {name:?} 含有 {ch:?}；允许：ASCII 字母、数字、'.'、'_' 和 '-'（Kafka 的主题命名规则）")
                }
                NameProblem::DotOrDotDot => format!("{what}不能是 \".\" 或 \"..\"（Kafka 的主题命名规则）"),
            }
        }
        CommandError::RecordTooLong => format!("键或值最多 {MAX_VALUE_CHARS} 个字符"),
        CommandError::TooManyHeaders => format!("一条消息最多 {MAX_HEADERS} 个头部，每个最多 {MAX_VALUE_CHARS} 个字符"),
        CommandError::GroupFull { group } => format!("消费者组 \"{group}\" 已有 {MAX_MEMBERS_PER_GROUP} 个成员，这是沙盒允许的上限"),
        CommandError::TooManyMembers { group, members } => {
            format!("消费者组 \"{group}\" 有 {members} 个成员；沙盒最多允许 {MAX_MEMBERS_PER_GROUP} 个")
        }
        CommandError::TooManyGroups => format!("沙盒最多允许 {MAX_GROUPS} 个消费者组"),
        CommandError::GroupWithoutTopics { group } => format!("消费者组 \"{group}\" 至少要订阅一个主题"),
        CommandError::EmptySubscription { client_id } => format!("{client_id} 至少要订阅一个主题（这里 unsubscribe() 就是 remove_member）"),
        CommandError::SeekUnassigned { client_id, topic, partition } => {
            let what = match partition {
                Some(p) => format!("{topic}-{p}"),
                None => format!("{topic} 的任何分区"),
            };
            format!("{client_id} 没有被分配 {what}：seek() 只对已分配的分区有效（Kafka 会抛出 IllegalStateException）")
        }
        CommandError::NothingToSeek { client_id } => format!("{client_id} 没有已分配的分区可以 seek"),
        CommandError::NoBrokerUp => "没有运行中的 broker 能承载新的分区".to_string(),
        CommandError::PartitionCount { topic, partitions } => {
            format!("主题 \"{topic}\" 有 {partitions} 个分区；只能增加到 {} 到 {MAX_PARTITIONS} 个（分区数不会减少）", partitions + 1)
        }
        CommandError::MinInsyncReplicas { topic, replication_factor } => {
            format!("\"{topic}\" 的 min.insync.replicas 必须在 1 到副本数（{replication_factor}）之间")
        }
        CommandError::AssignorUnderConsumerProtocol { group, remote_assignor } => format!(
            "消费者组 \"{group}\" 使用 group.protocol=consumer：由 broker 按 group.remote.assignor（{remote_assignor}）分配分区；\
             partition.assignment.strategy 不起作用"
        ),
        CommandError::MemberSetting { setting, group, client_id, value, allowed } => {
            let allowed = match allowed {
                Allowed::Range { min, max } => format!("{min} 到 {max}"),
                Allowed::AtLeast(min) => format!("{min} 及以上"),
                Allowed::UpToAWeek => format!("1 到 {MAX_TIME_MS}（一周）"),
                Allowed::Below { setting, value } => format!("小于 {setting}（{value}）"),
            };
            format!("{setting}（成员 \"{client_id}\"，消费者组 \"{group}\"）为 {value}；允许 {allowed}")
        }
        CommandError::PushBuffer { group, value } => {
            format!("消费者组 \"{group}\" 的 push_buffer_max_records 为 {value}；允许 1 到 {MAX_PUSH_BUFFER_RECORDS}")
        }
        CommandError::Txn(r) => crate::messages_txn::txn_refusal(r),
        CommandError::IdempotenceNeedsAcksAll { producer } => {
            format!("生产者 \"{producer}\" 的 enable_idempotence 为 true，需要 acks \"all\"；允许 \"all\"（或先把 enable_idempotence 设为 false）")
        }
        CommandError::ShareGroup(r) => crate::share_group_words::share_group_refusal_zh(r),
    }
}

/// What a pasted producer.properties or consumer.properties did, in `lang`: the
/// settings taken, then each key not taken and why.
pub fn pasted(lang: Lang, p: &kafka_sandbox_core::bridge::properties::Pasted) -> String {
    use kafka_sandbox_core::bridge::properties::Refused;
    let applied = p.applied.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
    let refused: Vec<String> = p
        .refused
        .iter()
        .map(|r| match (lang, r) {
            (Lang::En, r) => r.to_string(),
            (Lang::Zh, Refused::Unknown { key }) => format!("{key}：没有哪个 Kafka 客户端有这个设置"),
            (Lang::Zh, Refused::Invalid { key, value, allowed }) => format!("{key}={value}：允许 {allowed}"),
            (Lang::Zh, Refused::NotModelled { key }) => format!("{key}：沙盒不模拟这个 Kafka 设置（保持不变）"),
            (Lang::Zh, Refused::OtherClient { key }) => format!("{key}：另一种客户端（生产者或消费者）的设置，保持不变"),
        })
        .collect();
    let none = || match lang {
        Lang::En => "nothing".to_string(),
        Lang::Zh => "无".to_string(),
    };
    let applied = if applied.is_empty() { none() } else { applied };
    match lang {
        Lang::En if refused.is_empty() => format!("Applied: {applied}. The run starts again with the new client."),
        Lang::En => format!("Applied: {applied}. Not applied: {}.", refused.join("; ")),
        Lang::Zh if refused.is_empty() => format!("已应用：{applied}。运行用新的客户端重新开始。"),
        Lang::Zh => format!("已应用：{applied}。未应用：{}。", refused.join("；")),
    }
}

/// The Chinese words for a name a refusal is about.
fn name_of(what: NameOf) -> &'static str {
    match what {
        NameOf::Topic => "主题名",
        NameOf::Producer => "生产者名",
        NameOf::Connector => "连接器名",
        NameOf::ClientId => "client id",
        NameOf::GroupId => "组 id",
        NameOf::GroupInstanceId => "group.instance.id",
        NameOf::Store => "状态存储名",
        NameOf::ApplicationId => "application.id",
        NameOf::TransactionalId => "transactional.id",
    }
}

/// A place in a text: `topics[0].partitions（第 4 行，第 20 列）`, `第 1 行，第 1 列`, or the path.
fn place(lang: Lang, path: &str, line_column: Option<(usize, usize)>) -> String {
    match (lang, path, line_column) {
        (Lang::En, _, _) | (_, _, None) => match (path, line_column) {
            (path, None) => path.to_string(),
            ("", Some((l, c))) => format!("line {l}, column {c}"),
            (path, Some((l, c))) => format!("{path} (line {l}, column {c})"),
        },
        (Lang::Zh, "", Some((l, c))) => format!("第 {l} 行，第 {c} 列"),
        (Lang::Zh, path, Some((l, c))) => format!("{path}（第 {l} 行，第 {c} 列）"),
    }
}

/// `place: problem` (`place：problem` in Chinese), or the problem alone.
fn at(lang: Lang, place: String, problem: String) -> String {
    match (place.is_empty(), lang) {
        (true, _) => problem,
        (false, Lang::En) => format!("{place}: {problem}"),
        (false, Lang::Zh) => format!("{place}：{problem}"),
    }
}

/// A refused scenario in `lang`: its place and its problem.
pub fn scenario_refusal(lang: Lang, e: &ScenarioError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    at(lang, place(lang, &e.path, e.line_column), problem(lang, &e.problem))
}

/// What is allowed by a row of the limits table, in Chinese: `1 到 12（一周）`.
fn allowed_zh(range: &Range) -> String {
    let bounds = if range.max == u64::MAX { format!("{} 及以上", range.min) } else { format!("{} 到 {}", range.min, range.max) };
    // The rows' notes, by the rows that carry them (data, not sentences read back).
    let note = match range.note {
        "" => String::new(),
        n if n == limits::DURATION_MS.note => "（一周）".to_string(),
        n if n == limits::BROKER_SESSION_TIMEOUT_MS.note => "（一小时）".to_string(),
        n if n == limits::GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS.note => {
            "（除非修改 group.consumer.min/max.heartbeat.interval.ms，Kafka 自身的范围是 5000-15000）".to_string()
        }
        n if n == limits::GROUP_CONSUMER_SESSION_TIMEOUT_MS.note => "（Kafka 自身的范围是 45000-60000）".to_string(),
        n if n == limits::LOG_RETENTION_CHECK_INTERVAL_MS.note => "（log.retention.check.interval.ms 至少为 1）".to_string(),
        other => other.to_string(),
    };
    format!("{bounds}{note}")
}

/// A scenario's problem in Chinese.
fn problem(lang: Lang, p: &Problem) -> String {
    if lang == Lang::En {
        return p.to_string();
    }
    match p {
        Problem::TooBig { bytes } => format!("场景有 {bytes} 字节；最多接受 {MAX_SCENARIO_BYTES} 字节"),
        Problem::WrittenTooBig { bytes } => {
            format!("填上所有默认值后，场景有 {bytes} 字节；最多接受 {MAX_SCENARIO_BYTES} 字节（请减少时间线条目）")
        }
        Problem::NotAnObject => "场景是一个 JSON 对象：{ \"version\": 1, \"topics\": [...], ... }".to_string(),
        Problem::VersionUnsupported { version, supported } => format!("不支持版本 {version}；这个版本的沙盒读取版本 {supported}"),
        Problem::VersionNotANumber { written, supported } => format!("为 {written}；请写数字 {supported}：\"version\": {supported}"),
        Problem::VersionMissing { supported } => format!("缺少；请写 \"version\": {supported}"),
        Problem::Json(JsonProblem::Syntax { serde }) => format!("不是有效的 JSON（{}）", serde_words(lang, serde)),
        Problem::Json(JsonProblem::EnumAsNumber) => "应为允许的取值之一，写成 JSON 字符串（acks 要写 \"1\"，不是 1）".to_string(),
        Problem::Json(JsonProblem::Shape { serde }) => serde_words(lang, serde),
        Problem::OutOfRange { range, value } => format!("为 {value}；允许 {}", allowed_zh(range)),
        Problem::SessionNotAboveHeartbeat { session_ms, heartbeat_ms } => {
            format!("为 {session_ms}；必须大于 group_consumer_heartbeat_interval_ms（{heartbeat_ms}）")
        }
        Problem::NoTopics => "场景至少需要一个主题".to_string(),
        Problem::TooManyTopics { count } => format!("{count} 个主题；允许 1 到 {MAX_TOPICS} 个"),
        Problem::TooManyProducers { count } => format!("{count} 个生产者；最多允许 {MAX_PRODUCERS} 个"),
        Problem::Partitions { topic, partitions } => {
            let row = &limits::TOPIC_PARTITIONS;
            format!("主题 \"{topic}\" 有 {partitions} 个分区；允许 {} 到 {} 个", row.min, row.max)
        }
        Problem::ReplicationFactor { topic, replicas, brokers } => {
            format!("主题 \"{topic}\" 需要 {replicas} 个副本，但集群只有 {brokers} 个 broker")
        }
        Problem::MinInsyncReplicas { value, replication_factor } => format!("为 {value}；允许 1 到副本数（{replication_factor}）"),
        Problem::RetentionMs { value } => format!("为 {value}；允许 -1（不限时间）或 0 及以上毫秒"),
        Problem::RetentionBytes { value } => format!("为 {value}；允许 -1（不限大小）或每个分区 0 及以上字节"),
        Problem::SegmentBytes { value } => format!("为 {value}；允许 {}", allowed_zh(&limits::TOPIC_SEGMENT_BYTES)),
        Problem::SegmentMs { value } => {
            let row = &limits::TOPIC_SEGMENT_MS;
            format!("为 {value}；允许 {} 到 {} 毫秒", row.min, row.max)
        }
        Problem::MaxInFlightZero => "为 0；允许 1 及以上（max.in.flight.requests.per.connection 至少为 1）".to_string(),
        Problem::BufferMemoryBelowBatchSize { buffer_memory, batch_size } => {
            format!("为 {buffer_memory}；至少要有 batch_size（{batch_size}）：一个批次必须放得进 buffer.memory")
        }
        Problem::IdempotenceConflict { rule } => {
            let needs = match rule {
                IdempotenceRule::AcksAll => "acks 为 \"all\"",
                IdempotenceRule::RetriesAboveZero => "retries 大于 0",
                IdempotenceRule::InFlightAtMostFive => "max_in_flight_requests_per_connection 不超过 5",
            };
            format!("与 enable_idempotence 为 true 冲突：幂等生产者需要 {needs}（否则 Kafka 的生产者拒绝启动）；把 enable_idempotence 设为 false 或修改这个设置")
        }
        Problem::Duplicate { what, name } => match what {
            Defined::Topic => format!("主题 \"{name}\" 定义了两次"),
            Defined::Producer => format!("生产者 \"{name}\" 定义了两次"),
            Defined::TopicId => format!("主题 ID \"{name}\" 定义了两次"),
        },
        Problem::TopicId { value, why } => {
            let why = match why {
                UuidProblem::Length => "主题 ID 是 22 个 URL 安全的 base64 字符",
                UuidProblem::Alphabet => "主题 ID 只能使用 A-Z、a-z、0-9、'-' 和 '_'",
                UuidProblem::NotCanonical => "最后一个字符不能结束一个 16 字节的 ID（最后一个字符须是 A、Q、g、w 之一）",
                UuidProblem::Reserved => "Kafka 保留了全零 ID 和元数据主题的 ID",
                UuidProblem::LeadingDash => "Kafka 从不给主题以 '-' 开头的 ID",
            };
            format!("\"{value}\" 不是主题 ID：{why}")
        }
        Problem::KeysForValues { keys, values } => format!("{keys} 个键对应 {values} 个值；请为每个值给一个键（或 null）"),
        Problem::PlannedValueTooLong => format!("键和值最多 {MAX_VALUE_CHARS} 个字符"),
        Problem::SendTooLate { last_ms } => format!("最后一个值会在 {last_ms} ms 发送；一切都必须在 {MAX_TIME_MS} ms（一周）之前发生"),
        Problem::TooManyTimelineEntries { entries, with_connectors } => {
            let what = if *with_connectors { "命令、计划发送和表变更" } else { "命令加计划发送" };
            format!("时间线条目（{what}）有 {entries} 个；最多允许 {MAX_TIMELINE} 个")
        }
        Problem::Capped { what, value } => {
            let note = match what {
                Capped::ProcessingMs => "（每条消息一小时）",
                Capped::SlowMs => "（一小时）",
            };
            format!("{} 为 {value}；允许 0 到 {}{note}", what.field(), what.max())
        }
        Problem::Command(e) => refusal(lang, e),
        Problem::ByThen(e) => format!("到那时{}", refusal(lang, e)),
        Problem::Connect(p) => connect_problem(lang, p),
        Problem::Streams(p) => streams_problem(lang, p),
        Problem::Compaction(p) => crate::i18n_compaction::compaction_problem(lang, p),
        Problem::OffsetsTopicReplication { replication_factor, brokers } => format!(
            "为 {replication_factor}，但集群只有 {brokers} 个 broker：Kafka 只有在至少这么多 broker 存活时才会创建 __consumer_offsets，在此之前每个组都会收到 COORDINATOR_NOT_AVAILABLE；允许 1 到 {brokers}（设为 1，就像 Kafka 的单 broker 配置 config/server.properties 那样）"
        ),
    }
}

/// A source connector's refusal in `lang`.
pub fn connect_problem(lang: Lang, p: &ConnectProblem) -> String {
    if lang == Lang::En {
        return p.to_string();
    }
    match p {
        ConnectProblem::TooManyConnectors { count } => format!("{count} 个连接器；最多允许 {MAX_CONNECTORS} 个"),
        ConnectProblem::Duplicate { name } => format!("连接器 \"{name}\" 定义了两次"),
        ConnectProblem::ProducerNameTaken { producer } => format!("它的任务的生产者会叫 \"{producer}\"，但已经有生产者叫这个名字"),
        ConnectProblem::TooManyRows { what: TableList::Rows, count } => format!("表中有 {count} 行；最多允许 {MAX_TABLE_ROWS} 行"),
        ConnectProblem::TooManyRows { what: TableList::Changes, count } => {
            format!("计划了 {count} 个表变更；最多允许 {MAX_TABLE_ROWS} 个")
        }
        ConnectProblem::ValueTooLong => format!("最多 {MAX_VALUE_CHARS} 个字符"),
        ConnectProblem::DuplicateRowId { id } => format!("id {id} 在表中出现了两次"),
        ConnectProblem::RowExists { id } => format!("到那时表中已有 id 为 {id} 的行"),
        ConnectProblem::NoSuchRow { id } => format!("到那时表中没有 id 为 {id} 的行"),
        ConnectProblem::ChangeShape => {
            "表变更要么是 {\"at_ms\": ..., \"insert\": {\"id\": ..., \"value\": ...}}，要么是把 \"insert\" 换成 \"update\" 的同样写法"
                .to_string()
        }
    }
}

/// A Streams application's refusal in `lang`.
pub fn streams_problem(lang: Lang, p: &StreamsProblem) -> String {
    if lang == Lang::En {
        return p.to_string();
    }
    match p {
        StreamsProblem::TooManyApps { count } => format!("{count} 个 Streams 应用；最多允许 {MAX_STREAMS} 个"),
        StreamsProblem::Duplicate { application_id } => format!("Streams 应用 \"{application_id}\" 定义了两次"),
        StreamsProblem::IsAGroup { application_id } => {
            format!("\"{application_id}\" 已经是一个消费者组的 id（应用的消费者组 id 就是它的 application.id）")
        }
        StreamsProblem::ProducerNameTaken { producer } => format!("它的生产者会叫 \"{producer}\"，但已经有生产者叫这个名字"),
        StreamsProblem::UnknownTopic { topic } => format!("没有名为 \"{topic}\" 的主题（Streams 需要它的主题已经存在）"),
        StreamsProblem::SinkIsSource => "写入的主题必须不同于读取的主题".to_string(),
        StreamsProblem::FilterTooLong => format!("最多 {MAX_VALUE_CHARS} 个字符"),
        StreamsProblem::ChangelogIsATopic { changelog } => format!("它的变更日志主题 \"{changelog}\" 已经是一个主题"),
        StreamsProblem::TooManyTopics { topics, changelogs } => {
            format!("{topics} 个主题加 {changelogs} 个变更日志主题；总共最多允许 {MAX_TOPICS} 个主题")
        }
    }
}

/// A refused lesson in `lang`: its place and its problem.
pub fn lesson_refusal(lang: Lang, e: &LessonError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    at(lang, place(lang, &e.path, e.line_column), lesson_problem(lang, &e.problem))
}

fn lesson_problem(lang: Lang, p: &LessonProblem) -> String {
    use kafka_sandbox_core::lesson::{LESSON_FORMAT_VERSION as V, MAX_CHOICES, MAX_EVENTS_PER_RUN as EVENTS, MAX_LESSON_BYTES, MAX_STEPS};
    if lang == Lang::En {
        return p.to_string();
    }
    match p {
        LessonProblem::TooBig { bytes } => format!("课程有 {bytes} 字节；最多接受 {MAX_LESSON_BYTES} 字节"),
        LessonProblem::NotAnObject => "课程是一个 JSON 对象：{ \"version\": 1, \"id\": ..., \"steps\": [...], ... }".to_string(),
        LessonProblem::VersionUnsupported { version } => format!("不支持版本 {version}；这个版本的沙盒读取课程版本 {V}"),
        LessonProblem::VersionNotANumber { written } => format!("为 {written}；请写数字 {V}：\"version\": {V}"),
        LessonProblem::VersionMissing => format!("缺少；请写 \"version\": {V}"),
        LessonProblem::Scenario(p) => problem(lang, p),
        LessonProblem::BuiltInScenario(e) => scenario_refusal(lang, e),
        LessonProblem::NoBuiltInScenario { name } => {
            let names: Vec<&str> = kafka_sandbox_core::scenario::BUILT_IN.iter().map(|(n, _)| *n).collect();
            format!("没有名为 \"{name}\" 的内置场景；可用的有：{}", names.join(", "))
        }
        LessonProblem::IdLength { id } => format!("\"{id}\" 必须是 1 到 64 个字符"),
        LessonProblem::IdCharacters { id } => format!("\"{id}\" 只能包含小写字母、数字和 '-'"),
        LessonProblem::TextEmpty => "为空；每段文字都需要两种语言".to_string(),
        LessonProblem::TextTooLong { chars } => format!("有 {chars} 个字符；最多允许 {} 个", lesson::MAX_TEXT_CHARS),
        LessonProblem::TextControl => "含有控制字符".to_string(),
        LessonProblem::NotChinese { text } => format!("{text:?} 没有中文字符（是不是还没翻译？）"),
        LessonProblem::ChineseInEnglish { text } => format!("{text:?} 含有中文字符"),
        LessonProblem::Steps { count } => format!("有 {count} 步；允许 1 到 {MAX_STEPS} 步"),
        LessonProblem::TooMany { what, count } => match what {
            Listed::Focuses => format!("有 {count} 项；最多允许 {} 项", lesson::MAX_FOCUS),
            Listed::Claims => format!("有 {count} 条断言；最多允许 {} 条", lesson::MAX_CLAIMS),
            Listed::Commands => format!("有 {count} 条命令；最多允许 {} 条", lesson::MAX_APPLY),
        },
        LessonProblem::Choices { count } => format!("有 {count} 个选项；允许 2 到 {MAX_CHOICES} 个"),
        LessonProblem::Value(v) => match v {
            ValueProblem::TooManyItems => format!("超过 {} 项", lesson::MAX_VALUE_ITEMS),
            ValueProblem::NotWhole { number } => format!("{number} 不是整数；答案都是整数"),
            ValueProblem::TooDeep => "列表最多嵌套两层".to_string(),
            ValueProblem::Object => "对象不能作为答案；请写字符串、数字、布尔值、null 或列表".to_string(),
        },
        LessonProblem::DuplicateChoice { value } => format!("{value} 与前面的一个选项相同"),
        LessonProblem::RunWays => "until_ms、for_ms 和 until_event 最多只能给一个".to_string(),
        LessonProblem::TimeTooLate { value } => format!("为 {value}；允许 0 到 {MAX_TIME_MS}（一周）"),
        LessonProblem::NotAnEventType { kind } => format!("\"{kind}\" 不是事件类型；请按跟踪里的写法，例如 \"group_stable\""),
        LessonProblem::Finished => "所有步骤都已运行；课程处于自由探索阶段".to_string(),
        LessonProblem::NothingToReveal => "没有等待揭晓的问题".to_string(),
        LessonProblem::Refused(e) => format!("模拟拒绝了它：{}", refusal(lang, e)),
        LessonProblem::UntilBeforeNow { until_ms, now_ms } => format!("{until_ms} ms 早于运行的当前时间 {now_ms} ms"),
        LessonProblem::TooManyEvents { before_ms, advice } => {
            format!("在 {before_ms} ms 之前有超过 {EVENTS} 个事件{}", if *advice { "；请少运行一些" } else { "" })
        }
        LessonProblem::TooManyEventsWithout => format!("超过 {EVENTS} 个事件仍未等到它"),
        LessonProblem::EventNeverCame { kind, mentions, within_ms, deadline_ms } => {
            let mentioning = if mentions.is_empty() {
                String::new()
            } else {
                format!("提到 {} 的", mentions.iter().map(|m| format!("\"{m}\"")).collect::<Vec<_>>().join(" 和 "))
            };
            format!("{within_ms} ms 内（到 {deadline_ms} ms）没有{mentioning} {kind} 事件")
        }
        LessonProblem::Missing(m) => missing(m),
    }
}

/// What a lesson names that the simulation does not have, in Chinese.
fn missing(m: &Missing) -> String {
    match m {
        Missing::Topic(t) => format!("没有主题 \"{t}\""),
        Missing::Broker(b) => format!("没有 broker {b}"),
        Missing::Group(g) => format!("没有消费者组 \"{g}\""),
        Missing::Member { group, client_id } => format!("消费者组 \"{group}\" 中没有成员 \"{client_id}\""),
        Missing::Producer(p) => format!("没有生产者 \"{p}\""),
        Missing::Connector(c) => format!("没有连接器 \"{c}\""),
        Missing::StreamsApp(a) => format!("没有 Streams 应用 \"{a}\""),
        Missing::Partition { topic, partition, partitions } => {
            format!("主题 \"{topic}\" 的分区是 0..{}，但请求的是分区 {partition}", partitions.saturating_sub(1))
        }
        Missing::Log { topic, partition } => format!("{topic}-{partition} 没有日志"),
        Missing::Replica { broker, topic, partition } => format!("broker {broker} 没有 {topic}-{partition} 的副本"),
    }
}

/// Why a link, a saved run or a file could not be opened, in `lang`.
pub fn share_refusal(lang: Lang, e: &ShareError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        ShareError::LinkTooLong { chars } => format!("链接有 {chars} 个字符；最多接受 {} 个", share::MAX_ENCODED),
        ShareError::NotALink => "这不是 Kafka 沙盒的链接（应以 \"ks1.\" 开头）".to_string(),
        ShareError::Damaged(d) => {
            let d = match d {
                Damage::NotBase64 => "含有链接里不会出现的字符（\"ks1.\" 之后只有字母、数字、'-' 和 '_'）；是否被改动过？".to_string(),
                Damage::UnknownFirstCode | Damage::UndefinedCode { .. } => "它的文字无法解码；可能在复制时被截断或改动了".to_string(),
                Damage::ExpandsPast { limit } => format!("解开后会超过 {limit} 字节，比任何运行都大"),
            };
            format!("链接已损坏：{d}")
        }
        ShareError::LinkNotARun(serde) => format!("链接的内容不是有效的运行（链接是否被截断或改动过？）：{}", serde_says(lang, serde)),
        ShareError::LinkScenario(e) => format!("链接里的场景无效：{}", scenario_refusal(lang, e)),
        ShareError::TooManyCommands { count } => format!("链接带有 {count} 条命令；最多接受 {} 条", share::MAX_COMMANDS),
        ShareError::TooManySteps { steps } => format!("链接要求回放到第 {steps} 步；最多回放 {} 步", share::MAX_STEPS),
        ShareError::OutOfOrder => "链接里的命令顺序不对".to_string(),
        ShareError::FileTooBig { bytes } => format!("它有 {bytes} 字节；最多接受 {} 字节", MAX_SCENARIO_BYTES * 4),
        ShareError::FileScenario(e) => format!("其中的场景无效：{}", scenario_refusal(lang, e)),
        ShareError::NotASavedRun(serde) => format!("它不是有效的已保存运行：{}", serde_says(lang, serde)),
        ShareError::NotAScenario(e) | ShareError::Build(e) => scenario_refusal(lang, e),
        ShareError::TooBigForLink { chars } => {
            format!("这次运行的链接有 {chars} 个字符，超过链接允许的 {} 个；请改用“保存文件”", share::MAX_ENCODED)
        }
        ShareError::NotJsonFile => "这个文件不是 JSON：请打开用“保存文件”保存的运行、场景文件（.json）或存有分享链接的文件".to_string(),
    }
}

/// serde_json's words with its place (`…（第 1 行第 12 列）`).
fn serde_says(lang: Lang, s: &SerdeSays) -> String {
    let words = serde_words(lang, &s.message);
    match (lang, s.line) {
        (Lang::En, _) => s.to_string(),
        (Lang::Zh, 0) => words,
        (Lang::Zh, line) => format!("{words}（第 {line} 行第 {} 列）", s.column),
    }
}

/// serde_json's own message for a JSON mistake (its fixed forms, with the format's type
/// names, `scenario::plain_words`) in `lang`: the form from [`SERDE`] with its holes
/// filled, or the text as it came when no form matches.
pub fn serde_words(lang: Lang, text: &str) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    translate(SERDE, text, 0).unwrap_or_else(|| text.to_string())
}

/// serde_json's fixed message forms → Chinese. They are serde's words, not the sandbox's
/// (the sandbox's own refusals are typed values, above), so they are matched as text:
/// `{}` is carried over as it is (a field, a value), `{t}` is itself translated through
/// [`SERDE_PIECES`] (serde's "expected …" words). The holes come in the same order in
/// both. More specific forms come first.
const SERDE: &[(&str, &str)] = &[
    ("missing field `{}`", "缺少字段 `{}`"),
    ("duplicate field `{}`", "字段 `{}` 出现了两次"),
    ("unknown field `{}`, there are no fields", "未知字段 `{}`，这里没有字段"),
    ("unknown field `{}`, expected one of {}", "未知字段 `{}`，可用的字段：{}"),
    ("unknown field `{}`, expected {}", "未知字段 `{}`，可用的字段：{}"),
    ("unknown variant `{}`, expected one of {}", "未知的取值 `{}`，可选：{}"),
    ("unknown variant `{}`, expected {}", "未知的取值 `{}`，可选：{}"),
    ("invalid type: {t}, expected {t}", "类型不对：{t}，应为{t}"),
    ("invalid value: {t}, expected {t}", "取值不对：{t}，应为{t}"),
    ("invalid length {}, expected {t}", "长度不对：{}，应为{t}"),
    ("invalid unicode code point", "不是有效的 Unicode 字符"),
    ("trailing characters", "末尾有多余的字符"),
    ("trailing comma", "多余的逗号"),
    ("key must be a string", "键必须是字符串"),
    ("EOF while parsing {t}", "{t}还没结束文本就结束了"),
    ("expected value", "这里应有一个值"),
    ("expected {}", "应为 {}"),
];

/// Pieces of serde's forms, for their `{t}` holes only (never a whole message).
const SERDE_PIECES: &[(&str, &str)] = &[
    ("a whole number from {} to {}", " {} 到 {} 之间的整数"),
    ("true or false", " true 或 false"),
    ("an array [...]", "数组 [...]"),
    ("an array of two elements", "两个元素的数组"),
    ("an object {...}", "对象 {...}"),
    ("an object", "对象"),
    ("a list", "列表"),
    ("a value", "值"),
    ("a string", "字符串"),
    ("a map", "对象"),
    ("a command object with a \"type\", such as {}", "带 \"type\" 的命令对象，例如 {}"),
    ("one of the allowed values, as a JSON string (for acks: \"1\", not 1)", "允许的取值之一，写成 JSON 字符串（acks 要写 \"1\"，不是 1）"),
    ("struct {}", "对象 {}"),
    ("string \"{}\"", "字符串 \"{}\""),
    ("integer `{}`", "整数 `{}`"),
    ("floating point `{}`", "小数 `{}`"),
    ("boolean `{}`", "布尔值 `{}`"),
    ("map", "对象"),
    ("sequence", "数组"),
    ("null", "null"),
];

/// The first form of `table` that `text` matches, filled in (its `{t}` holes through
/// [`SERDE_PIECES`], at most two deep); `None` if none does.
fn translate(table: &[(&str, &str)], text: &str, depth: u32) -> Option<String> {
    table.iter().find_map(|(en, zh)| {
        let holes = matches(en, text)?;
        let mut out = String::new();
        let mut holes = holes.into_iter();
        let mut rest = *zh;
        while let Some(at) = rest.find('{') {
            let (lit, tail) = rest.split_at(at);
            out.push_str(lit);
            let translated = tail.starts_with("{t}");
            if !translated && !tail.starts_with("{}") {
                // A brace of the sentence itself.
                out.push('{');
                rest = &tail[1..];
                continue;
            }
            rest = &tail[if translated { 3 } else { 2 }..];
            let hole = holes.next().unwrap_or_default();
            match translated.then(|| translate(SERDE_PIECES, hole, depth + 1)).flatten() {
                Some(t) if depth < 2 => out.push_str(&t),
                _ => out.push_str(hole),
            }
        }
        out.push_str(rest);
        Some(out)
    })
}

/// The holes' texts if `text` has the shape of `pattern`: its literal parts in order, each
/// hole at least one character; `None` otherwise.
fn matches<'a>(pattern: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let literals: Vec<&str> = pattern.split("{t}").flat_map(|p| p.split("{}")).collect();
    let (first, rest) = literals.split_first()?;
    let mut at = text.strip_prefix(first)?;
    let mut holes = Vec::new();
    for (i, lit) in rest.iter().enumerate() {
        let last = i == rest.len() - 1;
        let found = if last {
            at.strip_suffix(lit).map(|h| (h, ""))
        } else {
            // The hole is as short as it can be: the literal's first place after one character.
            at.char_indices().skip(1).map(|(i, _)| i).find(|i| at[*i..].starts_with(lit)).map(|i| (&at[..i], &at[i + lit.len()..]))
        };
        let (hole, after) = found?;
        if hole.is_empty() {
            return None;
        }
        holes.push(hole);
        at = after;
    }
    at.is_empty().then_some(holes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_sandbox_core::command::BrokerCommand;
    use kafka_sandbox_core::command::{TxnOperation, TxnRefusal};
    use kafka_sandbox_core::Scenario;

    fn holes(p: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = p;
        while let Some(at) = rest.find('{') {
            rest = &rest[at..];
            let hole = if rest.starts_with("{t}") {
                "{t}"
            } else if rest.starts_with("{}") {
                "{}"
            } else {
                "{"
            };
            out.push(hole);
            rest = &rest[hole.len()..];
        }
        out
    }

    #[test]
    fn every_serde_form_has_the_same_holes_in_both_languages_and_chinese_words() {
        for (en, zh) in SERDE.iter().chain(SERDE_PIECES) {
            assert_eq!(holes(en), holes(zh), "{en}");
            assert!(*zh == "null" || has_chinese(zh), "{zh}");
        }
    }

    fn has_chinese(s: &str) -> bool {
        s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    /// The Chinese says what the English says: Chinese words, the same numbers, every
    /// quoted name kept.
    fn says_the_same(en: &str, zh: &str) {
        assert!(has_chinese(zh), "{en} → {zh}");
        let numbers = |t: &str| {
            let mut n: Vec<String> = t.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(str::to_string).collect();
            n.sort();
            n
        };
        assert_eq!(numbers(en), numbers(zh), "the same numbers: {en} / {zh}");
        for quoted in en.split('"').skip(1).step_by(2) {
            assert!(zh.contains(quoted), "{zh} keeps \"{quoted}\" of {en}");
        }
    }

    /// One of every refusal, and the variant's place in the enum (an exhaustive match:
    /// a new variant fails to compile here until it has a sample).
    fn every_refusal() -> Vec<CommandError> {
        fn place(e: &CommandError) -> usize {
            match e {
                CommandError::UnknownProducer(_) => 0,
                CommandError::UnknownTopic(_) => 1,
                CommandError::UnknownGroup(_) => 2,
                CommandError::UnknownBroker(_) => 3,
                CommandError::UnknownConnector(_) => 4,
                CommandError::UnknownMember { .. } => 5,
                CommandError::DuplicateGroup(_) => 6,
                CommandError::DuplicateMember { .. } => 7,
                CommandError::PartitionOutOfRange { .. } => 8,
                CommandError::BadName { .. } => 9,
                CommandError::RecordTooLong => 10,
                CommandError::TooManyHeaders => 11,
                CommandError::GroupFull { .. } => 12,
                CommandError::TooManyMembers { .. } => 13,
                CommandError::TooManyGroups => 14,
                CommandError::GroupWithoutTopics { .. } => 15,
                CommandError::EmptySubscription { .. } => 16,
                CommandError::SeekUnassigned { .. } => 17,
                CommandError::NothingToSeek { .. } => 18,
                CommandError::NoBrokerUp => 19,
                CommandError::PartitionCount { .. } => 20,
                CommandError::MinInsyncReplicas { .. } => 21,
                CommandError::AssignorUnderConsumerProtocol { .. } => 22,
                CommandError::MemberSetting { .. } => 23,
                CommandError::PushBuffer { .. } => 24,
                CommandError::IdempotenceNeedsAcksAll { .. } => 25,
                CommandError::ShareGroup(_) => 26,
                CommandError::Txn(_) => 27,
            }
        }
        let s = |x: &str| x.to_string();
        let all = vec![
            CommandError::UnknownProducer(s("P1")),
            CommandError::UnknownTopic(s("T9")),
            CommandError::UnknownGroup(s("G9")),
            CommandError::UnknownBroker(9),
            CommandError::UnknownConnector(s("jdbc")),
            CommandError::UnknownMember { group: s("G1"), client_id: s("C9") },
            CommandError::DuplicateGroup(s("G1")),
            CommandError::DuplicateMember { group: s("G1"), client_id: s("C1") },
            CommandError::PartitionOutOfRange { topic: s("T1"), partition: 7, partitions: 4 },
            CommandError::BadName { what: NameOf::GroupId, name: String::new(), problem: NameProblem::Empty },
            CommandError::BadName { what: NameOf::ClientId, name: "x".repeat(70), problem: NameProblem::TooLong },
            CommandError::BadName { what: NameOf::Topic, name: s("a\tb"), problem: NameProblem::ControlCharacter },
            CommandError::BadName { what: NameOf::Topic, name: s("bad topic!"), problem: NameProblem::IllegalCharacter { ch: ' ' } },
            CommandError::BadName { what: NameOf::Topic, name: s(".."), problem: NameProblem::DotOrDotDot },
            CommandError::RecordTooLong,
            CommandError::TooManyHeaders,
            CommandError::GroupFull { group: s("G1") },
            CommandError::TooManyMembers { group: s("G1"), members: 70 },
            CommandError::TooManyGroups,
            CommandError::GroupWithoutTopics { group: s("G2") },
            CommandError::EmptySubscription { client_id: s("C1") },
            CommandError::SeekUnassigned { client_id: s("C1"), topic: s("T1"), partition: Some(3) },
            CommandError::SeekUnassigned { client_id: s("C1"), topic: s("T1"), partition: None },
            CommandError::NothingToSeek { client_id: s("C1") },
            CommandError::NoBrokerUp,
            CommandError::PartitionCount { topic: s("T1"), partitions: 4 },
            CommandError::MinInsyncReplicas { topic: s("T1"), replication_factor: 3 },
            CommandError::AssignorUnderConsumerProtocol {
                group: s("G1"),
                remote_assignor: kafka_sandbox_core::config::ServerAssignor::Uniform,
            },
            CommandError::MemberSetting {
                setting: "max_poll_records",
                group: s("G1"),
                client_id: s("C1"),
                value: 0,
                allowed: Allowed::Range { min: 1, max: 10_000 },
            },
            CommandError::MemberSetting {
                setting: "session_timeout_ms",
                group: s("G1"),
                client_id: s("C1"),
                value: 0,
                allowed: Allowed::UpToAWeek,
            },
            CommandError::MemberSetting {
                setting: "auto_commit_interval_ms",
                group: s("G1"),
                client_id: s("C1"),
                value: 0,
                allowed: Allowed::AtLeast(1),
            },
            CommandError::MemberSetting {
                setting: "heartbeat_interval_ms",
                group: s("G1"),
                client_id: s("C1"),
                value: 45_000,
                allowed: Allowed::Below { setting: "session_timeout_ms", value: 45_000 },
            },
            CommandError::PushBuffer { group: s("G1"), value: 0 },
            CommandError::IdempotenceNeedsAcksAll { producer: s("P1") },
            CommandError::ShareGroup(kafka_sandbox_core::command::ShareGroupRefusal::UnknownShareGroup(s("Q1"))),
            CommandError::ShareGroup(kafka_sandbox_core::command::ShareGroupRefusal::NeedsKafka41 { group: s("Q1") }),
            CommandError::ShareGroup(kafka_sandbox_core::command::ShareGroupRefusal::Setting {
                setting: "share_delivery_count_limit",
                group: s("Q1"),
                value: 11,
                min: 2,
                max: 10,
            }),
            CommandError::ShareGroup(kafka_sandbox_core::command::ShareGroupRefusal::TooManyRules { group: s("Q1"), client_id: s("C1") }),
            CommandError::ShareGroup(kafka_sandbox_core::command::ShareGroupRefusal::ResetNone { group: s("Q1") }),
            CommandError::Txn(TxnRefusal::NotTransactional { producer: s("P1") }),
            CommandError::Txn(TxnRefusal::WrongState {
                producer: s("P1"),
                operation: TxnOperation::Commit,
                state: kafka_sandbox_core::event::ClientTxnState::Ready,
            }),
            CommandError::Txn(TxnRefusal::NotCrashed { producer: s("P1") }),
            CommandError::Txn(TxnRefusal::DuplicateProducer { producer: s("P1") }),
            CommandError::Txn(TxnRefusal::TooManyProducers),
            CommandError::Txn(TxnRefusal::UnknownStreamsApp { application_id: s("app") }),
            CommandError::Txn(TxnRefusal::NoPositions { group: s("G1"), client_id: s("C1") }),
            CommandError::Txn(TxnRefusal::TimeoutAboveMax { producer: s("P1"), timeout_ms: 1_000_000, max_ms: 900_000 }),
            CommandError::Txn(TxnRefusal::ProducerSetting {
                producer: s("P1"),
                setting: "linger_ms",
                value: 70_000,
                allowed: Allowed::Range { min: 0, max: 60_000 },
            }),
            CommandError::Txn(TxnRefusal::NeedsIdempotence { producer: s("P1") }),
            CommandError::Txn(TxnRefusal::TransactionStateReplication { replication_factor: 3, brokers: 1 }),
        ];
        let mut places: Vec<usize> = all.iter().map(place).collect();
        places.dedup();
        assert_eq!(places, (0..=27).collect::<Vec<_>>(), "one sample (at least) of every refusal, in order");
        all
    }

    /// Every refusal reads in Chinese from its value, keeps its names and numbers.
    #[test]
    fn every_refused_command_reads_in_chinese_from_its_value() {
        for e in every_refusal() {
            let en = refusal(Lang::En, &e);
            assert_eq!(en, e.to_string());
            says_the_same(&en, &refusal(Lang::Zh, &e));
        }
    }

    /// One of every scenario problem (an exhaustive match: a new variant fails to compile
    /// here until it has a sample).
    fn every_problem() -> Vec<Problem> {
        fn place(p: &Problem) -> usize {
            match p {
                Problem::TooBig { .. } => 0,
                Problem::WrittenTooBig { .. } => 1,
                Problem::NotAnObject => 2,
                Problem::VersionUnsupported { .. } => 3,
                Problem::VersionNotANumber { .. } => 4,
                Problem::VersionMissing { .. } => 5,
                Problem::Json(_) => 6,
                Problem::OutOfRange { .. } => 7,
                Problem::SessionNotAboveHeartbeat { .. } => 8,
                Problem::NoTopics => 9,
                Problem::TooManyTopics { .. } => 10,
                Problem::TooManyProducers { .. } => 11,
                Problem::Partitions { .. } => 12,
                Problem::ReplicationFactor { .. } => 13,
                Problem::MinInsyncReplicas { .. } => 14,
                Problem::RetentionMs { .. } => 15,
                Problem::RetentionBytes { .. } => 16,
                Problem::SegmentBytes { .. } => 17,
                Problem::SegmentMs { .. } => 18,
                Problem::MaxInFlightZero => 19,
                Problem::IdempotenceConflict { .. } => 20,
                Problem::Duplicate { .. } => 21,
                Problem::TopicId { .. } => 22,
                Problem::KeysForValues { .. } => 23,
                Problem::PlannedValueTooLong => 24,
                Problem::SendTooLate { .. } => 25,
                Problem::TooManyTimelineEntries { .. } => 26,
                Problem::Capped { .. } => 27,
                Problem::Command(_) => 28,
                Problem::ByThen(_) => 29,
                Problem::Connect(_) => 30,
                Problem::Streams(_) => 31,
                Problem::OffsetsTopicReplication { .. } => 32,
                Problem::BufferMemoryBelowBatchSize { .. } => 33,
                Problem::Compaction(_) => 34,
            }
        }
        let s = |x: &str| x.to_string();
        let mut all = vec![
            Problem::TooBig { bytes: 2_000_000 },
            Problem::WrittenTooBig { bytes: 2_000_000 },
            Problem::NotAnObject,
            Problem::VersionUnsupported { version: s("2"), supported: 1 },
            Problem::VersionNotANumber { written: s("true"), supported: 1 },
            Problem::VersionMissing { supported: 1 },
            Problem::Json(JsonProblem::Syntax { serde: s("EOF while parsing an object") }),
            Problem::Json(JsonProblem::Syntax { serde: s("trailing comma") }),
            Problem::Json(JsonProblem::EnumAsNumber),
            Problem::Json(JsonProblem::Shape { serde: s("missing field `name`") }),
            Problem::Json(JsonProblem::Shape { serde: s("invalid type: string \"3\", expected a whole number from 0 to 4294967295") }),
        ];
        all.extend(limits::TABLE.iter().map(|range| Problem::OutOfRange { range, value: u64::MAX }));
        all.extend([
            Problem::SessionNotAboveHeartbeat { session_ms: 3000, heartbeat_ms: 5000 },
            Problem::NoTopics,
            Problem::TooManyTopics { count: 17 },
            Problem::TooManyProducers { count: 17 },
            Problem::Partitions { topic: s("t"), partitions: 1000 },
            Problem::ReplicationFactor { topic: s("t"), replicas: 4, brokers: 3 },
            Problem::MinInsyncReplicas { value: 3, replication_factor: 2 },
            Problem::RetentionMs { value: -2 },
            Problem::RetentionBytes { value: -2 },
            Problem::SegmentBytes { value: 13 },
            Problem::SegmentMs { value: 0 },
            Problem::MaxInFlightZero,
            Problem::IdempotenceConflict { rule: IdempotenceRule::AcksAll },
            Problem::IdempotenceConflict { rule: IdempotenceRule::RetriesAboveZero },
            Problem::IdempotenceConflict { rule: IdempotenceRule::InFlightAtMostFive },
            Problem::Duplicate { what: Defined::Topic, name: s("t") },
            Problem::Duplicate { what: Defined::Producer, name: s("p") },
            Problem::Duplicate { what: Defined::TopicId, name: s("dLccQCXeGjwzN5MNSgPv5Q") },
            Problem::TopicId { value: s("short"), why: UuidProblem::Length },
            Problem::TopicId { value: s("AAAAAAAAAAAAAAAAAAAA+g"), why: UuidProblem::Alphabet },
            Problem::TopicId { value: s("dLccQCXeGjwzN5MNSgPv5R"), why: UuidProblem::NotCanonical },
            Problem::TopicId { value: s("AAAAAAAAAAAAAAAAAAAAAA"), why: UuidProblem::Reserved },
            Problem::TopicId { value: s("-LccQCXeGjwzN5MNSgPv5Q"), why: UuidProblem::LeadingDash },
            Problem::KeysForValues { keys: 2, values: 1 },
            Problem::PlannedValueTooLong,
            Problem::SendTooLate { last_ms: 604_800_001 },
            Problem::TooManyTimelineEntries { entries: 100_001, with_connectors: false },
            Problem::TooManyTimelineEntries { entries: 100_001, with_connectors: true },
            Problem::Capped { what: Capped::ProcessingMs, value: 3_600_001 },
            Problem::Capped { what: Capped::SlowMs, value: 3_600_001 },
        ]);
        all.extend(every_refusal().into_iter().map(Problem::from));
        all.extend([
            Problem::by_then(CommandError::UnknownGroup(s("h"))),
            Problem::by_then(CommandError::UnknownMember { group: s("g"), client_id: s("c") }),
        ]);
        all.extend(every_connect_problem().into_iter().map(Problem::from));
        all.extend(every_streams_problem().into_iter().map(Problem::from));
        all.push(Problem::OffsetsTopicReplication { replication_factor: 3, brokers: 1 });
        all.push(Problem::BufferMemoryBelowBatchSize { buffer_memory: 999, batch_size: 1000 });
        all.extend(every_compaction_problem().into_iter().map(Problem::Compaction));
        let mut places: Vec<usize> = all.iter().map(place).collect();
        places.dedup();
        assert_eq!(places, (0..=34).collect::<Vec<_>>(), "one sample (at least) of every problem, in order");
        all
    }

    /// One of every connector problem (an exhaustive match).
    fn every_connect_problem() -> Vec<ConnectProblem> {
        fn place(p: &ConnectProblem) -> usize {
            match p {
                ConnectProblem::TooManyConnectors { .. } => 0,
                ConnectProblem::Duplicate { .. } => 1,
                ConnectProblem::ProducerNameTaken { .. } => 2,
                ConnectProblem::TooManyRows { .. } => 3,
                ConnectProblem::ValueTooLong => 4,
                ConnectProblem::DuplicateRowId { .. } => 5,
                ConnectProblem::RowExists { .. } => 6,
                ConnectProblem::NoSuchRow { .. } => 7,
                ConnectProblem::ChangeShape => 8,
            }
        }
        let s = |x: &str| x.to_string();
        let all = vec![
            ConnectProblem::TooManyConnectors { count: 9 },
            ConnectProblem::Duplicate { name: s("c") },
            ConnectProblem::ProducerNameTaken { producer: s("connector-producer-jdbc-0") },
            ConnectProblem::TooManyRows { what: TableList::Rows, count: 10_001 },
            ConnectProblem::TooManyRows { what: TableList::Changes, count: 10_002 },
            ConnectProblem::ValueTooLong,
            ConnectProblem::DuplicateRowId { id: 7 },
            ConnectProblem::RowExists { id: 4 },
            ConnectProblem::NoSuchRow { id: 9 },
            ConnectProblem::ChangeShape,
        ];
        let mut places: Vec<usize> = all.iter().map(place).collect();
        places.dedup();
        assert_eq!(places, (0..=8).collect::<Vec<_>>(), "one sample (at least) of every connector problem, in order");
        all
    }

    /// One of every compaction problem (an exhaustive match).
    fn every_compaction_problem() -> Vec<kafka_sandbox_core::error::CompactionProblem> {
        use kafka_sandbox_core::error::CompactionProblem as P;
        let all = vec![
            P::DirtyRatio { value: kafka_sandbox_core::config::Ratio(1.5) },
            P::InternalTopicName { name: "__consumer_offsets".into() },
        ];
        for p in &all {
            match p {
                P::DirtyRatio { .. } | P::InternalTopicName { .. } => {}
            }
        }
        all
    }

    /// One of every Streams problem (an exhaustive match).
    fn every_streams_problem() -> Vec<StreamsProblem> {
        fn place(p: &StreamsProblem) -> usize {
            match p {
                StreamsProblem::TooManyApps { .. } => 0,
                StreamsProblem::Duplicate { .. } => 1,
                StreamsProblem::IsAGroup { .. } => 2,
                StreamsProblem::ProducerNameTaken { .. } => 3,
                StreamsProblem::UnknownTopic { .. } => 4,
                StreamsProblem::SinkIsSource => 5,
                StreamsProblem::FilterTooLong => 6,
                StreamsProblem::ChangelogIsATopic { .. } => 7,
                StreamsProblem::TooManyTopics { .. } => 8,
            }
        }
        let s = |x: &str| x.to_string();
        let all = vec![
            StreamsProblem::TooManyApps { count: 9 },
            StreamsProblem::Duplicate { application_id: s("app") },
            StreamsProblem::IsAGroup { application_id: s("app") },
            StreamsProblem::ProducerNameTaken { producer: s("app-producer") },
            StreamsProblem::UnknownTopic { topic: s("nope") },
            StreamsProblem::SinkIsSource,
            StreamsProblem::FilterTooLong,
            StreamsProblem::ChangelogIsATopic { changelog: s("app-counts-changelog") },
            StreamsProblem::TooManyTopics { topics: 16, changelogs: 1 },
        ];
        let mut places: Vec<usize> = all.iter().map(place).collect();
        places.dedup();
        assert_eq!(places, (0..=8).collect::<Vec<_>>(), "one sample (at least) of every Streams problem, in order");
        all
    }

    /// A row's note reads in Chinese on the page: every note of the limits table has its
    /// Chinese in `allowed_zh` (a new row with a new note fails here until it has one).
    #[test]
    fn every_limits_note_reads_in_chinese() {
        for r in limits::TABLE {
            let zh = allowed_zh(r);
            assert!(r.note.is_empty() || has_chinese(&zh), "{}: {zh}", r.path);
            assert!(!zh.contains(r.note.trim()) || r.note.is_empty(), "{}: the note is still English: {zh}", r.path);
        }
    }

    #[test]
    fn every_scenario_problem_reads_in_chinese_from_its_value() {
        for p in every_problem() {
            let e = ScenarioError { path: "topics[0].partitions".into(), line_column: Some((4, 20)), problem: p.clone() };
            assert_eq!(scenario_refusal(Lang::En, &e), e.to_string());
            let zh = scenario_refusal(Lang::Zh, &e);
            assert!(zh.starts_with("topics[0].partitions（第 4 行，第 20 列）："), "{zh}");
            says_the_same(&p.to_string(), &problem(Lang::Zh, &p));
        }
    }

    /// One of every lesson problem (an exhaustive match).
    fn every_lesson_problem() -> Vec<LessonProblem> {
        fn place(p: &LessonProblem) -> usize {
            match p {
                LessonProblem::TooBig { .. } => 0,
                LessonProblem::NotAnObject => 1,
                LessonProblem::VersionUnsupported { .. } => 2,
                LessonProblem::VersionNotANumber { .. } => 3,
                LessonProblem::VersionMissing => 4,
                LessonProblem::Scenario(_) => 5,
                LessonProblem::BuiltInScenario(_) => 6,
                LessonProblem::NoBuiltInScenario { .. } => 7,
                LessonProblem::IdLength { .. } => 8,
                LessonProblem::IdCharacters { .. } => 9,
                LessonProblem::TextEmpty => 10,
                LessonProblem::TextTooLong { .. } => 11,
                LessonProblem::TextControl => 12,
                LessonProblem::NotChinese { .. } => 13,
                LessonProblem::ChineseInEnglish { .. } => 14,
                LessonProblem::Steps { .. } => 15,
                LessonProblem::TooMany { .. } => 16,
                LessonProblem::Choices { .. } => 17,
                LessonProblem::Value(_) => 18,
                LessonProblem::DuplicateChoice { .. } => 19,
                LessonProblem::RunWays => 20,
                LessonProblem::TimeTooLate { .. } => 21,
                LessonProblem::NotAnEventType { .. } => 22,
                LessonProblem::Finished => 23,
                LessonProblem::NothingToReveal => 24,
                LessonProblem::Refused(_) => 25,
                LessonProblem::UntilBeforeNow { .. } => 26,
                LessonProblem::TooManyEvents { .. } => 27,
                LessonProblem::TooManyEventsWithout => 28,
                LessonProblem::EventNeverCame { .. } => 29,
                LessonProblem::Missing(_) => 30,
            }
        }
        let s = |x: &str| x.to_string();
        let all = vec![
            LessonProblem::TooBig { bytes: 2_000_000 },
            LessonProblem::NotAnObject,
            LessonProblem::VersionUnsupported { version: s("2") },
            LessonProblem::VersionNotANumber { written: s("true") },
            LessonProblem::VersionMissing,
            LessonProblem::Scenario(Problem::NoTopics),
            LessonProblem::BuiltInScenario(Box::new(ScenarioError { path: s("topics"), line_column: None, problem: Problem::NoTopics })),
            LessonProblem::NoBuiltInScenario { name: s("nope") },
            LessonProblem::IdLength { id: String::new() },
            LessonProblem::IdCharacters { id: s("Intro") },
            LessonProblem::TextEmpty,
            LessonProblem::TextTooLong { chars: 4001 },
            LessonProblem::TextControl,
            LessonProblem::NotChinese { text: s("Partitions!") },
            LessonProblem::ChineseInEnglish { text: s("分区") },
            LessonProblem::Steps { count: 61 },
            LessonProblem::TooMany { what: Listed::Focuses, count: 17 },
            LessonProblem::TooMany { what: Listed::Claims, count: 25 },
            LessonProblem::TooMany { what: Listed::Commands, count: 65 },
            LessonProblem::Choices { count: 1 },
            LessonProblem::Value(ValueProblem::TooManyItems),
            LessonProblem::Value(ValueProblem::NotWhole { number: s("1.5") }),
            LessonProblem::Value(ValueProblem::TooDeep),
            LessonProblem::Value(ValueProblem::Object),
            LessonProblem::DuplicateChoice { value: s("1") },
            LessonProblem::RunWays,
            LessonProblem::TimeTooLate { value: 604_800_001 },
            LessonProblem::NotAnEventType { kind: s("GroupStable") },
            LessonProblem::Finished,
            LessonProblem::NothingToReveal,
            LessonProblem::Refused(Box::new(CommandError::UnknownBroker(9))),
            LessonProblem::UntilBeforeNow { until_ms: 5, now_ms: 9000 },
        ];
        let mut all = all;
        all.extend([
            LessonProblem::TooManyEvents { before_ms: 9000, advice: true },
            LessonProblem::TooManyEvents { before_ms: 9000, advice: false },
            LessonProblem::TooManyEventsWithout,
            LessonProblem::EventNeverCame { kind: s("member_left"), mentions: vec![], within_ms: 5000, deadline_ms: 9000 },
            LessonProblem::EventNeverCame { kind: s("member_left"), mentions: vec![s("g"), s("c")], within_ms: 5000, deadline_ms: 9000 },
            LessonProblem::Missing(Missing::Topic(s("t"))),
            LessonProblem::Missing(Missing::Broker(9)),
            LessonProblem::Missing(Missing::Group(s("g"))),
            LessonProblem::Missing(Missing::Member { group: s("g"), client_id: s("c") }),
            LessonProblem::Missing(Missing::Producer(s("p"))),
            LessonProblem::Missing(Missing::Connector(s("jdbc"))),
            LessonProblem::Missing(Missing::StreamsApp(s("app"))),
            LessonProblem::Missing(Missing::Partition { topic: s("t"), partition: 7, partitions: 4 }),
            LessonProblem::Missing(Missing::Log { topic: s("t"), partition: 0 }),
            LessonProblem::Missing(Missing::Replica { broker: 2, topic: s("t"), partition: 0 }),
        ]);
        let mut places: Vec<usize> = all.iter().map(place).collect();
        places.dedup();
        assert_eq!(places, (0..=30).collect::<Vec<_>>(), "one sample (at least) of every lesson problem, in order");
        all
    }

    #[test]
    fn every_lesson_problem_reads_in_chinese_from_its_value() {
        for p in every_lesson_problem() {
            let e = LessonError { path: "steps[2].claims[0]".into(), line_column: None, problem: p.clone() };
            assert_eq!(lesson_refusal(Lang::En, &e), e.to_string());
            assert!(lesson_refusal(Lang::Zh, &e).starts_with("steps[2].claims[0]："));
            says_the_same(&p.to_string(), &lesson_problem(Lang::Zh, &p));
        }
    }

    /// One of every share refusal (an exhaustive match).
    fn every_share_error() -> Vec<ShareError> {
        fn place(e: &ShareError) -> usize {
            match e {
                ShareError::LinkTooLong { .. } => 0,
                ShareError::NotALink => 1,
                ShareError::Damaged(_) => 2,
                ShareError::LinkNotARun(_) => 3,
                ShareError::LinkScenario(_) => 4,
                ShareError::TooManyCommands { .. } => 5,
                ShareError::TooManySteps { .. } => 6,
                ShareError::OutOfOrder => 7,
                ShareError::FileTooBig { .. } => 8,
                ShareError::FileScenario(_) => 9,
                ShareError::NotASavedRun(_) => 10,
                ShareError::NotAScenario(_) => 11,
                ShareError::Build(_) => 12,
                ShareError::TooBigForLink { .. } => 13,
                ShareError::NotJsonFile => 14,
            }
        }
        let scenario = || ScenarioError { path: "topics".into(), line_column: None, problem: Problem::NoTopics };
        let serde = |message: &str, line| SerdeSays { message: message.to_string(), line, column: 12 };
        let all = vec![
            ShareError::LinkTooLong { chars: 300_000 },
            ShareError::NotALink,
            ShareError::Damaged(Damage::NotBase64),
            ShareError::Damaged(Damage::UnknownFirstCode),
            ShareError::Damaged(Damage::UndefinedCode { code: 700 }),
            ShareError::Damaged(Damage::ExpandsPast { limit: 4_194_304 }),
            ShareError::LinkNotARun(serde("invalid unicode code point", 2)),
            ShareError::LinkNotARun(serde("missing field `scenario`", 0)),
            ShareError::LinkScenario(scenario()),
            ShareError::TooManyCommands { count: 10_001 },
            ShareError::TooManySteps { steps: 5_000_001 },
            ShareError::OutOfOrder,
            ShareError::FileTooBig { bytes: 5_000_000 },
            ShareError::FileScenario(scenario()),
            ShareError::NotASavedRun(serde("invalid type: integer `3`, expected struct Scenario", 1)),
            ShareError::NotAScenario(scenario()),
            ShareError::Build(scenario()),
            ShareError::TooBigForLink { chars: 1_017_929 },
            ShareError::NotJsonFile,
        ];
        let mut places: Vec<usize> = all.iter().map(place).collect();
        places.dedup();
        assert_eq!(places, (0..=14).collect::<Vec<_>>(), "one sample (at least) of every share refusal, in order");
        all
    }

    #[test]
    fn every_share_refusal_reads_in_chinese_from_its_value() {
        for e in every_share_error() {
            assert_eq!(share_refusal(Lang::En, &e), e.to_string());
            says_the_same(&e.to_string(), &share_refusal(Lang::Zh, &e));
            // A learner is never told of the format's insides ("code 414 is not defined yet").
            let en = e.to_string();
            let words: Vec<&str> = en.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
            let numbered_code = words.windows(2).any(|w| w[0] == "code" && w[1].bytes().all(|b| b.is_ascii_digit()));
            assert!(!numbered_code && !words.contains(&"LZW") && !en.contains("defined yet"), "{en}");
        }
    }

    /// The core's own refusals, made by the core, read in Chinese.
    #[test]
    fn the_cores_refusals_read_in_chinese() {
        let every = include_str!("../../tests/golden/every-feature.json");
        let cases: Vec<(String, &str)> = vec![
            (
                every.replacen("\"brokers\": 4", "\"brokers\": \"four\"", 1),
                "cluster.brokers（第 7 行，第 21 列）：类型不对：字符串 \"four\"，应为 0 到 4294967295 之间的整数",
            ),
            (every.replacen("\"brokers\": 4", "\"brokers\": 4, \"zookeeper\": 1", 1), "cluster.zookeeper（第 7 行，第 "),
            (every.replacen("\"brokers\": 4", "\"brokers\": 0", 1), "cluster.brokers：为 0；允许 1 到"),
            (every.replacen("\"version\": 1", "\"version\": 9", 1), "version：不支持版本 9；这个版本的沙盒读取版本 1"),
            (every.replacen("\"version\": 1,", "", 1), "version：缺少；请写 \"version\": 1"),
            ("{".to_string(), "第 1 行，第 1 列：不是有效的 JSON（对象还没结束文本就结束了）"),
        ];
        for (text, expected) in cases {
            let e = Scenario::from_json(&text).expect_err("refused");
            let zh = scenario_refusal(Lang::Zh, &e);
            assert!(zh.starts_with(expected), "{e}\n→ {zh}\nexpected {expected}…");
        }
        let mut sim = kafka_sandbox_core::scenario::default_scenario().build().expect("builds");
        let refused = sim.apply(BrokerCommand::CrashBroker { broker: 9 }).expect_err("no broker 9");
        assert_eq!(refusal(Lang::Zh, &refused), "没有 broker 9");
        let unknown = r#"{"version": 1, "topics": [{"name": "t", "partitions": 1}], "commands": [{"at_ms": 5, "command": {"type": "remove_member", "group": "g", "client_id": "c"}}]}"#;
        let e = Scenario::from_json(unknown).expect_err("no group g");
        assert_eq!(scenario_refusal(Lang::Zh, &e), "commands[0]：到那时没有消费者组 \"g\"");
    }

    #[test]
    fn a_damaged_link_or_file_is_explained_in_chinese() {
        let why = kafka_sandbox_core::share::decode("ks1.AAAA").expect_err("damaged");
        let zh = share_refusal(Lang::Zh, &why);
        assert!(zh.starts_with("链接"), "{why} → {zh}");
        let why = kafka_sandbox_core::share::open_any("{\"scenario\": 3}").expect_err("not a run");
        let zh = share_refusal(Lang::Zh, &why);
        assert!(zh.starts_with("它不是有效的已保存运行：类型不对：整数 `3`，应为"), "{why} → {zh}");
        assert!(zh.ends_with("列）"), "{why} → {zh}");
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Any text, and any form with any text (braces, Chinese, nothing) in its holes:
        /// no panic; English is returned as it came.
        #[test]
        fn any_serde_message_is_read_without_a_panic(
            text in ".{0,80}",
            pattern in 0..SERDE.len() + SERDE_PIECES.len(),
            holes in proptest::collection::vec("[a-z{}\\[\\]: .,`\"(0-9]{0,6}|中文|", 0..6),
        ) {
            proptest::prop_assert_eq!(serde_words(Lang::En, &text), text.clone());
            let _ = serde_words(Lang::Zh, &text);
            let (en, _) = SERDE.iter().chain(SERDE_PIECES).nth(pattern).copied().unwrap_or(("", ""));
            let mut filled = String::new();
            let mut rest = en;
            let mut holes = holes.iter();
            while let Some(at) = rest.find('{') {
                filled.push_str(&rest[..at]);
                let hole = if rest[at..].starts_with("{t}") { 3 } else { 2 };
                filled.push_str(holes.next().map_or("x", String::as_str));
                rest = &rest[at + hole..];
            }
            filled.push_str(rest);
            let _ = serde_words(Lang::Zh, &filled);
        }
    }

    #[test]
    fn an_unknown_message_stays_as_it_came() {
        assert_eq!(serde_words(Lang::Zh, "something new happened"), "something new happened");
        assert_eq!(serde_words(Lang::Zh, "invalid type: map, expected a string"), "类型不对：对象，应为字符串");
    }
}
