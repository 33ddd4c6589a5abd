//! Every word the page shows, in Chinese and English, through one lookup.

use kafka_sandbox_core::config::Acks;
use kafka_sandbox_core::event::PartitionReason;
use kafka_sandbox_core::event::SegmentDeletionReason;
use kafka_sandbox_core::event::{
    ClusterEvent, ConnectEvent, ConsumeEvent, ConsumerProtocolEvent, EventKind, GroupError, GroupEvent, LeaveReason, LossCause,
    ProduceError, ProduceEvent, PushEvent, RebalanceCause, ReplicationEvent, SettingsEvent, StartFrom, StreamsEvent,
};
use kafka_sandbox_core::read::{Activity, CommitMode, Finding, FindingKind, GroupState, Phase, RebalanceProtocol};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }

    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }
}

/// A fixed text in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Msg {
    pub zh: &'static str,
    pub en: &'static str,
}

impl Msg {
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.zh,
            Lang::En => self.en,
        }
    }
}

macro_rules! msgs {
    ($($name:ident = $zh:literal , $en:literal;)*) => {
        $(pub const $name: Msg = Msg { zh: $zh, en: $en };)*
        /// Every fixed text, for the test that none is missing a translation.
        pub const ALL: &[Msg] = &[$($name),*];
    };
}

/// Words of the classroom and real-cluster features, in their own block.
pub mod classroom;

