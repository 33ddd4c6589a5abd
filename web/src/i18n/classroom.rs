//! The page's words for the classroom and the real cluster (issue 21): share links that
//! always open, lesson layout, presentation mode, the glossary, the describe-group view
//! and the bridge to real Kafka. Their own `msgs!` block, so other features' words merge
//! without touching these.

use super::Msg;

msgs! {
    LINK_COPIED = "链接已复制到剪贴板", "Link copied to the clipboard";
    LINK_NOT_COPIED = "无法写入剪贴板：请选中链接后自己复制（Ctrl+C）", "The clipboard refused: select the link and copy it yourself (Ctrl+C)";
    SAVE_INSTEAD = "改为保存文件", "Save as a file instead";
    PRESENT = "▣ 演示", "▣ Present";
    PRESENT_HINT = "演示模式：大字号、高对比度，课程旁白作为字幕，用键盘（→ 或翻页键下一步，1–9 作答）", "Presentation mode: large type, high contrast, the lesson's narration as captions, steps from the keyboard (→ or Page Down for the next, 1–9 to answer)";
    GLOSSARY = "术语表", "Glossary";
    GLOSSARY_HINT = "页面和课程对每个 Kafka 概念只用一个词；右栏是原文章的说法", "The page and the lessons use one word per Kafka concept; the last column is how the source articles say it";
    GLOSSARY_TERM = "术语", "Term";
    GLOSSARY_MEANING = "含义", "Meaning";
    GLOSSARY_SEED = "原文的说法", "In the seed articles";
    FORK_KEEP = "这次运行也重放它们（取消勾选：从这里起走自己的路）", "This run replays them too (untick to diverge from here)";
    PASTE_NOT_IN_SCENARIO = "这个客户端不在场景里（它是运行中添加的）：请在场景编辑器里加入它，再粘贴设置", "This client is not in the scenario (it was added during the run): add it in the scenario editor, then paste its settings";
    PASTE_PRODUCER = "粘贴 producer.properties", "Paste producer.properties";
    PASTE_CONSUMER = "粘贴 consumer.properties", "Paste consumer.properties";
    PASTE_HINT = "每行一个 key=value，用 Kafka 的设置名；不认识的键、非法的值和沙盒不模拟的键都会列出来，其他一概不变。在 Kafka 里改客户端设置就是换一个新客户端，所以运行会重新开始", "One key=value a line, Kafka's names; unknown keys, invalid values and keys the sandbox does not model are listed, nothing else changes. In Kafka a client's settings change only with a new client, so the run starts again";
    PASTE_APPLY = "应用", "Apply";
    DESCRIBE = "kafka-consumer-groups.sh --describe", "kafka-consumer-groups.sh --describe";
    DESCRIBE_HINT = "这个组此刻在真实 Kafka 上 kafka-consumer-groups.sh --describe 的输出：同样的列、顺序和宽度", "What kafka-consumer-groups.sh --describe would print for this group now: the same columns, order and widths";
    BRIDGE = "在真实 Kafka 上试试", "Try it on real Kafka";
    BRIDGE_HINT = "在 Apache Kafka 上做同样的实验：一个 compose.yaml（KRaft，官方 apache/kafka 镜像），然后按顺序执行这些命令；每一步旁边是沙盒的预测。按载入时的场景生成，不含你在运行中做的操作", "The same experiment on Apache Kafka: a compose.yaml (KRaft, the official apache/kafka image), then these commands in order, each beside what the sandbox predicts. Made from the scenario as loaded, without what you did during the run";
    BRIDGE_SAVE = "保存 compose.yaml", "Save compose.yaml";
    BRIDGE_COPY = "复制", "Copy";
    BRIDGE_PREDICTS = "沙盒预测：", "The sandbox predicts:";
    BRIDGE_NOTE = "注意：", "Note: ";
    BRIDGE_AT = "时刻", "at";
    ACKED_THEN_LOST = "已确认，随后在 leader 切换中丢失：生产者不会再发送它", "acknowledged, then lost at a leader change: the producer will not send it again";
    NEXT_LESSON = "下一课：", "Next lesson:";
    ALL_LESSONS_DONE = "这是最后一课：回到课程列表", "That was the last lesson: back to the list";
    FAULT_SCHEDULE = "安排一个故障", "Schedule a fault";
    FAULT_AT = "时刻（秒）", "At (s)";
    FAULT_WHAT = "故障", "Fault";
    FAULT_BROKER = "broker", "broker";
    FAULT_MEMBER = "消费者", "Consumer";
    FAULT_ADD = "加入时间线", "Add to the timeline";
    FAULT_BAD_TIME = "时刻要写成 0 到 604800 之间的秒数，例如 8 或 8.5", "The moment is a number of seconds from 0 to 604800, such as 8 or 8.5";
    FAULT_CRASH_BROKER = "broker 崩溃", "Crash a broker";
    FAULT_SHUTDOWN_BROKER = "broker 受控关闭", "Shut a broker down (controlled)";
    FAULT_RESTART_BROKER = "重启 broker", "Restart a broker";
    FAULT_ISOLATE_BROKER = "隔离 broker（断网）", "Isolate a broker (network)";
    FAULT_HEAL_BROKER = "恢复 broker 的网络", "Reconnect a broker";
    FAULT_CRASH_MEMBER = "消费者崩溃", "Crash a consumer";
    SC_CUSTOM = "你的场景", "Your scenario";
    LESSON_FOLD = "▾ 收起", "▾ Fold";
    LESSON_UNFOLD = "▴ 展开课程", "▴ Unfold the lesson";
    // Offsets drawn on the log.
    MARK_START = "起点", "start";
    MARK_START_HINT = "日志起始偏移量：保留的最早一条消息（保留策略会删除更早的）", "log start offset: the oldest record kept (retention deletes older ones)";
    MARK_HW_HINT = "高水位（HW）：低于它的消息已被所有同步副本复制，消费者只能读到这里", "high watermark (HW): records below it are on every in-sync replica; consumers read only up to here";
    MARK_LEO_HINT = "日志末端偏移量（LEO）：下一条追加的消息将得到这个偏移量", "log end offset (LEO): the next record appended gets this offset";
    MARK_LSO = "LSO", "LSO";
    MARK_LSO_HINT = "最后稳定偏移量（LSO，事务）：read_committed 的消费者只读到这里；事务功能加入后显示", "last stable offset (LSO, transactions): read_committed consumers read only up to here; drawn once transactions are modelled";
    LEGEND_OFFSETS = "日志上的偏移量：", "Offsets on the log:";
    LEGEND_GROUP_COMMITTED = "组的已提交偏移量（重启或重平衡后从这里读）", "a group's committed offset (where it reads after a restart or rebalance)";
    LEGEND_POSITION = "成员的位置（下一次拉取的偏移量）", "a member's position (the next offset it fetches)";
    LEGEND_IN_HAND = "斜纹：已收到、尚未处理", "hatched: received, not processed yet";
    LEGEND_LSO_SLOT = "LSO：事务加入后显示", "LSO: shown once transactions are modelled";
}

