import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.*;
import org.apache.kafka.coordinator.group.assignor.SimpleHomogeneousAssignmentBuilder;
import java.util.*;

/** Vectors for the sandbox's SimpleAssignor port: rounds of a share group's membership. */
public class ShareAssignors {
    static String q(String s) { return "\"" + s + "\""; }

    public static void main(String[] args) {
        Random rnd = new Random(932);
        StringBuilder out = new StringBuilder();
        for (int c = 0; c < 300; c++) {
            int nTopics = 1 + rnd.nextInt(c % 5 == 0 ? 3 : 1);
            List<String> names = new ArrayList<>();
            Map<String, Uuid> ids = new HashMap<>();
            Map<String, Integer> counts = new HashMap<>();
            for (int t = 0; t < nTopics; t++) {
                String n = "t" + t;
                names.add(n);
                Uuid id;
                do { id = new Uuid(rnd.nextLong(), rnd.nextLong()); } while (id.toString().startsWith("-"));
                ids.put(n, id);
                counts.put(n, 1 + rnd.nextInt(c % 7 == 0 ? 40 : 8));
            }
            Map<Uuid, String> byId = new HashMap<>();
            ids.forEach((n, i) -> byId.put(i, n));
            List<String> members = new ArrayList<>();
            Map<String, List<int[]>> records = new HashMap<>(); // member -> [(topic index, partition)] in record order
            int rounds = 1 + rnd.nextInt(4);
            for (int r = 0; r < rounds; r++) {
                // Membership changes: joins (several, past the partitions) and leaves.
                int joins = r == 0 ? 1 + rnd.nextInt(c % 3 == 0 ? 30 : 8) : rnd.nextInt(4);
                for (int j = 0; j < joins; j++) members.add(new Uuid(rnd.nextLong(), rnd.nextLong()).toString());
                if (r > 0 && members.size() > 1 && rnd.nextInt(2) == 0) {
                    String gone = members.remove(rnd.nextInt(members.size()));
                    records.remove(gone);
                }
                if (r > 0 && rnd.nextInt(4) == 0) {
                    String t = names.get(rnd.nextInt(names.size()));
                    counts.put(t, counts.get(t) + 1 + rnd.nextInt(3));
                }
                // memberSpecs: a HashMap filled in member order.
                Map<String, Map<Uuid, Set<Integer>>> assignments = new HashMap<>();
                Map<String, Set<Uuid>> subs = new HashMap<>();
                Set<String> nameSet = new HashSet<>(names);
                Set<Uuid> topicIds = new LinkedHashSet<>();
                for (String n : nameSet) topicIds.add(ids.get(n));
                for (String m : members) {
                    Map<Uuid, Set<Integer>> a = new HashMap<>();
                    Map<Uuid, List<Integer>> lists = new LinkedHashMap<>();
                    for (int[] tp : records.getOrDefault(m, List.of())) {
                        lists.computeIfAbsent(ids.get(names.get(tp[0])), k -> new ArrayList<>()).add(tp[1]);
                    }
                    lists.forEach((t, ps) -> a.put(t, new HashSet<>(ps)));
                    assignments.put(m, a);
                    subs.put(m, topicIds);
                }
                Map<String, Object> order = new HashMap<>();
                for (String m : members) order.put(m, m);
                final Map<String, Integer> cnt = new HashMap<>(counts);
                GroupSpec spec = new GroupSpec() {
                    public Collection<String> memberIds() { return order.keySet(); }
                    public SubscriptionType subscriptionType() { return SubscriptionType.HOMOGENEOUS; }
                    public boolean isPartitionAssigned(Uuid t, int p) { return false; }
                    public boolean isPartitionAssignable(Uuid t, int p) { return true; }
                    public MemberSubscription memberSubscription(String m) {
                        return new MemberSubscription() {
                            public Optional<String> rackId() { return Optional.empty(); }
                            public Optional<String> instanceId() { return Optional.empty(); }
                            public Set<Uuid> subscribedTopicIds() { return subs.get(m); }
                        };
                    }
                    public MemberAssignment memberAssignment(String m) {
                        Map<Uuid, Set<Integer>> a = assignments.get(m);
                        return () -> a;
                    }
                };
                SubscribedTopicDescriber d = new SubscribedTopicDescriber() {
                    public int numPartitions(Uuid t) { return cnt.get(byId.get(t)); }
                    public Set<String> racksForPartition(Uuid t, int p) { return Set.of(); }
                };
                GroupAssignment result = new SimpleHomogeneousAssignmentBuilder(spec, d).build();
                // The line: topics, members with their owned records, the expected assignment and the new records.
                out.append("{\"label\":").append(q("case " + c + " round " + r)).append(",\"topics\":[");
                for (int t = 0; t < names.size(); t++) {
                    if (t > 0) out.append(",");
                    out.append("{\"name\":").append(q(names.get(t))).append(",\"id\":").append(q(ids.get(names.get(t)).toString()))
                        .append(",\"partitions\":").append(counts.get(names.get(t))).append("}");
                }
                out.append("],\"members\":[");
                for (int i = 0; i < members.size(); i++) {
                    String m = members.get(i);
                    if (i > 0) out.append(",");
                    out.append("{\"member_id\":").append(q(m)).append(",\"owned\":[");
                    List<int[]> rec = records.getOrDefault(m, List.of());
                    for (int k = 0; k < rec.size(); k++) {
                        if (k > 0) out.append(",");
                        out.append("[").append(q(names.get(rec.get(k)[0]))).append(",").append(rec.get(k)[1]).append("]");
                    }
                    out.append("]}");
                }
                out.append("],\"expect\":{");
                Map<String, List<int[]>> next = new HashMap<>();
                for (int i = 0; i < members.size(); i++) {
                    String m = members.get(i);
                    if (i > 0) out.append(",");
                    out.append(q(m)).append(":{");
                    Map<Uuid, Set<Integer>> a = result.members().get(m).partitions();
                    List<int[]> rec = new ArrayList<>();
                    boolean first = true;
                    TreeMap<String, TreeSet<Integer>> sorted = new TreeMap<>();
                    for (Map.Entry<Uuid, Set<Integer>> e : a.entrySet()) {
                        for (int p : e.getValue()) rec.add(new int[]{names.indexOf(byId.get(e.getKey())), p});
                        if (!e.getValue().isEmpty()) sorted.put(byId.get(e.getKey()), new TreeSet<>(e.getValue()));
                    }
                    for (Map.Entry<String, TreeSet<Integer>> e : sorted.entrySet()) {
                        if (!first) out.append(",");
                        first = false;
                        out.append(q(e.getKey())).append(":").append(e.getValue().toString().replace(" ", ""));
                    }
                    out.append("}");
                    next.put(m, rec);
                }
                out.append("}}\n");
                // The stored record for the next round: only when the assignment changed, as
                // TargetAssignmentBuilder writes it.
                for (String m : members) {
                    Set<String> before = new TreeSet<>(), after = new TreeSet<>();
                    for (int[] tp : records.getOrDefault(m, List.of())) before.add(tp[0] + "-" + tp[1]);
                    for (int[] tp : next.get(m)) after.add(tp[0] + "-" + tp[1]);
                    if (!before.equals(after)) records.put(m, next.get(m));
                }
            }
        }
        System.out.print(out);
    }
}
