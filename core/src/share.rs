//! A run as a short text: what a share link carries in its fragment, what autosave keeps
//! and what "save" writes. It holds the scenario, the commands applied to the run (with
//! their step counts) and the step the learner was at, so opening it rebuilds exactly that
//! moment by deterministic replay.
//!
//! Format: `ks1.` + URL-safe base64 (no padding) of the LZW-compressed JSON of
//! [`SharedRun`]. Decoding checks sizes before doing any work (the text, the decompressed
//! JSON), so a pasted or damaged link gives a clear error instead of a hang.

use crate::history::History;
use crate::scenario::{read_json, write_json, Scenario, ScenarioError, MAX_SCENARIO_BYTES};
use crate::sim::{LoggedCommand, Sim};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a link holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedRun {
    /// The scenario the run started from.
    pub scenario: Scenario,
    /// The commands applied to the run so far, in order.
    #[serde(default)]
    pub commands: Vec<LoggedCommand>,
    /// The step the learner was at (commands logged at this step are applied).
    #[serde(default)]
    pub steps: u64,
    /// After going back: the commands of the run still to come.
    #[serde(default)]
    pub to_come: Vec<LoggedCommand>,
    /// After the learner changed something while a fork kept the recorded future: the
    /// commands still to come, replayed by their moment ([`crate::history::advance_to_by_time`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed: Vec<LoggedCommand>,
    /// The fork being compared with the run, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<SharedFork>,
}

/// A fork in a shared run: the run as it was when forked (its commands then and its
/// step count) and the future it replays by moment; opening rebuilds it up to the run's
/// moment ([`rebuild_fork`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedFork {
    /// The commands the run had applied when it was forked.
    pub commands: Vec<LoggedCommand>,
    /// The run's step count when it was forked.
    pub steps: u64,
    /// The simulated moment it was forked at, in ms.
    #[serde(default)]
    pub at_ms: u64,
    /// The recorded future the fork replays by moment.
    #[serde(default)]
    pub future: Vec<LoggedCommand>,
}

const PREFIX: &str = "ks1.";
/// The longest encoded text accepted (a URL fragment of 256 KiB is already unusual).
pub const MAX_ENCODED: usize = 256 * 1024;
/// The most commands a shared run may carry.
pub const MAX_COMMANDS: usize = 10_000;
/// The furthest step a shared run may ask to replay to.
pub const MAX_STEPS: u64 = 5_000_000;

/// serde_json's own words for a mistake in a run's JSON: its message (`missing field
/// `scenario``) and its place, kept apart (serde writes "MESSAGE at line L column C").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerdeSays {
    /// serde_json's message without its place.
    pub message: String,
    /// The line, from 1; 0 when serde_json gives no place.
    pub line: usize,
    /// The column in that line, from 1; 0 when serde_json gives no place.
    pub column: usize,
}

impl SerdeSays {
    fn of(e: &serde_json::Error) -> Self {
        let text = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = if e.line() == 0 { text.as_str() } else { text.strip_suffix(&place).unwrap_or(&text) };
        Self { message: message.to_string(), line: e.line(), column: e.column() }
    }
}

impl fmt::Display for SerdeSays {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "{} at line {} column {}", self.message, self.line, self.column)
        }
    }
}

/// What is wrong in a link's compressed body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// Characters outside URL-safe base64.
    NotBase64,
    /// The first LZW code is not a byte.
    UnknownFirstCode,
    /// An LZW code beyond the table built so far.
    UndefinedCode {
        /// The code read.
        code: usize,
    },
    /// It expands past `limit` bytes (a decompression bomb, or garbage).
    ExpandsPast {
        /// The most bytes a link's JSON may take (four times [`MAX_SCENARIO_BYTES`]).
        limit: usize,
    },
}

