// Issue 21, the bridge to a real cluster, as an engineer would use it: "Try it on real
// Kafka" on the default scenario shows the compose.yaml and the Kafka tools' lines with
// what the sandbox predicts beside them; each group shows its kafka-consumer-groups.sh
// --describe; a pasted producer.properties takes Kafka's names and reports the rest.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, runTo } from "./helpers.mjs";

const suite = browserSuite(before, after);

test("Try it on real Kafka shows the compose file and each step's lines beside what the sandbox predicts", async (t) => {
  const page = await suite.open(t);
  await page.click("#bridge-toggle");
  const panel = page.locator("#bridge");
  await panel.waitFor();
  assert.equal(await page.locator("#bridge-toggle").getAttribute("aria-expanded"), "true");
  const compose = await panel.locator(".bridge-compose pre").innerText();
  for (const line of [
    "name: kafka-sandbox",
    "image: apache/kafka:4.2.0",
    'KAFKA_PROCESS_ROLES: "controller"',
    "kafka-0:",
    "kafka-2:",
    'KAFKA_PROCESS_ROLES: "broker"',
    'KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: "3000"',
    "tools:",
  ]) {
    assert.ok(compose.includes(line), `compose.yaml has ${line}:\n${compose}`);
  }
  assert.ok(!compose.includes("kafka-3:"), "three brokers, as the scenario");
  const steps = await panel.locator(".bridge-step").evaluateAll((li) => li.map((l) => l.innerText));
  assert.ok(steps.length >= 8, `${steps.length} steps`);
  assert.ok(steps[0].includes("docker compose up -d"), steps[0]);
  const create = steps.find((s) => s.includes("--create"));
  assert.ok(create.includes("--topic Topic01 --partitions 4 --replication-factor 3 --config min.insync.replicas=2"), create);
  assert.ok(create.includes("Topic01-0: replicas [2,0,1], leader 2"), `the sandbox's placement beside it: ${create}`);
  const consumer = steps.find((s) => s.includes("kafka-console-consumer.sh") && s.includes("--group ConsumerGroup01") && s.includes("client.id=Consumer1"));
  assert.ok(consumer.includes("Consumer1 of ConsumerGroup01 owns [Topic01-0, Topic01-2] and receives 4 records: m1 m3 m5 m7"), consumer);
  const produce = steps.find((s) => s.includes("kafka-console-producer.sh"));
  assert.ok(produce.includes("--producer-property acks=all") && produce.includes("Topic01-3: 1 record: m4"), produce);
  const describe = steps.find((s) => s.includes("kafka-consumer-groups.sh") && s.includes("--group ConsumerGroup02"));
  assert.match(describe, /GROUP\s+TOPIC\s+PARTITION\s+CURRENT-OFFSET\s+LOG-END-OFFSET\s+LAG\s+CONSUMER-ID\s+HOST\s+CLIENT-ID/);
  assert.ok(steps.at(-1).includes("docker compose down"));
  // Save offers the compose file as a download.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#bridge-save-compose")]);
  assert.equal(download.suggestedFilename(), "compose.yaml");
  await page.click("#bridge-close");
  await panel.waitFor({ state: "detached" });
});

test("each group shows kafka-consumer-groups.sh --describe in the tool's columns", async (t) => {
  const page = await suite.open(t);
  await runTo(page, 12);
  const group = page.locator('.group[data-group="ConsumerGroup02"]');
  await group.locator("details.describe summary").click();
  const table = await group.locator(".describe-table").innerText();
  const [header, ...rows] = table.split("\n").filter((l) => l.trim());
  assert.match(header, /^GROUP\s+TOPIC\s+PARTITION\s+CURRENT-OFFSET\s+LOG-END-OFFSET\s+LAG\s+CONSUMER-ID\s+HOST\s+CLIENT-ID$/);
  assert.equal(rows.length, 4, table);
  assert.match(rows[3], /^ConsumerGroup02\s+Topic01\s+3\s+1\s+1\s+0\s+Consumer1-[0-9a-f-]{36}\s+\/127\.0\.0\.1\s+Consumer1$/);
});

test("a pasted producer.properties takes Kafka's names and lists a key no client has", async (t) => {
  const page = await suite.open(t);
  const card = page.locator(".producer").first();
  await card.locator("details.paste-props summary").click();
  await card.locator(".paste-text").fill("acks=1\nlingr.ms=5\n");
  await card.locator(".paste-apply").click();
  const notice = await page.locator("#notice").innerText();
  assert.ok(notice.includes("acks=1") && notice.includes("lingr.ms: no Kafka client has this setting"), notice);
});
