import { randomBytes } from "node:crypto";
import { generateKey, hashSecret, secretMatches } from "../../services/access/api-key.ts";

/**
 * npm run bench:key-timing — does checking a wrong key take longer the more of it is right? For
 * one stored key, wrong secrets that share 0, 16 and 31 of its 32 characters (and the right one,
 * as the baseline) are checked in interleaved rounds, so that the machine's noise falls on all
 * alike; prints the median time of each and its ratio to the baseline. The secret is hashed
 * (HMAC-SHA256) before a constant-time comparison, so no ratio should stand out.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const PER_ROUND = 500;
const hashKey = randomBytes(32).toString("hex");
const { secret } = generateKey();
const stored = hashSecret(secret, hashKey);
const flip = (c: string) => (c === "a" ? "b" : "a");
const wrong = (shared: number) => secret.slice(0, shared) + [...secret.slice(shared)].map(flip).join("");
const candidates: Record<string, string> = {
  "right secret (baseline)": secret,
  "wrong, 0 of 32 characters right": wrong(0),
  "wrong, 16 of 32 right": wrong(16),
  "wrong, 31 of 32 right": wrong(31),
};

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
let sink = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, candidate] of Object.entries(candidates)) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) if (secretMatches(candidate, stored, hashKey)) sink += 1;
    samples[name]!.push(Number(process.hrtime.bigint() - t0) / PER_ROUND);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const baseline = median(samples["right secret (baseline)"]!);
console.log(`${ROUNDS} interleaved rounds of ${PER_ROUND} checks each (right answers: ${sink})\n`);
console.log("candidate                           | median ns per check | ratio to baseline");
for (const [name, values] of Object.entries(samples)) {
  const m = median(values);
  console.log(`${name.padEnd(35)} | ${m.toFixed(0).padStart(19)} | ${(m / baseline).toFixed(3)}`);
}