/// Why a link, a saved run or a file could not be opened: a typed value with its
/// parameters; `Display` is the English, the page renders it in Chinese.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The link text is longer than [`MAX_ENCODED`].
    LinkTooLong {
        /// The text's length, in bytes (after trimming spaces and a leading `#`).
        chars: usize,
    },
    /// It does not start with `ks1.`.
    NotALink,
    /// The compressed body does not decode ([`Damage`] says how).
    Damaged(Damage),
    /// The link's JSON is not a run (serde_json's words, or bytes that are not UTF-8).
    LinkNotARun(SerdeSays),
    /// The link's scenario is refused by the scenario checks.
    LinkScenario(ScenarioError),
    /// More than [`MAX_COMMANDS`] commands, applied and still to come together.
    TooManyCommands {
        /// How many commands the link carries.
        count: usize,
    },
    /// A step past [`MAX_STEPS`].
    TooManySteps {
        /// The step the link asks for.
        steps: u64,
    },
    /// Commands whose step counts go backwards, or one logged after the step the run is at.
    OutOfOrder,
    /// A file or pasted text longer than four times [`MAX_SCENARIO_BYTES`].
    FileTooBig {
        /// The text's length in bytes.
        bytes: usize,
    },
    /// A saved run whose scenario is refused.
    FileScenario(ScenarioError),
    /// JSON that names a `scenario` but is not a saved run.
    NotASavedRun(SerdeSays),
    /// JSON that is neither a run nor a scenario: the scenario's refusal.
    NotAScenario(ScenarioError),
    /// The run's scenario does not build.
    Build(ScenarioError),
    /// Share: the run's link would be longer than opening accepts ([`MAX_ENCODED`]); save
    /// it as a file instead.
    TooBigForLink {
        /// The link's length, in characters.
        chars: usize,
    },
    /// A file that is neither JSON (a saved run or a scenario) nor a link's text.
    NotJsonFile,
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::LinkTooLong { chars } => write!(f, "the link is {chars} characters long; at most {MAX_ENCODED} are accepted"),
            ShareError::NotALink => write!(f, "this is not a Kafka Sandbox link (it should start with \"{PREFIX}\")"),
            ShareError::Damaged(d) => write!(f, "the link is damaged: {d}"),
            ShareError::LinkNotARun(serde) => {
                write!(f, "the link's content is not a valid run (was the link cut short or changed?): {serde}")
            }
            ShareError::LinkScenario(e) => write!(f, "the link's scenario is invalid: {e}"),
            ShareError::TooManyCommands { count } => write!(f, "the link carries {count} commands; at most {MAX_COMMANDS} are accepted"),
            ShareError::TooManySteps { steps } => write!(f, "the link asks for step {steps}; at most {MAX_STEPS} are replayed"),
            ShareError::OutOfOrder => f.write_str("the link's commands are out of order"),
            ShareError::FileTooBig { bytes } => write!(f, "it is {bytes} bytes; at most {} are accepted", MAX_SCENARIO_BYTES * 4),
            ShareError::FileScenario(e) => write!(f, "its scenario is invalid: {e}"),
            ShareError::NotASavedRun(serde) => write!(f, "it is not a valid saved run: {serde}"),
            ShareError::NotAScenario(e) | ShareError::Build(e) => e.fmt(f),
            ShareError::TooBigForLink { chars } => write!(
                f,
                "this run makes a link of {chars} characters, more than the {MAX_ENCODED} a link may have; save it as a file instead"
            ),
            ShareError::NotJsonFile => {
                f.write_str("this file is not JSON: open a run saved with Save file, a scenario (.json) or a file holding a share link")
            }
        }
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Said for the person holding the link, not for the decoder's author: what the
            // link should look like, and the likely cause (cut short or changed).
            Damage::NotBase64 => {
                f.write_str("it contains characters a link never has (after \"ks1.\" only letters, digits, '-' and '_'); was it changed?")
            }
            Damage::UnknownFirstCode | Damage::UndefinedCode { .. } => {
                f.write_str("its text does not decode; it was probably cut short or changed when it was copied")
            }
            Damage::ExpandsPast { limit } => write!(f, "it would unpack to more than {limit} bytes, more than any run"),
        }
    }
}

impl std::error::Error for ShareError {}

/// Encodes a run.
pub fn encode(run: &SharedRun) -> String {
    let json = write_json(run, false);
    let packed = lzw_compress(json.as_bytes());
    format!("{PREFIX}{}", crate::base64url::encode(&packed))
}

