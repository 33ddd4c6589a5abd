//! The core's refusals in the page's language.
//!
//! A refused command is a typed value (`CommandError`): [`refusal`] renders each variant in
//! Chinese from its parameters, an exhaustive match, so a new refusal cannot stay English.
//! The rest still arrives as English text (scenario checks, serde's words for a JSON
//! mistake, share links) and is read through [`PATTERNS`]: on the Chinese page each known
//! sentence is shown in Chinese, with the names, numbers and JSON paths it carries kept as
//! they are; a sentence not in the table stays English (a test keeps the table in step with
//! the core's most common refusals). A scenario check that embeds a command's refusal
//! (a timeline command) comes as its English text, so the command rows stay in the table
//! too until scenario refusals are typed as well.

use crate::i18n::Lang;
use kafka_sandbox_core::command::{Allowed, CommandError, NameOf, NameProblem};
use kafka_sandbox_core::limits::{
    MAX_GROUPS, MAX_HEADERS, MAX_MEMBERS_PER_GROUP, MAX_NAME_CHARS, MAX_PARTITIONS, MAX_PUSH_BUFFER_RECORDS, MAX_TIME_MS, MAX_VALUE_CHARS,
};

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
        CommandError::BadName { what, name, problem } => {
            let what = name_of(*what);
            match problem {
                NameProblem::Empty => format!("{what}不能为空"),
                NameProblem::TooLong => format!("{what} \"{name}\" 超过了 {MAX_NAME_CHARS} 个字符"),
                NameProblem::ControlCharacter => format!("{what} {name:?} 含有控制字符"),
            }
        }
        CommandError::RecordTooLong => format!("键或值最多 {MAX_VALUE_CHARS} 个字符"),
        CommandError::TooManyHeaders => format!("一条记录最多 {MAX_HEADERS} 个头部，每个最多 {MAX_VALUE_CHARS} 个字符"),
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
            };
            format!("{setting}（成员 \"{client_id}\"，消费者组 \"{group}\"）为 {value}；允许 {allowed}")
        }
        CommandError::PushBuffer { group, value } => {
            format!("消费者组 \"{group}\" 的 push_buffer_max_records 为 {value}；允许 1 到 {MAX_PUSH_BUFFER_RECORDS}")
        }
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
    }
}

