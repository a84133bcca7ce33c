import { foldAccents } from "../core/public-ids.ts";
import { agreementMention, idccOf } from "../search/citations.ts";
import { type AgreementRow, listAgreementRows } from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";

/** The collective agreements loaded (issue 21): what list_agreements offers agents. */

export interface Agreement extends AgreementRow {
  idcc: string;
}

const fold = (text: string) => foldAccents(text).toLowerCase();

/**
 * The agreements loaded, by IDCC; with `query`, those it names (« IDCC 1486 », « Syntec »,
 * « convention collective des journalistes ») or whose IDCC, title, short title or usual names
 * hold all its words (« boulangerie », « travaux publics »).
 */
export async function listAgreements(db: Database, query?: string): Promise<Agreement[]> {
  const all = (await listAgreementRows(db))
    .map((row) => ({ ...row, idcc: idccOf(row.publicId)! }))
    .sort((a, b) => Number(a.idcc) - Number(b.idcc));
  const text = query?.trim();
  if (!text) return all;
  const named = agreementMention(text, all);
  if (named) return all.filter((a) => a.publicId === named.publicId);
  const words = fold(text)
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 || /\d/.test(w));
  return all.filter((a) => {
    const haystack = fold([a.idcc, a.title, a.shortTitle ?? "", ...a.aliases].join(" "));
    return words.every((w) => (/^\d+$/.test(w) ? a.idcc === String(Number(w)) : haystack.includes(w)));
  });
}