/// Decodes a run; the error says what is wrong ([`ShareError`]).
pub fn decode(text: &str) -> Result<SharedRun, ShareError> {
    let text = text.trim().trim_start_matches('#');
    if text.len() > MAX_ENCODED {
        return Err(ShareError::LinkTooLong { chars: text.len() });
    }
    let Some(body) = text.strip_prefix(PREFIX) else {
        return Err(ShareError::NotALink);
    };
    let packed = crate::base64url::decode(body).ok_or(ShareError::Damaged(Damage::NotBase64))?;
    let json = lzw_decompress(&packed, MAX_SCENARIO_BYTES * 4).map_err(ShareError::Damaged)?;
    // Read as text, through the crate's one JSON reader (`read_json`).
    let json = std::str::from_utf8(&json).map_err(|e| ShareError::LinkNotARun(not_utf8(&json, &e)))?;
    let run: SharedRun = read_json(json).map_err(|(_, e)| ShareError::LinkNotARun(SerdeSays::of(&e)))?;
    run.scenario.check().map_err(ShareError::LinkScenario)?;
    check_run(&run)?;
    Ok(run)
}

/// The bounds and orders every opened run must have.
fn check_run(run: &SharedRun) -> Result<(), ShareError> {
    let fork = run.fork.as_ref();
    let count = run.commands.len() + run.to_come.len() + run.timed.len() + fork.map_or(0, |f| f.commands.len() + f.future.len());
    if count > MAX_COMMANDS {
        return Err(ShareError::TooManyCommands { count });
    }
    let steps = run.steps.max(fork.map_or(0, |f| f.steps));
    if steps > MAX_STEPS {
        return Err(ShareError::TooManySteps { steps });
    }
    let ordered = |c: &[LoggedCommand]| c.windows(2).all(|w| w[0].after_steps <= w[1].after_steps);
    let by_time = |c: &[LoggedCommand]| c.windows(2).all(|w| w[0].at <= w[1].at);
    let fork_ordered =
        fork.is_none_or(|f| ordered(&f.commands) && by_time(&f.future) && f.commands.last().is_none_or(|c| c.after_steps <= f.steps));
    if !ordered(&run.commands)
        || !ordered(&run.to_come)
        || !by_time(&run.timed)
        || !fork_ordered
        || run.commands.last().is_some_and(|c| c.after_steps > run.steps)
    {
        return Err(ShareError::OutOfOrder);
    }
    Ok(())
}

/// The share link's text for a run ([`encode`]), if opening will accept it: a link is
/// never longer than [`MAX_ENCODED`], the most [`decode`] reads; past that the refusal
/// says so, and the page offers to save the run as a file.
pub fn link(run: &SharedRun) -> Result<String, ShareError> {
    let text = encode(run);
    if text.len() > MAX_ENCODED {
        return Err(ShareError::TooBigForLink { chars: text.len() });
    }
    Ok(text)
}

/// Reads a file the learner chose: what [`open_any`] reads, and a file that is neither
/// JSON nor a link's text is said to be that (not "not a Kafka Sandbox link").
pub fn open_file(text: &str) -> Result<SharedRun, ShareError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if !trimmed.starts_with('{') && !trimmed.trim_start_matches('#').starts_with(PREFIX) {
        return Err(ShareError::NotJsonFile);
    }
    open_any(trimmed)
}

/// Reads what a learner may open: a saved run (JSON), a scenario (JSON) or a link text.
pub fn open_any(text: &str) -> Result<SharedRun, ShareError> {
    if text.len() > MAX_SCENARIO_BYTES * 4 {
        return Err(ShareError::FileTooBig { bytes: text.len() });
    }
    if !text.trim_start().starts_with('{') {
        return decode(text);
    }
    let as_run = read_json::<SharedRun>(text).map_err(|(_, e)| e);
    match as_run {
        Ok(run) => {
            run.scenario.check().map_err(ShareError::FileScenario)?;
            check_run(&run)?;
            Ok(run)
        }
        Err(run_error) => match Scenario::from_json(text) {
            Ok(scenario) => Ok(SharedRun { scenario, ..SharedRun::default() }),
            Err(_) if text.contains("\"scenario\"") => Err(ShareError::NotASavedRun(SerdeSays::of(&run_error))),
            Err(e) => Err(ShareError::NotAScenario(e)),
        },
    }
}

/// A run as readable JSON (what "Save file" writes; [`open_any`] reads it back).
pub fn to_json_pretty(run: &SharedRun) -> String {
    write_json(run, true)
}