msgs! {
    TITLE = "Kafka 沙盒", "Kafka Sandbox";
    SUBTITLE = "一个确定性的 Kafka 模拟：生产、分区、消费者组", "A deterministic Kafka simulation: producers, partitions, consumer groups";
    LANG_SWITCH = "English", "中文";
    PLAY = "▶ 播放", "▶ Play";
    PAUSE = "❚❚ 暂停", "❚❚ Pause";
    STEP = "⇥ 单步", "⇥ Step";
    STEP_HINT = "执行下一个事件", "Apply the next event";
    RUN_TO = "运行到", "Run to";
    RUN_TO_GO = "前往 →", "Go →";
    RUN_TO_HINT = "运行到这个模拟时间（秒）后暂停：向前或向后都可以，结果每次都一样", "Run to this simulated time (seconds) and pause there: forward or back, the same every time";
    RESET = "↺ 重置", "↺ Reset";
    SPEED = "速度", "Speed";
    TIME = "模拟时间", "Simulated time";
    EVENTS = "事件", "Events";
    SCENARIO = "场景", "Scenario";
    PRODUCERS = "生产者", "Producers";
    TOPIC = "主题", "Topic";
    PARTITION = "分区", "Partition";
    GROUPS = "消费者组", "Consumer groups";
    PRODUCE = "发送消息", "Produce a record";
    KEY = "键（可选）", "Key (optional)";
    VALUE = "值", "Value";
    TARGET_PARTITION = "分区", "Partition";
    AUTO = "自动", "automatic";
    SEND = "发送", "Send";
    PRODUCER = "生产者", "Producer";
    PARTITIONER = "分区器", "Partitioner";
    PARTITIONER_BUILT_IN = "默认（键哈希/粘性）", "built-in (hash/sticky)";
    PARTITIONER_ROUND_ROBIN = "RoundRobin", "RoundRobin";
    SENT = "已发送", "sent";
    ADD_MEMBER = "+ 消费者", "+ Consumer";
    ADD_MEMBER_HINT = "一个新的消费者加入该组（触发重平衡）", "A new consumer joins this group (starts a rebalance)";
    REMOVE_MEMBER_HINT = "关闭这个消费者：提交偏移量并离开组", "Close this consumer: it commits and leaves the group";
    ADD_GROUP = "+ 新消费者组", "+ New consumer group";
    GROUP_ID = "组 ID", "Group id";
    RESET_POLICY = "auto.offset.reset", "auto.offset.reset";
    CREATE = "创建", "Create";
    ASSIGNOR = "分配策略", "Assignor";
    LEADER = "组长", "leader";
    IDLE = "空闲：没有分配到分区", "idle: no partition assigned";
    NOTHING_YET = "尚未收到消息", "nothing received yet";
    RECEIVED = "已收到", "received";
    COMMITTED = "已提交偏移量", "committed offsets";
    NONE = "无", "none";
    HW = "高水位", "HW";
    LEO = "日志末端", "LEO";
    EMPTY_LOG = "（空）", "(empty)";
    EVENT_LOG = "事件日志", "Event log";
    IN_FLIGHT = "网络中", "on the wire";
    DISMISS = "关闭", "Dismiss";
    SCENARIO_JSON = "场景 JSON（可编辑）", "Scenario JSON (editable)";
    LOAD = "加载", "Load";
    WHY = "分区原因", "why this partition";
    ACK_PENDING = "等待确认", "awaiting ack";
    LEGEND_COMMITTED = "已提交（低于高水位，消费者可见）", "committed (below the HW, visible to consumers)";
    ACTIVITY_WAITING = "等待分配", "awaiting assignment";
    ACTIVITY_FETCHING = "拉取中", "fetching";
    ACTIVITY_PROCESSING = "处理中", "processing";
    ACTIVITY_IDLE = "空闲", "idle";
    STATE_EMPTY = "Empty（空）", "Empty";
    STATE_PREPARING = "PreparingRebalance（准备重平衡）", "PreparingRebalance";
    STATE_STABLE = "Stable（稳定）", "Stable";
    STATE_COMPLETING = "CompletingRebalance（完成重平衡）", "CompletingRebalance";
    STATE_RECONCILING = "Reconciling（协调中）", "Reconciling";
    ADD_STATIC = "+ 静态消费者", "+ Static consumer";
    ADD_STATIC_HINT = "加入一个带 group.instance.id 的静态成员（KIP-345）：正常关闭时不发送 LeaveGroup，在会话超时前重启可直接取回原来的分区", "Add a static member with a group.instance.id (KIP-345): its close sends no LeaveGroup, and a restart within its session gets its partitions back";
    SEEK = "seek…", "seek…";
    SEEK_HINT = "应用调用 seek()：seekToBeginning 回到日志开头重新处理（产生重复），seekToEnd 跳到高水位（跳过未读的消息）", "The application calls seek(): seekToBeginning goes back to the log start and processes again (duplicates), seekToEnd jumps to the high watermark (skipping what was not read)";
    BACK = "⟲ 后退", "⟲ Back";
    BACK_HINT = "回到上一个看到的时刻（从检查点确定性重放）；快捷键 ←", "Back to the previous moment you saw (replayed deterministically from a checkpoint); key ←";
    SCRUB = "时间轴", "Timeline";
    SCRUB_HINT = "拖动到这次运行的任意一步；后退后继续播放会重演同样的未来，直到你做了新的操作", "Drag to any step of this run; after going back, playing replays the same future until you do something new";
    JUMP_REBALANCE = "重平衡", "rebalance";
    JUMP_FAULT = "故障", "fault";
    JUMP_FINDING = "发现", "finding";
    JUMP_PREV = "跳到上一个", "Jump to the previous";
    JUMP_NEXT = "跳到下一个", "Jump to the next";
    SHARE = "分享", "Share";
    SHARE_HINT = "生成一个链接：场景、你做过的操作和当前这一步都在链接里，打开它会看到完全相同的状态", "Make a link holding the scenario, what you did and the current step: opening it shows exactly this state";
    SHARE_LINK = "分享链接（复制）", "Share link (copy it)";
    SAVE_FILE = "保存文件", "Save file";
    SAVE_FILE_HINT = "把这次运行保存为 JSON 文件（场景、操作、当前步）", "Save this run as a JSON file (scenario, commands, current step)";
    OPEN_FILE = "打开文件", "Open file";
    OPEN_FILE_HINT = "打开保存的运行或场景 JSON 文件", "Open a saved run or a scenario JSON file";
    FILTER_KIND = "类别", "Kind";
    FILTER_ENTITY = "包含", "Mentions";
    FILTER_ENTITY_HINT = "如 Consumer1、Topic01、m3", "e.g. Consumer1, Topic01, m3";
    NO_EVENTS = "没有符合筛选条件的事件", "No event matches the filter";
    EVENT_GO_HINT = "回到这个事件刚发生之后的时刻，并高亮相关的成员和 broker", "Go to the moment just after this event and highlight who it involves";
    CAT_ALL = "全部", "All";
    CAT_PRODUCE = "生产", "Produce";
    CAT_REPLICATION = "复制", "Replication";
    CAT_GROUP = "消费者组协议", "Group protocol";
    CAT_CONSUME = "消费与提交", "Consume and commit";
    CAT_FAULT = "故障", "Faults";
    CAT_SETTINGS = "设置与命令", "Settings and commands";
    ACK_CHIP = "确认", "ack";
    ACK_CHIP_HINT = "Produce 响应：这批消息在 leader 日志中的偏移量", "The Produce response: the records' offsets in the leader's log";
    RECORD_PATH = "消息的路径", "The record's path";
    RECORD_PATH_HINT = "点击任意消息查看它的完整路径", "Click any record to see its whole path";
    RECORD_PATH_PARTIAL = "事件日志只保留最近的事件：这条消息更早的步骤已不在其中", "The trace keeps only the newest events: this record's earliest steps are no longer in it";
    CLOSE = "关闭", "Close";
    CHARTS = "图表", "Charts";
    CHART_LAG = "消费延迟（高水位 − 已提交偏移量）", "Consumer lag (HW − committed offset)";
    CHART_THROUGHPUT = "每秒消息数", "Records per second";
    CHART_STOPPED = "无法消费的成员", "Members that cannot consume";
    CHART_WAIT = "运行一会儿后这里会出现图表", "Charts appear once the run has gone on for a moment";
    TOTAL = "合计", "total";
    APPS = "Kafka Connect 与 Kafka Streams", "Kafka Connect and Kafka Streams";
    SOURCE_CONNECTOR = "源连接器", "source connector";
    STREAMS_APP = "Streams 应用", "Streams application";
    MODIFIED = "修改时间", "modified";
    TASK_POSITION = "任务位置", "task position";
    FLUSHED_OFFSET = "已刷写的源偏移量", "flushed source offset";
    FLUSHED_HINT = "写入偏移量存储的源偏移量：重启的任务从它之后继续（offset.flush.interval.ms）", "The source offset written to the offsets store: a restarted task resumes after it (offset.flush.interval.ms)";
    UNFLUSHED = "未刷写就已发送", "sent but not flushed";
    CONNECTOR_CRASH_HINT = "让连接器任务崩溃：上次刷写之后发送的行会被新任务再发一次", "Crash the connector's task: rows sent since the last flush will be sent again by the next task";
    INSTANCES = "实例", "instances";
    CHANGELOG = "变更日志", "changelog";
    TASK = "任务", "task";
    HELD_BY = "所在实例", "held by";
    COUNTS = "计数", "counts";
    PUSH_BADGE = "推送（不是 Kafka，教学演示）", "push (not Kafka — a teaching device)";
    PUSH_HINT = "broker 不等消费者请求就把新提交的消息推过去；消费者处理不完就在内存里堆积，超过上限就崩溃。Kafka 用的是拉取：消费者准备好了才拉，积压留在日志里", "The broker sends every newly committed record without waiting to be asked; what the consumer cannot process piles up in its memory, and past the limit it crashes. Kafka pulls: the consumer fetches when ready and the backlog stays in the log";
    BUFFERED = "缓冲", "buffered";
    LESSONS = "课程", "Lessons";
    LESSONS_LOADING = "正在载入课程…", "Loading the lessons…";
    LESSONS_HINT = "一步一步的课程：先预测，再由模拟揭晓答案", "Step-by-step lessons: predict, then the simulation reveals the answer";
    LESSON = "课程", "Lesson";
    LESSON_CLOSE = "退出课程", "Leave the lesson";
    LESSON_NEXT = "下一步 →", "Next step →";
    LESSON_PREDICT = "先预测：", "Predict first:";
    LESSON_PREDICT_FIRST = "先选一个答案", "Pick an answer first";
    LESSON_RIGHT = "✓ 预测正确：模拟的结果正是如此。", "✓ Right: the simulation did exactly that.";
    LESSON_WRONG = "✗ 模拟给出的答案是：", "✗ Not this time — the simulation says: ";
    LESSON_ANSWER = "模拟的答案：", "The simulation's answer: ";
    LESSON_FREE_PLAY = "自由练习：", "Free play:";
    LESSON_DONE = "✓ 已完成", "✓ done";
    LESSON_ERROR = "课程无法继续：", "The lesson cannot go on: ";
    MOTION_FULL = "◎ 动画", "◎ Motion";
    MOTION_REDUCED = "◌ 减少动画", "◌ Less motion";
    MOTION_HINT = "减少动画：同样的信息，没有滑动和闪烁（网络中的消息显示进度百分比）；系统的“减少动态效果”设置同样生效", "Reduced motion: the same information without sliding or flashing (messages on the wire show their progress as a percentage); the system's reduced-motion setting applies too";
    PARTITION_MAP = "分区一览", "Partition map";
    PARTITION_MAP_HINT = "每格一个分区：消息越多颜色越深；虚线框 = 同步副本不足；红色 = 离线。点击跳到该分区", "One cell per partition: darker = more records; dashed = under-replicated; red = offline. Click one to go to its row";
    PRODUCED = "生产", "produced";
    CONSUMED = "消费", "consumed";
    STOPPED = "停止", "stopped";
    KEYS_TITLE = "键盘操作", "Keyboard";
    KEY_PLAY = "播放 / 暂停", "Play / pause";
    KEY_TAB = "在所有控件之间移动（按钮、选择框、消息）", "Move between every control (buttons, selects, records)";
    KEY_ENTER = "按下当前控件；在消息上打开它的路径", "Press the focused control; on a record, open its path";
    KEY_HELP = "显示或隐藏这个帮助", "Show or hide this help";
    KEY_ESC = "关闭帮助、消息路径和提示", "Close the help, a record's path and the notice";
    SEQUENCE = "时序图", "Sequence diagram";
    SEQ_HINT = "最近 2 秒（或所选事件前后）的请求与响应：Produce、确认、follower 和消费者的 Fetch、JoinGroup、SyncGroup、心跳、OffsetCommit", "Requests and answers of the last 2 s (or around the selected event): Produce, acks, follower and consumer Fetch, JoinGroup, SyncGroup, heartbeats, OffsetCommit";
    SEQ_EMPTY = "这段时间里没有消息", "No messages in this window";
    FORK = "⇉ 分叉", "⇉ Fork";
    FORK_HINT = "在此刻复制这次运行：副本不做任何改变继续运行，你在原运行中改变设置、制造故障，然后并排比较结果", "Copy the run at this moment: the copy goes on unchanged while you change settings or cause faults in the run, then compare the two side by side";
    FORK_TITLE = "分叉比较", "Fork comparison";
    FORK_CLOSE = "关闭分叉", "Close fork";
    FORK_THIS = "这次运行（你的改变）", "This run (your changes)";
    FORK_COPY = "分叉（不变）", "Fork (unchanged)";
    OUT_ACKED_LOST = "已确认却丢失的消息", "acknowledged records lost";
    OUT_RECORDS_LOST = "leader 变更中丢失的消息", "records lost in leader changes";
    OUT_DUPLICATES = "重复处理", "processed twice";
    OUT_UNPROCESSED = "已提交但未处理", "committed but never processed";
    OUT_PAUSE = "因重平衡停止消费的时长", "time unable to consume (rebalances)";
    OUT_LAG = "消费延迟合计", "consumer lag, total";
    OUT_DELIVERED = "交给消费者的消息", "records delivered to consumers";
    OUT_ACKED = "已确认的消息", "records acknowledged";
    THEME_HINT = "配色：跟随系统 → 浅色 → 深色", "Colours: follow the system → light → dark";
    COMPARE_TITLE = "对比：eager、cooperative 与 KIP-848", "Compare: eager, cooperative and KIP-848";
    COMPARE_HINT = "用同一个种子把当前场景运行三次：组分别使用 eager range、cooperative-sticky（KIP-429）和 group.protocol=consumer（KIP-848，uniform），在当前时刻做同一个成员变化，比较谁停止消费、停了多久。", "Runs the current scenario three times with the same seed — the group under eager range, cooperative-sticky (KIP-429) and group.protocol=consumer (KIP-848, uniform) — makes the same membership change now, and compares who stops consuming and for how long.";
    COMPARE_RUN = "对比", "Compare";
    COMPARE_CLOSE = "关闭对比", "Close comparison";
    COMPARE_CHANGE = "变化", "Change";
    VARIANT_EAGER = "eager（急切，range）", "eager (range)";
    VARIANT_COOPERATIVE = "cooperative（协作，cooperative-sticky）", "cooperative (cooperative-sticky)";
    VARIANT_CONSUMER = "consumer（新协议 KIP-848，uniform）", "consumer (KIP-848, uniform)";
    METRIC_STOPPED = "完全停止消费的成员", "members that stopped consuming";
    METRIC_REVOKED = "交出的分区", "partitions given up";
    METRIC_DOWNTIME = "分区无人消费的总时长", "partition time without a consumer";
    METRIC_SETTLED = "到达最终分配用时", "until the final assignment";
    METRIC_ROUNDS = "全组轮次（代 / 组纪元）", "group-wide rounds (generations / epochs)";
    METRIC_DUP_LOST = "重复 / 丢失", "duplicates / lost";
    COMPARE_LANES = "每个成员正在消费的分区数（红 = 0）", "partitions each member consumes over time (red = none)";
    COMPARE_NOTE = "eager：所有人短暂停止（屏障），但交接快；cooperative：只移动要换主的分区，但需要第二轮重平衡；KIP-848：没有屏障、没人停止，被移动的分区在成员下一次心跳（group.consumer.heartbeat.interval.ms = 5 s）时交接。", "eager: everyone stops briefly (the barrier) but the hand-over is quick; cooperative: only moving partitions change hands, in a second rebalance; KIP-848: no barrier and nobody stops, moving partitions change hands at the members' next heartbeats (group.consumer.heartbeat.interval.ms = 5 s).";
    NOT_SETTLED = "窗口内未稳定", "not within the window";
    SESSION_LEFT = "会话剩余", "session left";
    SESSION_LEFT_HINT = "协调者在这个时刻前收不到心跳就移除该成员（每次心跳都会续期；崩溃的成员不再续期）", "The coordinator removes the member if no heartbeat arrives by then (each heartbeat renews it; a crashed member's does not)";
    POLL_LEFT = "poll 期限", "poll deadline";
    POLL_LEFT_HINT = "应用在 poll() 之外（处理中或卡住）：超过 max.poll.interval.ms 不调用 poll()，心跳线程就让它离开组", "The application is outside poll() (processing or stuck): without a poll() within max.poll.interval.ms the heartbeat thread makes it leave the group";
    PAUSED_NOW = "已停止消费", "not consuming for";
    DUP_LIST = "重复处理的消息及原因", "Records processed twice, and why";
    LOST_LIST = "丢失的消息及原因", "Records lost, and why";
    TARGET = "目标", "target";
    STATE_RECONCILING_WHY = "KIP-848：有新的目标分配，部分成员还没到达；其余成员照常消费，没有全组屏障", "KIP-848: a new target assignment exists and some members have not reached it; the others keep consuming, there is no group-wide barrier";
    PROTOCOL_CONSUMER = "consumer（新协议 KIP-848）", "consumer (KIP-848)";
    PROTOCOL_CONSUMER_HINT = "group.protocol=consumer（Kafka 4.0 GA）：只有一个 ConsumerGroupHeartbeat 请求；broker 用自己的分配策略计算目标分配，每个成员通过心跳各自走向目标：先交出要让出的分区，再领取已被释放的分区", "group.protocol=consumer (GA in Kafka 4.0): a single ConsumerGroupHeartbeat RPC; the broker computes the target assignment with its own assignor and each member moves towards it through its heartbeats — first giving up what moves, then taking partitions once released";
    RECONCILE_STABLE = "已到达目标", "at target";
    RECONCILE_UNREVOKED = "待交出分区", "revoking";
    RECONCILE_UNRELEASED = "等待释放", "awaiting release";
    RECONCILE_HINT = "协调者眼中的成员状态（CurrentAssignmentBuilder）：待交出 = 它要先放弃某些分区，纪元不变；等待释放 = 它已进入新纪元，但有些目标分区仍被别人持有", "The member as the coordinator sees it (CurrentAssignmentBuilder): revoking = it must first give some partitions up, its epoch waits; awaiting release = it has the new epoch but some target partitions are still held by others";
    GROUP_EPOCH = "纪元", "epoch";
    EPOCH_HINT = "组纪元（group epoch）随每次成员变化增加；成员纪元（member epoch）是它已到达的目标分配的纪元", "The group epoch goes up with every membership change; a member's epoch is that of the target assignment it has reached";
    STATE_EMPTY_WHY = "组里没有成员；已提交的偏移量仍然保留", "No members; the committed offsets are kept";
    STATE_PREPARING_WHY = "有成员加入、离开或设置改变：协调者等待每个成员重新发送 JoinGroup（其他成员从下一次心跳得知）", "A member joined, left or changed: the coordinator waits for every member to send JoinGroup again (the others learn it from their next heartbeat)";
    STATE_COMPLETING_WHY = "所有成员都已加入：协调者等待 leader 在 SyncGroup 中送来分配方案", "Everyone has joined: the coordinator waits for the leader's SyncGroup with the assignment";
    STATE_STABLE_WHY = "分配方案已送出：每个成员消费自己的分区并定期发送心跳", "The assignment is out: each member consumes its partitions and heartbeats";
    COORDINATOR_NONE = "无协调者", "no coordinator";
    COORDINATOR_HINT = "协调者是 __consumer_offsets 中由 group.id 哈希选出的分区的 leader：它主持重平衡并保存提交的偏移量", "The coordinator is the leader of the __consumer_offsets partition picked by hashing group.id: it runs the rebalances and stores the commits";
    COORDINATOR_NONE_HINT = "这个组的 __consumer_offsets 分区没有可达的 leader：成员无法加入、心跳或提交，只能不断重试 FindCoordinator", "This group's __consumer_offsets partition has no reachable leader: members cannot join, heartbeat or commit, and keep retrying FindCoordinator";
    PROTOCOL = "协议", "protocol";
    PROTOCOL_EAGER_HINT = "eager（急切）：重平衡前每个成员放弃全部分区，期间没有人消费", "eager: every member gives up all its partitions before rejoining, so nobody consumes during the rebalance";
    PROTOCOL_COOPERATIVE_HINT = "cooperative（协作，KIP-429）：成员保留自己的分区，只有要移动的分区被撤销，并在第二次重平衡中交出", "cooperative (KIP-429): members keep their partitions; only partitions that move are revoked, and a second rebalance hands them over";
    ASSIGNOR_HINT = "partition.assignment.strategy：修改后组会重平衡。sticky 与 cooperative-sticky 可能尚未启用（会提示原因）", "partition.assignment.strategy: changing it rebalances the group. sticky and cooperative-sticky may not be enabled yet (you will be told why)";
    REBALANCES = "重平衡次数", "rebalances";
    DUPLICATES = "重复处理（duplicates）", "processed twice (duplicates)";
    DUPLICATES_HINT = "提交落后于处理时，成员崩溃或重平衡移走了分区：新的拥有者从较早的已提交偏移量重新处理", "commits lagged behind processing when a member crashed or a rebalance moved partitions: the next owner starts again from the older committed offset";
    UNPROCESSED_COUNT = "已提交但从未处理", "committed but never processed";
    UNPROCESSED_COUNT_HINT = "处理前就提交了偏移量（至多一次），成员又在一批消息处理到一半时崩溃；正在处理的消息在处理完之前也计入", "committed before processing (at-most-once), then the member crashed mid-batch; records still being processed also count until they are done";
    PHASE_JOINING = "加入中", "joining";
    PHASE_SYNCING = "同步中", "syncing";
    PHASE_STABLE = "稳定", "stable";
    PHASE_LEFT = "已离开：超过 max.poll.interval", "left: max.poll.interval exceeded";
    PHASE_CRASHED = "已崩溃", "crashed";
    PHASE_JOINING_HINT = "已发送 JoinGroup，等待加入阶段结束", "JoinGroup sent; waiting for the join phase to end";
    PHASE_SYNCING_HINT = "已发送 SyncGroup，等待分配结果；收到后用 OffsetFetch 取回已提交的偏移量", "SyncGroup sent; waiting for the assignment, then fetching the committed offsets (OffsetFetch)";
    PHASE_STABLE_HINT = "在当前这一代中消费自己的分区", "Consuming its partitions in the current generation";
    PHASE_LEFT_HINT = "超过 max.poll.interval.ms 没有调用 poll()：动态成员的心跳线程发送了 LeaveGroup（KIP-62；KIP-848 为纪元 -1）；静态成员不发 LeaveGroup（KIP-848 为纪元 -2），位置保留到会话超时。下次 poll() 时重新加入，之后的提交会失败", "No poll() for max.poll.interval.ms: a dynamic member's heartbeat thread sent LeaveGroup (KIP-62; epoch -1 under KIP-848); a static member sends none (epoch -2 under KIP-848) and keeps its place until its session times out. It rejoins at its next poll(), and its commits fail until then";
    PHASE_CRASHED_HINT = "进程已经不在：不发心跳，也不发 LeaveGroup", "The process is gone: no heartbeats, no LeaveGroup";
    STUCK = "卡住：不调用 poll()", "stuck: not calling poll()";
    CRASHED_STILL_MEMBER = "协调者仍把它算作成员，直到 session.timeout.ms 内没有心跳", "the coordinator still counts it as a member until session.timeout.ms passes without a heartbeat";
    NO_MEMBER_ID = "还没有 member id（不在组中）", "no member id (not in the group)";
    PROCESSED = "已处理", "processed";
    REBALANCE_STOPPED = "因重平衡停止消费", "stopped by rebalances";
    REBALANCE_STOPPED_HINT = "这个成员因为重平衡而不能消费的总时间", "Total time this member could not consume because of rebalances";
    MEMBER_CRASH_HINT = "进程立即停止：不发 LeaveGroup、不提交；协调者在 session.timeout.ms 之后才把它移出组", "The process stops at once: no LeaveGroup, no commit; the coordinator removes it only after session.timeout.ms";
    MEMBER_RESTART_HINT = "用同一个 client.id 重新启动，作为新成员加入（静态成员在会话超时前回来则接替原位）", "Start again with the same client.id and join as a new member (a static member back within its session takes its old place)";
    PAUSE_MEMBER = "卡住", "Get stuck";
    RESUME_MEMBER = "恢复调用 poll()", "Poll again";
    PAUSE_MEMBER_HINT = "应用卡住，不再调用 poll()：心跳照常，超过 max.poll.interval.ms 后离开组", "The application gets stuck and stops calling poll(): heartbeats go on, and after max.poll.interval.ms it leaves the group";
    PROCESSING_TIME = "处理", "processing";
    PROCESSING_HINT = "应用处理每条消息所用的时间（沙盒设定）", "Time the application spends on each record (sandbox setting)";
    COMMIT_MODE = "提交", "commit";
    COMMIT_MODE_HINT = "何时提交偏移量：自动（poll() 中每隔 auto.commit.interval.ms，以及重平衡前和关闭时）；处理后同步/异步提交（至少一次）；处理前提交（至多一次）", "When offsets are committed: auto (inside poll() every auto.commit.interval.ms, before a rebalance and on close); sync or async after processing (at-least-once); before processing (at-most-once)";
    COMMIT_AUTO = "自动", "auto";
    COMMIT_SYNC_AFTER = "处理后同步提交", "sync after processing";
    COMMIT_ASYNC_AFTER = "处理后异步提交", "async after processing";
    COMMIT_BEFORE = "处理前提交", "before processing";
    GROUP_STATE = "组状态", "group state";
    TIMELINE = "重平衡时间线", "Rebalance timeline";
    TIMELINE_EMPTY = "还没有协议事件", "no protocol events yet";
    STEP_GROUP = "⇥ 下一个组事件", "⇥ Next group event";
    STEP_GROUP_HINT = "暂停，并一直执行到这个组的协议发生下一件事（跳过生产和拉取）", "Pause and run until this group's protocol does its next thing (skipping produce and fetch traffic)";
    SC_TWO_GROUPS = "两个消费者组读同一主题", "Two groups read one topic";
    SC_ONE = "一个消费者读全部分区", "One consumer reads every partition";
    SC_TWO = "两个消费者分担分区", "Two consumers share the partitions";
    SC_FIVE = "消费者多于分区", "More consumers than partitions";
    SC_KIP848 = "KIP-848：第三个消费者加入（新的消费者组协议）", "KIP-848: a third consumer joins (the new group protocol)";
    LOADED = "已加载场景", "Scenario loaded";
    INVALID_SCENARIO = "场景无效，当前工作未改变：", "The scenario is not valid; your current work is unchanged: ";
    REFUSED = "操作被拒绝：", "Refused: ";
    GROUP_CREATED_NOTE = "新组从 auto.offset.reset 指定的位置开始读", "A new group starts where auto.offset.reset says";
    BROKERS = "Broker 与副本", "Brokers and replicas";
    KAFKA_VERSION_HINT = "本次运行所模拟的 Kafka 版本：在 4.x 中行为有变化之处（合格领导者副本 KIP-966、KIP-848 消费者在 poll() 中才协调），按这个版本来；在编辑器的「集群」中可以更改", "The Kafka release this run models: where behaviour changed within 4.x (eligible leader replicas, KIP-966; the KIP-848 consumer reconciling only inside poll()), it follows this release; change it in the editor's cluster section";
    FIDELITY_TITLE = "与真实 Kafka 的不同之处", "Where this differs from real Kafka";
    FIDELITY_CONTROLLER = "控制器从不故障，它的决定立即到达每个 broker 和客户端（元数据没有延迟）；OffsetsForLeaderEpoch 折叠进副本与消费者的下一次拉取", "The controller never fails and its decisions reach every broker and client at once (no metadata delay); OffsetsForLeaderEpoch is folded into the followers' and consumers' next fetch";
    FIDELITY_OFFSETS_TOPIC = "__consumer_offsets 的领导者与 Kafka 一样选举，协调者跟随它；提交写成压缩主题里的消息，但每个同步副本立刻都有，新协调者加载是瞬间的", "__consumer_offsets partitions are led and elected as in Kafka and the coordinator follows their leader; commits are records of a compacted topic, but every in-sync replica has them at once and a new coordinator loads them instantly";
    FIDELITY_GROUP_SETTINGS = "分配策略、auto.offset.reset 和协议按消费者组设置，而不是按每个消费者；经典协议的分配策略投票没有模拟", "The assignor, auto.offset.reset and the protocol are set per group, not per consumer; the classic protocol's assignor vote is not modelled";
    FIDELITY_DEVICES = "processing_ms（每条消息的处理时间）代替应用的工作；推送投递不是 Kafka，只是教学演示", "processing_ms (time per record) stands in for the application's work; push delivery is not Kafka, a teaching device";
    FIDELITY_KNOWN = "已知差别：幂等生产者在不干净选举丢失消息后一直重试 OUT_OF_ORDER_SEQUENCE_NUMBER，而 Kafka 会提升纪元、重置序号（KIP-360）", "Known difference: after an unclean election lost some of its records, an idempotent producer retries OUT_OF_ORDER_SEQUENCE_NUMBER, where Kafka bumps its epoch and resets the sequence numbers (KIP-360)";
    FIDELITY_MORE = "完整清单（每条规则、Kafka 的类与版本、对应测试）见仓库文档目录中的 fidelity.md", "The full list (each rule with Kafka's class and release, and the test that pins it) is docs/fidelity.md in the repository";
    BROKERS_HINT = "每一列是一个 broker，卡片是它保存的分区副本：★ leader 接收写入并服务消费者，follower 从 leader 复制", "Each column is a broker and the partition replicas it holds: the ★ leader takes writes and serves consumers, followers copy from it";
    BROKER = "Broker", "Broker";
    ROLE_LEADER = "★ leader", "★ leader";
    ROLE_FOLLOWER = "follower（跟随者）", "follower";
    ROLE_OFFLINE = "副本（分区下线）", "replica (partition offline)";
    IN_ISR = "在 ISR 中", "in ISR";
    OUT_OF_ISR = "不在 ISR 中", "out of ISR";
    IN_ISR_HINT = "ISR（同步副本集）：跟上 leader 的副本；高水位是它们都有的位置", "ISR (in-sync replicas): the replicas keeping up with the leader; the high watermark is what all of them have";
    BROKER_RUNNING = "运行中", "running";
    BROKER_CRASHED = "已崩溃", "crashed";
    BROKER_CUT_OFF = "网络断开", "cut off";
    BROKER_FENCED = "被控制器隔离（fenced）", "fenced by the controller";
    BROKER_FENCED_HINT = "控制器在 broker.session.timeout.ms 内没有收到心跳：它不再领导任何分区，也不在任何 ISR 中", "The controller has not heard from it within broker.session.timeout.ms: it leads nothing and is in no ISR";
    CRASH = "崩溃", "Crash";
    CRASH_HINT = "进程立即停止；日志留在磁盘上。控制器在 broker.session.timeout.ms 之后才发现", "The process stops at once; its logs stay on disk. The controller notices after broker.session.timeout.ms";
    RESTART = "重启", "Restart";
    RESTART_HINT = "重新启动并向控制器注册；它的副本会截断不一致的消息并追上 leader", "Start again and register with the controller; its replicas truncate what diverged and catch up";
    CUT_OFF = "断开网络", "Cut off";
    CUT_OFF_HINT = "进程仍在运行，但与其他 broker、控制器和客户端都断开", "The process keeps running but nothing reaches it: not the other brokers, the controller or clients";
    RECONNECT = "恢复网络", "Reconnect";
    RECONNECT_HINT = "重新连上网络，向控制器注册", "Back on the network; it registers with the controller";
    SLOW_NORMAL = "恢复正常速度", "Normal speed";
    SLOW_HINT = "让这个 broker 作为 follower 的复制拉取变慢：它会落后于 leader", "Make this broker's follower fetches slower: it falls behind the leader";
    NO_REPLICA = "无副本", "no replica";
    MORE_PARTITIONS = "更多分区未显示：", "more partitions not shown: ";
    EARLIER_RECORDS = "更早的消息", "earlier records";
    PARTITION_LEADER = "leader", "leader";
    EPOCH = "纪元", "epoch";
    OFFSET = "偏移量", "offset";
    KEY_WORD = "键", "key";
    OFFLINE = "下线：没有 leader", "offline: no leader";
    OFFLINE_HINT = "ISR 中没有可用的副本；生产和消费都在等待（除非开启 unclean.leader.election.enable）", "No replica of the ISR is available; producing and consuming wait (unless unclean.leader.election.enable is on)";
    REPLICATION_FACTOR = "副本数（RF）", "Replication factor";
    RF_HINT = "副本数在创建主题时确定：修改它会用新的副本数从头重新运行场景（页面上的操作会清除）", "Fixed when a topic is created: changing it runs the scenario again from the start with the new replication factor (what you did on the page is cleared)";
    MIN_ISR_HINT = "acks=all 时，ISR 少于这个数的写入会被拒绝（NOT_ENOUGH_REPLICAS），高水位也停止前进", "With acks=all, writes are refused while the ISR is smaller than this (NOT_ENOUGH_REPLICAS), and the high watermark stops";
    UNCLEAN_HINT = "允许不在 ISR 中的副本当选 leader：分区更快恢复，但已提交的消息可能丢失", "Lets an out-of-sync replica become leader: the partition comes back sooner, but committed records may be lost";
    ACKS_HINT = "0：不等待；1：leader 写入即确认；all：ISR 中每个副本都有了才确认", "0: no wait; 1: once the leader has it; all: once every in-sync replica has it";
    ACKED = "已确认", "acknowledged";
    PENDING = "等待确认", "pending";
    FAILED = "失败", "failed";
    IN_BATCH = "在批次中", "in batches";
    IDEMPOTENT = "幂等", "idempotent";
    LOST_ROW = "丢失：", "lost:";
    LOST_ACKED = "生产者已收到确认，但消息已经不在新 leader 的日志中", "the producer was acknowledged, yet the record is not in the new leader's log";
    LOST_GIVEN_UP = "生产者放弃了这条消息：", "the producer gave this record up: ";
    LOST_RETRYING = "随 leader 切换被删除；生产者还没收到确认，会重试", "removed by the leader change; the producer has no acknowledgement yet and retries it";
    LOST_REWRITTEN = "生产者重试后重新写入，偏移量 ", "written again after the producer's retry, at offset ";
    LOST_UNKNOWN = "不在新 leader 的日志中", "not in the new leader's log";
    LEGEND_UNCOMMITTED = "虚线：未提交（在高水位之上，消费者看不到）", "dashed: not yet committed (at or above the HW, invisible to consumers)";
    LEGEND_LOST = "删除线：丢失（leader 切换后不在新 leader 的日志中）", "struck through: lost (not in the new leader's log after a leader change)";
    LEGEND_DROPPED = "灰色删除线：被删除但生产者会重试", "grey strike: dropped, but the producer retries it";
    LEGEND_ELR = "ELR 标记：合格领导者副本（KIP-966，Kafka 4.1+）——在 ISR 低于 min.insync.replicas 时离开 ISR，因此拥有全部已提交消息；ISR 为空时控制器从中选出 leader", "ELR tag: an eligible leader replica (KIP-966, Kafka 4.1+) — it left the ISR while the ISR was below min.insync.replicas, so it holds every committed record; with the ISR empty the controller elects from these";
    IN_ELR = "ELR", "ELR";
    IN_ELR_HINT = "合格领导者副本（KIP-966）：不在 ISR 中，但拥有全部已提交消息；ISR 为空时可被选为 leader。崩溃后重新注册的 broker 会离开 ELR（KAFKA-15586）", "Eligible leader replica (KIP-966): out of the ISR but holding every committed record; it may be elected when the ISR is empty. A broker back from a crash leaves the ELR (KAFKA-15586)";
    SHUTDOWN = "停机", "Shut down";
    SHUTDOWN_HINT = "受控停机：broker 请控制器立即把它的 leader 身份转走并把它移出所有 ISR（纪元 +1），然后才停止；生产者收到 NOT_LEADER_OR_FOLLOWER 后重发，没有 broker.session.timeout.ms 的不可用期", "Controlled shutdown: the broker asks the controller to move its leaderships and take it out of every ISR at once (epoch + 1), then stops; producers get NOT_LEADER_OR_FOLLOWER and resend, with no broker.session.timeout.ms outage";
    BROKER_SHUT_DOWN = "已停机", "shut down";
    ED_OFFSETS_RF_HINT = "__consumer_offsets 每个分区的副本数，它们的 leader 就是组协调者；有消费者组时不能超过 broker 数量（单 broker 时设为 1，就像 Kafka 的 config/server.properties）", "Replicas of each __consumer_offsets partition, whose leaders are the group coordinators; with groups it may not exceed the brokers (set it to 1 for one broker, as Kafka's config/server.properties does)";
    ED_AUTO_REBALANCE_HINT = "分区由非首选副本领导时，控制器在 leader.imbalance.check.interval.seconds 之后把 leader 交还首选副本（replicas[0]）", "When a partition is led by another replica than its preferred one, the controller gives leadership back to replicas[0] leader.imbalance.check.interval.seconds later";
    LEGEND_OUT_OF_ISR = "虚线框：不在 ISR 中的副本", "dashed card: a replica out of the ISR";
    COPYING = "复制中", "copying";
    GUARANTEES = "保证", "Guarantees";
    GUARANTEES_HINT = "监视器独立检查 Kafka 的保证：acks=all 且没有不干净选举时，已确认的消息不会丢失", "Monitors check Kafka's guarantees independently: with acks=all and no unclean election, an acknowledged record is never lost";
    GUARANTEES_NONE = "目前没有发现", "Nothing found so far";
    SEV_BROKEN = "违反保证", "promise broken";
    SEV_WARNING = "这些设置允许", "allowed by these settings";
    // The scenario editor (panels/editor.rs). Kafka's setting names stay as they are.
    EDIT_SCENARIO = "✎ 编辑场景", "✎ Edit scenario";
    EDIT_SCENARIO_HINT = "在表单中修改当前场景：broker、主题、分区、副本数、生产者、消费者组、成员及其设置，不用写 JSON", "Change the current scenario in a form — brokers, topics, partitions, replication, producers, consumer groups, members and their settings — without touching JSON";
    ED_TITLE = "编辑场景", "Edit the scenario";
    ED_INTRO = "从当前场景开始。“应用”会像加载 JSON 一样检查它，然后从头运行；有错误时运行和表单都保持不变。", "Starts from the current scenario. Apply checks it exactly as loading its JSON does and runs it from the start; if something is wrong, neither the run nor the form changes.";
    ED_APPLY = "应用", "Apply";
    ED_APPLY_HINT = "检查并从头运行这个场景", "Check this scenario and run it from the start";
    ED_CANCEL = "取消", "Cancel";
    ED_CLOSE_HINT = "关闭编辑器，不做任何改变（Esc）", "Close the editor without changing anything (Esc)";
    ED_NOT_APPLIED = "未应用，请先修改：", "Not applied — fix this first: ";
    ED_LOAD_FAILED = "无法读取当前场景：", "The current scenario could not be read: ";
    ED_GENERAL = "概要", "General";
    ED_NAME = "名称", "Name";
    ED_DESCRIPTION = "说明", "Description";
    ED_SEED = "随机种子", "Seed";
    ED_SEED_HINT = "模拟唯一的随机数来源：同样的种子和操作，同样的运行", "The simulation's only source of randomness: same seed and actions, same run";
    ED_DURATION = "命令行运行时长（毫秒，可留空）", "Run length for the CLI (ms, optional)";
    ED_CLUSTER = "集群", "Cluster";
    ED_BROKERS = "broker 数量", "Brokers";
    ED_KAFKA_VERSION = "Kafka 版本", "Kafka release";
    ED_BROKERS_HINT = "broker 编号 0 到 N−1；每个主题的副本数不能超过它", "Brokers are numbered 0 to N−1; no topic may have more replicas than this";
    ED_LATENCY = "网络延迟（毫秒，沙盒设定）", "Network latency (ms, sandbox only)";
    ED_MORE = "更多设置", "More settings";
    ED_TOPICS = "主题", "Topics";
    ED_TOPIC_NAME = "主题名", "Topic name";
    ED_PARTITIONS = "分区数", "Partitions";
    ED_PARTITIONS_HINT = "1 到 256；带键的消息按 murmur2(键) % 分区数 落到分区上", "1 to 256; a keyed record goes to murmur2(key) % partitions";
    ED_RF_HINT = "每个分区的副本数：1 到 broker 数量", "Replicas per partition: 1 to the number of brokers";
    ED_MIN_ISR = "最少同步副本 min.insync.replicas", "Min in-sync replicas (min.insync.replicas)";
    ED_TOPIC_ID = "主题 ID（topic_id）", "Topic ID (topic_id)";
    TOPIC_ID = "主题 ID", "Topic ID";
    TOPIC_ID_HINT = "KIP-516 主题 ID：22 个 URL 安全的 base64 字符，uniform 分配策略按它排序主题；留空时由种子和主题名推导", "KIP-516 topic id: 22 characters of URL-safe base64, which the uniform assignor orders topics by; empty: derived from the seed and the topic name";
    ED_UNCLEAN = "允许不干净选举 unclean.leader.election.enable", "Unclean election (unclean.leader.election.enable)";
    ED_ADD_TOPIC = "+ 主题", "+ Topic";
    ED_REMOVE = "删除", "Remove";
    ED_PRODUCER_NAME = "生产者名", "Producer name";
    ED_IDEMP_DEFAULT = "默认", "default";
    ED_IDEMP_HINT = "默认：acks=all、max.in.flight.requests.per.connection ≤ 5 且 retries > 0 时开启（Kafka 3.0 起）", "Default: on when acks=all, max.in.flight.requests.per.connection ≤ 5 and retries > 0 (since Kafka 3.0)";
    ED_ON = "开启", "on";
    ED_OFF = "关闭", "off";
    ED_BUFFER_MEMORY_HINT = "批次占用的内存池；用尽时 send() 阻塞，最多 max.block.ms", "The memory pool batches take; when it is used up send() blocks, up to max.block.ms";
    ED_LINGER_HINT = "新批次等待这么久再发送（Kafka 4.0 起默认 5）", "A new batch waits this long before it is sent (5 since Kafka 4.0)";
    ED_SENDS = "计划发送", "Planned sends";
    ED_SEND_TOPIC = "发送到主题", "To topic";
    ED_COUNT = "条数", "Records";
    ED_COUNT_HINT = "改变条数会在末尾删除值，或添加 m8、m9……", "Changing the count drops values from the end, or adds m8, m9, …";
    ED_VALUES = "值（逗号分隔）", "Values (comma-separated)";
    ED_KEYS = "键（逗号分隔，每个值一个；留空 = 无键）", "Keys (comma-separated, one per value; empty = no keys)";
    ED_KEYS_HINT = "有键的消息按键的哈希选分区（同键同分区）；无键的消息用粘性分区器或轮询；某个位置留空 = 那条消息无键", "Keyed records go to the partition of their key's hash (same key, same partition); keyless ones follow the sticky or round-robin partitioner; an empty entry = that record has no key";
    ED_START = "开始（毫秒）", "Start (ms)";
    ED_INTERVAL = "间隔（毫秒）", "Interval (ms)";
    ED_ADD_SEND = "+ 计划发送", "+ Planned send";
    ED_ADD_PRODUCER = "+ 生产者", "+ Producer";
    ED_ASSIGNOR_HINT = "classic 协议的客户端分配策略（partition.assignment.strategy）；cooperative-sticky 使用协作重平衡", "The classic protocol's client-side assignor (partition.assignment.strategy); cooperative-sticky rebalances cooperatively";
    ED_REMOTE_ASSIGNOR_HINT = "consumer 协议（KIP-848）下由 broker 计算分配所用的分配策略", "The broker-side assignor of the consumer protocol (KIP-848)";
    ED_GROUP_TOPICS = "订阅的主题", "Subscribed topics";
    ED_MEMBERS = "成员", "Members";
    ED_ADD_GROUP = "+ 消费者组", "+ Consumer group";
    ED_INSTANCE_ID = "group.instance.id（静态成员，可留空）", "group.instance.id (static member, optional)";
    ED_COMMIT_MODE = "提交方式", "Commit mode";
    ED_PROCESSING = "每条消息处理时间（毫秒）", "Processing per record (ms)";
    ED_MIN_SESSION_HINT = "classic 协议：session.timeout.ms 低于它的成员在 JoinGroup 时被拒绝（INVALID_SESSION_TIMEOUT）", "Classic protocol: a member whose session.timeout.ms is below this is refused at JoinGroup (INVALID_SESSION_TIMEOUT)";
    ED_OFFSETS_RETENTION_HINT = "组变空后（或不再订阅某主题后）已提交偏移量保留这么久（默认 7 天）", "How long committed offsets outlive an empty group (or a topic it stopped subscribing to); 7 days by default";
    ED_SESSION_HINT = "classic 协议：协调者这么久收不到心跳就移除成员", "Classic protocol: the coordinator removes a member it has not heard from for this long";
    ED_MAX_POLL_HINT = "这么久不调用 poll() 的消费者会离开组（KIP-62）；也是重平衡超时", "A consumer that does not call poll() for this long leaves the group (KIP-62); also the rebalance timeout";
    ED_MEMBER_TOPICS = "自己的订阅（都不选 = 组的主题）", "Own subscription (none ticked = the group's topics)";
    ED_CLEAR_TIMELINE = "删除时间线", "Remove the timeline";
    ED_TIMELINE = "时间线", "Timeline";
    // The editor's push delivery, source connectors and Streams applications.
    ED_DELIVERY = "投递方式（沙盒设定）", "Delivery (sandbox only)";
    ED_DELIVERY_HINT = "pull 是 Kafka 的方式：消费者准备好了才拉取，积压留在日志里。push 不是 Kafka，只是教学演示：broker 把每条新提交的消息立即推给消费者", "pull is Kafka's way: a consumer fetches when it is ready and the backlog waits in the log. push is not Kafka, a teaching device: the broker sends every newly committed record at once";
    ED_PULL = "拉取（Kafka）", "pull (Kafka)";
    ED_PUSH = "推送（不是 Kafka）", "push (not Kafka)";
    ED_PUSH_BUFFER = "推送缓冲上限（条）", "Push buffer limit (records)";
    ED_PUSH_BUFFER_HINT = "push_buffer_max_records：成员最多能缓存这么多条已收到、未处理的消息；再多一条就内存耗尽而崩溃", "push_buffer_max_records: how many received, unprocessed records a member can hold; one more and it runs out of memory and crashes";
    ED_CONNECTORS = "源连接器", "Source connectors (Kafka Connect)";
    ED_CONNECTOR_NAME = "连接器名", "Connector name";
    ED_MODE_HINT = "incrementing 只看到 id 更大的新行，看不到更新；timestamp+incrementing 也看到更新", "incrementing sees only new rows (higher ids), never updates; timestamp+incrementing sees updates too";
    ED_POLL_HINT = "任务启动时查询一次表，然后每隔这么久查询一次", "The task queries the table at its start, then every this many ms";
    ED_ROWS = "表中的行（时间 0）", "Table rows (at time 0)";
    ED_ROW_VALUE = "值", "Value";
    ED_ADD_ROW = "+ 行", "+ Row";
    ED_CHANGES = "计划的表变更", "Planned table changes";
    ED_AT = "时间（毫秒）", "At (ms)";
    ED_CHANGE_KIND = "变更", "Change";
    ED_INSERT = "插入（新 id）", "insert (new id)";
    ED_UPDATE = "更新（已有 id）", "update (existing id)";
    ED_ADD_CHANGE = "+ 表变更", "+ Table change";
    ED_ADD_CONNECTOR = "+ 源连接器", "+ Source connector";
    ED_STREAMS = "流处理应用", "Kafka Streams applications";
    ED_APP_ID_HINT = "application.id 也是它的消费者组 id（任何消费者组都不能用它）和实例名的前缀", "application.id is also its consumer group's id (no group may have it) and its instances' prefix";
    ED_SOURCE = "读取的主题", "Source topic";
    ED_SINK = "写入的主题", "Sink topic";
    ED_OP = "处理", "Operator";
    ED_OP_HINT = "过滤：filter((k, v) -> v.contains(…))；转大写：mapValues(v -> v.toUpperCase())；按键计数：groupByKey().count(Materialized.as(存储名))", "filter((k, v) -> v.contains(…)), mapValues(v -> v.toUpperCase()) or groupByKey().count(Materialized.as(store))";
    ED_OP_FILTER = "过滤：值包含…", "filter: value contains …";
    ED_OP_MAP_UPPER = "mapValues：转大写", "mapValues: upper case";
    ED_OP_COUNT = "按键计数", "count by key";
    ED_VALUE_CONTAINS = "值包含的文字", "Value contains";
    ED_STORE = "状态存储名", "State store";
    ED_STORE_HINT = "每次更新也写入变更日志主题 <application.id>-<存储名>-changelog；它也算在 16 个主题之内", "Each update also goes to the changelog topic <application.id>-<store>-changelog, which counts towards the 16 topics";
    ED_INSTANCES = "实例数", "Instances";
    ED_INSTANCES_HINT = "1 到 8 个实例，即消费者组 application.id 的成员 <application.id>-1、-2……", "1 to 8 instances: members <application.id>-1, -2, … of the group application.id";
    ED_ADD_STREAMS = "+ 流处理应用", "+ Streams application";
}

