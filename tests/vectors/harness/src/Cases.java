import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The loop every harness shares: a case per line on standard input, the same case with its
 * {@code expect} (or {@code order}) recomputed on standard output.
 */
final class Cases {
    private Cases() {}

    /**
     * Reads each line as a JSON object, drops {@code field}, computes it again with
     * {@code compute}, and prints the object with {@code field} last. A case on which Kafka
     * throws is left out (its line and the exception go to standard error). At the end, the count of cases printed per {@code countBy} value goes to
     * standard error.
     */
    static void run(String field, String countBy, Function<Map<String, Object>, Object> compute) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        Map<String, Integer> counts = new TreeMap<>();
        int lineNo = 0;
        int thrown = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) continue;
            Map<String, Object> c = Json.obj(Json.parse(line));
            c.remove(field);
            Object value;
            try {
                value = compute.apply(c);
            } catch (RuntimeException e) {
                thrown++;
                System.err.println("line " + lineNo + ": Kafka throws " + e + "; case left out");
                continue;
            }
            c.put(field, value);
            out.println(Json.write(c));
            counts.merge(String.valueOf(c.get(countBy)), 1, Integer::sum);
        }
        out.flush();
        System.err.println("cases by " + countBy + ": " + counts + (thrown > 0 ? ", left out (Kafka threw): " + thrown : ""));
    }

    /** {@link #run} for the assignor harnesses: {@code expect}, counted by strategy. */
    static void run(Function<Map<String, Object>, Object> compute) throws Exception {
        run("expect", "strategy", compute);
    }
}
