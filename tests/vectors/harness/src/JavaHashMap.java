import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JDK's own {@code java.util.HashMap} on the sequences of {@code java-hashmap.jsonl}: a
 * {@code new HashMap<>()}, then each op of {@code ops} in turn ({@code +key}: {@code put},
 * {@code -key}: {@code remove}), then {@code order}, the keys as {@code keySet()} iterates
 * them. {@code keys} says what the keys are: {@code "int"}, {@code Integer.valueOf} of the
 * text; {@code "string"}, the text itself. No Kafka code: run it on the JDK whose order the
 * vectors pin (OpenJDK 17).
 */
public final class JavaHashMap {
    private JavaHashMap() {}

    static List<String> order(Map<String, Object> c) {
        boolean ints = Json.str(c.get("keys")).equals("int");
        if (!ints && !Json.str(c.get("keys")).equals("string")) throw new IllegalArgumentException("keys: " + c.get("keys"));
        Map<Object, Boolean> map = new HashMap<>();
        for (String op : Json.strings(c.get("ops"))) {
            Object key = ints ? (Object) Integer.valueOf(op.substring(1)) : op.substring(1);
            switch (op.charAt(0)) {
                case '+': map.put(key, Boolean.TRUE); break;
                case '-': map.remove(key); break;
                default: throw new IllegalArgumentException("op " + op);
            }
        }
        List<String> order = new ArrayList<>();
        for (Object key : map.keySet()) order.add(key.toString());
        return order;
    }

    public static void main(String[] args) throws Exception {
        Cases.run("order", "keys", JavaHashMap::order);
    }
}