use super::Lang;

/// "ConsumerGroup01's committed offset: 2 (it reads from here after a restart)".
pub fn committed_mark(lang: Lang, group: &str, offset: u64) -> String {
    match lang {
        Lang::Zh => format!("{group} 的已提交偏移量：{offset}（重启或重平衡后从这里读）"),
        Lang::En => format!("{group}'s committed offset: {offset} (it reads from here after a restart or rebalance)"),
    }
}

/// "Consumer1 (ConsumerGroup01) position: 3, the next offset it fetches".
pub fn position_mark(lang: Lang, group: &str, client_id: &str, offset: u64) -> String {
    match lang {
        Lang::Zh => format!("{client_id}（{group}）的位置：{offset}，下一次拉取从这里开始"),
        Lang::En => format!("{client_id} ({group}) position: {offset}, the next offset it fetches"),
    }
}

/// "held by Consumer1 (ConsumerGroup01): received, not processed yet".
pub fn in_hand_mark(lang: Lang, group: &str, client_id: &str) -> String {
    match lang {
        Lang::Zh => format!("在 {client_id}（{group}）手里：已收到，尚未处理"),
        Lang::En => format!("held by {client_id} ({group}): received, not processed yet"),
    }
}

/// "The fork replays the 2 commands recorded after this moment, each at its time:".
pub fn fork_future(lang: Lang, n: usize) -> String {
    match lang {
        Lang::Zh => format!("分叉会在各自的时刻重放这一刻之后录下的 {n} 条命令："),
        Lang::En => format!("The fork replays the {n} commands recorded after this moment, each at its time:"),
    }
}