/// A short name for a produce error, the same in every language (Kafka's own).
pub fn produce_error_code(e: ProduceError) -> &'static str {
    e.name()
}

pub fn acks_text(a: Acks) -> &'static str {
    match a {
        Acks::Zero => "0",
        Acks::Leader => "1",
        Acks::All => "all",
    }
}

pub fn broker_name(lang: Lang, b: u32) -> String {
    match lang {
        Lang::Zh => format!("Broker {b}"),
        Lang::En => format!("Broker {b}"),
    }
}

pub fn slow_label(lang: Lang, ms: u64) -> String {
    match lang {
        Lang::Zh => format!("慢 +{ms} ms"),
        Lang::En => format!("slow +{ms} ms"),
    }
}

pub fn slow_button(lang: Lang, ms: u64) -> String {
    match lang {
        Lang::Zh => format!("慢 follower +{ms} ms"),
        Lang::En => format!("Slow follower +{ms} ms"),
    }
}

pub fn rf_changed(lang: Lang, topic: &str, rf: u32) -> String {
    match lang {
        Lang::Zh => format!("主题 {topic} 的副本数改为 {rf}：场景从头重新运行"),
        Lang::En => format!("Topic {topic} now has replication factor {rf}: the scenario runs again from the start"),
    }
}

pub fn lost_at(lang: Lang, ms: u64) -> String {
    match lang {
        Lang::Zh => format!("{:.1} s 时的 leader 切换", ms as f64 / 1000.0),
        Lang::En => format!("leader change at {:.1} s", ms as f64 / 1000.0),
    }
}