/// English sentence → Chinese, with holes: `{}` is carried over as it is (a name, a number,
/// a JSON path), `{t}` is itself translated through this table and then [`PIECES`] (serde's
/// "expected …" words). The holes come in the same order in both. More specific patterns
/// come first.
const PATTERNS: &[(&str, &str)] = &[
    // Places: `topics[0].partitions (line 4, column 20)`, or only the line and column.
    ("{} (line {}, column {})", "{}（第 {} 行，第 {} 列）"),
    ("line {}, column {}", "第 {} 行，第 {} 列"),
    // Refused commands (`CommandError`).
    ("there is no producer named \"{}\"", "没有名为 \"{}\" 的生产者"),
    ("there is no topic named \"{}\"", "没有名为 \"{}\" 的主题"),
    ("there is no consumer group \"{}\"", "没有消费者组 \"{}\""),
    ("there is no connector named \"{}\"", "没有名为 \"{}\" 的连接器"),
    ("there is no broker {}", "没有 broker {}"),
    ("group \"{}\" has no member with client id \"{}\"", "消费者组 \"{}\" 中没有 client id 为 \"{}\" 的成员"),
    ("a consumer group \"{}\" already exists", "消费者组 \"{}\" 已经存在"),
    ("group \"{}\" already has a member with client id \"{}\"", "消费者组 \"{}\" 已有 client id 为 \"{}\" 的成员"),
    ("topic \"{}\" has partitions 0..{} but partition {} was asked for", "主题 \"{}\" 的分区是 0..{}，但请求的是分区 {}"),
    ("no broker is up to host new partitions", "没有运行中的 broker 能承载新的分区"),
    ("a key or value may have at most {} characters", "键或值最多 {} 个字符"),
    ("keys and values may have at most {} characters", "键和值最多 {} 个字符"),
    ("group \"{}\" must subscribe to at least one topic", "消费者组 \"{}\" 至少要订阅一个主题"),
    ("the sandbox allows at most {} consumer groups", "沙盒最多允许 {} 个消费者组"),
    ("{} must subscribe to at least one topic (unsubscribe() is remove_member here)", "{} 至少要订阅一个主题（这里 unsubscribe() 就是 remove_member）"),
    ("{t} \"{}\" is longer than {} characters", "{t} \"{}\" 超过了 {} 个字符"),
    ("{t} must not be empty", "{t}不能为空"),
    ("{t} \"{}\" contains a control character", "{t} \"{}\" 含有控制字符"),
    ("group \"{}\" already has {} members, the most the sandbox allows", "消费者组 \"{}\" 已有 {} 个成员，这是沙盒允许的上限"),
    ("group \"{}\" has {} members; the sandbox allows at most {}", "消费者组 \"{}\" 有 {} 个成员；沙盒最多允许 {} 个"),
    ("{} is not assigned {t}: seek() only works on assigned partitions (Kafka throws IllegalStateException)", "{} 没有被分配 {t}：seek() 只对已分配的分区有效（Kafka 会抛出 IllegalStateException）"),
    ("{} has no assigned partition to seek", "{} 没有已分配的分区可以 seek"),
    ("topic \"{}\" has {} partitions; it can grow to between {} and {} (partitions never shrink)", "主题 \"{}\" 有 {} 个分区；只能增加到 {} 到 {} 个（分区数不会减少）"),
    ("min.insync.replicas of \"{}\" must be between 1 and its replication factor ({})", "\"{}\" 的 min.insync.replicas 必须在 1 到副本数（{}）之间"),
    ("group \"{}\" uses group.protocol=consumer: the broker assigns its partitions with group.remote.assignor ({}); partition.assignment.strategy does not apply", "消费者组 \"{}\" 使用 group.protocol=consumer：由 broker 按 group.remote.assignor（{}）分配分区；partition.assignment.strategy 不起作用"),
    ("a record may have at most 16 headers of at most {} characters", "一条记录最多 16 个头部，每个最多 {} 个字符"),
    ("{} of member \"{}\" in group \"{}\" is {}; allowed: 1 to {} (one week)", "{}（成员 \"{}\"，消费者组 \"{}\"）为 {}；允许 1 到 {}（一周）"),
    ("{} of member \"{}\" in group \"{}\" is {}; allowed: {t}", "{}（成员 \"{}\"，消费者组 \"{}\"）为 {}；允许 {t}"),
    ("push_buffer_max_records of group \"{}\" is {}; allowed: 1 to {}", "消费者组 \"{}\" 的 push_buffer_max_records 为 {}；允许 1 到 {}"),
    // Scenario checks (`Scenario::check`).
    ("is 0; allowed: 1 or more (max.in.flight.requests.per.connection is at least 1)", "为 0；允许 1 及以上（max.in.flight.requests.per.connection 至少为 1）"),
    ("is {}; allowed: 1 to the replication factor ({})", "为 {}；允许 1 到副本数（{}）"),
    ("is {}; allowed: -1 (no size limit) or 0 and more bytes per partition", "为 {}；允许 -1（不限大小）或每个分区 0 及以上字节"),
    ("is {}; allowed: -1 (no time limit) or 0 and more milliseconds", "为 {}；允许 -1（不限时间）或 0 及以上毫秒"),
    ("is {}; it must be above group_consumer_heartbeat_interval_ms ({})", "为 {}；必须大于 group_consumer_heartbeat_interval_ms（{}）"),
    ("is {}; write the number {}: \"version\": {}", "为 {}；请写数字 {}：\"version\": {}"),
    ("is {}; allowed: {} to {}", "为 {}；允许 {} 到 {}"),
    ("missing; write \"version\": {}", "缺少；请写 \"version\": {}"),
    ("version {} is not supported; this build reads version {}", "不支持版本 {}；这个版本的沙盒读取版本 {}"),
    ("a scenario is a JSON object: {}", "场景是一个 JSON 对象：{}"),
    ("a scenario needs at least one topic", "场景至少需要一个主题"),
    ("{} topics; allowed: 1 to {}", "{} 个主题；允许 1 到 {} 个"),
    ("{} producers; allowed: at most {}", "{} 个生产者；最多允许 {} 个"),
    ("topic \"{}\" is defined twice", "主题 \"{}\" 定义了两次"),
    ("producer \"{}\" is defined twice", "生产者 \"{}\" 定义了两次"),
    ("topic \"{}\" asks for {} replicas but the cluster has {} broker(s)", "主题 \"{}\" 需要 {} 个副本，但集群只有 {} 个 broker"),
    ("topic \"{}\" has {} partitions; allowed: 1 to {}", "主题 \"{}\" 有 {} 个分区；允许 1 到 {} 个"),
    ("{} keys for {} values; give one key (or null) per value", "{} 个键对应 {} 个值；请为每个值给一个键（或 null）"),
    ("the last value would be sent at {} ms; everything must happen by {} ms (one week)", "最后一个值会在 {} ms 发送；一切都必须在 {} ms（一周）之前发生"),
    ("written out with every default filled in, the scenario takes {} bytes; the most accepted is {} (use fewer timeline entries)", "填上所有默认值后，场景有 {} 字节；最多接受 {} 字节（请减少时间线条目）"),
    ("the scenario is {} bytes; the most accepted is {}", "场景有 {} 字节；最多接受 {} 字节"),
    ("{t} timeline entries ({}); allowed: at most {}", "时间线条目（{t}）有 {} 个；最多允许 {} 个"),
    // serde's words for a JSON mistake, as the core rewords them (`scenario::located`).
    ("not valid JSON ({})", "不是有效的 JSON（{}）"),
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
    ("expected one of the allowed values, as a JSON string (for acks: \"1\", not 1)", "应为允许的取值之一，写成 JSON 字符串（acks 要写 \"1\"，不是 1）"),
    // Share links, saved runs and files (`share.rs`).
    ("the link is {} characters long; at most {} are accepted", "链接有 {} 个字符；最多接受 {} 个"),
    ("this is not a Kafka Sandbox link (it should start with \"{}\")", "这不是 Kafka 沙盒的链接（应以 \"{}\" 开头）"),
    ("the link is damaged: {t}", "链接已损坏：{t}"),
    ("the link's content is not a valid run: {t}", "链接的内容不是有效的运行：{t}"),
    ("the link's scenario is invalid: {t}", "链接里的场景无效：{t}"),
    ("the link carries {} commands; at most {} are accepted", "链接带有 {} 条命令；最多接受 {} 条"),
    ("the link asks for step {}; at most {} are replayed", "链接要求回放到第 {} 步；最多回放 {} 步"),
    ("the link's commands are out of order", "链接里的命令顺序不对"),
    ("it is {} bytes; at most {} are accepted", "它有 {} 字节；最多接受 {} 字节"),
    ("its scenario is invalid: {t}", "其中的场景无效：{t}"),
    ("it is not a valid saved run: {t}", "它不是有效的已保存运行：{t}"),
    ("it starts with an unknown code", "它以未知的编码开头"),
    ("code {} is not defined yet", "编码 {} 尚未定义"),
    ("it expands to more than {} bytes", "展开后超过 {} 字节"),
    ("invalid unicode code point at line {} column {}", "第 {} 行第 {} 列不是有效的 Unicode 字符"),
    // serde_json's own place, when a message comes without the core's rewording.
    ("{t} at line {} column {}", "{t}（第 {} 行第 {} 列）"),
];

