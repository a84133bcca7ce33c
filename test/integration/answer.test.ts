import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createKey } from "../../services/access/keys.ts";
import {
  type ApiResponse,
  call,
  expectCommonHeaders,
  expectEnvelope,
  startTestApi,
  type TestApi,
} from "../helpers/api.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";

/**
 * POST /api/v1/answer on a small real corpus (a Code du travail excerpt): extractive answers
 * bound to their sources, the insufficient-evidence case, plan and scope refusals, the audit
 * record, and the generative composer against a local stub of an OpenAI-compatible API,
 * including replies that must be refused.
 */

const ESSAI = "Quelle est la durée maximale de la période d'essai des ouvriers et des employés en CDI ?";

/** A stub chat API: each test sets what the "model" replies. */
class StubModel {
  server!: Server;
  reply: (prompt: string) => { status: number; body: unknown } = () => ({ status: 500, body: {} });
  prompts: string[] = [];
  authorizations: Array<string | undefined> = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        const body = JSON.parse(raw) as { messages: Array<{ role: string; content: string }> };
        const prompt = body.messages.find((m) => m.role === "user")!.content;
        this.prompts.push(prompt);
        this.authorizations.push(req.headers.authorization);
        const { status, body: reply } = this.reply(prompt);
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(reply));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** A chat completion whose message content is this JSON (or what this function makes of the prompt). */
  says(content: unknown) {
    this.reply = (prompt) => {
      const made = typeof content === "function" ? (content as (p: string) => unknown)(prompt) : content;
      return this.completion(typeof made === "string" ? made : JSON.stringify(made));
    };
  }

  completion(content: string) {
    return {
      status: 200,
      body: {
        id: "stub",
        object: "chat.completion",
        created: 0,
        model: "stub",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content },
          },
        ],
      },
    };
  }
}

const expectBoundToSources = (body: any) => {
  const sources = new Map(body.data.sources.map((s: any) => [s.id, s]));
  expect(body.data.answer.sentences.length).toBeGreaterThan(0);
  for (const sentence of body.data.answer.sentences) {
    expect(sentence.citations.length).toBeGreaterThan(0);
    for (const id of sentence.citations) expect(sources.has(id), id).toBe(true);
  }
};

