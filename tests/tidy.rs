//! Tidy: rules about the code itself, checked on every test run (after rust-analyzer's
//! `xtask/src/tidy.rs`). Each rule says why in its test; ARCHITECTURE.md lists them.
//!
//! - The core's modules form layers, and none reaches up: L0 plain data and tools, L1 the
//!   vocabularies (settings, commands, events, refusals), L2 the state of each Kafka part,
//!   L3 the engine and the monitors, L4 the read side and the formats.
//! - The page reads the core through L0, L1 and L4 (plus the `Sim` it drives); the modules
//!   it still reaches below that are listed as debts, and the list may only shrink.
//! - Every source file opens with a `//!` line saying what it is.
//! - Stable sorts go through `core/src/sorted.rs` (one copy of the sort in the page).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The core's layers, lowest first. A module may use modules of its own layer or below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "L0 plain data and tools",
        &["time", "rng", "uuid", "base64url", "sorted", "vecmap", "chunked", "json", "limits", "record", "tagged", "name"],
    ),
    ("L1 vocabularies", &["config", "error", "command", "event"]),
    ("L2 state", &["log", "cluster", "producer", "group", "share_group", "partitioner", "assign", "txn"]),
    ("L3 engine and monitors", &["sim", "monitor", "monitor_txn", "invariant"]),
    (
        "L4 read side and formats",
        &[
            "snapshot",
            "scenario",
            "lesson",
            "history",
            "share",
            "share_view",
            "offsets_view",
            "compare",
            "provenance",
            "read",
            "run",
            "builder",
            "bridge",
            "__bench",
        ],
    ),
];

/// Core modules the page still uses though they are below its layers (state the page reads
/// directly, until the read layer serves it). Remove an entry when the page stops using it;
/// the test fails if an entry is no longer needed, so the list stays true.
/// `sim` stays for the `Sim` the page drives and its command log (`LoggedCommand`), and for
/// the editor's connector and Streams specs (`draft.rs`, `panels/editor.rs`).
const PAGE_DEBTS: &[&str] = &["sim"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A file's code before its test module (tests may use anything), without comment lines;
/// nothing for a file that is a test module itself (`tests.rs`).
fn code(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let before_tests = text.split("\n#[cfg(test)]").next().unwrap_or_default();
    before_tests.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The names that follow `prefix` (`crate::` or `kafka_sandbox_core::`) in `text`: the
/// modules it reaches. `$crate::` (macros) does not count.
fn modules_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if matches!(before, Some(c) if c == '$' || c == ':' || c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = rest.chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_').collect();
        if !name.is_empty() && rest[name.len()..].starts_with("::") {
            out.insert(name);
        }
    }
    out
}

/// The top-level core module a file belongs to (`sim/produce.rs` → `sim`).
fn core_module(path: &Path) -> String {
    let rel = path.strip_prefix(root().join("core/src")).unwrap_or(path);
    let first = rel.components().next().map(|c| c.as_os_str().to_string_lossy().to_string()).unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

#[test]
fn no_core_module_reaches_up_a_layer() {
    let mut problems = Vec::new();
    for file in rust_files(&root().join("core/src")) {
        let module = core_module(&file);
        if module == "lib" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            problems.push(format!("core module `{module}` ({}) is in no layer: add it to LAYERS in tests/tidy.rs", file.display()));
            continue;
        };
        for used in modules_after(&code(&file), "crate::") {
            match layer_of(&used) {
                Some(l) if l > own => problems.push(format!(
                    "{}: `{module}` ({}) uses `crate::{used}` ({}), a layer above it",
                    file.display(),
                    LAYERS[own].0,
                    LAYERS[l].0
                )),
                _ => {}
            }
        }
    }
    assert!(problems.is_empty(), "upward imports:\n{}", problems.join("\n"));
}

#[test]
fn the_page_reads_the_core_through_its_vocabularies_and_read_side() {
    let allowed: BTreeSet<&str> =
        LAYERS.iter().enumerate().filter(|(i, _)| *i != 2 && *i != 3).flat_map(|(_, (_, m))| m.iter().copied()).collect();
    let mut used: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in rust_files(&root().join("web/src")) {
        for m in modules_after(&code(&file), "kafka_sandbox_core::") {
            used.entry(m).or_default().push(file.display().to_string());
        }
    }
    let below: Vec<String> = used.keys().filter(|m| !allowed.contains(m.as_str())).cloned().collect();
    let new: Vec<String> =
        below.iter().filter(|m| !PAGE_DEBTS.contains(&m.as_str())).map(|m| format!("{m} (in {})", used[m].join(", "))).collect();
    assert!(
        new.is_empty(),
        "the page reaches core modules below its layers: {new:?} — read them through the read side (L4) or a vocabulary (L1)"
    );
    let paid: Vec<&&str> = PAGE_DEBTS.iter().filter(|d| !below.contains(&d.to_string())).collect();
    assert!(paid.is_empty(), "the page no longer uses {paid:?}: remove them from PAGE_DEBTS in tests/tidy.rs");
}

#[test]
fn every_source_file_says_what_it_is() {
    let mut missing = Vec::new();
    for dir in ["core/src", "web/src", "src", "tests", "benches"] {
        for file in rust_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if !text.trim_start().starts_with("//!") {
                missing.push(file.display().to_string());
            }
        }
    }
    assert!(missing.is_empty(), "files without a `//!` line at the top: {missing:?}");
}