/// Pieces of the sentences above, for their `{t}` holes only (never a whole message:
/// "{} to {}" would otherwise turn half of an unknown English sentence into Chinese).
const PIECES: &[(&str, &str)] = &[
    ("a whole number from {} to {}", " {} 到 {} 之间的整数"),
    ("true or false", " true 或 false"),
    ("an array [...]", "数组 [...]"),
    ("an array of two elements", "两个元素的数组"),
    ("a string", "字符串"),
    ("a map", "对象"),
    ("a command object with a \"type\", such as {}", "带 \"type\" 的命令对象，例如 {}"),
    ("struct {}", "对象 {}"),
    ("string \"{}\"", "字符串 \"{}\""),
    ("integer `{}`", "整数 `{}`"),
    ("floating point `{}`", "小数 `{}`"),
    ("boolean `{}`", "布尔值 `{}`"),
    ("map", "对象"),
    ("sequence", "数组"),
    ("the topic name", "主题名"),
    ("the producer name", "生产者名"),
    ("the connector name", "连接器名"),
    ("a client id", "client id"),
    ("a group id", "组 id"),
    ("a group.instance.id", "group.instance.id"),
    ("a store name", "状态存储名"),
    ("an application.id", "application.id"),
    ("commands, planned sends and table changes", "命令、计划发送和表变更"),
    ("commands plus planned sends", "命令加计划发送"),
    ("commands", "命令"),
    ("any partition of {}", "{} 的任何分区"),
    ("{} or more", "{} 及以上"),
    // A range, last: only a `{t}` hole that nothing above matched comes here.
    ("{} to {}", "{} 到 {}"),
];

