import type { Principal } from "../access/keys.ts";
import type { SearchEngine } from "../search/engine.ts";
import { type SearchOutcome, type SearchRequest, searchProvisions } from "../search/service.ts";
import type { TitleClassifier } from "../search/title-classifier.ts";
import { documentPublicId } from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";
import { unknownDocument } from "./documents.ts";

/** Search as the API offers it: pages within these bounds, a document named by public or source id. */

export const MAX_SEARCH_LIMIT = 50;
export const MAX_SEARCH_OFFSET = 1000;

export async function searchCorpus(
  ctx: { db: Database; search: SearchEngine; titles: TitleClassifier },
  who: Principal,
  request: SearchRequest,
): Promise<SearchOutcome> {
  // An unknown document is a mistake to report, not a filter that finds nothing (as on changes).
  const document = request.document ? await documentPublicId(ctx.db, request.document) : undefined;
  if (request.document && !document) throw unknownDocument(request.document);
  return searchProvisions(ctx.search, who, { ...request, document }, ctx.titles);
}
