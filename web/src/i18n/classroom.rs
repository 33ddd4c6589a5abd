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
