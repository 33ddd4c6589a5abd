//! The crate's one JSON reader and writer (every text the sandbox reads or writes goes
//! through them, so each derived serde impl exists once in the page's wasm), and the JSON
//! path of a place in a text.

use serde::Serialize;

/// The crate's one typed JSON reader: every text (a scenario, a share link's run, a saved
/// file) goes through this one serde deserializer type, so each derived `Deserialize`
/// exists once in the page's wasm instead of once per reader (BENCHMARKS.md, "Bundle").
/// The error is serde_json's, with the JSON path where it happened (empty if none).
pub fn read_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, (String, serde_json::Error)> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(&mut de).map_err(|e| (json_path_at(text, e.line(), e.column()), e))?;
    de.end().map_err(|e| (String::new(), e))?;
    Ok(value)
}

/// The JSON path (`topics[0].partitions`; `.` at the top level) of what serde_json was
/// reading when it stopped at `line`/`column`, found by scanning the text up to there.
///
/// Why not `serde_path_to_error`, which tracks the path while reading: it wraps every
/// derived `Deserialize` in a second copy, 17.5 KB of the page's gzipped wasm
/// (BENCHMARKS.md, "Bundle"). The names are the same as its (a test compares them): a key
/// stays on the path from its name to the `,` or `}` after its value, an array index from
/// its element's start to the next `,` or `]`. serde_json stops just after what it could not
/// take: a key it does not know, a value of the wrong type, the `}` of an object missing a
/// field. One difference: an error between a key and its value that is not about the key
/// (a duplicate field) names the key too, where serde_path_to_error names the object.
fn json_path_at(text: &str, line: usize, column: usize) -> String {
    /// An object (the key being read, and whether the next string is a key) or an array
    /// (the index of the element being read, and whether it has begun).
    enum Frame {
        Object(Option<String>, bool),
        Array(usize, bool),
    }
    if line == 0 {
        // No place: an error made outside serde_json's reading (the top level of an
        // internally tagged enum, read from serde's buffer).
        return ".".to_string();
    }
    let bytes = text.as_bytes();
    // serde_json's column is the byte offset in the line of the next byte it would read.
    let line_start = if line == 1 {
        0
    } else {
        match bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(line - 2) {
            Some((i, _)) => i + 1,
            None => return String::new(),
        }
    };
    let end = (line_start + column).min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        if let Some(Frame::Array(_, begun)) = stack.last_mut() {
            *begun |= !matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b',' | b']');
        }
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object(key, true)) = stack.last_mut() {
                    let quoted = text.get(start..=i).unwrap_or_default();
                    *key = Some(serde_json::from_str(quoted).unwrap_or_else(|_| quoted.trim_matches('"').to_string()));
                }
            }
            b'{' => stack.push(Frame::Object(None, true)),
            b'[' => stack.push(Frame::Array(0, false)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key, is_key)) => (*key, *is_key) = (None, true),
                Some(Frame::Array(index, begun)) => (*index, *begun) = (*index + 1, false),
                None => {}
            },
            b':' => {
                if let Some(Frame::Object(_, is_key)) = stack.last_mut() {
                    *is_key = false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key), _) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Object(None, _) | Frame::Array(_, false) => {}
            Frame::Array(index, true) => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

/// The crate's one JSON writer: the same bytes as `serde_json::to_string` (compact) or
/// `to_string_pretty` (two-space indent), through one serializer type, so each derived
/// `Serialize` exists once in the page's wasm (BENCHMARKS.md, "Bundle"). Empty if
/// serialisation fails (as `to_string(..).unwrap_or_default()`).
pub fn write_json<T: Serialize + ?Sized>(value: &T, pretty: bool) -> String {
    let mut out = Vec::with_capacity(256);
    let layout = Layout { pretty, depth: 0, has_value: false };
    if value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, layout)).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's `CompactFormatter` or `PrettyFormatter`, chosen at run time.
struct Layout {
    pretty: bool,
    depth: usize,
    has_value: bool,
}