pub fn retrying_line(lang: Lang, e: ProduceError, since_ms: u64) -> String {
    let code = produce_error_code(e);
    let since = since_ms as f64 / 1000.0;
    match lang {
        Lang::Zh => format!("⚠ 重试中：上次请求失败 {code}（{since:.1} s）"),
        Lang::En => format!("⚠ retrying: the last request failed with {code} ({since:.1} s)"),
    }
}

pub fn findings_summary(lang: Lang, total: u64, broken: u64) -> String {
    match lang {
        Lang::Zh => format!("共 {total} 项发现，其中 {broken} 项违反了 Kafka 的保证"),
        Lang::En => format!("{total} finding(s), {broken} breaking a promise Kafka makes"),
    }
}

/// One monitor finding as a sentence.
pub fn finding_text(lang: Lang, f: &Finding) -> String {
    let zh = lang == Lang::Zh;
    let p = f.tp.partition;
    let values = f.values.join(" ");
    match &f.kind {
        FindingKind::AcknowledgedRecordLost { acks, cause } => {
            let acks = acks_text(*acks);
            let why = loss_cause(lang, *cause);
            match (zh, f.promised) {
                (true, true) => format!("分区 {p}：{values} 已用 acks={acks} 确认，却丢失了——{why}。Kafka 保证这种情况不会发生"),
                (true, false) => format!("分区 {p}：{values} 已用 acks={acks} 确认，却丢失了——{why}"),
                (false, true) => {
                    format!("Partition {p}: {values} acknowledged with acks={acks}, now gone — {why}. Kafka promises this cannot happen")
                }
                (false, false) => format!("Partition {p}: {values} acknowledged with acks={acks}, now gone — {why}"),
            }
        }
        FindingKind::OrderViolated { producer } => {
            let (first, rest) = match f.values.split_first() {
                Some((first, rest)) => (first.as_str(), rest.join(" ")),
                None => ("", String::new()),
            };
            if zh {
                format!("分区 {p}：{producer} 的 {first} 排在了它之后才发送的 {rest} 后面（重试 + max.in.flight.requests.per.connection > 1 且没有幂等）")
            } else {
                format!("Partition {p}: {producer}'s {first} landed after {rest}, which it sent later (a retry with max.in.flight.requests.per.connection > 1 and no idempotence)")
            }
        }
        FindingKind::DuplicateAppended { producer } => {
            if zh {
                format!("分区 {p}：{producer} 的 {values} 被写入了两次（没有幂等的重试）")
            } else {
                format!("Partition {p}: {producer}'s {values} was appended twice (a retry without idempotence)")
            }
        }
        FindingKind::ReadAboveHighWatermark { group, client_id } => {
            if zh {
                format!("分区 {p}：{group}/{client_id} 读到了高水位之上（未提交）的 {values}")
            } else {
                format!("Partition {p}: {group}/{client_id} read {values} at or above the high watermark (not committed)")
            }
        }
        FindingKind::TwoLeadersInOneEpoch { epoch, brokers } => {
            let list = brokers.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            if zh {
                format!("分区 {p}：Broker {list} 在同一纪元 {epoch} 中都当过 leader")
            } else {
                format!("Partition {p}: brokers {list} both acted as leader in epoch {epoch}")
            }
        }
        FindingKind::AbortedRecordRead { .. }
        | FindingKind::UndecidedRecordRead { .. }
        | FindingKind::OutputDuplicated { .. }
        | FindingKind::ReprocessedOutsideKafka { .. } => crate::i18n_txn::finding_text(lang, f),
    }
}

pub fn produce_error(lang: Lang, e: ProduceError) -> &'static str {
    use ProduceError as P;
    match (e, lang) {
        (P::NotLeaderOrFollower, Lang::Zh) => "NOT_LEADER_OR_FOLLOWER（不是 leader）",
        (P::NotLeaderOrFollower, Lang::En) => "NOT_LEADER_OR_FOLLOWER",
        (P::NotEnoughReplicas, Lang::Zh) => "NOT_ENOUGH_REPLICAS（同步副本少于 min.insync.replicas，未写入）",
        (P::NotEnoughReplicas, Lang::En) => "NOT_ENOUGH_REPLICAS (fewer in-sync replicas than min.insync.replicas; not written)",
        (P::NotEnoughReplicasAfterAppend, Lang::Zh) => "NOT_ENOUGH_REPLICAS_AFTER_APPEND（已写入 leader，重试可能重复）",
        (P::NotEnoughReplicasAfterAppend, Lang::En) => {
            "NOT_ENOUGH_REPLICAS_AFTER_APPEND (already in the leader's log; a retry may duplicate it)"
        }
        (P::RequestTimedOut, Lang::Zh) => "REQUEST_TIMED_OUT（request.timeout.ms 内无响应）",
        (P::RequestTimedOut, Lang::En) => "REQUEST_TIMED_OUT (no answer within request.timeout.ms)",
        (P::NetworkException, Lang::Zh) => "NETWORK_EXCEPTION（连接断开：broker 已崩溃）",
        (P::NetworkException, Lang::En) => "NETWORK_EXCEPTION (the connection broke: the broker crashed)",
        (P::UnknownProducerId, Lang::Zh) => "UNKNOWN_PRODUCER_ID（leader 不认识该生产者，序号重置后重试）",
        (P::UnknownProducerId, Lang::En) => "UNKNOWN_PRODUCER_ID (the leader has no state for this producer; sequences reset, retrying)",
        (P::OutOfOrderSequenceNumber, Lang::Zh) => "OUT_OF_ORDER_SEQUENCE_NUMBER（前一个批次尚未写入）",
        (P::OutOfOrderSequenceNumber, Lang::En) => "OUT_OF_ORDER_SEQUENCE_NUMBER (an earlier batch is not in yet)",
        (P::LeaderNotAvailable, Lang::Zh) => "LEADER_NOT_AVAILABLE（分区没有 leader）",
        (P::LeaderNotAvailable, Lang::En) => "LEADER_NOT_AVAILABLE (the partition has no leader)",
        (P::DeliveryTimeout, Lang::Zh) => "超过 delivery.timeout.ms，放弃",
        (P::DeliveryTimeout, Lang::En) => "delivery.timeout.ms expired",
        (P::BufferExhausted, Lang::Zh) => "BUFFER_EXHAUSTED（max.block.ms 内等不到 buffer.memory 空间）",
        (P::BufferExhausted, Lang::En) => "BUFFER_EXHAUSTED (no buffer.memory freed within max.block.ms)",
        (P::RecordTooLarge, Lang::Zh) => "RECORD_TOO_LARGE（消息大于 buffer.memory）",
        (P::RecordTooLarge, Lang::En) => "RECORD_TOO_LARGE (the record is larger than buffer.memory)",
        (P::InvalidProducerEpoch | P::TransactionAborted | P::ProducerFenced | P::TransactionAbortable, _) => {
            crate::i18n_txn::produce_error(lang, e)
        }
        (P::InvalidRecord, _) => crate::i18n_compaction::INVALID_RECORD.get(lang),
    }
}

pub fn loss_cause(lang: Lang, c: LossCause) -> &'static str {
    match (c, lang) {
        (LossCause::UncleanElection, Lang::Zh) => "不干净的 leader 选举：新 leader 不在 ISR 中",
        (LossCause::UncleanElection, Lang::En) => "unclean leader election: the new leader was not in the ISR",
        (LossCause::LeaderFailover, Lang::Zh) => "leader 切换：这些消息只到过旧 leader（acks=1/0 或尚未确认）",
        (LossCause::LeaderFailover, Lang::En) => {
            "leader failover: these records had reached only the old leader (acks=1/0, or not yet acknowledged)"
        }
    }
}

pub fn generation(lang: Lang, n: i32) -> String {
    match lang {
        Lang::Zh => format!("第 {n} 代"),
        Lang::En => format!("generation {n}"),
    }
}

pub fn activity(lang: Lang, a: Activity) -> &'static str {
    match a {
        Activity::AwaitingAssignment => ACTIVITY_WAITING,
        Activity::Idle => ACTIVITY_IDLE,
        Activity::Fetching => ACTIVITY_FETCHING,
        Activity::Processing => ACTIVITY_PROCESSING,
    }
    .get(lang)
}

pub fn coordinator(lang: Lang, b: u32) -> String {
    match lang {
        Lang::Zh => format!("协调者：Broker {b}"),
        Lang::En => format!("coordinator: broker {b}"),
    }
}

/// A member's generation, short: "gen 2", or "—" before it has joined one.
pub fn member_generation(lang: Lang, g: i32) -> String {
    match (lang, g < 0) {
        (_, true) => "gen —".into(),
        (Lang::Zh, false) => format!("第 {g} 代"),
        (Lang::En, false) => format!("gen {g}"),
    }
}

/// A consumer-protocol member's epoch: "epoch 3" (0 while joining).
pub fn member_epoch(lang: Lang, e: i32) -> String {
    match (lang, e <= 0) {
        (Lang::Zh, true) => "纪元 —".into(),
        (Lang::En, true) => "epoch —".into(),
        (Lang::Zh, false) => format!("纪元 {e}"),
        (Lang::En, false) => format!("epoch {e}"),
    }
}

/// Milliseconds as seconds with one decimal: "1.2 s".
pub fn seconds(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// A processing time per record: "10 ms/record", "30 s/record".
pub fn per_record(lang: Lang, ms: u64) -> String {
    let amount = if ms >= 1000 && ms % 1000 == 0 { format!("{} s", ms / 1000) } else { format!("{ms} ms") };
    match lang {
        Lang::Zh => format!("{amount}/条"),
        Lang::En => format!("{amount}/record"),
    }
}

pub fn commit_mode(lang: Lang, c: CommitMode) -> &'static str {
    match c {
        CommitMode::Auto => COMMIT_AUTO,
        CommitMode::SyncAfterProcessing => COMMIT_SYNC_AFTER,
        CommitMode::AsyncAfterProcessing => COMMIT_ASYNC_AFTER,
        CommitMode::BeforeProcessing => COMMIT_BEFORE,
        CommitMode::Off => crate::i18n_txn::COMMIT_OFF,
    }
    .get(lang)
}

pub fn protocol(lang: Lang, p: RebalanceProtocol) -> &'static str {
    match (p, lang) {
        (RebalanceProtocol::Eager, Lang::Zh) => "eager（急切）",
        (RebalanceProtocol::Eager, Lang::En) => "eager",
        (RebalanceProtocol::Cooperative, Lang::Zh) => "cooperative（协作）",
        (RebalanceProtocol::Cooperative, Lang::En) => "cooperative",
    }
}

pub fn protocol_hint(lang: Lang, p: RebalanceProtocol) -> &'static str {
    match p {
        RebalanceProtocol::Eager => PROTOCOL_EAGER_HINT,
        RebalanceProtocol::Cooperative => PROTOCOL_COOPERATIVE_HINT,
    }
    .get(lang)
}

pub fn phase(lang: Lang, p: Phase) -> &'static str {
    match p {
        Phase::Joining => PHASE_JOINING,
        Phase::Syncing => PHASE_SYNCING,
        Phase::Stable => PHASE_STABLE,
        Phase::LeftPollTimeout => PHASE_LEFT,
        Phase::Crashed => PHASE_CRASHED,
    }
    .get(lang)
}

pub fn phase_hint(lang: Lang, p: Phase) -> &'static str {
    match p {
        Phase::Joining => PHASE_JOINING_HINT,
        Phase::Syncing => PHASE_SYNCING_HINT,
        Phase::Stable => PHASE_STABLE_HINT,
        Phase::LeftPollTimeout => PHASE_LEFT_HINT,
        Phase::Crashed => PHASE_CRASHED_HINT,
    }
    .get(lang)
}