/// Where bytes stop being UTF-8, in serde_json's words ("invalid unicode code point at
/// line 1 column 12"; the column counts bytes, as serde_json's does).
fn not_utf8(bytes: &[u8], e: &std::str::Utf8Error) -> SerdeSays {
    let at = e.valid_up_to();
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    SerdeSays { message: "invalid unicode code point".to_string(), line, column: at - line_start + 1 }
}

/// Rebuilds a shared run's fork, up to the run's own moment `until`: the run as it was
/// when forked (its commands then, to its step count then), then the fork's future by
/// moment; with how many of its future's commands that applied. `None` when the run has
/// no fork.
pub fn rebuild_fork(run: &SharedRun, until: crate::SimTime) -> Result<Option<(Sim, usize)>, ShareError> {
    let Some(fork) = &run.fork else { return Ok(None) };
    let base = run.scenario.build().map_err(ShareError::Build)?;
    let history = History::new(base, u64::MAX, 2);
    let target = fork.steps;
    let mut sim = history.restore(&fork.commands, |s| s.steps() >= target, MAX_STEPS);
    let done = sim.command_log().len().min(fork.commands.len());
    for entry in &fork.commands[done..] {
        sim.apply_logged(entry);
    }
    let (applied, _) = crate::history::advance_to_by_time(&mut sim, &fork.future, until, MAX_STEPS);
    Ok(Some((sim, applied)))
}

/// Rebuilds the run at its step: the scenario built, the commands replayed. Commands
/// after that step are returned too (the learner had gone back; they are still to come).
pub fn rebuild(run: &SharedRun) -> Result<(Sim, Vec<LoggedCommand>), ShareError> {
    let base = run.scenario.build().map_err(ShareError::Build)?;
    let history = History::new(base.clone(), u64::MAX, 2);
    let target = run.steps;
    let mut sim = history.restore(&run.commands, |s| s.steps() >= target, MAX_STEPS);
    // Commands applied at the step itself are part of what the learner saw.
    let done = sim.command_log().len().min(run.commands.len());
    for entry in &run.commands[done..] {
        sim.apply_logged(entry);
    }
    Ok((sim, run.to_come.clone()))
}

// ----- LZW over bytes, variable-width codes (9 to 16 bits; the table stops growing) ----

/// Bits needed for codes below `n`.
fn width(n: usize) -> u32 {
    (usize::BITS - (n.max(2) - 1).leading_zeros()).clamp(9, 16)
}

fn lzw_compress(data: &[u8]) -> Vec<u8> {
    // The dictionary maps (code of a known string, next byte) to the code of the longer
    // string, in an open-addressing table with a fixed hash (no allocation per byte, no
    // ambient randomness). At most 65,536 - 256 entries: 2^17 slots keep it half full.
    const SLOTS: usize = 1 << 17;
    const EMPTY: u32 = u32::MAX;
    let mut keys: Vec<u32> = vec![EMPTY; SLOTS];
    let mut codes: Vec<u16> = vec![0; SLOTS];
    let slot = |key: u32, keys: &[u32]| {
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 15) as usize & (SLOTS - 1);
        while keys[i] != EMPTY && keys[i] != key {
            i = (i + 1) & (SLOTS - 1);
        }
        i
    };
    let mut next: usize = 256;
    let mut out: Vec<u8> = Vec::with_capacity(data.len() / 2);
    let (mut acc, mut bits) = (0u64, 0u32);
    let mut emit = |code: u32, w: u32, out: &mut Vec<u8>| {
        acc = (acc << w) | u64::from(code);
        bits += w;
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    };
    let Some((&first, rest)) = data.split_first() else { return out };
    // The code of the string read so far (it is always in the dictionary).
    let mut w = u32::from(first);
    for &c in rest {
        let key = (w << 8) | u32::from(c);
        let i = slot(key, &keys);
        if keys[i] == key {
            w = u32::from(codes[i]);
        } else {
            emit(w, width(next), &mut out);
            if next < 65_536 {
                keys[i] = key;
                codes[i] = next as u16;
                next += 1;
            }
            w = u32::from(c);
        }
    }
    emit(w, width(next), &mut out);
    // Flush the last bits, padded with zeros (fewer than a code's width).
    if bits > 0 {
        out.push((acc << (8 - bits)) as u8);
    }
    out
}