/// "This run still replays 1 of them by moment."
pub fn fork_timed(lang: Lang, n: usize) -> String {
    match lang {
        Lang::Zh => format!("这次运行还会按时刻重放其中 {n} 条"),
        Lang::En => format!("This run still replays {n} of them by moment"),
    }
}

/// A bridge step's heading in `lang`.
pub fn bridge_what(lang: Lang, w: &kafka_sandbox_core::bridge::What) -> String {
    use kafka_sandbox_core::bridge::What;
    match lang {
        Lang::En => w.to_string(),
        Lang::Zh => match w {
            What::StartCluster { brokers } => format!("启动 KRaft 控制器和 {brokers} 个 broker（compose.yaml），确认它们都已运行"),
            What::CreateTopic { topic } => format!("创建主题 {topic} 并查看它"),
            What::StartConsumer { group, client_id } => {
                format!("在后台启动 {group} 的 {client_id}（它收到的消息在 /tmp/{group}-{client_id}.log）")
            }
            What::Produce { producer, topic, records } => format!("{producer} 向 {topic} 发送 {records} 条消息"),
            What::Timeline { command } => format!("时间线上的 {command}"),
            What::Describe { group } => format!("查看 {group}（describe）并对比"),
            What::Stop => "停止并删除集群".to_string(),
        },
    }
}

/// What the sandbox predicts for a bridge step, in `lang`.
pub fn bridge_predict(lang: Lang, p: &kafka_sandbox_core::bridge::Predict) -> String {
    use kafka_sandbox_core::bridge::Predict;
    let list = |v: &[u32]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
    match (lang, p) {
        (Lang::En, p) => p.to_string(),
        (Lang::Zh, Predict::Placement { tp, replicas }) => {
            format!("{tp}：副本 [{}]，leader {}", list(replicas), replicas.first().map_or_else(|| "无".to_string(), ToString::to_string))
        }
        (Lang::Zh, Predict::Log { tp, records, values }) => format!("{tp}：{records} 条消息：{values}"),
        (Lang::Zh, Predict::Consumes { group, client_id, partitions, received, values }) => format!(
            "{group} 的 {client_id} 拥有 [{}]，收到 {received} 条消息：{values}",
            partitions.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        ),
        (Lang::Zh, Predict::LeaderAfter { tp, leader: Some(l), at_ms }) => format!("{tp}：{at_ms} 毫秒时 leader 是 broker {l}"),
        (Lang::Zh, Predict::LeaderAfter { tp, leader: None, at_ms }) => format!("{tp}：{at_ms} 毫秒时离线（没有 leader）"),
        (Lang::Zh, Predict::AckedLost { records }) => format!("{records} 条已确认的消息丢失"),
        (Lang::Zh, Predict::DescribeTable(t)) => t.trim_start_matches('\n').to_string(),
        (Lang::Zh, Predict::Coordinator { group, broker: Some(b) }) => format!("{group} 的协调者：broker {b}"),
        (Lang::Zh, Predict::Coordinator { group, broker: None }) => format!("{group} 没有协调者"),
    }
}