/// Why the coordinator removed a member, as a clause.
pub fn leave_reason(lang: Lang, r: LeaveReason) -> &'static str {
    match (r, lang) {
        (LeaveReason::Graceful, Lang::Zh) => "close() 发送 LeaveGroup",
        (LeaveReason::Graceful, Lang::En) => "close() sent LeaveGroup",
        (LeaveReason::SessionTimeout, Lang::Zh) => "session.timeout.ms 内没有心跳",
        (LeaveReason::SessionTimeout, Lang::En) => "no heartbeat within session.timeout.ms",
        (LeaveReason::PollTimeout, Lang::Zh) => "超过 max.poll.interval.ms 没有调用 poll()，它的心跳线程请求离开",
        (LeaveReason::PollTimeout, Lang::En) => "no poll() within max.poll.interval.ms, so its heartbeat thread asked to leave",
        (LeaveReason::RebalanceTimeout, Lang::Zh) => "未在重平衡超时内重新加入",
        (LeaveReason::RebalanceTimeout, Lang::En) => "did not rejoin within the rebalance timeout",
        (LeaveReason::RevocationTimeout, Lang::Zh) => "未在重平衡超时内交出分区",
        (LeaveReason::RevocationTimeout, Lang::En) => "did not revoke its partitions within the rebalance timeout",
    }
}

/// What became of a member that is gone, as its card says it: a member that sent
/// LeaveGroup itself (`close()`, or its heartbeat thread once `max.poll.interval.ms`
/// passed without `poll()`, KIP-62) left; the coordinator removed the others.
/// `consumer_protocol`: under KIP-848 the leave is a ConsumerGroupHeartbeat with member
/// epoch -1, not a LeaveGroup request.
pub fn removed_line(lang: Lang, at_ms: u64, r: LeaveReason, consumer_protocol: bool) -> String {
    let at = seconds(at_ms);
    let leave = if consumer_protocol { "ConsumerGroupHeartbeat (epoch -1)" } else { "LeaveGroup" };
    match (lang, r) {
        (Lang::Zh, LeaveReason::PollTimeout) => {
            format!("{at} 时离开了组：超过 max.poll.interval.ms 没有调用 poll()，它的心跳线程发送了 {leave}")
        }
        (Lang::En, LeaveReason::PollTimeout) => {
            format!("left the group at {at}: no poll() within max.poll.interval.ms, so its heartbeat thread sent {leave}")
        }
        (Lang::Zh, LeaveReason::Graceful) => format!("{at} 时离开了组：close() 发送了 {leave}"),
        (Lang::En, LeaveReason::Graceful) => format!("left the group at {at}: close() sent {leave}"),
        (Lang::Zh, r) => format!("{at} 时被协调者移出组：{}", leave_reason(lang, r)),
        (Lang::En, r) => format!("removed by the coordinator at {at}: {}", leave_reason(lang, r)),
    }
}

/// Kafka's name for a group error.
pub fn group_error_code(e: GroupError) -> &'static str {
    match e {
        // The consumer's own exceptions, not errors a broker answers with.
        GroupError::NoOffsetForPartition => "NoOffsetForPartitionException",
        GroupError::OffsetOutOfRange => "OffsetOutOfRangeException",
        GroupError::LogTruncation => "LogTruncationException",
        e => e.name(),
    }
}

/// Said when "next group event" found nothing within its look-ahead.
pub fn quiet_group(lang: Lang, group: &str, within_ms: u64) -> String {
    let s = within_ms / 1000;
    match lang {
        Lang::Zh => format!("接下来 {s} 秒的模拟时间里，{group} 的协议没有发生任何事"),
        Lang::En => format!("Nothing happens in {group}'s protocol in the next {s} s of simulated time"),
    }
}

/// When the pending join phase ends: the initial delay of a new group, or the rebalance
/// timeout that bounds waiting for members to rejoin.
pub fn rebalance_due_line(lang: Lang, due_ms: u64, initial: bool) -> String {
    let at = seconds(due_ms);
    match (lang, initial) {
        (Lang::Zh, true) => format!(
            "除非又有成员加入，第一代将在 {at} 形成：新组先等待 group.initial.rebalance.delay.ms，让更多成员加入；等待期间有成员加入，到时就再等一轮"
        ),
        (Lang::En, true) => format!(
            "unless another member joins first, the first generation forms at {at}: a new group waits group.initial.rebalance.delay.ms for more members, and once more if one joined during the wait"
        ),
        (Lang::Zh, false) => format!("所有成员重新加入后加入阶段结束，最迟在 {at}（重平衡超时 = max.poll.interval.ms，届时仍未加入的成员被移除）"),
        (Lang::En, false) => format!("the join phase ends once every member has rejoined, at the latest at {at} (the rebalance timeout, max.poll.interval.ms; members missing then are removed)"),
    }
}

pub fn group_state_why(lang: Lang, s: GroupState) -> &'static str {
    match s {
        GroupState::Empty => STATE_EMPTY_WHY,
        GroupState::PreparingRebalance => STATE_PREPARING_WHY,
        GroupState::CompletingRebalance => STATE_COMPLETING_WHY,
        GroupState::Stable => STATE_STABLE_WHY,
        GroupState::Reconciling => STATE_RECONCILING_WHY,
    }
    .get(lang)
}

pub fn group_state(lang: Lang, s: GroupState) -> &'static str {
    match s {
        GroupState::Empty => STATE_EMPTY,
        GroupState::PreparingRebalance => STATE_PREPARING,
        GroupState::CompletingRebalance => STATE_COMPLETING,
        GroupState::Stable => STATE_STABLE,
        GroupState::Reconciling => STATE_RECONCILING,
    }
    .get(lang)
}

/// Why a record went to its partition, in words.
pub fn reason(lang: Lang, r: &PartitionReason, key: Option<&str>, partition: u32, partitions: Option<u32>) -> String {
    let n = partitions.map(|n| n.to_string()).unwrap_or_else(|| "N".into());
    match (r, lang) {
        (PartitionReason::Explicit, Lang::Zh) => format!("指定了分区 → 分区 {partition}"),
        (PartitionReason::Explicit, Lang::En) => format!("explicit partition → partition {partition}"),
        (PartitionReason::KeyHash { murmur2 }, Lang::Zh) => {
            format!("键 \"{}\"：murmur2 = {murmur2}，toPositive(…) % {n} = {partition} → 分区 {partition}", key.unwrap_or(""))
        }
        (PartitionReason::KeyHash { murmur2 }, Lang::En) => {
            format!("key \"{}\": murmur2 = {murmur2}, toPositive(…) % {n} = {partition} → partition {partition}", key.unwrap_or(""))
        }
        (PartitionReason::Sticky, Lang::Zh) => {
            format!("无键：粘性分区（KIP-794，写满 batch.size 字节后才换分区）→ 分区 {partition}")
        }
        (PartitionReason::Sticky, Lang::En) => {
            format!("no key: sticky partition (KIP-794, switches after batch.size bytes) → partition {partition}")
        }
        (PartitionReason::RoundRobin { counter }, Lang::Zh) => {
            format!("RoundRobinPartitioner：计数器 {counter} % {n} → 分区 {partition}")
        }
        (PartitionReason::RoundRobin { counter }, Lang::En) => {
            format!("RoundRobinPartitioner: counter {counter} % {n} → partition {partition}")
        }
    }
}

fn cause(lang: Lang, c: &RebalanceCause) -> String {
    match (c, lang) {
        (RebalanceCause::MemberJoined { client_id }, Lang::Zh) => format!("{client_id} 加入"),
        (RebalanceCause::MemberJoined { client_id }, Lang::En) => format!("{client_id} joined"),
        (RebalanceCause::MemberLeft { client_id }, Lang::Zh) => format!("{client_id} 离开"),
        (RebalanceCause::MemberLeft { client_id }, Lang::En) => format!("{client_id} left"),
        (RebalanceCause::MemberRejoined { client_id }, Lang::Zh) => format!("{client_id} 重新加入"),
        (RebalanceCause::MemberRejoined { client_id }, Lang::En) => format!("{client_id} rejoined"),
        (RebalanceCause::AssignorChanged, Lang::Zh) => "分配策略改变".into(),
        (RebalanceCause::AssignorChanged, Lang::En) => "assignor changed".into(),
        (RebalanceCause::TopicMetadataChanged { topic }, Lang::Zh) => format!("{topic} 的分区数变了"),
        (RebalanceCause::TopicMetadataChanged { topic }, Lang::En) => format!("{topic}'s partition count changed"),
        (RebalanceCause::SubscriptionChanged { client_id }, Lang::Zh) => format!("{client_id} 改变了订阅"),
        (RebalanceCause::SubscriptionChanged { client_id }, Lang::En) => format!("{client_id} changed its subscription"),
    }
}

fn tps(list: &[kafka_sandbox_core::record::TopicPartition]) -> String {
    if list.is_empty() {
        return "—".into();
    }
    // Kafka's own `topic-partition` (`TopicPartition.toString`): a group may read several topics.
    list.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// A source connector's offset as Kafka Connect's JDBC source writes it.
pub fn source_offset(o: &kafka_sandbox_core::event::SourceOffset) -> String {
    match o.timestamp_ms {
        Some(t) => format!("{{timestamp: {t}, incrementing: {}}}", o.incrementing),
        None => format!("{{incrementing: {}}}", o.incrementing),
    }
}

/// One event as the rebalance timeline says it: the event log's sentence without the
/// `clientId-UUID` member ids (the card's tooltip has them), which only bury the story.
pub fn timeline_line(lang: Lang, e: &EventKind) -> String {
    use kafka_sandbox_core::event::GroupEvent as G;
    let zh = lang == Lang::Zh;
    match e {
        EventKind::Group(G::MemberJoined { group, client_id, .. }) => {
            if zh {
                format!("{client_id} 加入 {group}")
            } else {
                format!("{client_id} joins {group}")
            }
        }
        EventKind::Group(G::JoinGroupSent { client_id, member_id, .. }) if !member_id.is_empty() => {
            if zh {
                format!("{client_id} 带着 member id 再次发送 JoinGroup")
            } else {
                format!("{client_id} sends JoinGroup again, with its member id")
            }
        }
        EventKind::Group(G::MemberIdRequired { client_id, .. }) => {
            if zh {
                format!("协调者回复 MEMBER_ID_REQUIRED，给 {client_id} 一个 member id（KIP-394）")
            } else {
                format!("The coordinator answers MEMBER_ID_REQUIRED and gives {client_id} a member id (KIP-394)")
            }
        }
        e => event_line(lang, e),
    }
}

/// The same heartbeat answer heard again: "(and 12 more times, the last at 40.2 s)".
pub fn repeated_line(lang: Lang, more: u32, last_ms: u64) -> String {
    let at = seconds(last_ms);
    match lang {
        Lang::Zh => format!("（之后又 {more} 次，最后一次在 {at}）"),
        Lang::En => format!("(and {more} more times, the last at {at})"),
    }
}

/// One trace event as a sentence.
pub fn event_line(lang: Lang, e: &EventKind) -> String {
    match e {
        EventKind::Produce(e) => produce_line(lang, e),
        EventKind::Cluster(e) => cluster_line(lang, e),
        EventKind::Replication(e) => replication_line(lang, e),
        EventKind::Group(e) => group_line(lang, e),
        EventKind::Consume(e) => consume_line(lang, e),
        EventKind::ConsumerProtocol(e) => consumer_protocol_line(lang, e),
        EventKind::Push(e) => push_line(lang, e),
        EventKind::Connect(e) => connect_line(lang, e),
        EventKind::Streams(e) => streams_line(lang, e),
        EventKind::Settings(e) => settings_line(lang, e),
        EventKind::ShareGroup(e) => crate::share_group_words::share_group_line(lang, e),
        EventKind::Txn(e) => crate::i18n_txn::txn_line(lang, e),
        EventKind::Compaction(e) => crate::i18n_compaction::compaction_line(lang, e),
    }
}

/// Produce's events as sentences.
fn produce_line(lang: Lang, e: &ProduceEvent) -> String {
    use ProduceEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::RecordSent { producer, value, partition, key, .. } => match key {
            Some(k) if zh => format!("{producer} 发送 {value}（键 \"{k}\"）→ 分区 {partition} 的批次"),
            Some(k) => format!("{producer} sends {value} (key \"{k}\") into a batch for partition {partition}"),
            None if zh => format!("{producer} 发送 {value} → 分区 {partition} 的批次"),
            None => format!("{producer} sends {value} into a batch for partition {partition}"),
        },
        E::BatchSent { producer, partition, records, .. } => {
            if zh {
                format!("{producer} 把 {} 条消息的批次发往分区 {partition} 的 leader", records.len())
            } else {
                format!("{producer} sends a batch of {} to the leader of partition {partition}", records.len())
            }
        }
        E::RecordAppended { value, partition, offset, .. } => {
            if zh {
                format!("Leader 把 {value} 追加到分区 {partition}，偏移量 {offset}")
            } else {
                format!("The leader appends {value} to partition {partition} at offset {offset}")
            }
        }
        E::RecordAcked { producer, partition, offset, value, .. } => {
            if zh {
                format!("{producer} 收到确认（RecordMetadata）：{value} 在分区 {partition} 偏移量 {offset}")
            } else {
                format!("{producer} gets RecordMetadata: {value} is at partition {partition}, offset {offset}")
            }
        }
        E::ProduceFailed { producer, partition, records, error, retrying, .. } => {
            let n = records.len();
            match (zh, retrying) {
                (true, true) => format!("{producer} 发往分区 {partition} 的 {n} 条消息失败：{}，将重试", produce_error(lang, *error)),
                (true, false) => format!("{producer} 放弃发往分区 {partition} 的 {n} 条消息：{}", produce_error(lang, *error)),
                (false, true) => {
                    format!("{producer}: {n} record(s) to partition {partition} failed with {}; retrying", produce_error(lang, *error))
                }
                (false, false) => format!("{producer} gives up {n} record(s) to partition {partition}: {}", produce_error(lang, *error)),
            }
        }
        E::SendBlocked { producer, record, partition, needed_bytes, available_bytes, max_block_ms, .. } => {
            if zh {
                format!("{producer} 的 send() 阻塞：消息 #{} 发往分区 {partition} 的新批次需要 {needed_bytes} 字节，buffer.memory 只剩 {available_bytes} 字节；最多等待 max.block.ms = {max_block_ms} ms，其后的发送排在它后面", record.0)
            } else {
                format!("{producer}'s send() blocks: record #{}'s new batch for partition {partition} needs {needed_bytes} bytes, buffer.memory has {available_bytes} free; it waits up to max.block.ms = {max_block_ms} ms, and later sends wait behind it", record.0)
            }
        }
        E::DuplicateIgnored { producer, partition, records, .. } => {
            if zh {
                format!("Leader 识别出 {producer} 重试的批次（幂等生产者），分区 {partition} 不重复写入 {} 条消息", records.len())
            } else {
                format!("The leader recognises {producer}'s retried batch (idempotent producer): {} record(s) not written twice to partition {partition}", records.len())
            }
        }
    }
}

/// Cluster's events as sentences.
fn cluster_line(lang: Lang, e: &ClusterEvent) -> String {
    use ClusterEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::PartitionsAdded { topic, partitions } => {
            if zh {
                format!("主题 {topic} 扩容到 {partitions} 个分区（键可能映射到新的分区）")
            } else {
                format!("Topic {topic} grows to {partitions} partitions (keys may now hash elsewhere)")
            }
        }
        E::BrokerCrashed { broker } => {
            if zh {
                format!("Broker {broker} 崩溃")
            } else {
                format!("Broker {broker} crashes")
            }
        }
        E::BrokerRestarted { broker } => {
            if zh {
                format!("Broker {broker} 重启")
            } else {
                format!("Broker {broker} restarts")
            }
        }
        E::BrokerIsolated { broker } => {
            if zh {
                format!("Broker {broker} 与网络断开")
            } else {
                format!("Broker {broker} is cut off the network")
            }
        }
        E::BrokerHealed { broker } => {
            if zh {
                format!("Broker {broker} 网络恢复")
            } else {
                format!("Broker {broker} is reconnected")
            }
        }
        E::BrokerSlowed { broker, slow_ms } => {
            if zh {
                format!("Broker {broker} 的副本拉取变慢 {slow_ms} ms")
            } else {
                format!("Broker {broker}'s replica fetches slowed by {slow_ms} ms")
            }
        }
        E::BrokerFenced { broker } => {
            if zh {
                format!("控制器在 broker.session.timeout.ms 内没有收到 Broker {broker} 的心跳，将其隔离（fenced）")
            } else {
                format!("The controller has not heard from broker {broker} within broker.session.timeout.ms and fences it")
            }
        }
        E::BrokerShutDown { broker } => {
            if zh {
                format!("Broker {broker} 受控停机：控制器立即把它移出所有 ISR，转走它的 leader 身份并将其隔离（fenced），随后进程停止")
            } else {
                format!("Broker {broker} shuts down cleanly: the controller takes it out of every ISR, moves its leaderships at once and fences it; then the process stops")
            }
        }
        E::BrokerUnfenced { broker } => {
            if zh {
                format!("Broker {broker} 向控制器重新注册")
            } else {
                format!("Broker {broker} registers with the controller again")
            }
        }
    }
}

