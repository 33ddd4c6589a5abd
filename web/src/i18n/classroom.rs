//! The page's words for the classroom and the real cluster (issue 21): share links that
//! always open, lesson layout, presentation mode, the glossary, the describe-group view
//! and the bridge to real Kafka. Their own `msgs!` block, so other features' words merge
//! without touching these.

use super::Msg;

msgs! {
    LINK_COPIED = "链接已复制到剪贴板", "Link copied to the clipboard";
    LINK_NOT_COPIED = "无法写入剪贴板：请选中链接后自己复制（Ctrl+C）", "The clipboard refused: select the link and copy it yourself (Ctrl+C)";
    SAVE_INSTEAD = "改为保存文件", "Save as a file instead";
}