/// Where a real cluster may differ from the sandbox for a bridge step, in `lang`.
pub fn bridge_caveat(lang: Lang, c: kafka_sandbox_core::bridge::Caveat) -> String {
    use kafka_sandbox_core::bridge::Caveat as C;
    match lang {
        Lang::En => c.to_string(),
        Lang::Zh => match c {
            C::PlacementMayDiffer => "KRaft 从随机的 broker 开始放置副本：leader 可能在别的 broker 上",
            C::MixedKeys => "控制台生产者不能混发有键和无键的消息：无键的会得到空键，按哈希进某个分区而不是黏性分区",
            C::NoExplicitPartition => "控制台生产者不能指定分区：消息按键（或黏性分区器）去它该去的分区",
            C::PerfTestPayloads => "性能测试发送的是同样大小的随机内容，不是场景里的值",
            C::NoStuckApplication => "没有工具能让应用停止调用 poll()（SIGSTOP 会把心跳线程也冻住）：请用你自己的应用",
            C::NoSlowFollower => "让一个 broker 复制变慢需要带 NET_ADMIN 的 tc netem，镜像里没有",
            C::NewClient => "客户端设置只能随新客户端改变：用新设置重新启动它",
            C::SeekIsAnApiCall => "seek() 是应用里的调用；对不活跃的组，kafka-consumer-groups.sh --reset-offsets 做同样的事",
            C::CommitModeNeedsAnApplication => "控制台消费者自动提交；处理后或处理前提交需要你自己的应用",
            C::ProcessingTime => "处理时间是沙盒的设定：控制台消费者不做处理",
            C::NeedsConnectOrStreams => "Kafka Connect 和 Kafka Streams 需要各自的运行环境，不是这些工具",
            C::NeedsAnApplication => "共享组的确认和事务都是应用程序发起的调用：控制台工具不会发起这些调用",
            C::TimingApproximate => "真实机器上的时间只是大致相同（JVM 启动、调度）",
            C::MemberIdsDiffer => "member id 以随机 UUID 结尾，HOST 是 tools 容器的地址：真实集群上会不同，分区数相同的成员顺序也可能不同",
        }
        .to_string(),
    }
}

/// What a finished lesson says: its steps, and the predictions the learner got right.
pub fn lesson_summary(lang: Lang, steps: usize, answered: usize, right: usize) -> String {
    match (lang, answered) {
        (Lang::Zh, 0) => format!("本课完成：{steps} 步。"),
        (Lang::Zh, _) => format!("本课完成：{steps} 步，{answered} 个预测中有 {right} 个与模拟结果一致。"),
        (Lang::En, 0) => format!("Lesson done: {steps} steps."),
        (Lang::En, _) => format!("Lesson done: {steps} steps; {right} of your {answered} predictions matched the simulation."),
    }
}

/// A group's `kafka-consumer-groups.sh --describe` in the group card, in `lang`: the
/// tool's table as it prints it; in Chinese its one-line notes (an empty or rebalancing
/// group) are said in Chinese, the columns and rows kept.
pub fn describe_table(lang: Lang, d: &kafka_sandbox_core::bridge::describe::Describe) -> String {
    let t = d.table();
    match lang {
        Lang::En => t,
        Lang::Zh => t
            .replace(&format!("Consumer group '{}' has no active members.", d.group), &format!("消费者组 '{}' 没有活跃成员。", d.group))
            .replace(
                &format!("Warning: Consumer group '{}' is rebalancing.", d.group),
                &format!("警告：消费者组 '{}' 正在重平衡。", d.group),
            ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty group's describe note is Chinese on the Chinese page (the e2e check of
    /// leftover English found the tool's "has no active members"); English keeps the tool's.
    #[test]
    fn an_empty_groups_describe_note_is_said_in_chinese() {
        let sim = kafka_sandbox_core::scenario::default_scenario().build().unwrap_or_else(|e| panic!("{e}"));
        let read = sim.read();
        let Some(g) = read.group("ConsumerGroup01") else { panic!("the group") };
        let d = kafka_sandbox_core::bridge::describe::describe(g, |tp| read.partition(tp).map(|p| p.high_watermark()));
        assert!(d.rows.is_empty());
        let en = describe_table(Lang::En, &d);
        assert!(en.contains("has no active members") || en.contains("is rebalancing"), "{en}");
        let zh = describe_table(Lang::Zh, &d);
        assert!(zh.contains("消费者组 'ConsumerGroup01'") && !zh.contains("members") && !zh.contains("rebalancing"), "{zh}");
    }
}