/// Replication's events as sentences.
fn replication_line(lang: Lang, e: &ReplicationEvent) -> String {
    use ReplicationEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::SegmentsDeleted { partition, broker, reason, base_offsets, bytes, records, log_start_offset, .. } => {
            let (n, k) = (base_offsets.len(), records.len());
            let why = match (reason, zh) {
                (SegmentDeletionReason::RetentionMs, true) => "超过 retention.ms",
                (SegmentDeletionReason::RetentionMs, false) => "older than retention.ms",
                (SegmentDeletionReason::RetentionBytes, true) => "日志超过 retention.bytes",
                (SegmentDeletionReason::RetentionBytes, false) => "the log is over retention.bytes",
                (SegmentDeletionReason::LogStartOffset, true) => "已在日志起始偏移量之下",
                (SegmentDeletionReason::LogStartOffset, false) => "below the log start offset",
            };
            if zh {
                format!("Broker {broker} 删除分区 {partition} 的 {n} 个日志段（{why}）：{k} 条消息，{bytes} 字节；日志起始偏移量变为 {log_start_offset}")
            } else {
                format!("Broker {broker} deletes {n} segment(s) of partition {partition} ({why}): {k} record(s), {bytes} bytes; the log now starts at offset {log_start_offset}")
            }
        }
        E::LeaderElected { partition, leader, epoch, isr, unclean, .. } => {
            let isr = isr.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            match (leader, zh, unclean) {
                (None, true, _) => format!("分区 {partition} 下线：没有可当选的副本（第 {epoch} 纪元）"),
                (None, false, _) => format!("Partition {partition} goes offline: no eligible replica (epoch {epoch})"),
                (Some(l), true, true) => {
                    format!("分区 {partition} 不干净选举：不同步的 Broker {l} 成为 leader（第 {epoch} 纪元，ISR [{isr}]）")
                }
                (Some(l), false, true) => {
                    format!("Partition {partition}: unclean election, out-of-sync broker {l} leads (epoch {epoch}, ISR [{isr}])")
                }
                (Some(l), true, false) => format!("分区 {partition} 的 leader 是 Broker {l}（第 {epoch} 纪元，ISR [{isr}]）"),
                (Some(l), false, false) => format!("Partition {partition}: broker {l} leads (epoch {epoch}, ISR [{isr}])"),
            }
        }
        E::PreferredLeaderElected { partition, leader, previous, epoch, .. } => {
            let previous = previous.map_or_else(|| "-".to_string(), |b| b.to_string());
            if zh {
                format!("首选 leader 选举：分区 {partition} 的 leader 从 Broker {previous} 交还首选副本 Broker {leader}（第 {epoch} 纪元）")
            } else {
                format!("Preferred leader election: partition {partition} goes back from broker {previous} to its preferred replica, broker {leader} (epoch {epoch})")
            }
        }
        E::EligibleLeadersChanged { partition, elr, isr, .. } => {
            let list = |v: &Vec<u32>| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let (elr, isr) = (list(elr), list(isr));
            if zh {
                format!("分区 {partition} 的合格领导者副本（ELR）变为 [{elr}]（ISR [{isr}]）")
            } else {
                format!("Partition {partition}: eligible leader replicas (ELR) now [{elr}] (ISR [{isr}])")
            }
        }
        E::IsrShrunk { partition, removed, isr, .. } => {
            let isr = isr.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            if zh {
                format!("分区 {partition}：Broker {removed} 掉出 ISR → [{isr}]")
            } else {
                format!("Partition {partition}: broker {removed} leaves the ISR → [{isr}]")
            }
        }
        E::IsrExpanded { partition, added, isr, .. } => {
            let isr = isr.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            if zh {
                format!("分区 {partition}：Broker {added} 追上进度，重新加入 ISR → [{isr}]")
            } else {
                format!("Partition {partition}: broker {added} caught up and rejoins the ISR → [{isr}]")
            }
        }
        E::ReplicaFetched { partition, follower, records, log_end_offset, .. } => {
            if zh {
                format!("Follower Broker {follower} 复制了分区 {partition} 的 {} 条消息（LEO {log_end_offset}）", records.len())
            } else {
                format!("Follower broker {follower} copies {} record(s) of partition {partition} (LEO {log_end_offset})", records.len())
            }
        }
        E::HighWatermarkAdvanced { partition, high_watermark, .. } => {
            if zh {
                format!("分区 {partition} 的高水位升到 {high_watermark}：之前的消息已提交，消费者可见")
            } else {
                format!("Partition {partition}'s high watermark moves to {high_watermark}: records below it are committed and visible")
            }
        }
        E::RecordsTruncated { partition, broker, from_offset, records, .. } => {
            if zh {
                format!("Broker {broker} 截断分区 {partition}：从偏移量 {from_offset} 起删除 {} 条与 leader 不一致的消息", records.len())
            } else {
                format!(
                    "Broker {broker} truncates partition {partition} from offset {from_offset}: {} record(s) the leader does not have",
                    records.len()
                )
            }
        }
        E::RecordsLost { partition, records, cause, .. } => {
            let values = records.iter().map(|r| r.value.as_str()).collect::<Vec<_>>().join(" ");
            let why = loss_cause(lang, *cause);
            if zh {
                format!("分区 {partition} 丢失消息 {values}（{why}）")
            } else {
                format!("Partition {partition} loses {values} ({why})")
            }
        }
    }
}

/// Group's events as sentences.
fn group_line(lang: Lang, e: &GroupEvent) -> String {
    use GroupEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::GroupCreated { group } => {
            if zh {
                format!("创建消费者组 {group}")
            } else {
                format!("Consumer group {group} created")
            }
        }
        E::MemberJoined { group, client_id, member_id } => {
            if zh {
                format!("{client_id} 加入 {group}（member id {member_id}）")
            } else {
                format!("{client_id} joins {group} (member id {member_id})")
            }
        }
        E::MemberLeft { group, client_id, reason, .. } => {
            let why = leave_reason(lang, *reason);
            // A member that asked to leave left; the coordinator removed the others.
            let asked = matches!(reason, LeaveReason::Graceful | LeaveReason::PollTimeout);
            match (zh, asked) {
                (true, true) => format!("{client_id} 离开 {group}（{why}）"),
                (false, true) => format!("{client_id} leaves {group} ({why})"),
                (true, false) => format!("协调者把 {client_id} 移出 {group}（{why}）"),
                (false, false) => format!("The coordinator removes {client_id} from {group} ({why})"),
            }
        }
        E::JoinGroupSent { group, client_id, member_id, .. } => match (zh, member_id.is_empty()) {
            (true, true) => format!("{client_id} 向 {group} 的协调者发送 JoinGroup（还没有 member id）"),
            (true, false) => format!("{client_id} 发送 JoinGroup（{member_id}）"),
            (false, true) => format!("{client_id} sends JoinGroup to {group}'s coordinator (no member id yet)"),
            (false, false) => format!("{client_id} sends JoinGroup ({member_id})"),
        },
        E::MemberIdRequired { client_id, member_id, .. } => {
            if zh {
                format!("协调者回复 MEMBER_ID_REQUIRED：{client_id} 的 member id 是 {member_id}，请带着它重新加入（KIP-394）")
            } else {
                format!("The coordinator answers MEMBER_ID_REQUIRED: {client_id}'s member id is {member_id}; join again with it (KIP-394)")
            }
        }
        E::StaticMemberReplaced { client_id, .. } => {
            if zh {
                format!("静态成员 {client_id} 在会话超时前重启，直接接替原来的位置，不触发重平衡（KIP-345）")
            } else {
                format!("Static member {client_id} restarted within its session and takes its old place without a rebalance (KIP-345)")
            }
        }
        E::RebalanceNoticed { group, client_id } => {
            if zh {
                format!("{client_id} 的心跳得到 REBALANCE_IN_PROGRESS：{group} 在重平衡，它在下一次调用 poll() 时重新加入")
            } else {
                format!("{client_id}'s heartbeat gets REBALANCE_IN_PROGRESS: {group} is rebalancing; it rejoins at its next poll()")
            }
        }
        E::PartitionsRevoked { client_id, partitions, .. } => {
            if zh {
                format!("{client_id} 放弃分区 {}", tps(partitions))
            } else {
                format!("{client_id} gives up {}", tps(partitions))
            }
        }
        E::JoinPhaseCompleted { group, generation, leader, members, assignor } => {
            if zh {
                format!("{group} 加入阶段完成：第 {generation} 代，成员 [{}]，leader {leader} 用 {assignor} 计算分配", members.join(", "))
            } else {
                format!("{group} join phase over: generation {generation}, members [{}], leader {leader} computes the assignment with {assignor}", members.join(", "))
            }
        }
        E::SyncGroupSent { client_id, leader, .. } => match (zh, leader) {
            (true, true) => format!("Leader {client_id} 发送带分配方案的 SyncGroup"),
            (true, false) => format!("{client_id} 发送 SyncGroup，等待分配"),
            (false, true) => format!("Leader {client_id} sends SyncGroup with the assignment"),
            (false, false) => format!("{client_id} sends SyncGroup and waits for its assignment"),
        },
        E::MetadataChangeNoticed { group, client_id, topic } => {
            if zh {
                format!("{group} 的 leader {client_id} 刷新元数据时发现 {topic} 有了新分区，重新加入以触发重平衡")
            } else {
                format!("{group}'s leader {client_id} sees new partitions of {topic} at its metadata refresh and rejoins to rebalance")
            }
        }
        E::MemberCrashed { client_id, .. } => {
            if zh {
                format!("消费者 {client_id} 崩溃（不发送 LeaveGroup）")
            } else {
                format!("Consumer {client_id} crashes (no LeaveGroup)")
            }
        }
        E::MemberRestarted { client_id, .. } => {
            if zh {
                format!("消费者 {client_id} 重启")
            } else {
                format!("Consumer {client_id} restarts")
            }
        }
        E::MemberPaused { client_id, paused, .. } => match (zh, paused) {
            (true, true) => format!("{client_id} 的应用卡住了，不再调用 poll()"),
            (true, false) => format!("{client_id} 的应用恢复调用 poll()"),
            (false, true) => format!("{client_id}'s application is stuck and stops calling poll()"),
            (false, false) => format!("{client_id}'s application calls poll() again"),
        },
        E::RebalanceStarted { group, cause: c } => {
            if zh {
                format!("{group} 开始重平衡（{}）：协调者进入 PreparingRebalance，等待每个成员重新加入", cause(lang, c))
            } else {
                format!(
                    "{group} starts a rebalance ({}): the coordinator enters PreparingRebalance and waits for every member to rejoin",
                    cause(lang, c)
                )
            }
        }
        E::PartitionsAssigned { group, generation, client_id, partitions } => {
            if zh {
                format!("{group} 第 {generation} 代：{client_id} 分到 {}", tps(partitions))
            } else {
                format!("{group} generation {generation}: {client_id} gets {}", tps(partitions))
            }
        }
        E::GroupStable { group, generation } => {
            if zh {
                format!("{group} 稳定（第 {generation} 代），恢复消费")
            } else {
                format!("{group} is stable (generation {generation}); consuming resumes")
            }
        }
        E::Subscribed { client_id, topics, .. } => {
            if zh {
                format!("{client_id} 调用 subscribe({})，需要重新平衡", topics.join(", "))
            } else {
                format!("{client_id} calls subscribe({}), so the group rebalances", topics.join(", "))
            }
        }
    }
}

/// Consume's events as sentences.
fn consume_line(lang: Lang, e: &ConsumeEvent) -> String {
    use ConsumeEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::CommitFailed { client_id, error, .. } => {
            if zh {
                format!("{client_id} 提交偏移量失败：{}（CommitFailedException）", group_error_code(*error))
            } else {
                format!("{client_id}'s offset commit fails: {} (CommitFailedException)", group_error_code(*error))
            }
        }
        E::RecordProcessed { client_id, value, duplicate, .. } => match (zh, duplicate) {
            (true, false) => format!("{client_id} 处理完 {value}"),
            (true, true) => format!("{client_id} 处理完 {value} —— 重复处理（组内已处理过）"),
            (false, false) => format!("{client_id} finishes processing {value}"),
            (false, true) => format!("{client_id} finishes processing {value} — a duplicate (the group processed it before)"),
        },
        E::PositionSet { client_id, tp, offset, from, .. } => {
            let why = match (from, zh) {
                (StartFrom::Committed, true) => "已提交偏移量",
                (StartFrom::Committed, false) => "the committed offset",
                (StartFrom::ResetEarliest, true) => "无提交偏移量，earliest",
                (StartFrom::ResetEarliest, false) => "no commit: earliest",
                (StartFrom::ResetLatest, true) => "无提交偏移量，latest",
                (StartFrom::ResetLatest, false) => "no commit: latest",
            };
            if zh {
                format!("{client_id} 从{} 的偏移量 {offset} 开始读（{why}）", tp)
            } else {
                format!("{client_id} starts {} at offset {offset} ({why})", tp)
            }
        }
        E::RecordDelivered { group, client_id, tp, offset, value, .. } => {
            if zh {
                format!("{group}/{client_id} 的 poll() 收到 {value}（{} 偏移量 {offset}）", tp)
            } else {
                format!("{group}/{client_id} poll() returns {value} ({}, offset {offset})", tp)
            }
        }
        E::OffsetsCommitted { group, client_id, offsets } => {
            let list: Vec<String> = offsets.iter().map(|(tp, o)| format!("{}={o}", tp)).collect();
            if zh {
                format!("{group}/{client_id} 提交偏移量 {}", list.join(", "))
            } else {
                format!("{group}/{client_id} commits {}", list.join(", "))
            }
        }
        E::OffsetsExpired { group, offsets } => {
            let list: Vec<String> = offsets.iter().map(|(tp, o)| format!("{}-{}={o}", tp.topic, tp)).collect();
            if zh {
                format!(
                    "{group} 的已提交偏移量过期（offsets.retention.minutes）：{}；之后分到这些分区的成员按 auto.offset.reset 开始",
                    list.join(", ")
                )
            } else {
                format!("{group}'s committed offsets expire (offsets.retention.minutes): {}; a member given these partitions starts at auto.offset.reset", list.join(", "))
            }
        }
        E::PositionReset { client_id, tp, from, to, .. } => {
            if zh {
                format!("{client_id} 在{} 的偏移量 {from} 越界（OFFSET_OUT_OF_RANGE），按 auto.offset.reset 重置为 {to}", tp)
            } else {
                format!("{client_id}'s position {from} on {} is out of range; auto.offset.reset moves it to {to}", tp)
            }
        }
        E::TruncationDetected { client_id, tp, from, offset_epoch, to, .. } => {
            if zh {
                format!("{client_id} 校验分区 {} 的偏移量 {from}（纪元 {offset_epoch}）：新领导者的日志在 {to} 处与它读过的日志分叉——不干净选举截断了它已读的消息（KIP-320，OffsetsForLeaderEpoch）；从分叉点 {to} 继续读", tp.partition)
            } else {
                format!("{client_id} validates its position {from} (epoch {offset_epoch}) on partition {}: the new leader's log diverges from what it read at {to} — an unclean election truncated records it had read (KIP-320, OffsetsForLeaderEpoch); it resumes at the divergence point {to}", tp.partition)
            }
        }
        E::Seeked { client_id, tp, from, to, how, .. } => {
            use kafka_sandbox_core::command::SeekTo;
            let how = match (how, zh) {
                (SeekTo::Beginning, true) => "seekToBeginning".to_string(),
                (SeekTo::Beginning, false) => "seekToBeginning".to_string(),
                (SeekTo::End, _) => "seekToEnd".to_string(),
                (SeekTo::Offset { offset }, _) => format!("seek({offset})"),
                (SeekTo::Timestamp { timestamp_ms }, _) => format!("offsetsForTimes({timestamp_ms})"),
            };
            if zh {
                format!("{client_id} 调用 {how}：{} 的位置从 {from} 移到 {to}（下一次拉取生效；回退会重新处理消息）", tp)
            } else {
                format!("{client_id} calls {how}: {} moves from {from} to {to} (the next fetch reads from there; going back re-processes records)", tp)
            }
        }
    }
}

