import java.util.List;

/**
 * The generators' randomness: SplitMix64, and bounded draws by Lemire's multiply-and-reject
 * (the sandbox's {@code SimRng}), written out so that a seed gives the same cases on every
 * JDK (java.util's generators are not specified bit for bit across releases).
 */
final class Rng {
    private long state;

    Rng(long seed) {
        this.state = seed;
    }

    long nextLong() {
        state += 0x9E3779B97F4A7C15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform integer in {@code [0, bound)}; 0 when {@code bound} is 0. */
    int below(int bound) {
        if (bound <= 0) return 0;
        long b = bound;
        long threshold = (-b & 0xFFFFFFFFL) % b;
        while (true) {
            long product = (nextLong() >>> 32) * b;
            if ((product & 0xFFFFFFFFL) >= threshold) return (int) (product >>> 32);
        }
    }

    /** A uniform integer in {@code [lo, hi]}. */
    int between(int lo, int hi) {
        return lo + below(hi - lo + 1);
    }

    /** True with probability {@code percent} / 100. */
    boolean chance(int percent) {
        return below(100) < percent;
    }

    <T> T pick(List<T> items) {
        return items.get(below(items.size()));
    }

    <T> void shuffle(List<T> items) {
        for (int i = items.size() - 1; i > 0; i--) {
            int j = below(i + 1);
            T t = items.get(i);
            items.set(i, items.get(j));
            items.set(j, t);
        }
    }

    /** {@code digits} lowercase hex digits. */
    String hex(int digits) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < digits; i++) b.append(Character.forDigit(below(16), 16));
        return b.toString();
    }

    /**
     * A {@code Uuid.randomUuid().toString()} as Kafka makes it (version 4, URL-safe base64
     * without padding, never the reserved ids nor a leading '-'): KIP-848 member ids and
     * topic ids.
     */
    String kafkaUuid() {
        while (true) {
            long msb = (nextLong() & ~0xF000L) | 0x4000L;
            long lsb = (nextLong() & ~(0xC000L << 48)) | (0x8000L << 48);
            byte[] bytes = new byte[16];
            for (int i = 0; i < 8; i++) {
                bytes[i] = (byte) (msb >>> (56 - 8 * i));
                bytes[8 + i] = (byte) (lsb >>> (56 - 8 * i));
            }
            String s = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            if (!s.startsWith("-") && !s.equals("AAAAAAAAAAAAAAAAAAAAAA") && !s.equals("AAAAAAAAAAAAAAAAAAAAAQ")) return s;
        }
    }
}