fn lzw_decompress(data: &[u8], limit: usize) -> Result<Vec<u8>, Damage> {
    let mut dict: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    let mut out = Vec::new();
    let mut prev: Option<Vec<u8>> = None;
    let (mut acc, mut bits) = (0u64, 0u32);
    let mut bytes = data.iter();
    loop {
        let n = (dict.len() + usize::from(prev.is_some())).min(65_536);
        let w = width(n);
        while bits < w {
            match bytes.next() {
                Some(b) => {
                    acc = (acc << 8) | u64::from(*b);
                    bits += 8;
                }
                None => return Ok(out),
            }
        }
        bits -= w;
        let code = ((acc >> bits) & ((1 << w) - 1)) as usize;
        let entry = if code < dict.len() {
            dict[code].clone()
        } else if code == dict.len() {
            let Some(p) = &prev else { return Err(Damage::UnknownFirstCode) };
            let mut e = p.clone();
            e.push(p[0]);
            e
        } else {
            return Err(Damage::UndefinedCode { code });
        };
        out.extend_from_slice(&entry);
        if out.len() > limit {
            return Err(Damage::ExpandsPast { limit });
        }
        if let Some(mut p) = prev.take() {
            if dict.len() < 65_536 {
                p.push(entry[0]);
                dict.push(p);
            }
        }
        prev = Some(entry);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::command::GroupCommand;
    use crate::command::MemberSpec;

    #[test]
    fn base64_and_lzw_round_trip() {
        for data in [&b""[..], b"a", b"ab", b"abc", b"TOBEORNOTTOBEORTOBEORNOT#", &[0u8, 255, 7, 7, 7, 7, 7, 7][..]] {
            assert_eq!(crate::base64url::decode(&crate::base64url::encode(data)).unwrap(), data);
            assert_eq!(lzw_decompress(&lzw_compress(data), 1 << 20).unwrap(), data);
        }
        let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8 ^ (i / 7) as u8).collect();
        assert_eq!(lzw_decompress(&lzw_compress(&big), 1 << 20).unwrap(), big);
    }

    /// The textbook LZW (a map from strings to codes) the links were first made with: the
    /// hashed table must give the same bytes, or links shared earlier would not open.
    fn lzw_reference(data: &[u8]) -> Vec<u8> {
        let mut dict: std::collections::BTreeMap<Vec<u8>, u32> = (0..=255u32).map(|b| (vec![b as u8], b)).collect();
        let (mut next, mut out, mut acc, mut bits) = (256usize, Vec::new(), 0u64, 0u32);
        let mut emit = |code: u32, w: u32, out: &mut Vec<u8>| {
            acc = (acc << w) | u64::from(code);
            bits += w;
            while bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        };
        let mut w: Vec<u8> = Vec::new();
        for &c in data {
            let mut wc = w.clone();
            wc.push(c);
            if dict.contains_key(&wc) {
                w = wc;
            } else {
                emit(dict[&w], width(next), &mut out);
                if next < 65_536 {
                    dict.insert(wc, next as u32);
                    next += 1;
                }
                w = vec![c];
            }
        }
        if let Some(code) = dict.get(&w) {
            emit(*code, width(next), &mut out);
        }
        if bits > 0 {
            out.push((acc << (8 - bits)) as u8);
        }
        out
    }

    #[test]
    fn the_compressor_gives_the_textbook_bytes_even_when_its_table_is_full() {
        let mut rng = crate::rng::SimRng::new(5);
        let noisy: Vec<u8> = (0..300_000).map(|_| (rng.next_u64() % 7) as u8 + b'a').collect();
        let json = serde_json::to_string(&crate::scenario::default_scenario()).unwrap().into_bytes();
        let mut count = Vec::new();
        for i in 0..40_000u32 {
            count.extend_from_slice(format!("\"v{i}\",").as_bytes());
        }
        for data in [&b""[..], b"a", b"aaaaaaaaaaaaaaaaaaaa", &json, &noisy, &count] {
            let fast = lzw_compress(data);
            assert_eq!(fast, lzw_reference(data), "{} bytes", data.len());
            assert_eq!(lzw_decompress(&fast, 1 << 24).unwrap(), data);
        }
    }

    #[test]
    fn a_run_shared_is_the_same_run_opened() {
        let scenario = crate::scenario::default_scenario();
        let mut sim = scenario.build().unwrap();
        let group = sim.groups().next().unwrap().id().to_string();
        sim.run_to(crate::SimTime(9_000));
        sim.apply(GroupCommand::AddMember { group: group.clone(), member: MemberSpec::new("late") }).unwrap();
        sim.run_to(crate::SimTime(15_000));
        // Take the state at a step boundary (as the page does when it shares).
        let steps = sim.steps();
        // A command at the very step shared is part of what is shown.
        sim.apply(GroupCommand::PauseMember { group: group.clone(), client_id: "late".into(), paused: true }).unwrap();
        let run =
            SharedRun { scenario: scenario.clone(), commands: sim.command_log().to_vec(), steps, to_come: vec![], ..SharedRun::default() };
        let text = encode(&run);
        assert!(text.starts_with("ks1."));
        assert!(text.len() < serde_json::to_string(&run).unwrap().len(), "compressed");
        let back = decode(&text).unwrap();
        assert_eq!(back, run);
        let (opened, to_come) = rebuild(&back).unwrap();
        assert!(to_come.is_empty());
        assert_eq!(opened.steps(), steps);
        assert_eq!(opened.trace().digest(), sim.trace().digest());
        assert!(opened.group(&group).unwrap().member("late").is_some_and(|m| m.paused()));
        assert_eq!(opened.snapshot(), sim.snapshot());
    }

    #[test]
    fn the_one_json_writer_gives_serde_json_bytes() {
        let every = Scenario::from_json(include_str!("../../tests/golden/every-feature.json")).unwrap();
        let mut scenarios: Vec<Scenario> = crate::scenario::BUILT_IN.iter().map(|(_, t)| Scenario::from_json(t).unwrap()).collect();
        scenarios.push(every.clone());
        let mut sim = every.build().unwrap();
        sim.run_to(crate::SimTime(30_000));
        let group = sim.groups().next().unwrap().id().to_string();
        sim.apply(GroupCommand::AddMember { group, member: MemberSpec::new("late") }).unwrap();
        let run = SharedRun {
            scenario: every,
            commands: sim.command_log().to_vec(),
            steps: sim.steps(),
            to_come: vec![],
            ..SharedRun::default()
        };
        assert!(!run.commands.is_empty());
        for s in &scenarios {
            assert_eq!(write_json(s, false), serde_json::to_string(s).unwrap());
            assert_eq!(write_json(s, true), serde_json::to_string_pretty(s).unwrap());
        }
        assert_eq!(write_json(&run, false), serde_json::to_string(&run).unwrap());
        assert_eq!(write_json(&run, true), serde_json::to_string_pretty(&run).unwrap());
        let odd = serde_json::json!({"a": [], "b": {}, "c": [[], {}, [1, [2, {"d": null}]]], "e": "\u{1}\"\n"});
        assert_eq!(write_json(&odd, false), serde_json::to_string(&odd).unwrap());
        assert_eq!(write_json(&odd, true), serde_json::to_string_pretty(&odd).unwrap());
        assert_eq!(write_json(&Vec::<u8>::new(), true), "[]");
    }

    #[test]
    fn a_link_that_is_not_utf8_says_where() {
        let link = format!("ks1.{}", crate::base64url::encode(&lzw_compress(b"{\n \"scenario\": \"\xff\"}")));
        let e = decode(&link).unwrap_err().to_string();
        assert_eq!(
            e,
            "the link's content is not a valid run (was the link cut short or changed?): invalid unicode code point at line 2 column 15"
        );
    }

    #[test]
    fn damaged_links_say_what_is_wrong() {
        let good = encode(&SharedRun {
            scenario: crate::scenario::default_scenario(),
            commands: vec![],
            steps: 0,
            to_come: vec![],
            ..SharedRun::default()
        });
        assert!(decode("hello").unwrap_err().to_string().contains("not a Kafka Sandbox link"));
        assert!(decode("ks1.***").unwrap_err().to_string().contains("characters a link never has"));
        assert!(decode(&good[..good.len() - 7]).is_err());
        assert!(decode(&format!("ks1.{}", "A".repeat(MAX_ENCODED))).unwrap_err().to_string().contains("at most"));
        // A bomb: a long run of one byte compresses to little and would expand far past
        // the limit; decoding stops there.
        let e = lzw_decompress(&lzw_compress(&vec![b'a'; 1_100_000]), 1 << 20).unwrap_err();
        assert_eq!(e, Damage::ExpandsPast { limit: 1 << 20 });
        assert_eq!(e.to_string(), "it would unpack to more than 1048576 bytes, more than any run");
        let bad_json = format!("ks1.{}", crate::base64url::encode(&lzw_compress(b"{\"scenario\": 5}")));
        let e = decode(&bad_json).unwrap_err();
        assert!(matches!(&e, ShareError::LinkNotARun(s) if s.line == 1 && s.message.starts_with("invalid type: integer `5`")), "{e:?}");
        assert!(
            e.to_string()
                .starts_with("the link's content is not a valid run (was the link cut short or changed?): invalid type: integer `5`, expected struct Scenario at line 1 column"),
            "{e}"
        );
    }

    /// A damaged link is explained to the person holding it: cut short or changed, never
    /// the decoder's inner words ("code 414 is not defined yet").
    #[test]
    fn a_damaged_link_never_speaks_of_the_decoders_codes() {
        let good = encode(&SharedRun {
            scenario: crate::scenario::default_scenario(),
            commands: vec![],
            steps: 0,
            to_come: vec![],
            ..SharedRun::default()
        });
        let mut rng = crate::rng::SimRng::new(21);
        let mut damaged = 0;
        for i in 0..400usize {
            let mut text = good.clone().into_bytes();
            if i % 2 == 0 {
                text.truncate(4 + (rng.next_u64() as usize) % (good.len() - 4));
            } else {
                let at = 4 + (rng.next_u64() as usize) % (good.len() - 4);
                text[at] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[(rng.next_u64() % 64) as usize];
            }
            let Ok(text) = String::from_utf8(text) else { continue };
            if let Err(e) = decode(&text) {
                let message = e.to_string();
                let code_number = message.match_indices("code ").any(|(i, _)| message[i + 5..].starts_with(|c: char| c.is_ascii_digit()));
                assert!(!code_number && !message.contains("LZW"), "{message}");
                if matches!(e, ShareError::Damaged(_)) {
                    damaged += 1;
                    assert!(
                        message.contains("cut short or changed") || message.contains("never has") || message.contains("unpack"),
                        "{message}"
                    );
                }
            }
        }
        assert!(damaged > 20, "{damaged}");
    }

    /// Share never makes a link that opening refuses: past [`MAX_ENCODED`] it says so
    /// (and the page offers Save file); every link it makes opens.
    #[test]
    fn a_link_is_never_longer_than_opening_accepts() {
        let small = SharedRun {
            scenario: crate::scenario::default_scenario(),
            commands: vec![],
            steps: 0,
            to_come: vec![],
            ..SharedRun::default()
        };
        let text = link(&small).unwrap();
        assert_eq!(decode(&text).unwrap(), small);
        // Values that do not compress: a scenario of about 900 KB (what the issue's
        // learner built) makes a link of about a million characters.
        let mut rng = crate::rng::SimRng::new(7);
        let values: Vec<String> = (0..40_000).map(|_| format!("{:016x}", rng.next_u64())).collect();
        let mut big = crate::scenario::default_scenario();
        big.producers[0].send[0].values = values;
        let run = SharedRun { scenario: big, commands: vec![], steps: 0, to_come: vec![], ..SharedRun::default() };
        let chars = encode(&run).len();
        assert!(chars > MAX_ENCODED, "{chars}");
        assert_eq!(link(&run), Err(ShareError::TooBigForLink { chars }));
        assert!(decode(&encode(&run)).is_err(), "the link it would have made does not open");
        assert!(ShareError::TooBigForLink { chars }.to_string().contains("save it as a file"));
        // A file is never "not a Kafka Sandbox link" for being not JSON.
        assert_eq!(open_file("hello, this is a text file"), Err(ShareError::NotJsonFile));
        assert_eq!(open_file(&format!("#{text}\n")).unwrap(), small);
        assert!(open_file(&to_json_pretty(&small)).is_ok());
    }
}