/// ConsumerProtocol's events as sentences.
fn consumer_protocol_line(lang: Lang, e: &ConsumerProtocolEvent) -> String {
    use ConsumerProtocolEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::ConsumerHeartbeatSent { client_id, member_epoch, owned, .. } => match (zh, *member_epoch) {
            (true, 0) => format!("{client_id} 发送 ConsumerGroupHeartbeat（纪元 0 = 加入）"),
            (false, 0) => format!("{client_id} sends ConsumerGroupHeartbeat (epoch 0 = join)"),
            (true, -1) => format!("{client_id} 发送纪元 -1 的心跳：离开组"),
            (false, -1) => format!("{client_id} sends a heartbeat with epoch -1: leaving the group"),
            (true, -2) => format!("静态成员 {client_id} 发送纪元 -2 的心跳：暂时离开，位置和分区保留到会话超时"),
            (false, -2) => format!(
                "Static member {client_id} sends epoch -2: a temporary leave, its place and partitions kept until its session times out"
            ),
            (true, e) => format!("{client_id} 立即发送心跳确认新分配（纪元 {e}，持有 {}）", tps(owned)),
            (false, e) => format!("{client_id} heartbeats at once to acknowledge its assignment (epoch {e}, owns {})", tps(owned)),
        },
        E::GroupEpochBumped { group, epoch, cause: c } => {
            if zh {
                format!("{group} 的组纪元升到 {epoch}（{}）：协调者马上计算新的目标分配，没有 JoinGroup 轮次", cause(lang, c))
            } else {
                format!("{group}'s group epoch goes to {epoch} ({}): the coordinator computes a new target assignment at once, no JoinGroup round", cause(lang, c))
            }
        }
        E::TargetAssignmentComputed { group, epoch, assignor, target } => {
            let list = target.iter().map(|(c, ps)| format!("{c}: {}", tps(ps))).collect::<Vec<_>>().join("; ");
            if zh {
                format!("{group} 纪元 {epoch} 的目标分配（broker 端 {assignor} 分配策略）：{list}")
            } else {
                format!("{group} target assignment for epoch {epoch} (broker-side {assignor} assignor): {list}")
            }
        }
        E::MemberReconciling { client_id, epoch, revoking, unreleased, .. } => match (zh, revoking.is_empty(), unreleased.is_empty()) {
            (true, false, _) => format!("协调者告诉 {client_id}：先交出 {}，纪元保持 {epoch}", tps(revoking)),
            (false, false, _) => format!("The coordinator tells {client_id} to give up {} first; its epoch stays {epoch}", tps(revoking)),
            (true, true, false) => format!("{client_id} 进入纪元 {epoch}，还在等待别人释放 {}", tps(unreleased)),
            (false, true, false) => format!("{client_id} reaches epoch {epoch}, still waiting for {} to be released", tps(unreleased)),
            (true, true, true) => format!("{client_id} 到达纪元 {epoch} 的目标分配"),
            (false, true, true) => format!("{client_id} reaches its target assignment of epoch {epoch}"),
        },
        E::AssignmentReconciled { group, client_id, epoch, partitions } => {
            if zh {
                format!("{group} 纪元 {epoch}：{client_id} 应用心跳带来的分配，现在持有 {}", tps(partitions))
            } else {
                format!("{group} epoch {epoch}: {client_id} applies the assignment its heartbeat brought and now owns {}", tps(partitions))
            }
        }
        E::ConsumerGroupStable { group, epoch } => {
            if zh {
                format!("{group} 稳定：所有成员都到达了纪元 {epoch} 的目标分配（期间保留分区的成员一直在消费）")
            } else {
                format!("{group} is stable: every member has reached the target assignment of epoch {epoch} (members that kept partitions consumed throughout)")
            }
        }
        E::ConsumerFailed { client_id, error: GroupError::NoOffsetForPartition | GroupError::OffsetOutOfRange, .. } => {
            let code = match e {
                E::ConsumerFailed { error, .. } => group_error_code(*error),
                _ => "",
            };
            if zh {
                format!("{client_id} 的 poll() 抛出 {code}（auto.offset.reset=none 且没有可用的偏移量），应用停止")
            } else {
                format!("{client_id}'s poll() throws {code} (auto.offset.reset=none and no usable offset); the application stops")
            }
        }
        E::ConsumerFailed { client_id, error: GroupError::LogTruncation, .. } => {
            if zh {
                format!("{client_id} 的 poll() 抛出 LogTruncationException：不干净的领导者选举截断了它已读过的消息（KIP-320），而 auto.offset.reset=none 不允许自动重置；应用停止")
            } else {
                format!("{client_id}'s poll() throws LogTruncationException: an unclean leader election truncated records it had read (KIP-320), and auto.offset.reset=none allows no automatic reset; the application stops")
            }
        }
        E::ConsumerFailed { client_id, error: GroupError::InvalidSessionTimeout, .. } => {
            if zh {
                format!("{client_id} 的 JoinGroup 被拒绝：INVALID_SESSION_TIMEOUT（session.timeout.ms 不在 broker 的 group.min.session.timeout.ms 与 group.max.session.timeout.ms 之间）；poll() 抛出 InvalidSessionTimeoutException，应用停止")
            } else {
                format!("{client_id}'s JoinGroup is refused: INVALID_SESSION_TIMEOUT (its session.timeout.ms is outside the brokers' group.min.session.timeout.ms to group.max.session.timeout.ms); poll() throws InvalidSessionTimeoutException and the application stops")
            }
        }
        E::ConsumerFailed { client_id, error, .. } => {
            if zh {
                format!(
                    "{client_id} 遇到致命错误 {} 并停止（旧实例崩溃时没有释放 group.instance.id，需等它的会话超时）",
                    group_error_code(*error)
                )
            } else {
                format!("{client_id} fails with {} and stops (its crashed predecessor never released the group.instance.id; wait for its session to time out)", group_error_code(*error))
            }
        }
    }
}

/// Push's events as sentences.
fn push_line(lang: Lang, e: &PushEvent) -> String {
    use PushEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::RecordsPushed { client_id, tp, count, buffered, .. } => {
            if zh {
                format!(
                    "推送（不是 Kafka，教学演示）：broker 把 {} 的 {count} 条消息直接推给 {client_id}，它的缓冲区现有 {buffered} 条",
                    tp
                )
            } else {
                format!("Push (not Kafka — a teaching device): the broker pushes {count} records of {} to {client_id}; its buffer holds {buffered}", tp)
            }
        }
        E::PushOverwhelmed { client_id, buffered, limit, .. } => {
            if zh {
                format!("{client_id} 被推送压垮：缓冲区 {buffered} 条超过上限 {limit}，内存耗尽而崩溃，缓冲的消息全部丢失")
            } else {
                format!("{client_id} is overwhelmed by pushes: {buffered} buffered records pass its limit of {limit}; it runs out of memory and crashes, losing its buffer")
            }
        }
    }
}

/// Connect's events as sentences.
fn connect_line(lang: Lang, e: &ConnectEvent) -> String {
    use ConnectEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::TableRowChanged { connector, id, value, insert } => match (zh, insert) {
            (true, true) => format!("{connector} 的源表插入一行：id {id} = \"{value}\""),
            (true, false) => format!("{connector} 的源表更新一行：id {id} = \"{value}\""),
            (false, true) => format!("A row is inserted into {connector}'s table: id {id} = \"{value}\""),
            (false, false) => format!("A row of {connector}'s table is updated: id {id} = \"{value}\""),
        },
        E::SourceRecordsPolled { connector, rows, position } => {
            let ids = rows.iter().map(|(id, _)| id.to_string()).collect::<Vec<_>>().join(", ");
            let at = position.as_ref().map(source_offset).unwrap_or_default();
            if zh {
                format!("{connector} 的任务轮询源表（SourceTask.poll）：行 {ids} 变成消息（键 = id）交给生产者；位置 {at}")
            } else {
                format!("{connector}'s task polls its table (SourceTask.poll): rows {ids} become records (key = id) for its producer; position {at}")
            }
        }
        E::SourceOffsetsFlushed { connector, offset, records } => {
            if zh {
                format!(
                    "{connector} 把已确认的源偏移量 {} 刷写到偏移量存储（{records} 条消息）：重启的任务从这里之后继续",
                    source_offset(offset)
                )
            } else {
                format!("{connector} flushes its acknowledged source offset {} to the offsets store ({records} records): a restarted task resumes after it", source_offset(offset))
            }
        }
        E::ConnectorTaskCrashed { connector, unflushed, committed } => {
            let at = committed.as_ref().map(source_offset).unwrap_or_else(|| if zh { "（无）".into() } else { "(none)".into() });
            if zh {
                format!(
                    "{connector} 的任务崩溃：上次刷写后发送的 {unflushed} 条消息会被下一个任务再发一次（至少一次），它将从 {at} 之后继续"
                )
            } else {
                format!("{connector}'s task crashes: the {unflushed} records sent since the last flush will be sent again by the next task (at least once), which resumes after {at}")
            }
        }
        E::ConnectorTaskRestarted { connector, resume_after } => {
            let at = resume_after.as_ref().map(source_offset).unwrap_or_else(|| {
                if zh {
                    "表的开头".into()
                } else {
                    "the start of the table".into()
                }
            });
            if zh {
                format!("{connector} 启动新任务，从偏移量存储读到位置，从 {at} 之后继续")
            } else {
                format!("{connector} starts a new task; it reads its position from the offsets store and resumes after {at}")
            }
        }
    }
}

/// Streams's events as sentences.
fn streams_line(lang: Lang, e: &StreamsEvent) -> String {
    use StreamsEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::StreamsRecordProcessed { application_id, client_id, tp, offset, output, .. } => match (zh, output) {
            (true, Some((key, value))) => format!(
                "Streams 应用 {application_id}（{client_id}）处理 {} 偏移量 {offset} 的消息，输出 {}{value} 到结果主题",
                tp,
                key.as_ref().map(|k| format!("键 \"{k}\" → ")).unwrap_or_default()
            ),
            (true, None) => {
                format!("Streams 应用 {application_id}（{client_id}）处理 {} 偏移量 {offset} 的消息：被过滤掉，没有输出", tp)
            }
            (false, Some((key, value))) => format!(
                "Streams app {application_id} ({client_id}) processes {} offset {offset} and sends {}{value} to its sink",
                tp,
                key.as_ref().map(|k| format!("key \"{k}\" → ")).unwrap_or_default()
            ),
            (false, None) => {
                format!("Streams app {application_id} ({client_id}) processes {} offset {offset}: filtered out, nothing sent", tp)
            }
        },
        E::StateStoreRestored { application_id, client_id, store, partition, records, keys } => {
            if zh {
                format!("{application_id}（{client_id}）从变更日志分区 {partition} 恢复状态存储 {store}：读了 {records} 条消息，现有 {keys} 个键")
            } else {
                format!("{application_id} ({client_id}) restores its state store {store} from changelog partition {partition}: {records} records read, {keys} keys now")
            }
        }
    }
}

/// Settings's events as sentences.
fn settings_line(lang: Lang, e: &SettingsEvent) -> String {
    use SettingsEvent as E;
    let zh = lang == Lang::Zh;
    match e {
        E::ConfigChanged { entity, setting, value } => {
            if zh {
                format!("{entity}：{setting} = {value}")
            } else {
                format!("{entity}: {setting} = {value}")
            }
        }
        E::CommandRejected { reason } => {
            if zh {
                format!("命令被拒绝：{reason}")
            } else {
                format!("Command refused: {reason}")
            }
        }
    }
}

pub fn category(lang: Lang, c: crate::view::EventCategory) -> &'static str {
    use crate::view::EventCategory as V;
    use kafka_sandbox_core::event::Category as C;
    match c {
        V::All => CAT_ALL,
        V::Only(C::Produce) => CAT_PRODUCE,
        V::Only(C::Replication) => CAT_REPLICATION,
        V::Only(C::Group) => CAT_GROUP,
        V::Only(C::Consume) => CAT_CONSUME,
        V::Only(C::Fault) => CAT_FAULT,
        V::Only(C::Settings) => CAT_SETTINGS,
    }
    .get(lang)
}

/// One hop of a record's path, as a sentence.
pub fn hop_line(lang: Lang, h: &kafka_sandbox_core::provenance::Hop, partitions: Option<u32>) -> String {
    use kafka_sandbox_core::provenance::Hop as H;
    let zh = lang == Lang::Zh;
    match h {
        H::Sent { producer, topic, partition, key, reason: r } => {
            let why = reason(lang, r, key.as_deref(), *partition, partitions);
            if zh {
                format!("{producer} 的 send() 把它放进 {topic} 分区 {partition} 的批次：{why}")
            } else {
                format!("{producer}'s send() puts it in a batch for {topic} partition {partition}: {why}")
            }
        }
        H::BatchSent { producer } => {
            if zh {
                format!("{producer} 把批次发往分区 leader")
            } else {
                format!("{producer} sends the batch to the partition's leader")
            }
        }
        H::Failed { error, retrying } => match (zh, retrying) {
            (true, true) => format!("请求失败：{}，生产者会重试", produce_error_code(*error)),
            (true, false) => format!("请求失败：{}，生产者放弃", produce_error_code(*error)),
            (false, true) => format!("the request fails with {}; the producer retries", produce_error_code(*error)),
            (false, false) => format!("the request fails with {}; the producer gives up", produce_error_code(*error)),
        },
        H::Appended { broker, offset, leader_epoch } => {
            if zh {
                format!("leader（broker {broker}）把它追加在偏移量 {offset}，leader 纪元 {leader_epoch}")
            } else {
                format!("the leader (broker {broker}) appends it at offset {offset}, leader epoch {leader_epoch}")
            }
        }
        H::Replicated { follower } => {
            if zh {
                format!("follower broker {follower} 复制了它")
            } else {
                format!("follower broker {follower} copies it")
            }
        }
        H::Committed { high_watermark } => {
            if zh {
                format!("高水位越过它（HW = {high_watermark}）：已提交，消费者可见")
            } else {
                format!("the high watermark passes it (HW = {high_watermark}): committed, visible to consumers")
            }
        }
        H::Acked { offset, acks } => {
            let a = match acks {
                kafka_sandbox_core::config::Acks::Zero => "0",
                kafka_sandbox_core::config::Acks::Leader => "1",
                kafka_sandbox_core::config::Acks::All => "all",
            };
            if zh {
                format!("生产者收到确认（acks={a}，偏移量 {offset}）")
            } else {
                format!("the producer gets its acknowledgement (acks={a}, offset {offset})")
            }
        }
        H::Delivered { group, client_id } => {
            if zh {
                format!("{group}/{client_id} 的 poll() 收到它")
            } else {
                format!("{group}/{client_id}'s poll() returns it")
            }
        }
        H::Processed { group, client_id, duplicate } => match (zh, duplicate) {
            (true, false) => format!("{group}/{client_id} 处理完它"),
            (true, true) => format!("{group}/{client_id} 又处理了一次（重复）"),
            (false, false) => format!("{group}/{client_id} finishes processing it"),
            (false, true) => format!("{group}/{client_id} processes it again (a duplicate)"),
        },
        H::OffsetCommitted { group, client_id, committed } => {
            if zh {
                format!("{client_id} 提交 {group} 的偏移量 {committed}：这个组不会再读它")
            } else {
                format!("{client_id} commits {group}'s offset {committed}: the group will not read it again")
            }
        }
        H::Truncated { broker } => {
            if zh {
                format!("broker {broker} 重新加入时从日志中截断了它")
            } else {
                format!("broker {broker} truncates it from its log on rejoining")
            }
        }
        H::Lost { cause, was_committed } => {
            let c = loss_cause(lang, *cause);
            match (zh, was_committed) {
                (true, true) => format!("丢失（{c}），尽管它已提交"),
                (true, false) => format!("丢失（{c}）"),
                (false, true) => format!("lost ({c}) although it was committed"),
                (false, false) => format!("lost ({c})"),
            }
        }
        H::Deleted { broker, .. } => {
            if zh {
                format!("保留策略在 broker {broker} 上删除了包含它的日志段")
            } else {
                format!("retention deletes the segment holding it on broker {broker}")
            }
        }
        H::InTransaction { .. } | H::TransactionDecided { .. } => crate::i18n_txn::hop_line(lang, h),
    }
}

pub fn forked(lang: Lang, at_ms: u64) -> String {
    let at = seconds(at_ms);
    match lang {
        Lang::Zh => format!("已在 {at} 分叉：现在改变点什么（acks、分配策略、协议、崩溃），分叉比较会显示两条分支的差别"),
        Lang::En => format!("Forked at {at}: now change something (acks, assignor, protocol, a crash) and the fork comparison shows how the two branches differ"),
    }
}

