import OpenAI from "openai";
import { z } from "zod";
import type { AnswerSentence, Source } from "./extractive.ts";

/**
 * The generative composer (optional, ANSWER_LLM_URL): an OpenAI-compatible chat model writes the
 * answer from the retrieved sources alone, and its output is checked before it leaves the
 * service. Every sentence must cite at least one supplied source, and every span it quotes
 * (in its `quotes`, or between « » or " " in its text) must appear verbatim in a source it cites.
 * Anything else is rejected with a reason, and the caller answers extractively instead.
 */

export interface GenerativeSettings {
  url: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

const replySchema = z.object({
  sentences: z
    .array(
      z.object({
        text: z.string().min(1),
        sources: z.array(z.string()).default([]),
        quotes: z.array(z.string()).default([]),
      }),
    )
    .min(1),
});

export type GenerativeOutcome = { ok: true; sentences: AnswerSentence[] } | { ok: false; reason: string };

const SYSTEM = `You answer questions about French law using ONLY the numbered sources given. Answer in French.
Reply with JSON only: {"sentences":[{"text":"…","sources":["S1"],"quotes":["exact words copied from S1"]}]}.
Rules: every sentence cites at least one source by its label; every quote is copied character for character from a source the sentence cites; say nothing the sources do not say; if they do not answer the question, reply {"sentences":[{"text":"Les sources fournies ne permettent pas de répondre.","sources":[],"quotes":[]}]}.`;

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

/** Spans a sentence quotes in its own text: «…», "…", “…”. */
export function quotedSpans(text: string): string[] {
  const spans: string[] = [];
  for (const match of text.matchAll(/«\s*([^»]+?)\s*»|"([^"]+)"|“([^”]+)”/g)) {
    const span = match[1] ?? match[2] ?? match[3];
    if (span) spans.push(span);
  }
  return spans;
}

/** Checks a model's reply against the sources it was given; pure, so it is tested on its own. */
export function checkReply(raw: string, sources: Source[]): GenerativeOutcome {
  let parsed: z.infer<typeof replySchema>;
  try {
    parsed = replySchema.parse(JSON.parse(raw));
  } catch {
    return { ok: false, reason: "the reply is not the JSON asked for" };
  }
  const byLabel = new Map(sources.map((s, i) => [`S${i + 1}`, s]));
  const sentences: AnswerSentence[] = [];
  for (const [i, sentence] of parsed.sentences.entries()) {
    if (sentence.sources.length === 0) return { ok: false, reason: `sentence ${i + 1} cites no source` };
    const cited = sentence.sources.map((label) => byLabel.get(label.trim()));
    if (cited.some((s) => s === undefined))
      return { ok: false, reason: `sentence ${i + 1} cites a source that was not supplied` };
    const texts = cited.map((s) => normalise(s!.text));
    for (const quote of [...sentence.quotes, ...quotedSpans(sentence.text)]) {
      if (!texts.some((t) => t.includes(normalise(quote))))
        return { ok: false, reason: `sentence ${i + 1} quotes words that are not in the sources it cites` };
    }
    sentences.push({ text: sentence.text.trim(), citations: [...new Set(cited.map((s) => s!.publicId))] });
  }
  return { ok: true, sentences };
}

export async function composeGenerative(
  settings: GenerativeSettings,
  question: string,
  sources: Source[],
): Promise<GenerativeOutcome> {
  if (sources.length === 0) return { ok: false, reason: "no source to compose from" };
  const client = new OpenAI({
    baseURL: settings.url,
    apiKey: settings.apiKey ?? "not-needed",
    timeout: settings.timeoutMs,
    maxRetries: 0,
  });
  const prompt = [
    `Question: ${question}`,
    ...sources.map((s, i) => `[S${i + 1}] ${s.publicId}\n${s.text}`),
  ].join("\n\n");
  let content: string | null | undefined;
  try {
    const completion = await client.chat.completions.create({
      model: settings.model,
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: prompt },
      ],
    });
    content = completion.choices[0]?.message?.content;
  } catch (error) {
    return { ok: false, reason: `the model did not answer (${(error as Error).name})` };
  }
  if (!content) return { ok: false, reason: "the model's reply is empty" };
  return checkReply(content, sources);
}