describe("POST /api/v1/answer", () => {
  let api: TestApi;
  let answerKey: string;
  const ask = (body: unknown, key = answerKey): Promise<ApiResponse> =>
    call(api, "/api/v1/answer", {
      method: "POST",
      key,
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });

  beforeAll(async () => {
    api = await startTestApi("pglite", {
      redis: false,
      label: "answer",
    });
    answerKey = api.keys.all!;
    // An act stating a number in words, as the codes do; one naming the holidays as they do; one
    // on vouchers of no kind; one naming an act by its noun.
    await ingestInline(api.store.db, [
      lawOf("HOURS", "loi-heures", "Loi sur la durée du travail", [
        ["1", "La durée légale de travail effectif est fixée à trente-cinq heures par semaine."],
      ]),
      lawOf("LEAVE", "loi-conges", "Loi sur les congés", [
        [
          "1",
          "Le salarié a droit à un congé payé de deux jours et demi ouvrables par mois de travail effectif.",
        ],
      ]),
      lawOf("VOUCHERS", "loi-cheques", "Loi sur les chèques", [
        ["1", "L'employeur peut remettre des chèques au salarié chaque mois."],
      ]),
      lawOf("RESIGNATION", "loi-demission", "Loi sur la fin du contrat", [
        ["1", "La démission du salarié est notifiée par écrit à l'employeur."],
      ]),
    ]);
  });
  afterAll(async () => api?.close());

  it("answers with sentences copied from the provisions it cites", async () => {
    const { status, body, headers } = await ask({ question: ESSAI });
    expect(status).toBe(200);
    expectCommonHeaders({ status, body, headers });
    expect(body.data.evidence).toBe("sufficient");
    expect(body.data.composer).toBe("extractive");
    expect(body.data.answer.sentences.length).toBeGreaterThan(0);
    expect(body.data.answer.sentences[0].citations).toEqual(["code-du-travail/L1221-19"]);
    expectBoundToSources(body);
    // Verbatim: every sentence is in the text of the provision it cites.
    for (const sentence of body.data.answer.sentences) {
      const provision = await call(api, `/api/v1/provisions/${sentence.citations[0]}`, {
        key: api.keys.reader,
      });
      expect(provision.body.data.text).toContain(sentence.text);
    }
    const cited = body.data.sources.find((s: any) => s.id === "code-du-travail/L1221-19");
    expect(cited).toMatchObject({
      cited: true,
      number: "L1221-19",
      url: "/api/v1/provisions/code-du-travail/L1221-19",
    });
    expect(cited.effective_from).toMatch(/^\d{4}-/);
    expect(body.meta.coverage_note).toMatch(/incomplete/);
  });

  it("reads a mistyped word as search does, and composes from its reading", async () => {
    const { status, body } = await ask({ question: ESSAI.replace("essai", "esai") });
    expect(status).toBe(200);
    // The question as asked stays in data; what was searched and composed for is in spelling.
    expect(body.spelling).toEqual({ read_as: ESSAI, corrections: [{ typed: "esai", read_as: "essai" }] });
    expect(body.data.question).toBe(ESSAI.replace("essai", "esai"));
    expect(body.data.evidence).toBe("sufficient");
    expect(body.data.answer.sentences[0].citations).toEqual(["code-du-travail/L1221-19"]);
  });

  it("reads « 35h » as hours, and needs no sentence to state the number", async () => {
    // « 35h » is « 35 heures »: search finds « trente-cinq heures », the sentence states « heures ».
    const hours = await ask({
      question: "Quelle est la durée légale de travail effectif : 35h par semaine ?",
    });
    expect(hours.status).toBe(200);
    expect(hours.body.data.evidence).toBe("sufficient");
    expect(hours.body.data.unstated_words).toEqual([]);
    expect(hours.body.data.answer.sentences[0].citations).toEqual(["loi-heures/1"]);
    // A question checking a quantity is answered by the provision stating another (« quatre mois »).
    const trial = await ask({ question: "La période d'essai des cadres est-elle de 6 mois ?" });
    expect(trial.body.data.evidence).toBe("sufficient");
    expect(trial.body.data.answer.sentences[0].citations).toEqual(["code-du-travail/L1221-19"]);
  });

  it("reads a verb form as its act's noun, as search does (« démissionne », « démission »)", async () => {
    // « démissionner » is the question's one rare word. The inline act writes only the noun: its
    // sentence is quoted through the act's reading (a fixture article's « démissionné », the
    // verb's own term, would make the answer sufficient without it).
    const { status, body } = await ask({ question: "Un salarié peut-il démissionner ?" });
    expect(status).toBe(200);
    expect(body.data.evidence).toBe("sufficient");
    expect(body.data.unstated_words).toEqual([]);
    expect(body.data.answer.sentences).toContainEqual({
      text: "La démission du salarié est notifiée par écrit à l'employeur.",
      citations: ["loi-demission/1"],
    });
  });

  it("reads a sentence stating a lay word's reading (« congés payés ») as stating the word (« vacances »)", async () => {
    const { status, body } = await ask({ question: "À combien de jours de vacances ai-je droit par mois ?" });
    expect(status).toBe(200);
    expect(body.data.question).toBe("À combien de jours de vacances ai-je droit par mois ?");
    expect(body.data.evidence).toBe("sufficient");
    expect(body.data.unstated_words).toEqual([]);
    expect(body.data.answer.sentences[0].citations).toEqual(["loi-conges/1"]);
  });

  it("does not read a lay word in a set phrase of another sense (« chèques vacances »)", async () => {
    // « vacances » read as « congés payés » would be stated by the leave act's sentence, which the
    // answer would then quote: paid leave for a question on holiday vouchers.
    const { status, body } = await ask({ question: "Combien de chèques vacances par mois ?" });
    expect(status).toBe(200);
    expect(body.data.unstated_words).toEqual(["vacances"]);
    const cited = body.data.answer.sentences.flatMap((s: { citations: string[] }) => s.citations);
    expect(cited).toContain("loi-cheques/1");
    expect(cited).not.toContain("loi-conges/1");
  });

  it("says the evidence is insufficient rather than invent", async () => {
    const { status, body } = await ask({
      question: "Quel est le taux de la TVA sur les billets d'avion vers la Lune ?",
    });
    expect(status).toBe(200);
    expect(body.data.evidence).toBe("insufficient");
    expect(body.data.answer).toEqual({ text: "", sentences: [] });
    expect(body.data.evidence_note).toMatch(/not evidence that no rule exists/);
    expect(body.data.unstated_words).toEqual(expect.arrayContaining(["TVA", "Lune"]));
    expect(body.data.sources.length).toBeGreaterThan(0);
    for (const source of body.data.sources) expect(source.cited).toBe(false);
  });

  it("quotes the closest sentences of an insufficient answer as such, naming the words none states", async () => {
    // The code states the trial period of workers and employees, never of lunar astronauts: the
    // question's rare words (the rarer half) are the two no provision uses.
    const { status, body } = await ask({ question: "La période d'essai des astronautes lunaires ?" });
    expect(status).toBe(200);
    expect(body.data.evidence).toBe("insufficient");
    expectBoundToSources(body);
    expect(body.data.answer.sentences[0].citations).toEqual(["code-du-travail/L1221-19"]);
    expect(body.data.unstated_words).toEqual(["astronautes", "lunaires"]);
    expect(body.data.evidence_note).toMatch(
      /not an answer: no quoted sentence states « astronautes », « lunaires »/,
    );
    expect(body.data.evidence_note).toMatch(/not evidence that no rule exists/);
    const cited = body.data.sources.filter((s: any) => s.cited).map((s: any) => s.id);
    expect(cited).toEqual(["code-du-travail/L1221-19"]);
  });

  it("refuses bad requests, missing scopes and the beta plan, and costs more than a search", async () => {
    expectEnvelope(await ask({}), 400, "invalid_request", "question");
    expectEnvelope(await ask({ question: "x".repeat(1001) }), 400, "invalid_request", "question");
    expectEnvelope(await ask({ question: ESSAI, domains: ["astrology"] }), 400, "invalid_request", "domains");
    expectEnvelope(await ask({ question: ESSAI, max_sources: 11 }), 400, "invalid_request", "max_sources");
    expectEnvelope(await ask({ question: ESSAI, extra: 1 }), 400, "invalid_request");
    expectEnvelope(await ask({ question: ESSAI }, api.keys.reader), 403, "forbidden");
    expectEnvelope(await ask({ question: ESSAI, domains: ["tax"] }, api.keys.labourOnly), 403, "forbidden");
    const betaWithScope = (
      await createKey(api.store.db, api.ctx.keyHashSecret, { project: "beta-app", scopes: ["answer:write"] })
    ).key;
    const beta = await ask({ question: ESSAI }, betaWithScope);
    expectEnvelope(beta, 403, "forbidden", "plan");
    expect(beta.body.error.message).toMatch(/beta plan does not include the answer endpoint/);
    const get = await call(api, "/api/v1/answer", { key: answerKey });
    expect(get.status).toBe(405);

    // An answer given costs 5 requests; a refused one 1, like any request (it cost 5 before).
    const remaining = (r: { headers: Headers }) => Number(r.headers.get("x-ratelimit-remaining"));
    const first = await ask({ question: ESSAI });
    const second = await ask({ question: ESSAI });
    expect(remaining(first) - remaining(second)).toBe(5);
    const refused = await ask({});
    expectEnvelope(refused, 400, "invalid_request", "question");
    expect(remaining(second) - remaining(refused)).toBe(1);
    const third = await ask({ question: ESSAI });
    expect(remaining(refused) - remaining(third)).toBe(5);
  });

  it("keeps an audit record without the question's text", async () => {
    const secretQuestion = "Mon employeur Jean Dupont peut-il prolonger ma période d'essai d'ouvrier ?";
    await ask({ question: secretQuestion });
    const { rows } = await api.store.db.query<Record<string, unknown>>(
      "SELECT * FROM answer_log ORDER BY id DESC LIMIT 1",
    );
    const entry = rows[0]!;
    expect(entry).toMatchObject({
      question_chars: secretQuestion.length,
      composer: "extractive",
      channel: "http",
    });
    expect(entry.retrieved).toEqual(expect.arrayContaining(["code-du-travail/L1221-19"]));
    expect(JSON.stringify(entry)).not.toMatch(/Dupont|prolonger/);
  });

  describe("with the generative composer (a local stub of an OpenAI-compatible API)", () => {
    const model = new StubModel();

    beforeAll(async () => {
      const url = await model.start();
      Object.assign(api.ctx.config, {
        ANSWER_LLM_URL: url,
        ANSWER_LLM_API_KEY: "sk-test-not-a-real-key",
        ANSWER_LLM_TIMEOUT_MS: 1000,
      });
    });
    afterAll(async () => {
      Object.assign(api.ctx.config, { ANSWER_LLM_URL: undefined, ANSWER_LLM_API_KEY: undefined });
      await new Promise((resolve) => model.server.close(resolve));
    });
    beforeEach(() => {
      model.prompts = [];
    });

    const essaiQuote = "de deux mois";

    it("uses a reply whose every sentence cites a supplied source and quotes it exactly", async () => {
      // The label the prompt gives L1221-19, as a model reading it would cite it.
      model.says((prompt: string) => ({
        sentences: [
          {
            text: `Pour les ouvriers et les employés, la période d'essai dure au plus « ${essaiQuote} ».`,
            sources: [/\[(S\d+)\] code-du-travail\/L1221-19\n/.exec(prompt)![1]],
            quotes: [essaiQuote],
          },
        ],
      }));
      const { body } = await ask({ question: ESSAI });
      expect(body.data.composer).toBe("generative");
      expect(body.data.fallback_reason).toBeNull();
      expect(body.data.answer.sentences[0].citations).toEqual(["code-du-travail/L1221-19"]);
      expectBoundToSources(body);
      // The prompt held the retrieved sources and nothing else of ours.
      expect(model.prompts[0]).toMatch(/^Question: .*\n\n\[S1\] code-du-travail\//);
      expect(model.prompts[0]).toContain("] code-du-travail/L1221-19\n");
      expect(model.authorizations.at(-1)).toBe("Bearer sk-test-not-a-real-key");
    });

    const refusals: Array<[string, () => void, RegExp]> = [
      [
        "cites a source that was not supplied",
        () =>
          model.says({
            sentences: [{ text: "La période d'essai dure deux mois.", sources: ["S9"], quotes: [] }],
          }),
        /not supplied/,
      ],
      [
        "quotes words that are not in the source",
        () =>
          model.says({
            sentences: [{ text: "Elle dure « six mois renouvelables ».", sources: ["S1"], quotes: [] }],
          }),
        /quotes words that are not in the sources/,
      ],
      [
        "has a sentence without a citation",
        () => model.says({ sentences: [{ text: "La période d'essai est libre.", sources: [], quotes: [] }] }),
        /cites no source/,
      ],
      ["is not JSON", () => model.says("La période d'essai dure deux mois."), /not the JSON asked for/],
      [
        "fails (HTTP 500)",
        () => (model.reply = () => ({ status: 500, body: { error: "boom" } })),
        /did not answer/,
      ],
    ];
    for (const [what, stub, reason] of refusals) {
      it(`falls back to the extractive answer when the model's reply ${what}`, async () => {
        stub();
        const { status, body } = await ask({ question: ESSAI });
        expect(status).toBe(200);
        expect(body.data.composer).toBe("extractive");
        expect(body.data.fallback_reason).toMatch(reason);
        expect(body.data.evidence).toBe("sufficient");
        expectBoundToSources(body);
        expect(JSON.stringify(body)).not.toMatch(/six mois renouvelables|S9/);
      });
    }

    it("never logs the model's key", async () => {
      const { rows } = await api.store.db.query<Record<string, unknown>>(
        "SELECT fallback_reason FROM answer_log WHERE composer = 'extractive' AND fallback_reason IS NOT NULL",
      );
      expect(rows.length).toBeGreaterThanOrEqual(5);
      expect(JSON.stringify(rows)).not.toContain("sk-test");
    });
  });
});