/// A core message in `lang`: on the Chinese page, the sentence from [`PATTERNS`] if one
/// matches (a `path: message` refusal is taken in its two parts), else as it came.
pub fn core_text(lang: Lang, text: &str) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    sentence(text, 0).unwrap_or_else(|| text.to_string())
}

/// `groups[0].members[1] (line 3, column 9): missing field ...`: the place, then the rest;
/// else the sentence from the table.
fn sentence(text: &str, depth: u32) -> Option<String> {
    if let Some((place, rest)) = text.split_once(": ") {
        if is_place(place) {
            let place = translate(place, depth).unwrap_or_else(|| place.to_string());
            return Some(format!("{place}：{}", sentence(rest, depth).unwrap_or_else(|| rest.to_string())));
        }
    }
    translate(text, depth)
}

/// A JSON path (`topics[0].partitions`), with or without its line and column, or only them.
fn is_place(s: &str) -> bool {
    let path = s.split(" (line ").next().unwrap_or(s);
    let plain_path = !path.is_empty() && path.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'));
    plain_path || (s.starts_with("line ") && s.contains(", column "))
}

/// The first pattern `text` matches, filled in (a piece too, below the top level); `None` if
/// none does.
fn translate(text: &str, depth: u32) -> Option<String> {
    let pieces = if depth > 0 { PIECES } else { &[] };
    PATTERNS.iter().chain(pieces).find_map(|(en, zh)| {
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
            match translated.then(|| sentence(hole, depth + 1)).flatten() {
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
    use kafka_sandbox_core::{Command, Scenario};

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
    fn every_pattern_has_the_same_holes_in_both_languages_and_chinese_words() {
        for (en, zh) in PATTERNS.iter().chain(PIECES) {
            assert_eq!(holes(en), holes(zh), "{en}");
            let names_only = ["client id", "group.instance.id", "application.id"].contains(zh);
            assert!(names_only || zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
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
            CommandError::PushBuffer { group: s("G1"), value: 0 },
        ];
        let mut places: Vec<usize> = all.iter().map(place).collect();
        places.dedup();
        assert_eq!(places, (0..=24).collect::<Vec<_>>(), "one sample (at least) of every refusal, in order");
        all
    }

    /// Every refusal reads in Chinese from its value, keeps its names and numbers, and
    /// says what the English sentence says (the table, which reads the English, agrees).
    #[test]
    fn every_refused_command_reads_in_chinese_from_its_value() {
        for e in every_refusal() {
            let en = refusal(Lang::En, &e);
            let zh = refusal(Lang::Zh, &e);
            assert_eq!(en, e.to_string());
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
            let numbers =
                |t: &str| t.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(str::to_string).collect::<Vec<_>>();
            let mut en_numbers = numbers(&en);
            let mut zh_numbers = numbers(&zh);
            en_numbers.sort();
            zh_numbers.sort();
            assert_eq!(en_numbers, zh_numbers, "the same numbers: {en} / {zh}");
            for quoted in en.split('"').skip(1).step_by(2) {
                assert!(zh.contains(quoted), "{zh} keeps \"{quoted}\" of {en}");
            }
            assert_eq!(core_text(Lang::Zh, &en), zh, "the table reads {en} the same way");
        }
    }

    #[test]
    fn english_stays_as_it_came() {
        let s = "topics[0].partitions (line 4, column 20): is 0; allowed: 1 to 256";
        assert_eq!(core_text(Lang::En, s), s);
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
            ("{".to_string(), "第 1 行，第 1 列：不是有效的 JSON（"),
        ];
        for (text, expected) in cases {
            let e = Scenario::from_json(&text).expect_err("refused").to_string();
            let zh = core_text(Lang::Zh, &e);
            assert!(zh.starts_with(expected), "{e}\n→ {zh}\nexpected {expected}…");
        }
        let mut sim = kafka_sandbox_core::scenario::default_scenario().build().expect("builds");
        let refused = sim.apply(Command::CrashBroker { broker: 9 }).expect_err("no broker 9").to_string();
        assert_eq!(core_text(Lang::Zh, &refused), "没有 broker 9");
        let refused = sim
            .apply(Command::RemoveMember { group: "ConsumerGroup01".into(), client_id: "Nobody".into() })
            .expect_err("no such member")
            .to_string();
        assert_eq!(core_text(Lang::Zh, &refused), "消费者组 \"ConsumerGroup01\" 中没有 client id 为 \"Nobody\" 的成员");
        let refused = sim.apply(Command::AddPartitions { topic: "Topic01".into(), partitions: 1 }).expect_err("never shrinks").to_string();
        let zh = core_text(Lang::Zh, &refused);
        assert!(zh.starts_with("主题 \"Topic01\" 有 ") && zh.ends_with("（分区数不会减少）"), "{refused} → {zh}");
        let member_setting = "max_poll_records of member \"C1\" in group \"G\" is 0; allowed: 1 to 10000";
        assert_eq!(core_text(Lang::Zh, member_setting), "max_poll_records（成员 \"C1\"，消费者组 \"G\"）为 0；允许 1 到 10000");
    }

    #[test]
    fn a_damaged_link_or_file_is_explained_in_chinese() {
        let why = kafka_sandbox_core::share::decode("ks1.AAAA").expect_err("damaged");
        let zh = core_text(Lang::Zh, &why);
        assert!(zh.starts_with("链接"), "{why} → {zh}");
        let why = kafka_sandbox_core::share::open_any("{\"scenario\": 3}").expect_err("not a run");
        let zh = core_text(Lang::Zh, &why);
        assert!(zh.starts_with("它不是有效的已保存运行：类型不对：整数 `3`，应为"), "{why} → {zh}");
        assert!(zh.ends_with("列）"), "{why} → {zh}");
        let nested = "the link's scenario is invalid: topics[0].partitions: is 0; allowed: 1 to 256";
        assert_eq!(core_text(Lang::Zh, nested), "链接里的场景无效：topics[0].partitions：为 0；允许 1 到 256");
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Any text, and any pattern with any text (braces, Chinese, nothing) in its holes:
        /// no panic; English is returned as it came.
        #[test]
        fn any_message_is_read_without_a_panic(
            text in ".{0,80}",
            pattern in 0..PATTERNS.len() + PIECES.len(),
            holes in proptest::collection::vec("[a-z{}\\[\\]: .,`\"(0-9]{0,6}|中文|", 0..6),
        ) {
            proptest::prop_assert_eq!(core_text(Lang::En, &text), text.clone());
            let _ = core_text(Lang::Zh, &text);
            let (en, _) = PATTERNS.iter().chain(PIECES).nth(pattern).copied().unwrap_or(("", ""));
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
            let _ = core_text(Lang::Zh, &filled);
        }
    }

    #[test]
    fn an_unknown_sentence_stays_english_and_names_are_not_translated() {
        assert_eq!(core_text(Lang::Zh, "something new happened"), "something new happened");
        assert_eq!(core_text(Lang::Zh, "from 1 to 2 and back"), "from 1 to 2 and back", "a piece is not a sentence");
        assert_eq!(core_text(Lang::Zh, "there is no topic named \"map\""), "没有名为 \"map\" 的主题");
        assert_eq!(core_text(Lang::Zh, "invalid type: map, expected a string"), "类型不对：对象，应为字符串");
    }
}