/// "Step 2 of 7".
pub fn lesson_step(lang: Lang, step: usize, of: usize) -> String {
    match lang {
        Lang::Zh => format!("第 {step} 步，共 {of} 步"),
        Lang::En => format!("step {step} of {of}"),
    }
}

/// A big group's lag chart shows its total and the partitions lagging most.
pub fn chart_top_lag(lang: Lang, shown: usize, of: usize) -> String {
    match lang {
        Lang::Zh => format!("合计及延迟最大的 {shown} 个分区（共 {of} 个）"),
        Lang::En => format!("total and the {shown} of {of} partitions lagging most"),
    }
}

pub fn theme_label(lang: Lang, theme: Option<&str>) -> &'static str {
    match (lang, theme) {
        (Lang::Zh, Some("light")) => "☀ 浅色",
        (Lang::Zh, Some("dark")) => "☾ 深色",
        (Lang::Zh, _) => "◐ 跟随系统",
        (Lang::En, Some("light")) => "☀ Light",
        (Lang::En, Some("dark")) => "☾ Dark",
        (Lang::En, _) => "◐ System",
    }
}

/// Said when a shared run was opened.
pub fn opened(lang: Lang, from: crate::state::SharedFrom, steps: u64) -> String {
    use crate::state::SharedFrom as F;
    match (lang, from) {
        (Lang::Zh, F::Link) => format!("已打开分享的运行（第 {steps} 步），暂停中：按播放继续"),
        (Lang::En, F::Link) => format!("Opened the shared run at step {steps}, paused: press Play to go on"),
        (Lang::Zh, F::Autosave) => format!("已恢复你上次的工作（自动保存，第 {steps} 步）"),
        (Lang::En, F::Autosave) => format!("Restored your last session (autosaved, step {steps})"),
        (Lang::Zh, F::File) => format!("已从文件打开（第 {steps} 步）"),
        (Lang::En, F::File) => format!("Opened from the file (step {steps})"),
    }
}

/// Said when a link, autosave or file could not be opened (`why` already in `lang`).
pub fn open_failed(lang: Lang, from: crate::state::SharedFrom, why: &str) -> String {
    use crate::state::SharedFrom as F;
    match (lang, from) {
        (Lang::Zh, F::Link) => format!("无法打开这个链接：{why}。显示的是默认场景。"),
        (Lang::En, F::Link) => format!("This link could not be opened: {why}. The default scenario is shown."),
        (Lang::Zh, F::Autosave) => format!("自动保存的内容无法恢复：{why}"),
        (Lang::En, F::Autosave) => format!("The autosaved session could not be restored: {why}"),
        (Lang::Zh, F::File) => format!("无法打开这个文件：{why}。当前的运行保持不变。"),
        (Lang::En, F::File) => format!("This file could not be opened: {why}. Your current run is unchanged."),
    }
}

/// Said when a jump finds nothing.
/// Run to was given something that is not a moment.
/// Beside the speed, when the run cannot keep it: the speed it reaches.
pub fn speed_reached(lang: Lang, reached: f64) -> String {
    match lang {
        Lang::Zh => format!("实际 {}×", speed_figure(reached)),
        Lang::En => format!("reaching {}×", speed_figure(reached)),
    }
}

/// The same, said in full (the tooltip).
pub fn speed_reached_hint(lang: Lang, reached: f64, chosen: f64) -> String {
    let (r, c) = (speed_figure(reached), speed_figure(chosen));
    match lang {
        Lang::Zh => format!("此设备跟不上所选的 {c}× 速度：模拟实际以约 {r} 倍实时运行。可选更低的速度，或用“运行到”直接到达某一时刻。"),
        Lang::En => format!("This device cannot keep the chosen {c}×: the simulation runs at about {r}× real time. Choose a lower speed, or use Run to to go straight to a moment."),
    }
}

/// 0.25 → "0.25", 8.14 → "8.1", 12.6 → "13".
fn speed_figure(x: f64) -> String {
    if x < 1.0 {
        format!("{x:.2}")
    } else if x < 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

pub fn run_to_invalid(lang: Lang, text: &str, max_ms: u64) -> String {
    let shown: String = text.chars().take(40).collect();
    let max = max_ms / 1000;
    match lang {
        Lang::Zh => format!("运行到：“{shown}”不是一个时间。请输入 0 到 {max} 之间的秒数，例如 12.5"),
        Lang::En => format!("Run to: \"{shown}\" is not a time. Type seconds from 0 to {max}, for example 12.5"),
    }
}

/// Run to is under way.
pub fn running_to(lang: Lang, ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    match lang {
        Lang::Zh => format!("正在运行到 {s:.1} s……（暂停可停下）"),
        Lang::En => format!("Running to {s:.1} s… (Pause stops it)"),
    }
}

pub fn jump_none(lang: Lang, kind: crate::timeline::JumpKind, ahead: bool) -> String {
    let what = jump_label(lang, kind);
    match (lang, ahead) {
        (Lang::Zh, true) => format!("后面没有{what}了（已搜索到运行结束或上限）"),
        (Lang::Zh, false) => format!("之前没有{what}"),
        (Lang::En, true) => format!("No later {what} (searched to the end of the run or the limit)"),
        (Lang::En, false) => format!("No earlier {what}"),
    }
}

pub fn jump_label(lang: Lang, kind: crate::timeline::JumpKind) -> &'static str {
    use crate::timeline::JumpKind as J;
    match kind {
        J::Rebalance => JUMP_REBALANCE,
        J::Fault => JUMP_FAULT,
        J::Finding => JUMP_FINDING,
    }
    .get(lang)
}

/// "join a new consumer c9" / "close c1" / "crash c1".
pub fn change_label(lang: Lang, c: &kafka_sandbox_core::compare::Change) -> String {
    use kafka_sandbox_core::compare::Change as C;
    match (c, lang) {
        (C::Join { client_id }, Lang::Zh) => format!("新消费者 {client_id} 加入"),
        (C::Join { client_id }, Lang::En) => format!("a new consumer {client_id} joins"),
        (C::Leave { client_id }, Lang::Zh) => format!("{client_id} 正常关闭"),
        (C::Leave { client_id }, Lang::En) => format!("{client_id} closes gracefully"),
        (C::Crash { client_id }, Lang::Zh) => format!("{client_id} 崩溃"),
        (C::Crash { client_id }, Lang::En) => format!("{client_id} crashes"),
    }
}

pub fn variant(lang: Lang, v: kafka_sandbox_core::compare::Variant) -> &'static str {
    use kafka_sandbox_core::compare::Variant as V;
    match v {
        V::Eager => VARIANT_EAGER,
        V::Cooperative => VARIANT_COOPERATIVE,
        V::Consumer => VARIANT_CONSUMER,
    }
    .get(lang)
}

/// One duplicate, explained.
pub fn duplicate_line(lang: Lang, d: &kafka_sandbox_core::read::DuplicateRecord) -> String {
    use kafka_sandbox_core::read::HandoverKind;
    let (again, at) = (&d.again.0, seconds(d.again.1.ms()));
    let first = match (&d.first, lang) {
        (Some((c, t)), Lang::Zh) => format!("{c} 在 {} 已处理过", seconds(t.ms())),
        (Some((c, t)), Lang::En) => format!("{c} processed it at {}", seconds(t.ms())),
        (None, Lang::Zh) => "之前已处理过".to_string(),
        (None, Lang::En) => "processed earlier".to_string(),
    };
    let hand = match (&d.handover, lang) {
        (Some(h), Lang::Zh) if h.kind == HandoverKind::Seek => format!("；{} 于 {} 调用了 seek() 回退", h.from, seconds(h.at.ms())),
        (Some(h), Lang::En) if h.kind == HandoverKind::Seek => format!("; {} called seek() back at {}", h.from, seconds(h.at.ms())),
        (Some(h), Lang::Zh) => {
            let how = if h.kind == HandoverKind::Crashed { "崩溃" } else { "在重平衡中交出分区" };
            let c = h.committed.map(|c| c.to_string()).unwrap_or_else(|| "无".into());
            format!("；{} 于 {} {how}，当时已提交偏移量为 {c}（≤ {}，提交落后于处理）", h.from, seconds(h.at.ms()), d.offset)
        }
        (Some(h), Lang::En) => {
            let how = if h.kind == HandoverKind::Crashed { "crashed" } else { "gave the partition up in a rebalance" };
            let c = h.committed.map(|c| c.to_string()).unwrap_or_else(|| "none".into());
            format!(
                "; {} {how} at {} when the committed offset was {c} (≤ {}: the commit lagged processing)",
                h.from,
                seconds(h.at.ms()),
                d.offset
            )
        }
        (None, _) => String::new(),
    };
    match lang {
        Lang::Zh => format!("{}（{} 偏移量 {}）：{first}，{again} 在 {at} 又处理一次{hand}", d.value, d.tp, d.offset),
        Lang::En => format!("{} ({} offset {}): {first}, {again} again at {at}{hand}", d.value, d.tp, d.offset),
    }
}

/// One lost record, explained.
pub fn lost_line(lang: Lang, l: &kafka_sandbox_core::read::UnprocessedRecord) -> String {
    use kafka_sandbox_core::read::UnprocessedCause;
    match (&l.cause, lang) {
        (UnprocessedCause::CommittedBeforeProcessing { member, delivered_at }, Lang::Zh) => format!(
            "{} 偏移量 {}：{} 时交给 {member}，偏移量在它处理之前就已提交，随后它崩溃或失去了分区，接手者从提交偏移量之后开始",
            l.tp, l.offset, seconds(delivered_at.ms())
        ),
        (UnprocessedCause::CommittedBeforeProcessing { member, delivered_at }, Lang::En) => format!(
            "{} offset {}: delivered to {member} at {}, committed before it was processed; then {member} crashed or lost the partition and the next owner started after the commit",
            l.tp, l.offset, seconds(delivered_at.ms())
        ),
        (UnprocessedCause::NeverDelivered, Lang::Zh) => format!("{} 偏移量 {}：提交偏移量越过了它，但没有成员收到过它", l.tp, l.offset),
        (UnprocessedCause::NeverDelivered, Lang::En) => format!("{} offset {}: the committed offset passed it but no member received it", l.tp, l.offset),
    }
}

/// The coordinator's reconciliation state of a consumer-protocol member.
pub fn reconcile(lang: Lang, r: kafka_sandbox_core::read::Reconcile) -> &'static str {
    use kafka_sandbox_core::read::Reconcile as R;
    match r {
        R::Stable => RECONCILE_STABLE,
        R::UnrevokedPartitions => RECONCILE_UNREVOKED,
        R::UnreleasedPartitions => RECONCILE_UNRELEASED,
    }
    .get(lang)
}

/// The scenario editor's sentences (the fixed texts are the `ED_` constants).
pub fn ed_rate(lang: Lang, interval_ms: u64) -> String {
    let per_s = if interval_ms == 0 { 0.0 } else { 1000.0 / interval_ms as f64 };
    let rate = if per_s >= 10.0 || per_s.fract() == 0.0 { format!("{per_s:.0}") } else { format!("{per_s:.1}") };
    match (lang, interval_ms) {
        (Lang::Zh, 0) => "同时发送全部".into(),
        (Lang::En, 0) => "all at once".into(),
        (Lang::Zh, _) => format!("≈ 每秒 {rate} 条"),
        (Lang::En, _) => format!("≈ {rate} per second"),
    }
}

pub fn ed_unreadable(lang: Lang, path: &str, text: &str, lo: i64, hi: Option<u64>) -> String {
    match (lang, hi) {
        (Lang::Zh, Some(hi)) => format!("{path}：“{text}” 不是 {lo} 到 {hi} 之间的整数"),
        (Lang::Zh, None) => format!("{path}：“{text}” 不是不小于 {lo} 的整数"),
        (Lang::En, Some(hi)) => format!("{path}: \"{text}\" is not a whole number from {lo} to {hi}"),
        (Lang::En, None) => format!("{path}: \"{text}\" is not a whole number of at least {lo}"),
    }
}

pub fn ed_timeline(lang: Lang, commands: usize) -> String {
    match lang {
        Lang::Zh => format!("这个场景的时间线有 {commands} 条命令（在指定时刻崩溃、加入成员等）。表单保持它们不变；改名会同步到命令里。"),
        Lang::En => format!("This scenario's timeline has {commands} commands (crashes, members joining, … at set times). The form keeps them as they are; renames follow into them."),
    }
}

/// The accessible name of a remove button: what it removes.
pub fn ed_remove(lang: Lang, name: &str) -> String {
    match lang {
        Lang::Zh => format!("删除 {name}"),
        Lang::En => format!("Remove {name}"),
    }
}

/// The accessible name of a group's + Consumer button.
pub fn ed_add_member(lang: Lang, group: &str) -> String {
    match lang {
        Lang::Zh => format!("向 {group} 添加消费者"),
        Lang::En => format!("Add a consumer to {group}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member whose poll timer expired left by itself (its heartbeat thread sent
    /// LeaveGroup, KIP-62): neither its card nor the event log says the coordinator
    /// removed it; a session timeout is the coordinator's doing.
    #[test]
    fn a_poll_timeout_reads_as_the_consumer_leaving_not_as_a_removal() {
        for lang in [Lang::En, Lang::Zh] {
            let card = removed_line(lang, 10_100, LeaveReason::PollTimeout, false);
            let event = event_line(
                lang,
                &EventKind::Group(GroupEvent::MemberLeft {
                    group: "g".into(),
                    client_id: "c".into(),
                    member_id: "c-1".into(),
                    reason: LeaveReason::PollTimeout,
                }),
            );
            for line in [&card, &event] {
                assert!(!line.contains("coordinator") && !line.contains("协调者"), "{line}");
                assert!(line.contains("max.poll.interval.ms"), "{line}");
            }
            assert!(card.contains("LeaveGroup"), "{card}");
            assert!(removed_line(lang, 10_100, LeaveReason::PollTimeout, true).contains("epoch -1"));
            let removed = removed_line(lang, 10_100, LeaveReason::SessionTimeout, false);
            assert!(removed.contains("coordinator") || removed.contains("协调者"), "{removed}");
        }
        let noticed = event_line(Lang::En, &EventKind::Group(GroupEvent::RebalanceNoticed { group: "g".into(), client_id: "c".into() }));
        assert!(noticed.contains("next poll()") && !noticed.contains("so it rejoins"), "{noticed}");
    }

    /// A group reading two topics: every event naming a partition says which topic's.
    #[test]
    fn events_name_the_topic_of_every_partition() {
        let json = r#"{
          "version": 1, "seed": 3,
          "topics": [{ "name": "T1", "partitions": 2 }, { "name": "T2", "partitions": 2 }],
          "producers": [{ "name": "p", "send": [{ "topic": "T2", "values": ["a","b","c"], "start_ms": 4000 }] }],
          "groups": [{ "id": "G", "topics": ["T1", "T2"], "config": { "auto_offset_reset": "earliest" },
            "members": [{ "client_id": "C1" }, { "client_id": "C2" }] }]
        }"#;
        let Ok(s) = kafka_sandbox_core::scenario::Scenario::from_json(json) else { panic!("parses") };
        let Ok(mut sim) = s.build() else { panic!("builds") };
        sim.run_to(kafka_sandbox_core::SimTime(12_000));
        let mut checked = 0;
        for e in sim.read().events() {
            let tp = match &e.kind {
                EventKind::Consume(ConsumeEvent::PositionSet { tp, .. } | ConsumeEvent::RecordDelivered { tp, .. }) => tp.clone(),
                EventKind::Group(GroupEvent::PartitionsAssigned { partitions, .. }) if !partitions.is_empty() => partitions[0].clone(),
                _ => continue,
            };
            for lang in [Lang::En, Lang::Zh] {
                let line = event_line(lang, &e.kind);
                assert!(line.contains(&format!("{}-{}", tp.topic, tp.partition)), "{line}");
            }
            checked += 1;
        }
        assert!(checked >= 8, "{checked}");
    }

    #[test]
    fn every_text_has_both_languages_and_they_differ_where_they_should() {
        for m in ALL.iter().chain(classroom::ALL) {
            assert!(!m.zh.is_empty() && !m.en.is_empty(), "{m:?}");
            // Chinese texts carry Chinese characters unless they are Kafka's own names.
            let names_only = m.en == m.zh;
            if !names_only {
                assert!(m.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) || m.zh == "English", "{m:?}");
            }
        }
    }
}