impl Layout {
    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.pretty && self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if self.pretty {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            self.indent(w)
        } else if first {
            Ok(())
        } else {
            w.write_all(b",")
        }
    }

    fn indent<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Layout {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.pretty { b": " } else { b":" })
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod json_path_tests {
    use super::*;
    use crate::command::Command;
    use crate::scenario::Scenario;
    use serde_json::Value;

    /// serde_path_to_error's path for the same text (the reference).
    fn reference<T: serde::de::DeserializeOwned>(text: &str) -> Option<String> {
        let mut de = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize::<_, T>(&mut de).err().map(|e| e.path().to_string())
    }

    /// Every way of breaking one place of a value: each key removed, an unknown key added
    /// to each object, each value replaced by a value of another type.
    fn broken(v: &Value) -> Vec<Value> {
        let mut out = Vec::new();
        let wrong = [Value::from("x"), Value::from(7), Value::from(-1), Value::Bool(true), Value::Array(vec![]), serde_json::json!({})];
        match v {
            Value::Object(map) => {
                let mut extra = map.clone();
                extra.insert("not_a_field".into(), Value::from(1));
                out.push(Value::Object(extra));
                for (k, child) in map {
                    let mut without = map.clone();
                    without.remove(k);
                    out.push(Value::Object(without));
                    for w in &wrong {
                        if std::mem::discriminant(w) != std::mem::discriminant(child) {
                            let mut m = map.clone();
                            m.insert(k.clone(), w.clone());
                            out.push(Value::Object(m));
                        }
                    }
                    for c in broken(child) {
                        let mut m = map.clone();
                        m.insert(k.clone(), c);
                        out.push(Value::Object(m));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate().take(3) {
                    for c in broken(child) {
                        let mut a = items.clone();
                        a[i] = c;
                        out.push(Value::Array(a));
                    }
                }
            }
            _ => {}
        }
        out
    }

    #[test]
    fn paths_are_serde_path_to_errors_for_every_broken_place() {
        let every: Value = serde_json::from_str(include_str!("../../tests/golden/every-feature.json")).unwrap();
        let mut checked = 0;
        for (pretty, value) in [(true, &every), (false, &every)] {
            for b in broken(value) {
                let text = if pretty { serde_json::to_string_pretty(&b).unwrap() } else { serde_json::to_string(&b).unwrap() };
                let ours = read_json::<Scenario>(&text).err().map(|(path, _)| path);
                assert_eq!(ours, reference::<Scenario>(&text), "{text}");
                checked += usize::from(ours.is_some());
            }
        }
        assert!(checked > 1000, "only {checked} broken scenarios");
    }

    #[test]
    fn paths_of_commands_and_of_text_that_is_not_json() {
        let cases = [
            r#"{"type": "crash_broker", "broker": "zero"}"#,
            r#"{"broker": 0, "type": "crash_brokr"}"#,
            r#"{"type": "produce", "producer": "p", "topic": "t", "value": "v", "headers": [{"key": 1}]}"#,
            r#"{"type": "add_member", "group": "g", "member": {"client_id": "c", "config": {"session_timeout_ms": -5}}}"#,
            r#"{"type": "add_member", "group": "g", "member": {"client_id": "c", "oops": 1}}"#,
            r#"{"type": "seek", "group": "g", "client_id": "c", "topic": "t", "partition": 0, "to": {"kind": "offset"}}"#,
            "[]",
            "7",
            r#"{"type": "crash_broker", "broker": 0,}"#,
            r#"{"type": "crash_broker" "broker": 0}"#,
            "{\"type\": \"produce\", \"producer\": \"p\\\"q\", \"topic\": \"t\", \"value\": 5}",
        ];
        for text in cases {
            let ours = read_json::<Command>(text).err().map(|(path, e)| (path, e.classify()));
            let Some((path, class)) = ours else { panic!("{text} was read") };
            // Syntax errors: the path is not shown, and not compared.
            if class != serde_json::error::Category::Syntax {
                assert_eq!(Some(path), reference::<Command>(text), "{text}");
            }
        }
        let array = r#"[{"type": "crash_broker", "broker": 0}, {"type": "crash_broker", "broker": "x"}]"#;
        assert_eq!(read_json::<Vec<Command>>(array).err().map(|(p, _)| p), Some("[1].broker".to_string()));
        assert_eq!(reference::<Vec<Command>>(array), Some("[1].broker".to_string()));
    }

    #[test]
    fn a_message_names_the_path_line_and_column() {
        let every = include_str!("../../tests/golden/every-feature.json");
        let line = 1 + every.lines().position(|l| l.contains("\"brokers\": 4")).unwrap();
        let text = every.replacen("\"brokers\": 4", "\"brokers\": \"four\"", 1);
        let e = Scenario::from_json(&text).unwrap_err().to_string();
        let column = every.lines().nth(line - 1).unwrap().find('4').unwrap() + "\"four\"".len();
        let expected = format!("cluster.brokers (line {line}, column {column}): invalid type: string \"four\", expected a whole number");
        assert!(e.starts_with(&expected), "{e}\nexpected {expected}");
    }
}