#[test]
fn stable_sorts_go_through_sorted_rs() {
    let mut found = Vec::new();
    for dir in ["core/src", "web/src"] {
        for file in rust_files(&root().join(dir)) {
            if file.ends_with("sorted.rs") {
                continue;
            }
            for (n, line) in code(&file).lines().enumerate() {
                if [".sort()", ".sort_by(", ".sort_by_key("].iter().any(|s| line.contains(s)) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "use kafka_sandbox_core::sorted (one copy of the sort in the page):\n{}", found.join("\n"));
}

/// The scenario format's spec and settings types: outside the core, a struct literal of one
/// ends in `..Default` (`..TopicSpec::default()`), so a field added to the format changes no
/// code and no test that does not use it.
const SPEC_TYPES: &[&str] = &[
    "Scenario",
    "TopicSpec",
    "ProducerSpec",
    "SendPlan",
    "GroupSpec",
    "MemberSpec",
    "ClusterConfig",
    "ProducerConfig",
    "GroupConfig",
    "ConsumerConfig",
];

/// Struct literals of [`SPEC_TYPES`] in `text` that name their fields without a `..` base:
/// `(type, line)`. A type named after `fn`'s `->`, `struct`, `impl`, `for` or `let` is not a
/// literal.
fn literals_without_base(text: &str) -> Vec<(String, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for name in SPEC_TYPES {
        let needle = format!("{name} {{");
        let mut from = 0;
        while let Some(i) = text[from..].find(&needle).map(|i| i + from) {
            from = i + needle.len();
            let whole_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            let before = text[..i].trim_end_matches(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
            let before = before.trim_end();
            let not_literal = ["->", "struct", "impl", "for", "let", "enum"].iter().any(|w| before.ends_with(w));
            if !whole_word || not_literal {
                continue;
            }
            let (mut depth, mut top, mut j) = (1, String::new(), from);
            while depth > 0 && j < bytes.len() {
                match bytes[j] {
                    b'{' | b'(' | b'[' => depth += 1,
                    b'}' | b')' | b']' => depth -= 1,
                    c if depth == 1 => top.push(c as char),
                    _ => {}
                }
                j += 1;
            }
            if top.contains(':') && !top.contains("..") {
                out.push((name.to_string(), text[..i].lines().count()));
            }
        }
    }
    out
}

#[test]
fn spec_literals_outside_the_core_end_in_default() {
    let mut found = Vec::new();
    for dir in ["tests", "web/src", "web/tests", "src", "benches"] {
        for file in rust_files(&root().join(dir)) {
            if file.ends_with("tidy.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for (name, line) in literals_without_base(&text) {
                found.push(format!("{}:{line}: {name} {{ .. }} without `..{name}::default()`", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "end these literals in ..Default (a new field then changes nothing here):\n{}", found.join("\n"));
}

/// `docs/scenario-format.md` prints the limits table between its markers, exactly.
#[test]
fn the_format_doc_prints_the_limits_table() {
    let doc = std::fs::read_to_string(root().join("docs/scenario-format.md")).unwrap_or_default();
    let (begin, end) = ("<!-- limits:begin -->\n", "<!-- limits:end -->");
    let printed = doc.split_once(begin).and_then(|(_, rest)| rest.split_once(end)).map(|(table, _)| table);
    let table = kafka_sandbox_core::limits::markdown_table();
    assert_eq!(printed, Some(table.as_str()), "docs/scenario-format.md, between {begin:?} and {end:?}, should be:\n{table}");
}

#[test]
fn the_rules_see_what_they_check() {
    assert_eq!(literals_without_base("let s = GroupSpec { id: x, topics: y };"), vec![("GroupSpec".to_string(), 1)]);
    assert!(literals_without_base("let s = GroupSpec { id: x, ..GroupSpec::default() };").is_empty());
    assert!(literals_without_base("fn f() -> scenario::Scenario {\n    x: 1 }").is_empty());
    assert!(literals_without_base("let SubGroupSpec { a: 1 };").is_empty());
    // The scanner finds modules after a path prefix, but not inside a longer name or a macro's `$crate`.
    let found = modules_after("use crate::event::Event; x::crate::no::y; $crate::tagged::f(); crate::sim::Sim", "crate::");
    assert_eq!(found, ["event", "sim"].iter().map(|s| s.to_string()).collect());
    assert_eq!(core_module(&root().join("core/src/sim/produce.rs")), "sim");
    assert_eq!(layer_of("sim"), Some(3));
    // Every module the core declares is placed in a layer.
    let lib = std::fs::read_to_string(root().join("core/src/lib.rs")).unwrap_or_default();
    for line in lib.lines() {
        let Some(name) = line.trim().strip_prefix("pub mod ").or_else(|| line.trim().strip_prefix("pub(crate) mod ")) else { continue };
        let name = name.trim_end_matches(';');
        assert!(layer_of(name).is_some(), "core module {name} is in no layer");
    }
}

/// The `Sim` methods a feature's engine file may define that change the world: the
/// dispatchers (`handle_x` of its scheduled events, `execute_x_command` of its commands,
/// `add_x` while building) and these, which call two owners in turn within one step. The
/// handlers themselves are methods of the owner whose state they change (`Cluster`,
/// `Clients`, `Consumers`, `Apps`), with the owners they read and the driver as
/// parameters, so each can be tested alone (ARCHITECTURE.md, "Handlers, effects and the
/// one driver"). A list that may only shrink.
const SIM_ORCHESTRATORS: &[&str] = &["processing_done"];

/// `(file, method)` for every `&mut self` method of an `impl Sim` block in `text`.
fn mutating_sim_methods(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_sim = false;
    for line in text.lines() {
        if line.starts_with("impl") {
            in_sim = line.starts_with("impl Sim {");
        }
        let Some(rest) = line.strip_prefix("    ") else { continue };
        let rest = rest.trim_start_matches("pub ").trim_start_matches("pub(crate) ").trim_start_matches("pub(super) ");
        let rest = rest.strip_prefix("pub(in crate::sim) ").unwrap_or(rest);
        let Some(sig) = rest.strip_prefix("fn ") else { continue };
        let name: String = sig.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if in_sim && sig.contains("&mut self") {
            found.push(name);
        }
    }
    found
}

#[test]
fn engine_handlers_are_owner_methods_and_sim_only_dispatches() {
    let sim = root().join("core/src/sim");
    let mut offenders = Vec::new();
    for path in rust_files(&sim) {
        if path.ends_with("sim/mod.rs") {
            continue; // The driver's own loop: apply, step, run, replay, and the building API.
        }
        for name in mutating_sim_methods(&code(&path)) {
            let dispatch = ["handle_", "execute_", "add_"].iter().any(|p| name.starts_with(p));
            if !dispatch && !SIM_ORCHESTRATORS.contains(&name.as_str()) {
                offenders.push(format!("{}: Sim::{name}", path.strip_prefix(&sim).unwrap_or(&path).display()));
            }
        }
    }
    assert!(offenders.is_empty(), "engine code on `impl Sim` instead of its owner (Cluster, Clients, Consumers, Apps): {offenders:?}");
    // The rule sees what it checks.
    let sample = "impl Sim {\n    pub(super) fn crash(&mut self) {}\n    fn handle_x(&mut self) {}\n    fn look(&self) {}\n}\nimpl Cluster {\n    fn elect(&mut self) {}\n}";
    assert_eq!(mutating_sim_methods(sample), ["crash", "handle_x"]);
}

/// Every file of a test crate made of modules (`tests/sim/`, `tests/fuzz/`) is declared in
/// its `main.rs`: a test file that is not is never compiled, and its tests never run.
#[test]
fn every_test_file_is_a_module_of_its_crate() {
    let mut missing = Vec::new();
    for dir in ["tests/sim", "tests/fuzz"] {
        let dir = root().join(dir);
        let main = std::fs::read_to_string(dir.join("main.rs")).unwrap_or_default();
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
            if path.extension().is_none_or(|x| x != "rs") || stem == "main" {
                continue;
            }
            if !main.lines().any(|l| l.trim() == format!("mod {stem};")) {
                missing.push(format!("{}: mod {stem};", dir.strip_prefix(root()).unwrap_or(&dir).display()));
            }
        }
    }
    assert!(missing.is_empty(), "test files never compiled (add the line to main.rs): {missing:?}");
}
