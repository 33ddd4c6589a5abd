import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer for the vector files: objects keep their key order
 * (LinkedHashMap), numbers are longs (the vectors hold only integers), and the writer
 * prints compact JSON ({@code ,} and {@code :} with no spaces), escaping only what JSON
 * requires, so that a line read and written again is the same bytes.
 */
final class Json {
    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** Parses one JSON value (a whole line of a .jsonl file). */
    static Object parse(String text) {
        Json p = new Json(text);
        p.space();
        Object v = p.value();
        p.space();
        if (p.at != text.length()) throw p.error("trailing text");
        return v;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at character " + at);
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++;
    }

    private void expect(char c) {
        if (at >= text.length() || text.charAt(at) != c) throw error("expected '" + c + "'");
        at++;
    }

    private Object value() {
        if (at >= text.length()) throw error("unexpected end");
        char c = text.charAt(at);
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': word("true"); return Boolean.TRUE;
            case 'f': word("false"); return Boolean.FALSE;
            case 'n': word("null"); return null;
            default: return number();
        }
    }

    private void word(String w) {
        if (!text.startsWith(w, at)) throw error("expected " + w);
        at += w.length();
    }

    private Map<String, Object> object() {
        expect('{');
        Map<String, Object> map = new LinkedHashMap<>();
        space();
        if (at < text.length() && text.charAt(at) == '}') {
            at++;
            return map;
        }
        while (true) {
            space();
            String key = string();
            space();
            expect(':');
            space();
            map.put(key, value());
            space();
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array() {
        expect('[');
        List<Object> list = new ArrayList<>();
        space();
        if (at < text.length() && text.charAt(at) == ']') {
            at++;
            return list;
        }
        while (true) {
            space();
            list.add(value());
            space();
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            if (at >= text.length()) throw error("unterminated string");
            char c = text.charAt(at++);
            if (c == '"') return b.toString();
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"': b.append('"'); break;
                case '\\': b.append('\\'); break;
                case '/': b.append('/'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 't': b.append('\t'); break;
                case 'u':
                    b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                    break;
                default: throw error("bad escape");
            }
        }
    }

    private Long number() {
        int start = at;
        if (at < text.length() && text.charAt(at) == '-') at++;
        while (at < text.length() && Character.isDigit(text.charAt(at))) at++;
        if (at < text.length() && ".eE".indexOf(text.charAt(at)) >= 0) throw error("only integers are expected");
        if (start == at) throw error("unexpected character");
        return Long.parseLong(text.substring(start, at));
    }

    /** Compact JSON of a value made of maps, lists, strings, numbers, booleans and null. */
    static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v);
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    private static void write(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof String) {
            quote(b, (String) v);
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof Map) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                if (!first) b.append(',');
                first = false;
                quote(b, e.getKey());
                b.append(':');
                write(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof Iterable) {
            b.append('[');
            boolean first = true;
            for (Object o : (Iterable<Object>) v) {
                if (!first) b.append(',');
                first = false;
                write(b, o);
            }
            b.append(']');
        } else {
            throw new IllegalArgumentException("not JSON: " + v.getClass());
        }
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                case '\b': b.append("\\b"); break;
                case '\f': b.append("\\f"); break;
                default:
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        b.append('"');
    }

    // Typed access, failing with the key's name.

    @SuppressWarnings("unchecked")
    static Map<String, Object> obj(Object v) {
        if (!(v instanceof Map)) throw new IllegalArgumentException("not an object: " + v);
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    static List<Object> arr(Object v) {
        if (!(v instanceof List)) throw new IllegalArgumentException("not an array: " + v);
        return (List<Object>) v;
    }

    static String str(Object v) {
        if (!(v instanceof String)) throw new IllegalArgumentException("not a string: " + v);
        return (String) v;
    }

    static int integer(Object v) {
        if (!(v instanceof Long)) throw new IllegalArgumentException("not an integer: " + v);
        return Math.toIntExact((Long) v);
    }

    static List<String> strings(Object v) {
        List<String> out = new ArrayList<>();
        for (Object o : arr(v)) out.add(str(o));
        return out;
    }
}
